// prunescope-cli vine-frontier: the alpha frontier of a vine cascade on one treebank (UAS vs arcs
// kept vs tokens/s), the length-only vine for comparison, the exhaustive parsers, and the paired
// permutation test of the cascade at its dev-chosen alphas against the exhaustive final model
// (Rush & Petrov 2012 sec. 6; the numbers of docs/results.md).
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "core/dep/DepPipeline.h"
#include "core/dep/DepReader.h"
#include "core/dep/UasSignificance.h"
#include "core/frontier/DepFrontierInputs.h"
#include "core/frontier/DepFrontierSvg.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/vine/VineCascade.h"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace prunescope::cli {

namespace {

nlohmann::json pointJson(const DepCorpusResult& r) {
    return {{"uas", r.total.uas()},
            {"uasWithPunct", r.total.uasWithPunct()},
            {"arcsKeptFraction", r.arcsKeptFraction()},
            {"finalArcsFraction", r.finalArcsFraction()},
            {"tokensPerSecond", r.tokensPerSecond()},
            {"pushes", r.pushes},
            {"fallbacks", r.fallbacks},
            {"sentences", r.sentences.size()}};
}

std::vector<AttachmentScore> scores(const DepCorpusResult& r) {
    std::vector<AttachmentScore> v;
    for (const auto& s : r.sentences)
        v.push_back(s.score);
    return v;
}

struct VineFrontierOptions {
    std::string model, firstModel, cascade, treebank, outJson, outSvg,
        title = "Vine cascade: alpha frontier";
    std::vector<double> grid{0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};
    std::vector<int> bands{1, 2, 3, 4, 6};
    int permutations = 10000;
    bool quiet = false;
};

void declareVineFrontierOptions(CLI::App* sub, VineFrontierOptions& o) {
    sub->add_option("--model", o.model, "The final (second-order) model")->required();
    sub->add_option("--first-order-model", o.firstModel,
                    "Also evaluate this first-order model exhaustively");
    sub->add_option("--cascade", o.cascade, "Vine cascade (vine-train)")->required();
    sub->add_option("--treebank", o.treebank, "Treebank (directory or file)")->required();
    sub->add_option(
           "--alpha-grid", o.grid,
           "Vine alphas of the frontier (the first-order stage stays at its dev-chosen alpha)")
        ->delimiter(',')
        ->check(CLI::Range(-1e6, 1.0))
        ->capture_default_str();
    sub->add_option("--length-bands", o.bands, "Bands of the length-only vine")
        ->delimiter(',')
        ->capture_default_str();
    sub->add_option("--permutations", o.permutations, "Paired permutation test draws")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--out-json", o.outJson, "Write every number here (JSON)")->required();
    sub->add_option("--out-svg", o.outSvg, "Write the figure here (SVG)");
    sub->add_option("--title", o.title, "Figure title");
    sub->add_flag("--quiet", o.quiet, "No progress on stderr");
}

// Evaluates pipelines on the treebank one frontier point after another, with the point's step
// and a log line on the progress.
class PointEvaluator {
  public:
    PointEvaluator(const std::vector<DepSentence>& gold, const Progress& progress, int steps)
        : gold_(gold), progress_(progress), steps_(steps) {}
    DepCorpusResult operator()(DepPipeline& p, const std::string& what) {
        progress_.setStep(++step_, steps_);
        DepCorpusResult r = evaluateDepCorpus(gold_, p.decoder(progress_.cancelFlag()), progress_);
        progress_.throwIfCancelled();
        std::ostringstream l;
        l << what << ": UAS " << std::fixed << std::setprecision(2) << r.total.uas()
          << "  arcs kept " << std::setprecision(4) << r.arcsKeptFraction() << "  tokens/s "
          << std::setprecision(0) << r.tokensPerSecond();
        progress_.log(l.str());
        return r;
    }

