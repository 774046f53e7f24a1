// prunescope-cli check-rollouts / bench-rollouts: change propagation (sec. 5.2) and inside-outside
// (sec. 5.3) rollouts against naive reparsing — exactness on a whole treebank, and speed.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "core/eval/Evalb.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/parse/Parser.h"
#include "core/policy/GoldSpans.h"
#include "core/rollout/ChangePropagator.h"
#include "core/rollout/Rollout.h"
#include "core/treebank/Normalize.h"
#include "core/util/Clock.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>

namespace prunescope::cli {
namespace {

// Roll-in masks: "keep" (all spans), "random" (each span pruned with probability p), "gold" (only
// the spans of the binarized gold tree kept: what a good policy's roll-in looks like).
PruningMask makeMask(const std::string& kind, const Grammar& g, const Tree& gold, double pruneP,
                     std::mt19937& rng) {
    const int n = gold.size();
    if (kind == "keep") return PruningMask::allKeep(n);
    if (kind == "gold") return spanMask(binarizeLike(g, gold));
    if (kind != "random")
        throw std::invalid_argument("unknown mask kind '" + kind + "' (keep, random or gold)");
    PruningMask m = PruningMask::allKeep(n);
    std::bernoulli_distribution prune(pruneP);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            if (prune(rng)) m.set(i, i + w, false);
    return m;
}

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

// The roll-in mask kinds of --masks, refused up front (an unknown kind would otherwise go unnoticed
// when no sentence reaches makeMask) and never empty.
std::vector<std::string> maskKinds(const std::string& list) {
    std::vector<std::string> kinds = splitList(list);
    if (kinds.empty()) throw UsageError("--masks names no mask kind (keep, random or gold)");
    for (const auto& k : kinds)
        if (k != "keep" && k != "random" && k != "gold")
            throw std::invalid_argument("unknown mask kind '" + k + "' (keep, random or gold)");
    return kinds;
}

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

std::vector<Tree> loadSentences(const std::string& treebank, int minLen, int maxLen) {
    std::vector<Tree> out = readNormalizedTreebank(treebank);
    std::erase_if(out, [&](const Tree& t) { return t.size() < minLen || t.size() > maxLen; });
    return out;
}

void addCheck(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "check-rollouts",
        "Check CP and DP rollouts against naive reparsing on every flip of every sentence");
    struct Opts {
        std::string grammar, treebank, masks = "keep,random";
        int maxLen = 40, limit = 0;
        double pruneP = 0.4, tolerance = 1e-9;
        unsigned seed = 1;
        bool skipCp = false, skipDp = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file")->required();
    sub->add_option("--treebank", o->treebank,
                    "Gold treebank file or directory (e.g. the dev split)")
        ->required();
    sub->add_option("--max-len", o->maxLen, "Longest sentence to check")->capture_default_str();
    sub->add_option("--masks", o->masks, "Roll-in masks, comma-separated: keep, random, gold")
        ->capture_default_str();
    sub->add_option("--prune-fraction", o->pruneP, "Pruning probability of the random mask")
        ->capture_default_str();
    sub->add_option("--tolerance", o->tolerance, "Largest relative error allowed for DP")
        ->capture_default_str();
    sub->add_option("--seed", o->seed, "Seed of the random masks")->capture_default_str();
    addMaxSentencesOption(sub, o->limit, "the treebank", {"--limit"});
    sub->add_flag("--no-cp", o->skipCp, "Skip the change-propagation check");
    sub->add_flag("--no-dp", o->skipDp, "Skip the inside-outside check");
    setAction(sub, [o] {
        const Grammar g = loadGrammar(o->grammar);
        std::vector<Tree> trees = loadSentences(o->treebank, 3, o->maxLen);
        if (o->limit > 0 && static_cast<int>(trees.size()) > o->limit) trees.resize(o->limit);
        requireSentencesToEvaluate(trees.size(), o->treebank,
                                   o->maxLen); // "OK" on none is no check
        const auto kinds = maskKinds(o->masks);
        std::mt19937 rng(o->seed);
        Parser parser(g);
        long flips = 0, cpBad = 0, dpBad = 0, recomputed = 0, noBracketing = 0, failed = 0;
        double worst = 0;
        const auto start = std::chrono::steady_clock::now();
        ConsoleProgress console("check-rollouts", "step");
        const Progress& progress = console.progress();
        progress.begin("checking", static_cast<long>(trees.size()));
        for (std::size_t s = 0; s < trees.size(); ++s) {
            progress.throwIfCancelled();
            const Tree& t = trees[s];
            const auto words = t.words();
            const int n = static_cast<int>(words.size());
            for (const auto& kind : kinds) {
                const PruningMask m = makeMask(kind, g, t, o->pruneP, rng);
                auto report = [&](const char* what, int i, int k) {
                    std::cerr << "MISMATCH (" << what << ") sentence " << s << " n=" << n
                              << " mask " << kind << " flip (" << i << "," << k << ")\n";
                };
                if (!o->skipCp) {
                    // Both CP paths: ChangePropagator::flip (the full chart, as the GUI uses it)
                    // and changePropagationRollouts (probeFlip, as LOLS uses it), against the
                    // parser.
                    const auto rollouts =
                        changePropagationRollouts(RolloutRequest{&g, words, t, m, {}});
                    ChangePropagator cp(g, words, m);
                    cp.setGold(t);
                    const DenseChart original = cp.chart();
                    std::size_t q = 0;
                    for (int w = 2; w < n; ++w)
                        for (int i = 0; i + w <= n; ++i, ++q) {
                            const FlipResult r = cp.flip(i, i + w);
                            PruningMask f = m;
                            f.flip(i, i + w);
                            const ParseStats st = parser.parse(words, &f);
                            const Tree tree = bestTree(g, parser.chart(), words);
                            const double f1 = sentenceF1(t, tree);
                            const SpanRollout& ro = rollouts[q];
                            const bool flippedKeep = !ro.rollInKeep;
                            const bool rolloutOk =
                                (flippedKeep ? ro.accuracyKeep : ro.accuracyPrune) == f1 &&
                                (flippedKeep ? ro.runtimeKeep : ro.runtimePrune) ==
                                    static_cast<double>(st.constituents);
                            const bool ok = rolloutOk && bitIdentical(cp.chart(), parser.chart()) &&
                                            r.success == st.success && r.logProb == st.logProb &&
                                            r.tree == tree && r.f1 == f1 &&
                                            r.constituents == st.constituents &&
                                            r.pushes == st.pushes && r.spansKept == st.spansKept;
                            failed += !st.success;
                            cp.undo();
                            const bool undone =
                                bitIdentical(cp.chart(), original) && cp.mask() == m;
                            if (!ok) ++cpBad, report("CP after flip", i, i + w);
                            if (!undone) ++cpBad, report("CP after undo", i, i + w);
                            ++flips;
                        }
                }
                if (!o->skipDp) {
                    RolloutRequest req{&g, words, t, m, {}};
                    const auto a = naiveRollouts(req, Surrogate::DP);
                    DpRolloutStats stats;
                    const auto b = dpRollouts(req, &stats);
                    recomputed += stats.recomputed;
                    noBracketing += stats.noBracketing;
                    for (std::size_t q = 0; q < a.size(); ++q)
                        for (const auto& [x, y] :
                             {std::pair{a[q].accuracyKeep, b[q].accuracyKeep},
                              std::pair{a[q].accuracyPrune, b[q].accuracyPrune}}) {
                            const double err =
                                x == y ? 0.0 : std::abs(x - y) / std::max(std::abs(x), std::abs(y));
                            worst = std::max(worst, err);
                            if (err > o->tolerance || a[q].runtimeKeep != b[q].runtimeKeep ||
                                a[q].runtimePrune != b[q].runtimePrune)
                                ++dpBad, report("DP", a[q].i, a[q].k);
                        }
                    if (o->skipCp) flips += static_cast<long>(a.size());
                }
            }
            progress.advance();
            if ((s + 1) % 25 == 0)
                progress.log("  " + std::to_string(s + 1) + "/" + std::to_string(trees.size()) +
                             " sentences, " + std::to_string(flips) + " flips");
        }
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "sentences            " << trees.size() << " (3.." << o->maxLen << " words)\n"
                  << "masks                " << o->masks << "\n"
                  << "flips checked        " << flips
                  << (o->skipCp ? "" : " (" + std::to_string(failed) + " failed parses)") << "\n";
        if (!o->skipCp) std::cout << "CP mismatches        " << cpBad << "\n";
        if (!o->skipDp)
            std::cout << "DP mismatches        " << dpBad << " (worst relative error " << worst
                      << ", " << recomputed << " ill-conditioned flips recomputed, " << noBracketing
                      << " answered without a pass: no bracketing left)\n";
        std::cout << "seconds              " << std::fixed << std::setprecision(1) << secs << "\n";
        std::cout << ((cpBad + dpBad) == 0 ? "OK" : "FAILED") << "\n";
        return (cpBad + dpBad) == 0 ? 0 : 1;
    });
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

void addBench(CLI::App& app) {
    auto* sub =
        app.add_subcommand("bench-rollouts", "Time all T rollouts per sentence: naive vs change "
                                             "propagation (rCP) vs inside-outside (rDP)");
    struct Opts {
        std::string grammar, treebank, buckets = "1-10,11-20,21-30,31-40",
                                       masks = "keep,random,gold", only;
        int perBucket = 5, latencyLen = 40, latencySentences = 3;
        double pruneP = 0.4;
        unsigned seed = 1;
        bool json = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file")->required();
    sub->add_option("--treebank", o->treebank, "Treebank file or directory (e.g. the dev split)")
        ->required();
    sub->add_option("--buckets", o->buckets, "Length buckets lo-hi, comma-separated")
        ->capture_default_str();
    sub->add_option("--masks", o->masks, "Roll-in masks: keep, random, gold")
        ->capture_default_str();
    sub->add_option("--per-bucket", o->perBucket,
                    "Sentences per bucket (the first ones in the treebank)")
        ->capture_default_str();
    sub->add_option("--prune-fraction", o->pruneP, "Pruning probability of the random mask")
        ->capture_default_str();
    sub->add_option("--seed", o->seed, "Seed of the random masks")->capture_default_str();
    sub->add_option("--latency-len", o->latencyLen, "Sentence length for the single-flip latency")
        ->capture_default_str();
    sub->add_option("--latency-sentences", o->latencySentences,
                    "Sentences for the latency (0 = skip)")
        ->capture_default_str();
    sub->add_option("--only", o->only,
                    "Run just one method (naive-cp, cp, naive-dp, dp; no warm-up, no latency), "
                    "for timing whole processes from outside")
        ->check(CLI::IsMember({"naive-cp", "cp", "naive-dp", "dp"}));
    sub->add_flag("--json", o->json, "Print JSON");
    setAction(sub, [o] {
        const Grammar g = loadGrammar(o->grammar);
        const std::vector<std::string> kinds = maskKinds(o->masks);
        std::vector<std::pair<std::string, std::pair<int, int>>> buckets;
        for (const auto& bucket : splitList(o->buckets))
            buckets.emplace_back(bucket, parseBucket(bucket));
        if (buckets.empty()) throw UsageError("--buckets names no bucket (e.g. 1-10,11-20)");
        const std::vector<Tree> all = loadSentences(o->treebank, 3, kMaxSentenceLength);
        auto run = [&](const char* method) { return o->only.empty() || o->only == method; };
        if (!o->only.empty()) o->latencySentences = 0;
        nlohmann::json out = {{"rows", nlohmann::json::array()}};
        std::mt19937 rngWarm(o->seed);
        { // warm-up: the per-thread engines grow their buffers once, on the longest sentence
            const Tree* longest = nullptr;
            for (const Tree& t : all)
                if (t.size() <= 40 && (!longest || t.size() > longest->size())) longest = &t;
            if (longest && o->only.empty()) {
                RolloutRequest req{
                    &g, longest->words(), *longest, makeMask("gold", g, *longest, 0, rngWarm), {}};
                naiveRollouts(req, Surrogate::CP), changePropagationRollouts(req);
                naiveRollouts(req, Surrogate::DP),
                    dpRollouts(req); // a gold roll-in uses the exact fallback
            }
        }
        if (!o->json)
            std::cout << "mask    bucket  sent  mean_n  mean_T  naive_rCP_ms     CP_ms   CP_x  "
                         "naive_rDP_ms     DP_ms   DP_x"
                         "  (thread CPU ms per sentence)\n";
        for (const auto& kind : kinds) {
            std::mt19937 rng(o->seed);
            for (const auto& [bucket, range] : buckets) {
                const auto [lo, hi] = range;
                Timing naiveCp, cp, naiveDp, dp;
                int count = 0;
                long words = 0, spans = 0;
                for (const Tree& t : all) {
                    if (t.size() < lo || t.size() > hi) continue;
                    if (count == o->perBucket) break;
                    RolloutRequest req{&g, t.words(), t, makeMask(kind, g, t, o->pruneP, rng), {}};
                    if (run("naive-cp"))
                        naiveCp += timed([&] { naiveRollouts(req, Surrogate::CP); });
                    if (run("cp")) cp += timed([&] { changePropagationRollouts(req); });
                    if (run("naive-dp"))
                        naiveDp += timed([&] { naiveRollouts(req, Surrogate::DP); });
                    if (run("dp")) dp += timed([&] { dpRollouts(req); });
                    ++count, words += t.size(), spans += PruningMask::prunableCount(t.size());
                }
                if (count == 0) continue;
                const double c = count;
                nlohmann::json row = {{"mask", kind},
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
                                        {"dp", dp.wall}}}};
                out["rows"].push_back(row);
                if (!o->json)
                    std::cout << std::left << std::setw(8) << kind << std::setw(8) << bucket
                              << std::right << std::fixed << std::setw(4) << count
                              << std::setprecision(1) << std::setw(8) << words / c << std::setw(8)
                              << spans / c << std::setprecision(2) << std::setw(14)
                              << 1e3 * naiveCp.cpu / c << std::setw(10) << 1e3 * cp.cpu / c
                              << std::setprecision(1) << std::setw(7) << naiveCp.cpu / cp.cpu
                              << std::setprecision(2) << std::setw(14) << 1e3 * naiveDp.cpu / c
                              << std::setw(10) << 1e3 * dp.cpu / c << std::setprecision(1)
                              << std::setw(7) << naiveDp.cpu / dp.cpu << "\n";
            }
        }
        // Single-flip latency as the GUI sees it: flip + read the FlipResult (tree, F1, events) +
        // undo.
        std::vector<const Tree*> lat;
        for (const Tree& t : all)
            if (t.size() == o->latencyLen && static_cast<int>(lat.size()) < o->latencySentences)
                lat.push_back(&t);
        for (const auto& kind : kinds) {
            if (lat.empty() || o->latencySentences <= 0) break;
            std::mt19937 rng(o->seed);
            std::vector<double> wallMs, cpuMs;
            for (const Tree* t : lat) {
                ChangePropagator cp(g, t->words(), makeMask(kind, g, *t, o->pruneP, rng));
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
            }
            nlohmann::json l = {{"mask", kind},
                                {"length", o->latencyLen},
                                {"sentences", lat.size()},
                                {"flips", wallMs.size()},
                                {"medianMs", percentile(cpuMs, 0.5)},
                                {"p90Ms", percentile(cpuMs, 0.9)},
                                {"maxMs", percentile(cpuMs, 1.0)},
                                {"medianWallMs", percentile(wallMs, 0.5)}};
            out["latency"].push_back(l);
            if (!o->json)
                std::cout << "latency " << kind << " n=" << o->latencyLen << " (" << lat.size()
                          << " sentences, " << wallMs.size() << " flips): flip+result+undo median "
                          << std::setprecision(3) << percentile(cpuMs, 0.5) << " ms, p90 "
                          << percentile(cpuMs, 0.9) << " ms, max " << percentile(cpuMs, 1.0)
                          << " ms (CPU); median wall " << percentile(wallMs, 0.5) << " ms\n";
        }
        if (o->json) std::cout << out.dump(2) << "\n";
        return 0;
    });
}

} // namespace

void addRolloutCommands(CLI::App& app) {
    addCheck(app);
    addBench(app);
}

} // namespace prunescope::cli
