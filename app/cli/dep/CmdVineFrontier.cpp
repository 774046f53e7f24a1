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

} // namespace

void addVineFrontierCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "vine-frontier",
        "The alpha frontier of a vine cascade on a treebank (UAS, arcs kept, tokens/s), the "
        "length-only vine, "
        "exhaustive baselines and a paired permutation test; JSON and an SVG figure");
    struct Opts {
        std::string model, firstModel, cascade, treebank, outJson, outSvg,
            title = "Vine cascade: alpha frontier";
        std::vector<double> grid{0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};
        std::vector<int> bands{1, 2, 3, 4, 6};
        int permutations = 10000;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--model", o->model, "The final (second-order) model")->required();
    sub->add_option("--first-order-model", o->firstModel,
                    "Also evaluate this first-order model exhaustively");
    sub->add_option("--cascade", o->cascade, "Vine cascade (vine-train)")->required();
    sub->add_option("--treebank", o->treebank, "Treebank (directory or file)")->required();
    sub->add_option(
           "--alpha-grid", o->grid,
           "Vine alphas of the frontier (the first-order stage stays at its dev-chosen alpha)")
        ->delimiter(',')
        ->check(CLI::Range(-1e6, 1.0))
        ->capture_default_str();
    sub->add_option("--length-bands", o->bands, "Bands of the length-only vine")
        ->delimiter(',')
        ->capture_default_str();
    sub->add_option("--permutations", o->permutations, "Paired permutation test draws")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    sub->add_option("--out-json", o->outJson, "Write every number here (JSON)")->required();
    sub->add_option("--out-svg", o->outSvg, "Write the figure here (SVG)");
    sub->add_option("--title", o->title, "Figure title");
    sub->add_flag("--quiet", o->quiet, "No progress on stderr");
    setAction(sub, [o] {
        const DepModel model = loadDepModel(o->model);
        const VineCascade c = loadVineCascade(o->cascade);
        const auto gold = readDepTreebank(o->treebank);
        requireSentencesToEvaluate(gold.size(), o->treebank, 0);
        ConsoleProgress console("vine-frontier", "point", o->quiet);
        const Progress& progress = console.progress();
        const int steps = 2 + static_cast<int>(o->grid.size() + o->bands.size()) +
                          (o->firstModel.empty() ? 0 : 1);
        int step = 0;
        auto eval = [&](DepPipeline& p, const std::string& what) {
            progress.setStep(++step, steps);
            DepCorpusResult r = evaluateDepCorpus(gold, p.decoder(), progress);
            progress.throwIfCancelled();
            std::ostringstream l;
            l << what << ": UAS " << std::fixed << std::setprecision(2) << r.total.uas()
              << "  arcs kept " << std::setprecision(4) << r.arcsKeptFraction() << "  tokens/s "
              << std::setprecision(0) << r.tokensPerSecond();
            progress.log(l.str());
            return r;
        };
        nlohmann::json out = {{"treebank", o->treebank},
                              {"model", o->model},
                              {"cascade", o->cascade},
                              {"chosenAlphas", c.alphas}};
        DepPipeline ex(model);
        const DepCorpusResult exhaustive = eval(ex, "exhaustive");
        out["exhaustive"] = pointJson(exhaustive);
        if (!o->firstModel.empty()) {
            const DepModel m1 = loadDepModel(o->firstModel);
            DepPipeline p1(m1);
            const DepCorpusResult r1 = eval(p1, "exhaustive first order");
            out["exhaustiveFirstOrder"] = pointJson(r1);
            out["firstOrderModel"] = o->firstModel;
        }
        DepPipeline chosen(model);
        appendCascadeStages(chosen, c, c.alphas);
        const DepCorpusResult cr = eval(chosen, "cascade at the dev-chosen alphas");
        out["chosen"] = pointJson(cr);
        const UasTestResult t =
            pairedUasPermutationTest(scores(cr), scores(exhaustive), o->permutations, 1);
        out["chosenVsExhaustive"] = {{"uasCascade", t.uasA},
                                     {"uasExhaustive", t.uasB},
                                     {"difference", t.difference},
                                     {"p", t.pValue},
                                     {"permutations", t.permutations}};
        nlohmann::json pts = nlohmann::json::array();
        for (double a : o->grid) {
            std::vector<double> alphas = c.alphas;
            alphas.front() = a;
            DepPipeline p(model);
            appendCascadeStages(p, c, alphas);
            const DepCorpusResult r = eval(p, "vine alpha " + std::to_string(a));
            nlohmann::json j = pointJson(r);
            j["alphas"] = alphas;
            pts.push_back(j);
        }
        out["frontier"] = pts;
        nlohmann::json lpts = nlohmann::json::array();
        for (int b : o->bands) {
            DepPipeline p(model);
            p.addStage(lengthVineStage(b));
            const DepCorpusResult r = eval(p, "length-only vine b=" + std::to_string(b));
            nlohmann::json j = pointJson(r);
            j["band"] = b;
            lpts.push_back(j);
        }
        out["lengthVine"] = lpts;
        writeFileAtomically(o->outJson, out.dump(2) + "\n");
        if (!o->outSvg.empty()) { // the figure is drawn from the JSON just written, as dep-frontier
                                  // draws it
            DepFrontier f;
            f.title = o->title;
            f.arcsPanel = true;
            addVineFrontierSeries(f, o->outJson);
            writeDepFrontierSvg(f, o->outSvg);
        }
        std::cout << std::fixed << std::setprecision(2) << "exhaustive UAS "
                  << exhaustive.total.uas() << ", cascade UAS " << cr.total.uas() << " (difference "
                  << t.difference << ", p = " << std::setprecision(4) << t.pValue << "), arcs kept "
                  << cr.arcsKeptFraction() << "\nwrote " << o->outJson
                  << (o->outSvg.empty() ? "" : " and " + o->outSvg) << "\n";
        return 0;
    });
}

} // namespace prunescope::cli
