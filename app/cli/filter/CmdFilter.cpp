// prunescope-cli filter-eval, filter-compare, filter-plot, filter-frontier: arc filters (Cherry &
// Bergsma 2011), their coverage/reduction and figures (docs/filters.md; filter-train trains them:
// CmdFilterTrain.cpp).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/filter/FilterJson.h"
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
    addFilterTrainCommand(app);
    addFilterEval(app);
    addFilterCompare(app);
    addFilterPlot(app);
    addFilterFrontier(app);
}

} // namespace prunescope::cli
