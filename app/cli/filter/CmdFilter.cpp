// prunescope-cli filter-train, filter-eval, filter-compare, filter-plot, filter-frontier: arc
// filters (Cherry & Bergsma 2011), their coverage/reduction and figures (docs/filters.md).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "core/dep/DepReader.h"
#include "core/filters/ArcFilterFile.h"
#include "core/filters/FilterEval.h"
#include "core/filters/FilterPlots.h"
#include "core/filters/IndependentTraining.h"
#include "core/filters/LatentSvmTraining.h"
#include "core/frontier/DepFrontierInputs.h"
#include "core/frontier/DepFrontierSvg.h"
#include "core/stats/Holm.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace prunescope::cli {

namespace {

nlohmann::json thresholdJson(double t) {
    return std::isinf(t) ? nlohmann::json("inf") : nlohmann::json(t);
}

nlohmann::json curveJson(const std::vector<CurvePoint>& c) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& p : c)
        a.push_back({{"threshold", thresholdJson(p.threshold)},
                     {"coverage", p.coverage},
                     {"reduction", p.reduction}});
    return a;
}

// Chooses the operating point on dev and records it in the filter.
void chooseOperatingPoint(ArcFilter& f, const std::vector<DepSentence>& dev, double coverage,
                          const Progress& progress) {
    const FilterMargins m = collectMargins(f, dev, progress);
    if (m.cancelled) throw Cancelled();
    f.threshold = thresholdForCoverage(m, coverage);
    const FilterCounts c = countsAt(m, f.threshold);
    f.training["operatingPoint"] = {{"targetCoverage", coverage},
                                    {"threshold", thresholdJson(f.threshold)},
                                    {"devCoverage", c.coverage()},
                                    {"devReduction", c.reduction()},
                                    {"devSentences", dev.size()}};
    f.training["devCurve"] = curveJson(coverageCurve(m));
}

