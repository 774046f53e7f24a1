// prunescope-cli baseline / frontier: the asymmetric-weighting baseline sweep (paper sec. 3, 7 ¬)
// with its dev frontier, footnote-12 lambdas and plot; refitting a run for another runtime measure
// (bench-features times the baseline's pieces: CmdBenchFeatures.cpp).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/cky/NumberArgument.h"
#include "core/frontier/FrontierFile.h"
#include "core/frontier/FrontierSvg.h"
#include "core/grammar/GrammarFile.h"
#include "core/policy/Baseline.h"
#include "core/policy/PolicyMask.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace prunescope::cli {
namespace {

namespace fs = std::filesystem;

std::string g4(double x) {
    char b[64];
    std::snprintf(b, sizeof b, "%.4g", x);
    return b;
}

void printTable(const FrontierData& d) {
    std::printf("%-18s %8s %7s %7s %9s %10s %8s %5s %9s %10s  %s\n", "policy", "weight", "F1",
                "sentF1", "mpush", "constit.", "spans", "fail", "words/s", "lambda",
                "lambda range (frontier *)");
    auto row = [](const std::string& id, const std::string& w, const nlohmann::json& m,
                  const std::string& lam, const std::string& range) {
        std::printf("%-18s %8s %7.2f %7.2f %9.5f %10.1f %8.1f %5d %9.0f %10s  %s\n", id.c_str(),
                    w.c_str(), 100 * m.value("f1", 0.0), 100 * m.value("averageSentenceF1", 0.0),
                    m.value("meanMpush", 0.0), m.value("meanConstituents", 0.0),
                    m.value("meanSpansKept", 0.0), m.value("failures", 0),
                    m.value("wordsPerSecond", 0.0), lam.c_str(), range.c_str());
    };
    if (d.unpruned.is_object()) row("unpruned", "-", d.unpruned, "-", "");
    for (const auto& e : d.points) {
        std::string range =
            e.lambdaRange.empty
                ? "-"
                : "[" + g4(e.lambdaRange.lo) + ", " +
                      (std::isinf(e.lambdaRange.hi) ? "inf" : g4(e.lambdaRange.hi)) + "]";
        if (e.onFrontier) range += " *";
        const auto w = e.training.find("positiveWeight");
        row(e.id, w != e.training.end() && w->is_number() ? g4(w->get<double>()) : "-", e.metrics,
            std::isfinite(e.lambda) ? g4(e.lambda) : "-", range);
    }
    if (d.fit)
        std::printf(
            "fit: h(x) = %.6g * sigmoid(%.6g * log(x + %.6g) + %.6g), mse %.4g; lambda in %s\n",
            d.fit->ymax, d.fit->a, d.fit->c, d.fit->b, d.fit->mse, d.lambdaUnit.c_str());
}

struct BaselineRunOptions {
    std::string grammar, train, dev, out, runtime = "mpush";
    std::vector<std::string> weights, l2 = {"2^-11", "2^-12", "2^-13", "2^-14", "2^-15"};
    int maxTrainLen = 40, devMaxLen = 40, trainSentences = 0,
        maxIterations = BaselineOptions{}.logreg.maxIterations;
    bool noWarmStart = false, force = false, quiet = false;
};

void declareBaselineOptions(CLI::App* sub, BaselineRunOptions& o) {
    sub->add_option("--grammar", o.grammar, "Grammar file")->required();
    sub->add_option("--train", o.train, "Training treebank (file or directory)")->required();
    sub->add_option("--dev", o.dev, "Development treebank: regularizer choice and the frontier")
        ->required();
    sub->add_option("--out", o.out, "Run directory to write")->required();
    sub->add_option("--weights", o.weights,
                    "Positive-class (keep) weights to sweep, comma separated "
                    "(default 2^-2,2^-1,...,2^8,2^10,2^12,2^14,2^16)")
        ->delimiter(',');
    sub->add_option("--l2", o.l2,
                    "Regularization coefficients to choose from on dev, comma separated")
        ->delimiter(',')
        ->capture_default_str();
    addMaxTrainLenOption(sub, o.maxTrainLen,
                         "Train on sentences with at most this many words (0 = all)");
    addMaxDevLenOption(sub, o.devMaxLen,
                       "Evaluate on dev sentences with at most this many words (0 = all)");
    addMaxTrainSentencesOption(sub, o.trainSentences, {"--train-sentences"});
    sub->add_option("--runtime", o.runtime,
                    "Runtime measure of the frontier and lambdas: mpush, constituents, spansKept")
        ->capture_default_str();
    addLbfgsMaxIterationsOption(sub, o.maxIterations, "L-BFGS iteration limit per policy",
                                {"--max-iterations"});
    sub->add_flag("--no-warm-start", o.noWarmStart,
                  "Train every weight from zero (default: from the previous weight's solution)");
    sub->add_flag("--force", o.force, "Overwrite an existing frontier.json in --out");
    addQuietOption(sub, o.quiet);
}

// Refuses an --out that holds a run (without --force) or is not a directory. The directory itself
// is made only when there is something to write: a bad input or a Ctrl-C during the sweep leaves
// none behind.
void checkRunDirectory(const fs::path& out, bool force) {
    if (fs::exists(out / "frontier.json") && !force)
        throw InputError((out / "frontier.json").string(), 0, 0,
                         "exists (use --force to overwrite the run)");
    if (fs::exists(out) && !fs::is_directory(out))
        throw InputError(out.string(), 0, 0, "exists and is not a directory");
}

BaselineOptions sweepOptions(const BaselineRunOptions& o) {
    BaselineOptions bo;
    if (!o.weights.empty()) {
        bo.positiveWeights.clear();
        for (const auto& w : o.weights)
            bo.positiveWeights.push_back(parseNumber(w, "--weights"));
    }
    bo.l2Grid.clear();
    for (const auto& l : o.l2)
        bo.l2Grid.push_back(parseNumber(l, "--l2"));
    bo.maxTrainLength = o.maxTrainLen;
    bo.maxDevLength = o.devMaxLen;
    bo.warmStart = !o.noWarmStart;
    bo.logreg.maxIterations = o.maxIterations;
    bo.grammarName = o.grammar;
    return bo;
}

// Every l2's sweep on dev: how the regularizer was chosen.
nlohmann::json l2SelectionJson(const BaselineRun& run) {
    nlohmann::json sel = nlohmann::json::array();
    for (const auto& sw : run.sweeps) {
        nlohmann::json pts = nlohmann::json::array();
        for (const auto& p : sw.points)
            pts.push_back({{"positiveWeight", p.positiveWeight},
                           {"f1", p.devMetrics.at("f1")},
                           {"meanMpush", p.devMetrics.at("meanMpush")},
                           {"meanSpansKept", p.devMetrics.at("meanSpansKept")},
                           {"lbfgsIterations", p.train.iterations},
                           {"trainSeconds", p.train.seconds}});
        sel.push_back({{"l2", sw.l2},
                       {"meanF1OverLogMpush", sw.hypervolume},
                       {"trainSeconds", sw.trainSeconds},
                       {"evalSeconds", sw.evalSeconds},
                       {"points", pts}});
    }
    return sel;
}

// The dev frontier of the chosen l2's sweep, refit for the runtime measure, with the run's record.
FrontierData baselineFrontier(const BaselineRun& run, const BaselineRunOptions& o,
                              const BaselineOptions& bo, RuntimeMeasure measure) {
    const BaselineSweep& best = run.best();
    FrontierData d;
    d.grammar = o.grammar;
    d.evaluation = {{"split", "dev"}, {"treebank", o.dev}, {"maxLength", o.devMaxLen}};
    if (run.unprunedDev.is_object() && run.unprunedDev.contains("sentences"))
        d.evaluation["sentences"] = run.unprunedDev["sentences"];
    d.unpruned = run.unprunedDev;
    for (const auto& p : best.points) {
        FrontierEntry e;
        e.id = p.policy.meta.name;
        e.policy = p.policy.meta.name + ".json";
        e.training = {{"positiveWeight", p.positiveWeight}, {"l2", best.l2}};
        e.metrics = p.devMetrics;
        d.points.push_back(std::move(e));
    }
    refitFrontier(d, measure);
    d.info = {{"kind", "baseline"},
              {"train",
               {{"treebank", o.train},
                {"maxLength", o.maxTrainLen},
                {"firstTrees", o.trainSentences},
                {"sentences", run.trainSentences},
                {"examples", run.trainExamples},
                {"goldExamples", run.trainPositives},
                {"featureSeconds", run.featureSeconds}}},
              {"chosenL2", best.l2},
              {"l2Selection", l2SelectionJson(run)},
              {"allPruned", run.allPrunedDev},
              {"warmStart", bo.warmStart}};
    return d;
}

// The policies (with their lambdas and dev metrics), frontier.json and frontier.svg.
void writeBaselineRun(const fs::path& out, const BaselineSweep& best, const FrontierData& d,
                      int devMaxLen) {
    fs::create_directories(out);
    for (size_t i = 0; i < best.points.size(); ++i) {
        Policy p = best.points[i].policy;
        p.meta.lambda = d.points[i].lambda;
        p.meta.lambdaUnit = d.lambdaUnit;
        p.meta.devMetrics = best.points[i].devMetrics;
        p.meta.devMetrics["split"] = "dev";
        p.meta.devMetrics["maxLength"] = devMaxLen;
        savePolicy(p, (out / d.points[i].policy).string());
    }
    saveFrontier(d, (out / "frontier.json").string());
    writeFrontierSvg(d, (out / "frontier.svg").string());
}

int runBaselineSweep(const BaselineRunOptions& o) {
    const RuntimeMeasure measure = runtimeMeasureFromName(o.runtime);
    const fs::path out(o.out);
    checkRunDirectory(out, o.force);
    Grammar g = loadGrammar(o.grammar);
    ConsoleProgress console("baseline", "point", o.quiet);
    const std::vector<Tree> train = readNormalizedTreebank(
        o.train, static_cast<std::size_t>(std::max(0, o.trainSentences)), console.progress());
    const std::vector<Tree> dev = readNormalizedTreebank(o.dev, 0, console.progress());
    const BaselineOptions bo = sweepOptions(o);
    BaselineRun run = runBaseline(g, train, dev, bo, console.progress());
    const BaselineSweep& best = run.best();
    const FrontierData d = baselineFrontier(run, o, bo, measure);
    writeBaselineRun(out, best, d, o.devMaxLen);
    printTable(d);
    std::cout << "chosen l2 = " << best.l2 << "; wrote " << best.points.size() << " policies, "
              << (out / "frontier.json").string() << " and " << (out / "frontier.svg").string()
              << "\n";
    return 0;
}

void addBaseline(CLI::App& app) {
    addCommand<BaselineRunOptions>(
        app, "baseline",
        "Train the asymmetric-weighting baseline sweep (one policy per positive-class weight), "
        "choose the "
        "regularizer on dev, write the policies, frontier.json and frontier.svg to --out",
        declareBaselineOptions, runBaselineSweep);
}

void addFrontier(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "frontier", "Refit and replot the frontier of a run directory (frontier.json), "
                    "optionally with another runtime measure");
    struct Opts {
        std::string run, runtime, svg;
        bool linearX = false, updatePolicies = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--run", o->run,
                    "Run directory holding frontier.json (or the frontier.json itself)")
        ->required();
    sub->add_option("--runtime", o->runtime,
                    "mpush, constituents or spansKept (default: keep the file's)");
    addOutSvgOption(sub, o->svg,
                    "Where to write the plot (default: frontier.svg next to frontier.json)",
                    {"--svg"});
    sub->add_flag("--linear-x", o->linearX, "Linear runtime axis (default: logarithmic)");
    sub->add_flag(
        "--update-policies", o->updatePolicies,
        "Also write each available policy's meta.lambda and meta.lambdaUnit from the refit");
    setAction(sub, [o] {
        fs::path file(o->run);
        if (fs::is_directory(file)) file /= "frontier.json";
        const std::string svg =
            o->svg.empty() ? (file.parent_path() / "frontier.svg").string() : o->svg;
        refuseToOverwriteInput(svg, {file.string()});
        FrontierData d = loadFrontier(file.string());
        for (const auto& e : d.points) {
            const std::string p = frontierPolicyPath(file.string(), e);
            if (!p.empty()) refuseToOverwriteInput(svg, {p});
            // A missing file may be back later (an unmounted disk, a sync in progress): the point
            // keeps its policy path; only --update-policies has to skip it.
            if (!p.empty() && !fs::exists(p))
                std::cerr << "warning: " << p << " not found (point '" << e.id
                          << "'); its policy path is kept\n";
        }
        refitFrontier(d,
                      o->runtime.empty() ? d.runtimeMeasure : runtimeMeasureFromName(o->runtime));
        saveFrontier(d, file.string());
        if (o->updatePolicies)
            for (const auto& e : d.points) {
                const std::string path = frontierPolicyPath(file.string(), e);
                if (path.empty() || !fs::exists(path)) continue;
                Policy p = loadPolicy(path);
                p.meta.lambda = e.lambda;
                p.meta.lambdaUnit = d.lambdaUnit;
                savePolicy(p, path);
            }
        FrontierSvgOptions po;
        po.logX = !o->linearX;
        writeFrontierSvg(d, svg, po);
        printTable(d);
        std::cout << "wrote " << file.string() << " and " << svg << "\n";
        return 0;
    });
}

} // namespace

void addBaselineCommand(CLI::App& app) {
    addBaseline(app);
    addFrontier(app);
    addBenchFeaturesCommand(app);
}

} // namespace prunescope::cli
