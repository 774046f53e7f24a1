// prunescope-cli vine-train and dep-bench: the vine-pruning cascade (Rush & Petrov 2012) trained
// stage by stage with alpha chosen on dev, and its speed against exhaustive parsing.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/dep/DepPipelineOptions.h"
#include "core/dep/DepPipeline.h"
#include "core/dep/DepReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/Clock.h"
#include "core/util/Error.h"
#include "core/util/Spread.h"
#include "core/vine/CascadeTraining.h"
#include "core/vine/VineCascade.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

namespace prunescope::cli {

namespace {

struct DevPoint {
    double alpha = 0, uas = 0, arcsKept = 0, finalArcs = 0, tokensPerSecond = 0;
    nlohmann::json toJson() const {
        return {{"alpha", alpha},
                {"uas", uas},
                {"arcsKeptFraction", arcsKept},
                {"finalArcsFraction", finalArcs},
                {"tokensPerSecond", tokensPerSecond}};
    }
};

DevPoint evalDev(const DepModel& model, const VineCascade& c, std::span<const double> alphas,
                 const std::vector<DepSentence>& dev, const Progress& progress) {
    DepPipeline p(model);
    appendCascadeStages(p, c, alphas);
    const DepCorpusResult r = evaluateDepCorpus(dev, p.decoder(), progress);
    progress.throwIfCancelled();
    DevPoint d;
    d.alpha = alphas.empty() ? 0 : alphas.back();
    d.uas = r.total.uas();
    d.arcsKept = r.arcsKeptFraction();
    d.finalArcs = r.finalArcsFraction();
    d.tokensPerSecond = r.tokensPerSecond();
    return d;
}

void addVineTrain(CLI::App& app) {
    auto* sub = app.add_subcommand("vine-train",
                                   "Train a vine-pruning cascade (vine -> first-order) in front of "
                                   "a dependency model; alpha per stage chosen on dev");
    struct Opts {
        std::string model, train, dev, out, structure = "token";
        CascadeTrainOptions t;
        std::vector<double> grid{0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};
        double tolVine = 0.2, tolTotal = 0.3;
        int firstOrderEpochs = 0;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--model", o->model,
                    "The final-stage dependency model (from dep-train, usually --order 2)")
        ->required();
    sub->add_option("--train", o->train, "Training treebank (directory or file)")->required();
    sub->add_option("--dev", o->dev, "Dev treebank: chooses each stage's alpha")->required();
    sub->add_option("--out", o->out, "Cascade file to write (JSON, docs/file-formats.md)")
        ->required();
    sub->add_option("--band", o->t.band, "Vine band b: arcs of length <= b are vine arcs")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    sub->add_option("--vine-structure", o->structure,
                    "token: every token picks a vine head on its own (linear in n); tree: a "
                    "projective tree of short arcs "
                    "and vine arcs (Eisner & Smith 2005's vine grammar, O(n^2 b))")
        ->check(CLI::IsMember({"token", "tree"}))
        ->capture_default_str();
    sub->add_option("--train-alpha", o->t.alpha,
                    "alpha inside the training loss [1 - w.phi(y) + t_alpha]_+")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    sub->add_option("--epochs", o->t.epochs, "Training passes per stage")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--first-order-epochs", o->firstOrderEpochs,
                    "Passes for the first-order stage (0 = --epochs)")
        ->capture_default_str();
    sub->add_option("--hash-bits", o->t.hashBits, "Feature table size 2^bits per stage")
        ->check(CLI::Range(10, 26))
        ->capture_default_str();
    sub->add_option("--max-len", o->t.maxLength,
                    "Skip training sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_option("--seed", o->t.seed, "Seed of the sentence order")->capture_default_str();
    sub->add_option("--alpha-grid", o->grid, "alphas tried on dev, per stage (comma-separated)")
        ->delimiter(',')
        ->check(CLI::Range(-1e6, 1.0))
        ->capture_default_str();
    sub->add_option("--vine-tolerance", o->tolVine,
                    "Largest dev UAS loss (points) the vine stage may cost vs exhaustive")
        ->capture_default_str();
    sub->add_option("--tolerance", o->tolTotal,
                    "Largest dev UAS loss (points) of the whole cascade vs exhaustive")
        ->capture_default_str();
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        refuseToOverwriteInput(o->out, {o->model, o->train, o->dev});
        vineStructureFromName(o->structure, o->t.structure); // CLI11 checked the name
        const DepModel model = loadDepModel(o->model);
        const auto train = readDepTreebank(o->train);
        const auto dev = readDepTreebank(o->dev);
        if (train.empty()) throw InputError(o->train, 0, 0, "no training sentences");
        requireSentencesToEvaluate(dev.size(), o->dev, 0);
        if (o->grid.empty()) throw UsageError("--alpha-grid: no alphas");
        std::sort(o->grid.begin(), o->grid.end());
        ConsoleProgress console("vine-train", "epoch", o->quiet);
        const Progress& progress = console.progress();
        auto log = [&](const std::string& s) { progress.log(s); };
        std::ostringstream line;

        VineCascade c;
        c.singleRoot = model.singleRoot;
        c.finalModel = o->model;
        c.training = {{"trainData", o->train},
                      {"devData", o->dev},
                      {"alphaGrid", o->grid},
                      {"vineTolerance", o->tolVine},
                      {"tolerance", o->tolTotal},
                      {"trainAlpha", o->t.alpha},
                      {"vineStructure", o->structure},
                      {"maxLength", o->t.maxLength},
                      {"seed", o->t.seed}};
        DepPipeline exhaustive(model);
        const DepCorpusResult base = evaluateDepCorpus(dev, exhaustive.decoder(), progress);
        progress.throwIfCancelled();
        c.training["devExhaustive"] = {{"uas", base.total.uas()},
                                       {"tokensPerSecond", base.tokensPerSecond()}};
        log("exhaustive order-" + std::to_string(model.order) + " dev UAS " +
            std::to_string(base.total.uas()));

        auto trainStage = [&](CascadeStageKind kind,
                              const std::function<ArcMask(const DepSentence&)>& incoming) {
            CascadeTrainOptions t = o->t;
            t.kind = kind;
            t.singleRoot = model.singleRoot;
            if (kind == CascadeStageKind::FirstOrder && o->firstOrderEpochs > 0)
                t.epochs = o->firstOrderEpochs;
            const CascadeTrainResult r =
                trainCascadeStage(train, t, incoming, progress, [&](const CascadeTrainResult& rr) {
                    const auto& e = rr.epochs.back();
                    std::ostringstream l;
                    l << cascadeStageKindName(kind) << " epoch " << e.epoch << ": loss "
                      << std::setprecision(4) << e.loss << "  violations " << e.violations << "  "
                      << std::setprecision(3) << e.seconds << " s";
                    log(l.str());
                });
            if (r.epochs.empty()) throw Cancelled();
            VineCascadeStage s;
            s.kind = kind;
            s.name = cascadeStageKindName(kind);
            s.band = kind == CascadeStageKind::Vine ? t.band : 0;
            s.structure = t.structure;
            s.weights = r.weights;
            nlohmann::json ep = nlohmann::json::array();
            for (const auto& e : r.epochs)
                ep.push_back({{"epoch", e.epoch},
                              {"loss", e.loss},
                              {"violations", e.violations},
                              {"seconds", e.seconds}});
            s.training = {{"alpha", t.alpha},
                          {"epochs", ep},
                          {"hashBits", t.hashBits},
                          {"cancelled", r.cancelled}};
            return std::make_pair(s, r.cancelled);
        };
        auto chooseAlpha = [&](double floorUas, const char* what) {
            nlohmann::json pts = nlohmann::json::array();
            double chosen = o->grid.front();
            for (double a : o->grid) {
                std::vector<double> alphas = c.alphas;
                alphas.back() = a;
                const DevPoint d = evalDev(model, c, alphas, dev, progress);
                pts.push_back(d.toJson());
                std::ostringstream l;
                l << what << " alpha " << a << ": dev UAS " << std::fixed << std::setprecision(2)
                  << d.uas << "  arcs kept " << std::setprecision(4) << d.arcsKept
                  << "  final arcs " << d.finalArcs << "  tokens/s " << std::setprecision(0)
                  << d.tokensPerSecond;
                log(l.str());
                if (d.uas >= floorUas - 1e-9)
                    chosen = a; // grid ascending: the largest alpha within tolerance
            }
            return std::make_pair(chosen, pts);
        };

        // Stage 1: the vine, on every arc.
        auto [vine, vineCancelled] = trainStage(CascadeStageKind::Vine, {});
        c.stages.push_back(vine);
        c.alphas.push_back(o->grid.front());
        saveVineCascade(c, o->out);
        if (vineCancelled) return 0;
        auto [vineAlpha, vinePts] = chooseAlpha(base.total.uas() - o->tolVine, "vine");
        c.alphas.back() = vineAlpha;
        c.training["devVine"] = vinePts;
        saveVineCascade(c, o->out);

        // Stage 2: first-order, on the arcs the vine keeps at its chosen alpha.
        const VineCascade vineOnly = c;
        auto vineMask = [&vineOnly](const DepSentence& s) {
            const StageMarginals sm =
                cascadeStageMarginals(vineOnly, 0, s, ArcMask::allKeep(s.size()));
            return stageMask(sm, vineOnly.alphas[0], ArcMask::allKeep(s.size()));
        };
        auto [first, firstCancelled] = trainStage(CascadeStageKind::FirstOrder, vineMask);
        c.stages.push_back(first);
        c.alphas.push_back(-1e6); // keep-all until chosen
        if (firstCancelled) {
            saveVineCascade(c, o->out);
            return 0;
        }
        auto [firstAlpha, firstPts] = chooseAlpha(base.total.uas() - o->tolTotal, "first-order");
        c.alphas.back() = firstAlpha;
        c.training["devFirstOrder"] = firstPts;
        saveVineCascade(c, o->out);
        std::cout << "wrote " << o->out << ": vine (" << vineStructureName(o->t.structure)
                  << ") band " << o->t.band << " alpha " << vineAlpha << ", first-order alpha "
                  << firstAlpha << " (exhaustive dev UAS " << std::fixed << std::setprecision(2)
                  << base.total.uas() << ")\n";
        return 0;
    });
}