void addFilterTrain(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "filter-train", "Train an arc filter (Cherry & Bergsma 2011): independent token-role SVMs "
                        "or the joint latent SVM; operating point chosen on dev");
    struct Opts {
        std::string kind = "joint", train, dev, out, init;
        double coverage = 0.995;
        int maxLen = 0;
        bool noVine = false, noNone = false, noRoot = false, quiet = false;
        IndependentFilterOptions ind;
        JointFilterOptions joint;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--kind", o->kind,
                    "independent (Bergsma & Cherry 2010 SVMs) or joint (latent SVM)")
        ->check(CLI::IsMember({"independent", "joint"}))
        ->capture_default_str();
    sub->add_option("--train", o->train, "Training treebank (file or directory)")->required();
    sub->add_option("--dev", o->dev, "Dev treebank: chooses the operating point")->required();
    sub->add_option("--out", o->out,
                    "Filter file to write (JSON, atomic; a cancelled joint run saves its finished "
                    "alternations with threshold inf)")
        ->required();
    sub->add_option("--coverage", o->coverage, "Coverage target of the operating point on dev")
        ->check(CLI::Range(0.5, 1.0))
        ->capture_default_str();
    sub->add_option("--hash-bits", o->ind.hashBits, "Weight table size 2^bits")
        ->check(CLI::Range(10, 24))
        ->capture_default_str();
    sub->add_option("--c-pos", o->ind.cPos, "Independent role SVMs: cost of a missed role")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--c-neg", o->ind.cNeg, "Independent role SVMs: cost of a false role")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--vine-c-pos", o->ind.vineCPos,
                    "Independent Vine SVM: cost of a missed filter")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--vine-c-neg", o->ind.vineCNeg,
                    "Independent Vine SVM: cost of filtering a gold arc")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--c0", o->joint.c0, "Joint: C_0, cost of a gold arc (eq. 2)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--c1", o->joint.c1, "Joint: C_1, cost of a non-gold arc (eq. 2)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--alternations", o->joint.maxAlternations,
                    "Joint: most latent-SVM alternations")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    sub->add_option("--solver-iterations", o->joint.solverIterations,
                    "Joint: L-BFGS iterations per convex step")
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
    sub->add_option("--init", o->init,
                    "Joint: start from this independent filter's token-role SVMs (same data and "
                    "options) instead of training them again");
    sub->add_flag("--no-vine", o->noVine, "Without the Vine event");
    sub->add_flag("--no-none", o->noNone,
                  "Joint without the None event's features (threshold fixed)");
    sub->add_flag("--no-root", o->noRoot, "Without the Root role");
    sub->add_option("--max-len", o->maxLen, "Skip training sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        refuseToOverwriteInput(o->out, {o->train, o->dev});
        const auto train = readDepTreebank(o->train, o->maxLen);
        const auto dev = readDepTreebank(o->dev);
        ConsoleProgress console("filter-train", "alternation", o->quiet);
        const Progress& progress = console.progress();
        const auto t0 = std::chrono::steady_clock::now();
        const FilterTrainingData data = prepareFilterTraining(train, progress);
        o->ind.useRoot = !o->noRoot;
        o->ind.useVine = !o->noVine;
        ArcFilter f;
        auto finish = [&](ArcFilter& g) {
            g.training["trainData"] = o->train;
            g.training["devData"] = o->dev;
            g.training["trainSentences"] = train.size();
            g.training["seconds"] =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            chooseOperatingPoint(g, dev, o->coverage, progress);
            saveArcFilter(g, o->out);
        };
        if (o->kind == "independent") {
            f = trainIndependentFilter(data, o->ind, progress);
            finish(f);
        } else {
            // The paper's initialization: token-role subclassifiers trained independently, Vine and
            // None at 0.
            IndependentFilterOptions init = o->ind;
            init.useVine = false;
            ArcFilter start;
            if (o->init.empty()) {
                start = trainIndependentFilter(data, init, progress);
            } else {
                start = loadArcFilter(o->init);
                if (start.kind != ArcFilterKind::Independent || start.hashBits != o->ind.hashBits)
                    throw InputError(o->init, 0, 0,
                                     "--init needs an independent filter with --hash-bits " +
                                         std::to_string(o->ind.hashBits));
                // Vine starts at 0 (sec. 4): clear its buckets (bias and every training tag pair);
                // a role weight sharing a bucket with them is cleared too (hash collisions, rare).
                start.weights[featureBucket(data.vineBias, start.hashBits)] = 0.0f;
                for (const auto& s : data.sentences)
                    for (const std::uint64_t k : s.vinePair)
                        start.weights[featureBucket(k, start.hashBits)] = 0.0f;
                start.useVine = false;
                start.training["initFrom"] = o->init;
            }
            o->joint.hashBits = o->ind.hashBits;
            o->joint.useRoot = !o->noRoot;
            o->joint.useVine = !o->noVine;
            o->joint.useNone = !o->noNone;
            auto each = [&](const JointTrainResult& r) {
                const auto& a = r.alternations.back();
                std::ostringstream line;
                line << "alternation " << a.alternation << ": objective " << std::setprecision(6)
                     << a.objectiveBefore << " -> " << a.objectiveAfter
                     << ", latent events changed " << a.changed << "/" << a.latent << ", "
                     << std::fixed << std::setprecision(1) << a.seconds << " s";
                progress.log(line.str());
            };
            JointTrainResult r = trainJointFilter(data, &start, o->joint, progress, each);
            if (r.alternations.empty()) throw Cancelled();
            f = r.filter;
            f.training["initialization"] = start.training;
            if (r.cancelled) { // keep the finished alternations; the operating point needs dev,
                               // which a cancel skips
                f.threshold = std::numeric_limits<double>::infinity();
                saveArcFilter(f, o->out);
                throw Cancelled();
            }
            finish(f);
        }
        const auto& op = f.training["operatingPoint"];
        std::cout << "wrote " << o->out << ": " << arcFilterKindName(f.kind)
                  << " filter, threshold " << op["threshold"].dump() << ", dev coverage "
                  << std::fixed << std::setprecision(4) << op["devCoverage"].get<double>()
                  << ", dev reduction " << op["devReduction"].get<double>() << "\n";
        return 0;
    });
}

