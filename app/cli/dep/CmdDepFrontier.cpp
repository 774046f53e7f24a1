// prunescope-cli dep-frontier: one speed/accuracy frontier for the dependency mode (issue 13):
// the vine cascade's alpha sweep and the length-only vine (vine-frontier JSON, Rush & Petrov 2012
// sec. 6), parsers behind arc filters at first and second order (dep-eval --json, Cherry &
// Bergsma 2011 sec. 5), and every model's exhaustive parser, on one plot
// (core/frontier/DepFrontier*).
#include "app/cli/Commands.h"
#include "core/frontier/DepFrontier.h"
#include "core/frontier/DepFrontierInputs.h"
#include "core/frontier/DepFrontierSvg.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <iostream>
#include <set>

namespace prunescope::cli {

void addDepFrontierCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "dep-frontier", "One UAS vs tokens/s plot from vine-frontier JSON and dep-eval --json "
                        "outputs (vine sweeps, filtered "
                        "parsers, each model's exhaustive parser); SVG and the combined JSON");
    struct Opts {
        std::vector<std::string> vines, evals;
        std::string out, outJson, frontier,
            title = "Dependency parsing: one speed/accuracy frontier";
        bool zoom = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--vine", o->vines, "A vine-frontier --out-json file (repeatable)");
    sub->add_option(
        "--eval", o->evals,
        "NAME=FILE: a dep-eval --json output (repeatable); runs are grouped by their model, "
        "and each model needs one run without pruning stages (its exhaustive reference)");
    sub->add_option("--out", o->out, "SVG file to write (atomic)")->required();
    sub->add_option(
        "--out-json", o->outJson,
        "Also write the combined frontier (format prunescope-dep-frontier, for the GUI)");
    sub->add_option("--frontier", o->frontier,
                    "A combined frontier (an earlier --out-json, format prunescope-dep-frontier) "
                    "to plot again, on its own: its "
                    "title and zoom panel are kept unless --title or --zoom is given");
    auto* titleOption = sub->add_option("--title", o->title, "Figure title")->capture_default_str();
    sub->add_flag("--zoom", o->zoom,
                  "Add a panel zoomed on UAS >= the lowest exhaustive parser's - 1.5 (when a sweep "
                  "reaches far lower)");
    setAction(sub, [o, titleOption] {
        if (o->vines.empty() && o->evals.empty() && o->frontier.empty())
            throw InputError("dep-frontier", 0, 0,
                             "give at least one --vine or --eval, or a --frontier to plot again");
        if (!o->frontier.empty() && (!o->vines.empty() || !o->evals.empty()))
            throw InputError(o->frontier, 0, 0,
                             "--frontier plots one combined frontier on its own: give no --vine or "
                             "--eval with it");
        std::vector<std::string> inputs = o->vines;
        std::vector<DepEvalInput> runs;
        for (const auto& spec : o->evals)
            runs.push_back(parseDepEvalSpec(spec)), inputs.push_back(runs.back().path);
        if (!o->frontier.empty()) inputs.push_back(o->frontier);
        refuseToOverwriteInput(o->out, inputs);
        if (!o->outJson.empty()) refuseToOverwriteInput(o->outJson, inputs);
        DepFrontier f;
        if (!o->frontier.empty()) {
            f = loadDepFrontier(o->frontier);
            if (titleOption->count() > 0) f.title = o->title;
            f.zoomPanel = f.zoomPanel || o->zoom;
        } else {
            f.title = o->title;
            f.zoomPanel = o->zoom;
        }
        for (const auto& v : o->vines)
            addVineFrontierSeries(f, v);
        if (!runs.empty()) addDepEvalSeries(f, runs);
        std::set<std::string> models;
        for (const auto& s : f.series)
            models.insert(s.model);
        writeDepFrontierSvg(f, o->out);
        if (!o->outJson.empty()) saveDepFrontier(f, o->outJson);
        std::size_t points = 0;
        for (const auto& s : f.series)
            points += s.points.size();
        std::cout << f.series.size() << " series, " << points << " points, " << models.size()
                  << " final model(s)"
                  << (models.size() > 1 ? " (each series is labelled with its model)" : "")
                  << "\nwrote " << o->out << (o->outJson.empty() ? "" : " and " + o->outJson)
                  << "\n";
        return 0;
    });
}

} // namespace prunescope::cli