void addDepBench(CLI::App& app) {
    auto* sub = app.add_subcommand("dep-bench",
                                   "Dependency parsing speed: tokens/s and pushes/s, exhaustive vs "
                                   "pruned (min/median/max over interleaved repeats), "
                                   "and Eisner first-order pushes/s on one core");
    struct Opts {
        std::string model, treebank;
        DepStageOptions stages;
        int repeats = 5, maxLen = 0;
        bool json = false, quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--model", o->model, "Dependency model: the exact final parser")->required();
    sub->add_option("--treebank", o->treebank, "Treebank to parse (directory or file)")->required();
    addDepStageOptions(*sub, o->stages);
    sub->add_option("--repeats", o->repeats, "Interleaved passes per configuration")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--max-len", o->maxLen, "Skip sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--json", o->json, "Print one JSON object");
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        const DepModel model = loadDepModel(o->model);
        std::vector<DepSentence> gold = readDepTreebank(o->treebank, o->maxLen);
        requireSentencesToEvaluate(gold.size(), o->treebank, o->maxLen); // no table of zeros
        DepPipeline exhaustive(model), pruned(model);
        const nlohmann::json stageInfo = addDepStages(pruned, o->stages);
        const bool hasStages = !pruned.stages().empty();
        ConsoleProgress console("dep-bench", "repeat", o->quiet);
        const Progress& progress = console.progress();
        std::vector<double> exTok, exPush, prTok, prPush, foPush, speedup;
        double exUas = 0, prUas = 0, keptFrac = 1;
        long tokens = 0;
        for (const auto& s : gold)
            tokens += s.size();
        // Eisner first order alone (scores precomputed; only the chart's time is counted).
        std::vector<ArcScores> firstScores;
        for (const auto& s : gold)
            firstScores.push_back(DepScorer(model, s).arcScores());
        EisnerParser eisner(model.eisnerOptions());
        for (int r = 1; r <= o->repeats; ++r) {
            progress.setStep(r, o->repeats);
            const DepCorpusResult ex = evaluateDepCorpus(gold, exhaustive.decoder(), progress);
            progress.throwIfCancelled();
            exTok.push_back(ex.tokensPerSecond());
            exPush.push_back(ex.cpuSeconds > 0 ? static_cast<double>(ex.pushes) / ex.cpuSeconds
                                               : 0);
            exUas = ex.total.uas();
            if (hasStages) {
                const DepCorpusResult pr = evaluateDepCorpus(gold, pruned.decoder(), progress);
                progress.throwIfCancelled();
                prTok.push_back(pr.tokensPerSecond());
                prPush.push_back(pr.cpuSeconds > 0 ? static_cast<double>(pr.pushes) / pr.cpuSeconds
                                                   : 0);
                speedup.push_back(
                    ex.cpuSeconds > 0 && pr.cpuSeconds > 0 ? ex.cpuSeconds / pr.cpuSeconds : 0);
                prUas = pr.total.uas();
                keptFrac = pr.arcsKeptFraction();
            }
            const double t0 = threadCpuSeconds();
            long pushes = 0;
            for (const auto& sc : firstScores)
                pushes += eisner.parse(sc).stats.pushes;
            const double dt = threadCpuSeconds() - t0;
            foPush.push_back(dt > 0 ? static_cast<double>(pushes) / dt : 0);
        }
        nlohmann::json j = {
            {"sentences", gold.size()},
            {"tokens", tokens},
            {"repeats", o->repeats},
            {"modelOrder", model.order},
            {"exhaustive",
             {{"uas", exUas},
              {"tokensPerSecond", spreadJson(spreadOf(exTok))},
              {"pushesPerSecond", spreadJson(spreadOf(exPush))}}},
            {"eisnerFirstOrderPushesPerSecond", spreadJson(spreadOf(foPush))},
            {"chartBytesAt100Tokens",
             {{"order1", DepChart::bytesFor(100, 1)}, {"order2", DepChart::bytesFor(100, 2)}}}};
        if (hasStages)
            j["pruned"] = {{"stages", stageInfo},
                           {"uas", prUas},
                           {"arcsKeptFraction", keptFrac},
                           {"tokensPerSecond", spreadJson(spreadOf(prTok))},
                           {"pushesPerSecond", spreadJson(spreadOf(prPush))},
                           {"speedup", spreadJson(spreadOf(speedup))}};
        if (o->json) {
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        auto row = [](const char* name, const Spread& s) {
            std::cout << "| " << name << " | " << std::fixed << std::setprecision(0) << s.min
                      << " | " << s.median << " | " << s.max << " |\n";
        };
        std::cout << "| measure | min | median | max |\n|---|---|---|---|\n";
        row("exhaustive tokens/s", spreadOf(exTok));
        row("exhaustive pushes/s", spreadOf(exPush));
        if (hasStages) {
            row("pruned tokens/s", spreadOf(prTok));
            row("pruned pushes/s", spreadOf(prPush));
            const Spread sp = spreadOf(speedup);
            std::cout << "| speed-up (per repeat) | " << std::setprecision(2) << sp.min << " | "
                      << sp.median << " | " << sp.max << " |\n";
        }
        row("Eisner 1st-order pushes/s", spreadOf(foPush));
        std::cout << "chart memory at 100 tokens: " << DepChart::bytesFor(100, 1)
                  << " B (order 1), " << DepChart::bytesFor(100, 2) << " B (order 2)\n";
        std::cout << std::setprecision(2) << "UAS exhaustive " << exUas;
        if (hasStages)
            std::cout << ", pruned " << prUas << ", arcs kept (1st exact) " << std::setprecision(4)
                      << keptFrac;
        std::cout << "\n";
        return 0;
    });
}

} // namespace

void addVineCommands(CLI::App& app) {
    addVineTrain(app);
    addDepBench(app);
    addVineFrontierCommand(app);
}

} // namespace prunescope::cli