void addFilterEval(CLI::App& app) {
    auto* sub =
        app.add_subcommand("filter-eval", "Coverage and reduction of an arc filter on a treebank "
                                          "(at its operating point, and the curve)");
    struct Opts {
        std::string filter, treebank;
        double coverage = 0;
        std::string threshold;
        int maxLen = 0;
        bool json = false, curve = false, perSentence = false, quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--filter", o->filter, "Arc filter file (filter-train)")->required();
    sub->add_option("--treebank", o->treebank, "Gold treebank (file or directory)")->required();
    sub->add_option("--coverage", o->coverage,
                    "Also report the threshold that reaches this coverage on THIS treebank "
                    "(diagnostic: an oracle operating point)")
        ->check(CLI::Range(0.5, 1.0));
    sub->add_option(
        "--threshold", o->threshold,
        "Evaluate at this threshold instead of the filter's operating point (a number or inf)");
    sub->add_flag("--curve", o->curve, "Add the coverage/reduction curve over the threshold");
    sub->add_flag("--per-sentence", o->perSentence,
                  "With --json: each sentence's counts at the operating point");
    sub->add_option("--max-len", o->maxLen, "Skip sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--json", o->json, "Print one JSON object (coverage, reduction, threshold, ...)");
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        const ArcFilter f = loadArcFilter(o->filter);
        const auto gold = readDepTreebank(o->treebank, o->maxLen);
        requireSentencesToEvaluate(gold.size(), o->treebank, o->maxLen);
        double th = f.threshold;
        if (!o->threshold.empty()) {
            if (o->threshold == "inf")
                th = std::numeric_limits<double>::infinity();
            else {
                try {
                    std::size_t used = 0;
                    th = std::stod(o->threshold, &used);
                    if (used != o->threshold.size() || !std::isfinite(th))
                        throw std::invalid_argument("x");
                } catch (const std::exception&) {
                    throw InputError("--threshold", 0, 0, "not a number or inf: " + o->threshold);
                }
            }
        }
        ConsoleProgress console("filter-eval", "step", o->quiet);
        const auto t0 = std::chrono::steady_clock::now();
        const FilterMargins m = collectMargins(f, gold, console.progress());
        if (m.cancelled) throw Cancelled();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const FilterCounts c = countsAt(m, th);
        nlohmann::json j = {{"filter", o->filter},
                            {"kind", arcFilterKindName(f.kind)},
                            {"treebank", o->treebank},
                            {"sentences", gold.size()},
                            {"threshold", thresholdJson(th)},
                            {"coverage", c.coverage()},
                            {"reduction", c.reduction()},
                            {"goldArcs", c.gold},
                            {"goldArcsKept", c.goldKept},
                            {"arcs", c.total},
                            {"arcsFiltered", c.filtered},
                            {"filterSeconds", seconds}};
        if (o->coverage > 0) {
            const double t = thresholdForCoverage(m, o->coverage);
            const FilterCounts k = countsAt(m, t);
            j["atCoverage"] = {{"target", o->coverage},
                               {"threshold", thresholdJson(t)},
                               {"coverage", k.coverage()},
                               {"reduction", k.reduction()}};
        }
        if (o->curve) j["curve"] = curveJson(coverageCurve(m));
        if (o->perSentence) {
            nlohmann::json a = nlohmann::json::array();
            for (const auto& s : perSentenceCounts(m, th))
                a.push_back({{"goldArcs", s.gold},
                             {"goldArcsKept", s.goldKept},
                             {"arcs", s.total},
                             {"arcsFiltered", s.filtered}});
            j["perSentence"] = a;
        }
        if (o->json) {
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << std::fixed << std::setprecision(4) << "sentences   " << gold.size()
                  << "\nthreshold   " << j["threshold"].dump() << "\ncoverage    " << c.coverage()
                  << "\nreduction   " << c.reduction() << "\n";
        if (o->curve)
            for (const auto& p : coverageCurve(m))
                std::cout << "curve: threshold " << p.threshold << "  coverage " << p.coverage
                          << "  reduction " << p.reduction << "\n";
        return 0;
    });
}

void addFilterCompare(CLI::App& app) {
    auto* sub =
        app.add_subcommand("filter-compare", "Paired permutation tests over sentences between "
                                             "filters at their operating points (Holm-corrected)");
    struct Opts {
        std::vector<std::string> pairs;
        std::string treebank;
        int permutations = 10000, maxLen = 0;
        std::uint64_t seed = 1;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--pair", o->pairs,
                    "A,B: two filter files to compare (repeatable; Holm over all pairs x "
                    "{reduction, coverage})")
        ->required();
    sub->add_option("--treebank", o->treebank, "Gold treebank")->required();
    sub->add_option("--permutations", o->permutations, "Permutation samples")
        ->check(CLI::Range(100, 10000000))
        ->capture_default_str();
    sub->add_option("--seed", o->seed, "Seed")->capture_default_str();
    sub->add_option("--max-len", o->maxLen, "Skip sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        const auto gold = readDepTreebank(o->treebank, o->maxLen);
        ConsoleProgress console("filter-compare", "pair", o->quiet);
        nlohmann::json rows = nlohmann::json::array();
        std::vector<double> ps;
        for (const auto& pair : o->pairs) {
            const auto comma = pair.find(',');
            if (comma == std::string::npos)
                throw InputError("--pair", 0, 0, "expected A,B: " + pair);
            const std::string a = pair.substr(0, comma), b = pair.substr(comma + 1);
            const ArcFilter fa = loadArcFilter(a), fb = loadArcFilter(b);
            const FilterMargins ma = collectMargins(fa, gold, console.progress());
            const FilterMargins mb = collectMargins(fb, gold, console.progress());
            if (ma.cancelled || mb.cancelled) throw Cancelled();
            const FilterComparison c =
                compareFilters(perSentenceCounts(ma, fa.threshold),
                               perSentenceCounts(mb, fb.threshold), o->permutations, o->seed);
            rows.push_back({{"a", a},
                            {"b", b},
                            {"reductionA", c.reductionA},
                            {"reductionB", c.reductionB},
                            {"coverageA", c.coverageA},
                            {"coverageB", c.coverageB},
                            {"pReduction", c.pReduction},
                            {"pCoverage", c.pCoverage},
                            {"permutations", c.permutations},
                            {"relativeReductionGain",
                             c.reductionB > 0 ? c.reductionA / c.reductionB - 1 : 0.0}});
            ps.push_back(c.pReduction);
            ps.push_back(c.pCoverage);
        }
        const std::vector<double> adj = holmAdjust(ps);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            rows[i]["pReductionHolm"] = adj[2 * i];
            rows[i]["pCoverageHolm"] = adj[2 * i + 1];
        }
        std::cout << nlohmann::json{{"treebank", o->treebank},
                                    {"sentences", gold.size()},
                                    {"seed", o->seed},
                                    {"comparisons", rows}}
                         .dump(2)
                  << "\n";
        return 0;
    });
}

