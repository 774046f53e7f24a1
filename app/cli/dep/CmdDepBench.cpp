// prunescope-cli dep-bench: dependency parsing speed, exhaustive against behind pruning stages
// (min/median/max over interleaved repeats), and Eisner first-order pushes/s on one core.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/dep/DepPipelineOptions.h"
#include "core/dep/DepPipeline.h"
#include "core/dep/DepReader.h"
#include "core/util/Clock.h"
#include "core/util/Spread.h"

#include <iomanip>
#include <iostream>

namespace prunescope::cli {

namespace {

struct DepBenchOptions {
    std::string model, treebank;
    DepStageOptions stages;
    int repeats = 5, maxLen = 0;
    bool json = false, quiet = false;
};

void declareDepBenchOptions(CLI::App* sub, DepBenchOptions& o) {
    sub->add_option("--model", o.model, "Dependency model: the exact final parser")->required();
    sub->add_option("--treebank", o.treebank, "Treebank to parse (directory or file)")->required();
    addDepStageOptions(*sub, o.stages);
    sub->add_option("--repeats", o.repeats, "Interleaved passes per configuration")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--max-len", o.maxLen, "Skip sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--json", o.json, "Print one JSON object");
    sub->add_flag("--quiet", o.quiet, "No progress on stderr");
}

// One figure per repeat for each measure; the scores of the last repeat.
struct DepBenchTimes {
    std::vector<double> exTok, exPush, prTok, prPush, foPush, speedup;
    double exUas = 0, prUas = 0, keptFrac = 1;
};

double pushesPerSecond(const DepCorpusResult& r) {
    return r.cpuSeconds > 0 ? static_cast<double>(r.pushes) / r.cpuSeconds : 0;
}

// Interleaved repeats: exhaustive, pruned (with stages), then Eisner first order alone (scores
// precomputed; only the chart's time is counted).
DepBenchTimes timeRepeats(const DepModel& model, const std::vector<DepSentence>& gold,
                          DepPipeline& exhaustive, DepPipeline& pruned, int repeats,
                          const Progress& progress) {
    const bool hasStages = !pruned.stages().empty();
    DepBenchTimes t;
    std::vector<ArcScores> firstScores;
    for (const auto& s : gold)
        firstScores.push_back(DepScorer(model, s).arcScores());
    EisnerParser eisner(model.eisnerOptions());
    for (int r = 1; r <= repeats; ++r) {
        progress.setStep(r, repeats);
        const DepCorpusResult ex =
            evaluateDepCorpus(gold, exhaustive.decoder(progress.cancelFlag()), progress);
        progress.throwIfCancelled();
        t.exTok.push_back(ex.tokensPerSecond());
        t.exPush.push_back(pushesPerSecond(ex));
        t.exUas = ex.total.uas();
        if (hasStages) {
            const DepCorpusResult pr =
                evaluateDepCorpus(gold, pruned.decoder(progress.cancelFlag()), progress);
            progress.throwIfCancelled();
            t.prTok.push_back(pr.tokensPerSecond());
            t.prPush.push_back(pushesPerSecond(pr));
            t.speedup.push_back(
                ex.cpuSeconds > 0 && pr.cpuSeconds > 0 ? ex.cpuSeconds / pr.cpuSeconds : 0);
            t.prUas = pr.total.uas();
            t.keptFrac = pr.arcsKeptFraction();
        }
        const double t0 = threadCpuSeconds();
        long pushes = 0;
        for (const auto& sc : firstScores)
            pushes += eisner.parse(sc).stats.pushes;
        const double dt = threadCpuSeconds() - t0;
        t.foPush.push_back(dt > 0 ? static_cast<double>(pushes) / dt : 0);
    }
    return t;
}

nlohmann::json depBenchJson(const DepBenchTimes& t, const std::vector<DepSentence>& gold,
                            const DepModel& model, int repeats, const nlohmann::json* stageInfo) {
    long tokens = 0;
    for (const auto& s : gold)
        tokens += s.size();
    nlohmann::json j = {
        {"sentences", gold.size()},
        {"tokens", tokens},
        {"repeats", repeats},
        {"modelOrder", model.order},
        {"exhaustive",
         {{"uas", t.exUas},
          {"tokensPerSecond", spreadJson(spreadOf(t.exTok))},
          {"pushesPerSecond", spreadJson(spreadOf(t.exPush))}}},
        {"eisnerFirstOrderPushesPerSecond", spreadJson(spreadOf(t.foPush))},
        {"chartBytesAt100Tokens",
         {{"order1", DepChart::bytesFor(100, 1)}, {"order2", DepChart::bytesFor(100, 2)}}}};
    if (stageInfo)
        j["pruned"] = {{"stages", *stageInfo},
                       {"uas", t.prUas},
                       {"arcsKeptFraction", t.keptFrac},
                       {"tokensPerSecond", spreadJson(spreadOf(t.prTok))},
                       {"pushesPerSecond", spreadJson(spreadOf(t.prPush))},
                       {"speedup", spreadJson(spreadOf(t.speedup))}};
    return j;
}

// The Markdown table of min/median/max, then chart memory and the UAS line.
void printDepBenchTable(const DepBenchTimes& t, bool hasStages) {
    auto row = [](const char* name, const Spread& s) {
        std::cout << "| " << name << " | " << std::fixed << std::setprecision(0) << s.min << " | "
                  << s.median << " | " << s.max << " |\n";
    };
    std::cout << "| measure | min | median | max |\n|---|---|---|---|\n";
    row("exhaustive tokens/s", spreadOf(t.exTok));
    row("exhaustive pushes/s", spreadOf(t.exPush));
    if (hasStages) {
        row("pruned tokens/s", spreadOf(t.prTok));
        row("pruned pushes/s", spreadOf(t.prPush));
        const Spread sp = spreadOf(t.speedup);
        std::cout << "| speed-up (per repeat) | " << std::setprecision(2) << sp.min << " | "
                  << sp.median << " | " << sp.max << " |\n";
    }
    row("Eisner 1st-order pushes/s", spreadOf(t.foPush));
    std::cout << "chart memory at 100 tokens: " << DepChart::bytesFor(100, 1) << " B (order 1), "
              << DepChart::bytesFor(100, 2) << " B (order 2)\n";
    std::cout << std::setprecision(2) << "UAS exhaustive " << t.exUas;
    if (hasStages)
        std::cout << ", pruned " << t.prUas << ", arcs kept (1st exact) " << std::setprecision(4)
                  << t.keptFrac;
    std::cout << "\n";
}

int runDepBench(DepBenchOptions& o) {
    const DepModel model = loadDepModel(o.model);
    std::vector<DepSentence> gold = readDepTreebank(o.treebank, o.maxLen);
    requireSentencesToEvaluate(gold.size(), o.treebank, o.maxLen); // no table of zeros
    DepPipeline exhaustive(model), pruned(model);
    const nlohmann::json stageInfo = addDepStages(pruned, o.stages);
    const bool hasStages = !pruned.stages().empty();
    ConsoleProgress console("dep-bench", "repeat", o.quiet);
    const DepBenchTimes t =
        timeRepeats(model, gold, exhaustive, pruned, o.repeats, console.progress());
    if (o.json) {
        std::cout
            << depBenchJson(t, gold, model, o.repeats, hasStages ? &stageInfo : nullptr).dump(2)
            << "\n";
        return 0;
    }
    printDepBenchTable(t, hasStages);
    return 0;
}

} // namespace

void addDepBenchCommand(CLI::App& app) {
    addCommand<DepBenchOptions>(app, "dep-bench",
                                "Dependency parsing speed: tokens/s and pushes/s, exhaustive vs "
                                "pruned (min/median/max over interleaved repeats), "
                                "and Eisner first-order pushes/s on one core",
                                declareDepBenchOptions, runDepBench);
}

} // namespace prunescope::cli