  private:
    const std::vector<DepSentence>& gold_;
    const Progress& progress_;
    int steps_, step_ = 0;
};

// The cascade with its vine stage at each alpha of the grid (the other stages at their own).
nlohmann::json alphaFrontier(PointEvaluator& eval, const DepModel& model, const VineCascade& c,
                             const std::vector<double>& grid) {
    nlohmann::json pts = nlohmann::json::array();
    for (double a : grid) {
        std::vector<double> alphas = c.alphas;
        alphas.front() = a;
        DepPipeline p(model);
        appendCascadeStages(p, c, alphas);
        nlohmann::json j = pointJson(eval(p, "vine alpha " + std::to_string(a)));
        j["alphas"] = alphas;
        pts.push_back(j);
    }
    return pts;
}

// The length-only vine at each band.
nlohmann::json lengthVinePoints(PointEvaluator& eval, const DepModel& model,
                                const std::vector<int>& bands) {
    nlohmann::json lpts = nlohmann::json::array();
    for (int b : bands) {
        DepPipeline p(model);
        p.addStage(lengthVineStage(b));
        nlohmann::json j = pointJson(eval(p, "length-only vine b=" + std::to_string(b)));
        j["band"] = b;
        lpts.push_back(j);
    }
    return lpts;
}

nlohmann::json uasTestJson(const UasTestResult& t) {
    return {{"uasCascade", t.uasA},
            {"uasExhaustive", t.uasB},
            {"difference", t.difference},
            {"p", t.pValue},
            {"permutations", t.permutations}};
}

// The figure, drawn from the JSON just written, as dep-frontier draws it.
void writeVineFrontierFigure(const VineFrontierOptions& o) {
    DepFrontier f;
    f.title = o.title;
    f.arcsPanel = true;
    addVineFrontierSeries(f, o.outJson);
    writeDepFrontierSvg(f, o.outSvg);
}

int runVineFrontier(const VineFrontierOptions& o) {
    const DepModel model = loadDepModel(o.model);
    const VineCascade c = loadVineCascade(o.cascade);
    const auto gold = readDepTreebank(o.treebank);
    requireSentencesToEvaluate(gold.size(), o.treebank, 0);
    ConsoleProgress console("vine-frontier", "point", o.quiet);
    PointEvaluator eval(gold, console.progress(),
                        2 + static_cast<int>(o.grid.size() + o.bands.size()) +
                            (o.firstModel.empty() ? 0 : 1));
    nlohmann::json out = {{"treebank", o.treebank},
                          {"model", o.model},
                          {"cascade", o.cascade},
                          {"chosenAlphas", c.alphas}};
    DepPipeline ex(model);
    const DepCorpusResult exhaustive = eval(ex, "exhaustive");
    out["exhaustive"] = pointJson(exhaustive);
    if (!o.firstModel.empty()) {
        const DepModel m1 = loadDepModel(o.firstModel);
        DepPipeline p1(m1);
        out["exhaustiveFirstOrder"] = pointJson(eval(p1, "exhaustive first order"));
        out["firstOrderModel"] = o.firstModel;
    }
    DepPipeline chosen(model);
    appendCascadeStages(chosen, c, c.alphas);
    const DepCorpusResult cr = eval(chosen, "cascade at the dev-chosen alphas");
    out["chosen"] = pointJson(cr);
    const UasTestResult t =
        pairedUasPermutationTest(scores(cr), scores(exhaustive), o.permutations, 1);
    out["chosenVsExhaustive"] = uasTestJson(t);
    out["frontier"] = alphaFrontier(eval, model, c, o.grid);
    out["lengthVine"] = lengthVinePoints(eval, model, o.bands);
    writeFileAtomically(o.outJson, out.dump(2) + "\n");
    if (!o.outSvg.empty()) writeVineFrontierFigure(o);
    std::cout << std::fixed << std::setprecision(2) << "exhaustive UAS " << exhaustive.total.uas()
              << ", cascade UAS " << cr.total.uas() << " (difference " << t.difference
              << ", p = " << std::setprecision(4) << t.pValue << "), arcs kept "
              << cr.arcsKeptFraction() << "\nwrote " << o.outJson
              << (o.outSvg.empty() ? "" : " and " + o.outSvg) << "\n";
    return 0;
}

} // namespace

void addVineFrontierCommand(CLI::App& app) {
    addCommand<VineFrontierOptions>(
        app, "vine-frontier",
        "The alpha frontier of a vine cascade on a treebank (UAS, arcs kept, tokens/s), the "
        "length-only vine, "
        "exhaustive baselines and a paired permutation test; JSON and an SVG figure",
        declareVineFrontierOptions, runVineFrontier);
}

} // namespace prunescope::cli