void addFilterPlot(CLI::App& app) {
    auto* sub = app.add_subcommand("filter-plot", "SVG of the coverage/reduction curves of filters "
                                                  "over the threshold, operating points marked");
    struct Opts {
        std::vector<std::string> filters;
        std::string treebank, out, title;
        int maxLen = 0;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--filter", o->filters, "Filter file, optionally NAME=FILE (repeatable)")
        ->required();
    sub->add_option("--treebank", o->treebank, "Gold treebank")->required();
    sub->add_option("--out", o->out, "SVG file to write (atomic)")->required();
    sub->add_option("--title", o->title, "Figure title");
    sub->add_option("--max-len", o->maxLen, "Skip sentences longer than this (0 = none)")
        ->capture_default_str();
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        const auto gold = readDepTreebank(o->treebank, o->maxLen);
        ConsoleProgress console("filter-plot", "filter", o->quiet);
        std::vector<PlotSeries> series;
        for (const auto& spec : o->filters) {
            const auto eq = spec.find('=');
            const std::string name = eq == std::string::npos ? spec : spec.substr(0, eq);
            const std::string path = eq == std::string::npos ? spec : spec.substr(eq + 1);
            const ArcFilter f = loadArcFilter(path);
            const FilterMargins m = collectMargins(f, gold, console.progress());
            if (m.cancelled) throw Cancelled();
            PlotSeries s;
            s.name = name;
            for (const auto& p : coverageCurve(m))
                if (p.coverage >= 0.97) s.points.emplace_back(100 * p.coverage, 100 * p.reduction);
            const FilterCounts c = countsAt(m, f.threshold);
            s.marks.emplace_back(100 * c.coverage(), 100 * c.reduction());
            series.push_back(std::move(s));
        }
        writeFileAtomically(o->out,
                            coverageCurveSvg(series, o->title.empty()
                                                         ? "Arc filters: coverage vs reduction (" +
                                                               o->treebank + ")"
                                                         : o->title));
        std::cout << "wrote " << o->out << "\n";
        return 0;
    });
}

void addFilterFrontier(CLI::App& app) {
    auto* sub = app.add_subcommand("filter-frontier",
                                   "SVG of UAS against tokens/s from dep-eval --json outputs "
                                   "(filtered parsers and each model's exhaustive run)");
    struct Opts {
        std::vector<std::string> evals;
        std::string out, title;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--eval", o->evals, "NAME=FILE: a dep-eval --json output (repeatable)")
        ->required();
    sub->add_option("--out", o->out, "SVG file to write (atomic)")->required();
    sub->add_option("--title", o->title, "Figure title");
    setAction(sub, [o] {
        DepFrontier f;
        f.title = o->title.empty() ? "Dependency parsing frontier" : o->title;
        std::vector<DepEvalInput> runs;
        for (const auto& spec : o->evals)
            runs.push_back(parseDepEvalSpec(spec));
        addDepEvalSeries(f, runs);
        f.paretoLine =
            f.series.size() <= 2; // one final model: its pruned runs and its exhaustive run
        writeDepFrontierSvg(f, o->out);
        std::cout << "wrote " << o->out << "\n";
        return 0;
    });
}

} // namespace

void addFilterCommands(CLI::App& app) {
    addFilterTrain(app);
    addFilterEval(app);
    addFilterCompare(app);
    addFilterPlot(app);
    addFilterFrontier(app);
}

} // namespace prunescope::cli
