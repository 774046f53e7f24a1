// prunescope-cli bench-parse: CKY throughput (pushes/s) by sentence length, unpruned and pruned,
// and (--ideal) the ideal inner loop on the same grammar for the ratio to the hardware limit.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/parse/CkyIdealLoop.h"
#include "core/parse/Parser.h"
#include "core/policy/GoldSpans.h"
#include "core/stats/PowerLawFit.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/Clock.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>

namespace prunescope::cli {

namespace {
std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "unknown";
}
// ParsePhases as nanoseconds per push; `other` is set-up, lexical rules, ROOT and the timing's own
// reads.
nlohmann::json phasesJson(const ParsePhases& ph) {
    const double p = ph.pushes > 0 ? static_cast<double>(ph.pushes) : 1.0;
    const double timed = ph.itemBuild + ph.split + ph.direct + ph.finishCell;
    return {
        {"unit",
         "nanoseconds (steady clock) per push, over --repeat extra passes with phase timing on"},
        {"itemBuild", ph.itemBuild / p},
        {"split", ph.split / p},
        {"direct", ph.direct / p},
        {"finishCell", ph.finishCell / p},
        {"other", (ph.total - timed) / p},
        {"total", ph.total / p},
        {"pushes", ph.pushes},
        {"parses", ph.parses},
        {"cells", ph.cells},
        {"splits", ph.splits},
        {"directPasses", ph.directs},
        {"itemBuilds", ph.itemBuilds},
        {"itemsPerPush", ph.items / p}};
}
CkyKernel kernelFromName(const std::string& name) {
    for (CkyKernel k : {CkyKernel::Auto, CkyKernel::Portable, CkyKernel::Avx2, CkyKernel::Avx512})
        if (name == ckyKernelName(k)) return k;
    throw UsageError("--kernel must be auto, portable, avx2 or avx512");
}

struct BenchParseOptions {
    std::string grammar, treebank, mask = "all", kernel = "auto";
    int maxLen = 40, repeat = 3;
    double idealSeconds = 0.6;
    int memoryWords = 100;
    bool json = false, ideal = false, phases = false, quiet = false;
};

void declareBenchParseOptions(CLI::App* sub, BenchParseOptions& o) {
    sub->add_option("--grammar", o.grammar, "Grammar file")->required();
    sub->add_option("--treebank", o.treebank, "Treebank file or directory (its words are parsed)")
        ->required();
    sub->add_option(
           "--max-len", o.maxLen,
           "Longest sentence to include (default 40: the paper's sentences of at most 40 words)")
        ->capture_default_str();
    addRepeatsOption(sub, o.repeat, "Passes over the data (the best pass per bucket is reported)",
                     {"--repeat"});
    addRenamedOption(sub, o.mask, "--mask-kind",
                     "all or keep (exhaustive), gold (keep only the spans of the binarized gold "
                     "tree), or random:P (keep each span with probability P)",
                     {"--mask"})
        ->capture_default_str();
    addQuietOption(sub, o.quiet);
    sub->add_option("--kernel", o.kernel,
                    "CKY inner loop: auto (the widest this CPU supports), portable, avx2, avx512")
        ->capture_default_str();
    sub->add_flag("--ideal", o.ideal,
                  "Also time the ideal inner loop on the same grammar (docs/benchmarks.md)");
    sub->add_option("--ideal-seconds", o.idealSeconds, "Thread CPU seconds per ideal loop")
        ->capture_default_str();
    sub->add_option("--memory-words", o.memoryWords,
                    "Also parse one sentence of this many words (the treebank's words in order) "
                    "exhaustively and "
                    "report its chart + scratch memory (0 = skip)")
        ->check(CLI::Range(0, 1000))
        ->capture_default_str();
    sub->add_flag("--phases", o.phases,
                  "Also time the parser's phases (item build, split kernel, direct pass, finishing "
                  "cells) in --repeat "
                  "extra passes, and report nanoseconds per push for each (docs/benchmarks.md)");
    sub->add_flag("--json", o.json, "Print JSON");
}

// One pruning mask per sentence, as --mask-kind says: all (or keep, its name in check-rollouts),
// gold or random:P (a fixed seed).
std::vector<PruningMask> benchMasks(const Grammar& g, const std::vector<Tree>& gold,
                                    const std::string& kind) {
    const std::string mask = kind == "keep" ? "all" : kind;
    double keepP = -1;
    if (mask.rfind("random:", 0) == 0) {
        const std::string p = mask.substr(7);
        char* end = nullptr;
        keepP = std::strtod(p.c_str(), &end);
        if (p.empty() || *end != '\0' || !(keepP >= 0 && keepP <= 1))
            throw UsageError("--mask-kind random:P needs a probability P in [0, 1], got '" + p +
                             "'");
    } else if (mask != "all" && mask != "gold")
        throw UsageError("--mask-kind must be all (or keep), gold or random:P");
    std::mt19937 rng(12345);
    std::vector<PruningMask> masks;
    for (const auto& t : gold) {
        const int n = t.size();
        if (mask == "gold")
            masks.push_back(spanMask(binarizeLike(g, t)));
        else {
            PruningMask m = PruningMask::allKeep(n);
            if (keepP >= 0) {
                std::bernoulli_distribution keep(keepP);
                for (int w = 2; w < n; ++w)
                    for (int i = 0; i + w <= n; ++i)
                        m.set(i, i + w, keep(rng));
            }
            masks.push_back(std::move(m));
        }
    }
    return masks;
}

// Per length bucket of ten words: the best pass by thread CPU time, and the wall time of that pass.
struct Bucket {
    int sentences = 0;
    long words = 0, pushes = 0;
    double best = 1e300, wall = 0;
};
struct TimedPasses {
    std::vector<Bucket> buckets;
    // Per sentence: its length, pushes and least thread CPU time over the passes (the length fit).
    std::vector<double> lengths, pushes, seconds;
    std::size_t peakChart = 0, peakScratch = 0;
};

TimedPasses timePasses(Parser& parser, const std::vector<Tree>& gold,
                       const std::vector<PruningMask>& masks, int nb, int repeats,
                       const Progress& progress) {
    TimedPasses t;
    t.buckets.resize(static_cast<std::size_t>(nb));
    auto& buckets = t.buckets;
    t.seconds.assign(gold.size(), 1e300);
    t.pushes.assign(gold.size(), 0);
    for (const Tree& tree : gold)
        t.lengths.push_back(static_cast<double>(tree.size()));
    for (int rep = 0; rep < std::max(1, repeats); ++rep) {
        progress.setStep(rep + 1, std::max(1, repeats));
        progress.begin("parsing", static_cast<long>(gold.size()));
        std::vector<double> secs(nb, 0), wall(nb, 0);
        std::vector<long> pushes(nb, 0), words(nb, 0);
        std::vector<int> count(nb, 0);
        for (std::size_t s = 0; s < gold.size(); ++s) {
            auto w = gold[s].words();
            const int b = (static_cast<int>(w.size()) - 1) / 10;
            const double w0 = wallSeconds(), t0 = threadCpuSeconds();
            ParseStats st = parser.parse(w, &masks[s]);
            const double dt = threadCpuSeconds() - t0;
            secs[b] += dt;
            t.seconds[s] = std::min(t.seconds[s], dt);
            t.pushes[s] = static_cast<double>(st.pushes);
            wall[b] += wallSeconds() - w0;
            pushes[b] += st.pushes;
            words[b] += static_cast<long>(w.size());
            ++count[b];
            t.peakChart = std::max(t.peakChart, parser.chart().memoryBytes());
            t.peakScratch = std::max(t.peakScratch, parser.scratchBytes());
            progress.advance(); // outside the timed region
            progress.throwIfCancelled();
        }
        for (int b = 0; b < nb; ++b) {
            buckets[b].sentences = count[b];
            buckets[b].words = words[b];
            buckets[b].pushes = pushes[b];
            if (secs[b] < buckets[b].best) buckets[b].best = secs[b], buckets[b].wall = wall[b];
        }
    }
    return t;
}

// The bucket rows and the total line (text unless --json) and out's "buckets" and "total"; returns
// the total pushes per second of thread CPU time.
double reportBuckets(const TimedPasses& t, std::size_t sentences, const std::string& kernel,
                     bool json, nlohmann::json& out) {
    long tw = 0, tp = 0;
    double ts = 0, twall = 0;
    if (!json)
        std::cout << "length   sents   mpush/sent   pushes/s(M)   words/s     ms/sent   "
                     "(thread CPU time, kernel "
                  << kernel << ")\n";
    for (int b = 0; b < static_cast<int>(t.buckets.size()); ++b) {
        const auto& k = t.buckets[b];
        if (k.sentences == 0) continue;
        tw += k.words;
        tp += k.pushes;
        ts += k.best;
        twall += k.wall;
        const double pps = k.pushes / k.best, wps = k.words / k.best;
        out["buckets"].push_back({{"from", b * 10 + 1},
                                  {"to", b * 10 + 10},
                                  {"sentences", k.sentences},
                                  {"mpushPerSentence", k.pushes / 1e6 / k.sentences},
                                  {"pushesPerSecond", pps},
                                  {"wordsPerSecond", wps},
                                  {"msPerSentence", 1000 * k.best / k.sentences},
                                  {"wallPushesPerSecond", k.wall > 0 ? k.pushes / k.wall : 0}});
        if (!json)
            std::cout << std::setw(3) << b * 10 + 1 << "-" << std::setw(3) << std::left
                      << b * 10 + 10 << std::right << std::setw(7) << k.sentences << std::fixed
                      << std::setprecision(3) << std::setw(13) << k.pushes / 1e6 / k.sentences
                      << std::setprecision(1) << std::setw(14) << pps / 1e6 << std::setw(11) << wps
                      << std::setprecision(2) << std::setw(11) << 1000 * k.best / k.sentences
                      << "\n";
    }
    const double total = ts > 0 ? tp / ts : 0;
    out["total"] = {{"sentences", sentences},
                    {"pushesPerSecond", total},
                    {"wordsPerSecond", ts > 0 ? tw / ts : 0},
                    {"wallPushesPerSecond", twall > 0 ? tp / twall : 0},
                    {"peakChartMiB", t.peakChart / 1048576.0},
                    {"peakParserScratchMiB", t.peakScratch / 1048576.0}};
    out["totalMpushPerSecond"] = total / 1e6;
    if (!json)
        std::cout << "total: " << sentences << " sentences, " << std::setprecision(1) << total / 1e6
                  << " M pushes/s, " << (ts > 0 ? tw / ts : 0) << " words/s, peak chart "
                  << std::setprecision(1) << t.peakChart / 1048576.0 << " MiB, parser scratch "
                  << t.peakScratch / 1048576.0 << " MiB\n";
    return total;
}

// --phases: extra passes with phase timing on (its clock reads would slow the timed passes).
void reportPhases(Parser& parser, const std::vector<Tree>& gold,
                  const std::vector<PruningMask>& masks, const BenchParseOptions& o,
                  nlohmann::json& out) {
    ParsePhases ph;
    parser.setPhases(&ph);
    for (int rep = 0; rep < std::max(1, o.repeat); ++rep)
        for (std::size_t s = 0; s < gold.size(); ++s)
            parser.parse(gold[s].words(), &masks[s]);
    parser.setPhases(nullptr);
    out["phases"] = phasesJson(ph);
    if (o.json) return;
    const auto& j = out["phases"];
    std::cout << "phases, ns per push (one clock read pair per call): item build "
              << std::setprecision(2) << j["itemBuild"].get<double>() << ", split kernel "
              << j["split"].get<double>() << ", direct pass " << j["direct"].get<double>()
              << ", finishing cells " << j["finishCell"].get<double>() << ", other "
              << j["other"].get<double>() << ", total " << j["total"].get<double>()
              << "; items built per push " << std::setprecision(3)
              << j["itemsPerPush"].get<double>() << "\n";
}

// --memory-words: one long sentence made of the treebank's words in order (a real vocabulary mix):
// what a fresh parser holds after parsing it exhaustively (docs/benchmarks.md, memory budget).
void reportMemory(const Grammar& g, const std::vector<Tree>& gold, const BenchParseOptions& o,
                  nlohmann::json& out) {
    std::vector<std::string> words;
    for (std::size_t s = 0; words.size() < static_cast<std::size_t>(o.memoryWords);
         s = (s + 1) % gold.size())
        for (const auto& w : gold[s].words())
            if (words.size() < static_cast<std::size_t>(o.memoryWords)) words.push_back(w);
    Parser fresh(g, kernelFromName(o.kernel));
    const double t0 = threadCpuSeconds();
    const ParseStats st = fresh.parse(words, nullptr);
    const double secs = threadCpuSeconds() - t0;
    const double chartMiB = fresh.chart().memoryBytes() / 1048576.0,
                 scratchMiB = fresh.scratchBytes() / 1048576.0;
    out["memory"] = {{"words", o.memoryWords},
                     {"chartMiB", chartMiB},
                     {"parserScratchMiB", scratchMiB},
                     {"totalMiB", chartMiB + scratchMiB},
                     {"pushes", st.pushes},
                     {"seconds", secs}};
    if (!o.json)
        std::cout << "one " << o.memoryWords << "-word sentence, exhaustive: chart "
                  << std::setprecision(1) << chartMiB << " MiB + parser scratch " << scratchMiB
                  << " MiB = " << chartMiB + scratchMiB << " MiB (" << st.pushes / 1e6
                  << " M pushes, " << std::setprecision(2) << secs << " s)\n";
}

// --ideal: the ideal inner loop on the longest sentence, and the parser's ratio to it.
void reportIdealLoop(const Grammar& g, const std::vector<Tree>& gold, CkyKernel kernel,
                     double total, const BenchParseOptions& o, nlohmann::json& out) {
    const Tree* longest = nullptr;
    for (const Tree& t : gold)
        if (!longest || t.size() > longest->size()) longest = &t;
    if (!longest) throw std::invalid_argument("--ideal needs at least one sentence");
    const IdealLoopResult r = measureIdealLoop(g, longest->words(), kernel, o.idealSeconds);
    out["idealMpushPerSecond"] = r.withWitnessMpushPerSecond;
    out["ratioToIdeal"] =
        r.withWitnessMpushPerSecond > 0 ? total / 1e6 / r.withWitnessMpushPerSecond : 0;
    out["idealLoop"] = {{"withWitness", r.withWitnessMpushPerSecond},
                        {"withoutWitness", r.withoutWitnessMpushPerSecond},
                        {"parserKernel", r.kernelMpushPerSecond},
                        {"unit", "M pushes per second of thread CPU time"},
                        {"pushes", r.pushes},
                        {"cells", r.cells},
                        {"sentenceLength", longest->size()},
                        {"improvementRate", r.improvementRate},
                        {"rowsMatchParser", r.rowsMatchParser}};
    if (!o.json)
        std::cout << "ideal inner loop (same grammar, L1/L2-resident rows): "
                  << std::setprecision(1) << r.withWitnessMpushPerSecond
                  << " M pushes/s with witness, " << r.withoutWitnessMpushPerSecond
                  << " without; the parser's kernel on the same rows " << r.kernelMpushPerSecond
                  << "; parser total / ideal = " << std::setprecision(2)
                  << (r.withWitnessMpushPerSecond > 0 ? total / 1e6 / r.withWitnessMpushPerSecond
                                                      : 0)
                  << "; its rows are the parser's: " << (r.rowsMatchParser ? "yes" : "NO") << "\n";
}

// Cost per sentence by length: time ≈ c·n^k and pushes ≈ c'·n^k' by least squares on log–log
// (core/stats/PowerLawFit.h), over every timed sentence; out's "lengthFit" (absent with fewer
// than two distinct lengths).
void reportLengthFit(const TimedPasses& t, bool json, nlohmann::json& out) {
    PowerLawFit time, pushes;
    try {
        time = fitPowerLaw(t.lengths, t.seconds);
        pushes = fitPowerLaw(t.lengths, t.pushes);
    } catch (const std::invalid_argument&) {
        return; // one length only: no fit
    }
    out["lengthFit"] = {{"sentences", time.points},
                        {"timeExponent", time.exponent},
                        {"timeExponentStdErr", time.exponentStdErr},
                        {"timeR2", time.r2},
                        {"pushExponent", pushes.exponent},
                        {"pushExponentStdErr", pushes.exponentStdErr},
                        {"pushR2", pushes.r2}};
    if (!json)
        std::cout << std::fixed << std::setprecision(2) << "cost by length (" << time.points
                  << " sentences, least squares on log-log): time ~ n^" << time.exponent << " ± "
                  << time.exponentStdErr << " (R2 " << time.r2 << "), pushes ~ n^"
                  << pushes.exponent << " ± " << pushes.exponentStdErr << "\n";
}

int runBenchParse(const BenchParseOptions& o) {
    Grammar g = loadGrammar(o.grammar);
    std::vector<Tree> gold = readNormalizedTreebank(o.treebank);
    std::erase_if(gold, [&](const Tree& t) { return t.size() > o.maxLen; });
    const std::vector<PruningMask> masks = benchMasks(g, gold, o.mask);
    Parser parser(g, kernelFromName(o.kernel));
    const TimedPasses timed = [&] { // the progress line is cleared before the table is printed
        ConsoleProgress console("bench-parse", "pass", o.quiet);
        return timePasses(parser, gold, masks, (o.maxLen + 9) / 10, o.repeat, console.progress());
    }();
    nlohmann::json out = {
        {"grammar", o.grammar},
        {"mask", o.mask},
        {"kernel", ckyKernelName(parser.kernel())},
        {"cpu", cpuModel()},
        {"timing", "thread CPU time (CLOCK_THREAD_CPUTIME_ID), best of --repeat passes per bucket"},
        {"buckets", nlohmann::json::array()}};
    const double total =
        reportBuckets(timed, gold.size(), ckyKernelName(parser.kernel()), o.json, out);
    reportLengthFit(timed, o.json, out);
    if (o.phases) reportPhases(parser, gold, masks, o, out);
    if (o.memoryWords > 0 && !gold.empty()) reportMemory(g, gold, o, out);
    if (o.ideal) reportIdealLoop(g, gold, parser.kernel(), total, o, out);
    if (o.json) std::cout << out.dump(2) << "\n";
    if (out.contains("idealLoop") && !out["idealLoop"]["rowsMatchParser"].get<bool>()) {
        // The figures are printed, but the ratio is not to be trusted: the loops did other work.
        std::cerr << "error: the ideal loop did not rebuild the parser's rows of the cells it "
                     "timed, so "
                     "ratioToIdeal compares different work (a bug; please report it with this "
                     "command line)\n";
        return 1;
    }
    return 0;
}

} // namespace

void addBenchParseCommand(CLI::App& app) {
    addCommand<BenchParseOptions>(
        app, "bench-parse", "Benchmark CKY: pushes/second and words/second by sentence length",
        declareBenchParseOptions, runBenchParse);
}

} // namespace prunescope::cli
