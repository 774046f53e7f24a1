// prunescope-cli bench-rollouts: the time of all T rollouts per sentence, naive reparsing against
// change propagation (sec. 5.2) and inside-outside (sec. 5.3), and the single-flip latency.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/cky/RolloutInputs.h"
#include "core/grammar/GrammarFile.h"
#include "core/parse/Parser.h"
#include "core/rollout/ChangePropagator.h"
#include "core/rollout/InsideOutside.h"
#include "core/rollout/Rollout.h"
#include "core/util/Clock.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>

namespace prunescope::cli {
namespace {

// A length bucket "lo-hi" of --buckets, 1 <= lo <= hi.
std::pair<int, int> parseBucket(const std::string& spec) {
    const auto dash = spec.find('-');
    int lo = 0, hi = 0;
    const char* b = spec.data();
    const char* e = b + spec.size();
    const bool ok = dash != std::string::npos && std::from_chars(b, b + dash, lo).ptr == b + dash &&
                    dash > 0 && std::from_chars(b + dash + 1, e, hi).ptr == e &&
                    dash + 1 < spec.size() && lo >= 1 && lo <= hi;
    if (!ok)
        throw std::invalid_argument("bucket '" + spec +
                                    "' is not lo-hi with 1 <= lo <= hi (e.g. 11-20)");
    return {lo, hi};
}

struct Timing {
    double cpu = 0, wall = 0;
    Timing& operator+=(const Timing& o) {
        cpu += o.cpu, wall += o.wall;
        return *this;
    }
};
template <class F> Timing timed(F&& f) {
    const double c0 = threadCpuSeconds();
    const auto w0 = std::chrono::steady_clock::now();
    f();
    return Timing{threadCpuSeconds() - c0,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count()};
}
double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

struct BenchRolloutsOptions {
    std::string grammar, treebank, buckets = "1-10,11-20,21-30,31-40", masks = "keep,random,gold",
                                   only;
    int perBucket = 5, latencyLen = 40, latencySentences = 3, kernelRepeats = 3;
    double pruneP = 0.4;
    std::optional<double> cpWorkBudget; // unset: ChangePropagator's defaults
    unsigned seed = 1;
    bool json = false, quiet = false;
    bool runs(const char* method) const { return only.empty() || only == method; }
    bool kernels() const { return kernelRepeats > 0 && (only.empty() || only == "kernels"); }
};

void declareBenchRolloutsOptions(CLI::App* sub, BenchRolloutsOptions& o) {
    sub->add_option("--grammar", o.grammar, "Grammar file")->required();
    sub->add_option("--treebank", o.treebank, "Treebank file or directory (e.g. the dev split)")
        ->required();
    sub->add_option("--buckets", o.buckets, "Length buckets lo-hi, comma-separated")
        ->capture_default_str();
    sub->add_option("--masks", o.masks, "Roll-in masks: keep, random, gold")->capture_default_str();
    sub->add_option("--per-bucket", o.perBucket,
                    "Sentences per bucket (the first ones in the treebank)")
        ->capture_default_str();
    sub->add_option("--prune-fraction", o.pruneP, "Pruning probability of the random mask")
        ->capture_default_str();
    sub->add_option("--seed", o.seed, "Seed of the random masks")->capture_default_str();
    sub->add_option("--latency-len", o.latencyLen, "Sentence length for the single-flip latency")
        ->capture_default_str();
    sub->add_option("--latency-sentences", o.latencySentences,
                    "Sentences for the latency (0 = skip)")
        ->capture_default_str();
    sub->add_option("--only", o.only,
                    "Run just one method (naive-cp, cp, naive-dp, dp; no warm-up, no latency), "
                    "for timing whole processes from outside; 'kernels' runs only the kernel table")
        ->check(CLI::IsMember({"naive-cp", "cp", "naive-dp", "dp", "kernels"}));
    sub->add_option("--kernel-repeats", o.kernelRepeats,
                    "Kernel table: runs of the Viterbi parse, the inside pass and inside-outside "
                    "per sentence and roll-in mask (0 = skip the table)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000));
    addCpWorkBudgetOption(sub, o.cpWorkBudget);
    sub->add_flag("--json", o.json, "Print JSON");
    addQuietOption(sub, o.quiet);
}

// The per-thread engines grow their buffers once, on the longest sentence of at most 40 words.
void warmUp(const Grammar& g, const std::vector<Tree>& all, unsigned seed) {
    std::mt19937 rngWarm(seed);
    const Tree* longest = nullptr;
    for (const Tree& t : all)
        if (t.size() <= 40 && (!longest || t.size() > longest->size())) longest = &t;
    if (!longest) return;
    RolloutRequest req{
        &g, longest->words(), *longest, makeMask("gold", g, *longest, 0, rngWarm), {}};
    naiveRollouts(req, Surrogate::CP), changePropagationRollouts(req);
    naiveRollouts(req, Surrogate::DP), dpRollouts(req); // a gold roll-in uses the exact fallback
}

// One table row: the first --per-bucket sentences of the bucket under one roll-in mask kind.
// Appends to out["rows"] and prints it unless --json; nothing when the bucket has no sentence.
void benchBucket(const Grammar& g, const std::vector<Tree>& all, const std::string& kind,
                 const std::string& bucket, std::pair<int, int> range,
                 const BenchRolloutsOptions& o, std::mt19937& rng, nlohmann::json& out,
                 const Progress& progress, std::ostream& text) {
    const auto [lo, hi] = range;
    progress.begin("bucket " + bucket, o.perBucket);
    Timing naiveCp, cp, naiveDp, dp;
    int count = 0;
    long words = 0, spans = 0;
    for (const Tree& t : all) {
        if (t.size() < lo || t.size() > hi) continue;
        if (count == o.perBucket) break;
        RolloutRequest req{&g, t.words(), t, makeMask(kind, g, t, o.pruneP, rng), {}};
        req.cpWorkBudget = o.cpWorkBudget;
        if (o.runs("naive-cp")) naiveCp += timed([&] { naiveRollouts(req, Surrogate::CP); });
        if (o.runs("cp")) cp += timed([&] { changePropagationRollouts(req); });
        if (o.runs("naive-dp")) naiveDp += timed([&] { naiveRollouts(req, Surrogate::DP); });
        if (o.runs("dp")) dp += timed([&] { dpRollouts(req); });
        ++count, words += t.size(), spans += PruningMask::prunableCount(t.size());
        progress.advance();
        progress.throwIfCancelled();
    }
    if (count == 0) return;
    const double c = count;
    out["rows"].push_back({{"mask", kind},
                           {"bucket", bucket},
                           {"sentences", count},
                           {"meanLength", words / c},
                           {"meanT", spans / c},
                           {"naiveCpMs", 1e3 * naiveCp.cpu / c},
                           {"cpMs", 1e3 * cp.cpu / c},
                           {"cpSpeedup", naiveCp.cpu / cp.cpu},
                           {"naiveDpMs", 1e3 * naiveDp.cpu / c},
                           {"dpMs", 1e3 * dp.cpu / c},
                           {"dpSpeedup", naiveDp.cpu / dp.cpu},
                           {"wall",
                            {{"naiveCp", naiveCp.wall},
                             {"cp", cp.wall},
                             {"naiveDp", naiveDp.wall},
                             {"dp", dp.wall}}}});
    if (!o.json)
        text << std::left << std::setw(8) << kind << std::setw(8) << bucket << std::right
             << std::fixed << std::setw(4) << count << std::setprecision(1) << std::setw(8)
             << words / c << std::setw(8) << spans / c << std::setprecision(2) << std::setw(14)
             << 1e3 * naiveCp.cpu / c << std::setw(10) << 1e3 * cp.cpu / c << std::setprecision(1)
             << std::setw(7) << naiveCp.cpu / cp.cpu << std::setprecision(2) << std::setw(14)
             << 1e3 * naiveDp.cpu / c << std::setw(10) << 1e3 * dp.cpu / c << std::setprecision(1)
             << std::setw(7) << naiveDp.cpu / dp.cpu << "\n";
}

// The kernels under one roll-in mask, on the same sentences as benchBucket: one Viterbi parse
// (Parser::parse), one inside pass (InsideOutside::inside, what naive rDP runs per flip) and one
// inside-outside pass (InsideOutside::run, what DP runs once per sentence), each --kernel-repeats
// times in turn; thread CPU ms per sentence and run.
void benchKernels(const Grammar& g, const std::vector<Tree>& all, const std::string& kind,
                  const std::string& bucket, std::pair<int, int> range,
                  const BenchRolloutsOptions& o, std::mt19937& rng, nlohmann::json& out,
                  std::ostream& text) {
    const auto [lo, hi] = range;
    Parser parser(g);
    InsideOutside io(g);
    Timing viterbi, inside, both;
    long pushes = 0;
    int count = 0;
    for (const Tree& t : all) {
        if (t.size() < lo || t.size() > hi) continue;
        if (count == o.perBucket) break;
        const PruningMask mask = makeMask(kind, g, t, o.pruneP, rng);
        const RecallGold gold = recallGold(g, t);
        const std::vector<std::string> words = t.words();
        parser.parse(words, &mask), io.run(words, mask, gold); // first use of memory, untimed
        for (int r = 0; r < o.kernelRepeats; ++r) {
            viterbi += timed([&] { pushes += parser.parse(words, &mask).pushes; });
            inside += timed([&] { io.inside(words, mask, gold); });
            both += timed([&] { io.run(words, mask, gold); });
        }
        ++count;
    }
    if (count == 0) return;
    const double runs = static_cast<double>(count) * o.kernelRepeats;
    out["kernels"].push_back({{"mask", kind},
                              {"bucket", bucket},
                              {"sentences", count},
                              {"repeats", o.kernelRepeats},
                              {"viterbiPushes", pushes / runs},
                              {"viterbiMs", 1e3 * viterbi.cpu / runs},
                              {"insideMs", 1e3 * inside.cpu / runs},
                              {"insideOutsideMs", 1e3 * both.cpu / runs},
                              {"insideOverViterbi", inside.cpu / viterbi.cpu}});
    if (!o.json)
        text << std::left << std::setw(8) << kind << std::setw(8) << bucket << std::right
             << std::fixed << std::setw(4) << count << std::setprecision(0) << std::setw(12)
             << pushes / runs << std::setprecision(3) << std::setw(12) << 1e3 * viterbi.cpu / runs
             << std::setw(12) << 1e3 * inside.cpu / runs << std::setw(12) << 1e3 * both.cpu / runs
             << std::setprecision(2) << std::setw(10) << inside.cpu / viterbi.cpu << "\n";
}

// Single-flip latency as the GUI sees it: flip + read the FlipResult (tree, F1, events) + undo,
// on every flip of the --latency-sentences sentences of --latency-len words.
void benchLatency(const Grammar& g, const std::vector<const Tree*>& lat, const std::string& kind,
                  const BenchRolloutsOptions& o, nlohmann::json& out, const Progress& progress,
                  std::ostream& text) {
    std::mt19937 rng(o.seed);
    progress.begin("latency " + kind, static_cast<long>(lat.size()));
    std::vector<double> wallMs, cpuMs;
    long recomputed = 0;
    for (const Tree* t : lat) {
        ChangePropagator cp(g, t->words(), makeMask(kind, g, *t, o.pruneP, rng));
        cp.setWorkBudget(o.cpWorkBudget.value_or(ChangePropagator::kDefaultWorkBudget));
        cp.setGold(*t);
        const int n = t->size();
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i) {
                const Timing tm = timed([&] {
                    const FlipResult r = cp.flip(i, i + w);
                    cp.undo();
                });
                wallMs.push_back(1e3 * tm.wall), cpuMs.push_back(1e3 * tm.cpu);
            }
        recomputed += cp.recomputedFlips();
        progress.advance();
        progress.throwIfCancelled();
    }
    out["latency"].push_back(
        {{"mask", kind},
         {"length", o.latencyLen},
         {"sentences", lat.size()},
         {"flips", wallMs.size()},
         {"medianMs", percentile(cpuMs, 0.5)},
         {"p90Ms", percentile(cpuMs, 0.9)},
         {"p99Ms", percentile(cpuMs, 0.99)},
         {"maxMs", percentile(cpuMs, 1.0)},
         {"cpWorkBudget", o.cpWorkBudget.value_or(ChangePropagator::kDefaultWorkBudget)},
         {"recomputedFlips", recomputed},
         {"medianWallMs", percentile(wallMs, 0.5)}});
    if (!o.json)
        text << "latency " << kind << " n=" << o.latencyLen << " (" << lat.size() << " sentences, "
             << wallMs.size() << " flips): flip+result+undo median " << std::setprecision(3)
             << percentile(cpuMs, 0.5) << " ms, p90 " << percentile(cpuMs, 0.9) << " ms, p99 "
             << percentile(cpuMs, 0.99) << " ms, max " << percentile(cpuMs, 1.0)
             << " ms (CPU); median wall " << percentile(wallMs, 0.5) << " ms; " << recomputed
             << " flips recomputed (work budget "
             << o.cpWorkBudget.value_or(ChangePropagator::kDefaultWorkBudget) << ")\n";
}

int runBenchRollouts(BenchRolloutsOptions o) {
    const Grammar g = loadGrammar(o.grammar);
    const std::vector<std::string> kinds = maskKinds(o.masks);
    std::vector<std::pair<std::string, std::pair<int, int>>> buckets;
    for (const auto& bucket : splitFlagList(o.buckets))
        buckets.emplace_back(bucket, parseBucket(bucket));
    if (buckets.empty()) throw UsageError("--buckets names no bucket (e.g. 1-10,11-20)");
    const std::vector<Tree> all = loadSentences(o.treebank, 3, kMaxSentenceLength);
    if (!o.only.empty()) o.latencySentences = 0;
    nlohmann::json out = {{"rows", nlohmann::json::array()}};
    if (o.only.empty()) warmUp(g, all, o.seed);
    // The table is printed once the work is done: rows printed as they come would mix with the
    // progress line on a terminal.
    std::ostringstream text;
    if (!o.json && o.only != "kernels")
        text << "mask    bucket  sent  mean_n  mean_T  naive_rCP_ms     CP_ms   CP_x  "
                "naive_rDP_ms     DP_ms   DP_x"
                "  (thread CPU ms per sentence)\n";
    auto console = std::make_unique<ConsoleProgress>("bench-rollouts", "mask", o.quiet);
    const Progress& progress = console->progress();
    for (std::size_t k = 0; k < kinds.size() && o.only != "kernels"; ++k) {
        progress.setStep(static_cast<int>(k) + 1, static_cast<int>(kinds.size()));
        std::mt19937 rng(o.seed);
        for (const auto& [bucket, range] : buckets)
            benchBucket(g, all, kinds[k], bucket, range, o, rng, out, progress, text);
    }
    if (o.kernels()) {
        if (!o.json)
            text << "\nmask    bucket  sent      pushes  viterbi_ms   inside_ms  in+out_ms  "
                    "in/vit  (thread CPU ms per sentence and run)\n";
        for (const auto& kind : kinds) {
            std::mt19937 rng(o.seed); // the same masks as the rollout rows
            for (const auto& [bucket, range] : buckets)
                benchKernels(g, all, kind, bucket, range, o, rng, out, text);
        }
    }
    std::vector<const Tree*> lat;
    for (const Tree& t : all)
        if (t.size() == o.latencyLen && static_cast<int>(lat.size()) < o.latencySentences)
            lat.push_back(&t);
    if (!lat.empty() && o.latencySentences > 0)
        for (const auto& kind : kinds)
            benchLatency(g, lat, kind, o, out, progress, text);
    console.reset(); // clears the progress line
    if (o.json)
        std::cout << out.dump(2) << "\n";
    else
        std::cout << text.str();
    return 0;
}

} // namespace

void addBenchRolloutsCommand(CLI::App& app) {
    addCommand<BenchRolloutsOptions>(app, "bench-rollouts",
                                     "Time all T rollouts per sentence: naive vs change "
                                     "propagation (rCP) vs inside-outside (rDP)",
                                     declareBenchRolloutsOptions, runBenchRollouts);
}

} // namespace prunescope::cli
