// prunescope-cli lols-plot: LOLS learning curves (Vieira & Eisner 2017, sec. 7, Alg. 2 line 15's
// dev reward per iteration) of one or more run directories as an SVG figure, one panel per
// surrogate or per run; the command-line twin of the training view's reward-per-iteration plot.
#include "app/cli/Commands.h"
#include "app/cli/cky/RunInputsCheck.h"
#include "core/lols/RunDirectory.h"
#include "core/plot/LearningCurveSvg.h"
#include "core/util/Error.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

namespace prunescope::cli {

namespace {

double quantity(const LolsIterationRecord& r, const std::string& q, double first) {
    if (q == "reward") return r.dev.reward;
    if (q == "reward-gain") return r.dev.reward - first;
    if (q == "f1") return r.dev.f1;
    return r.dev.mpush; // "mpush"
}

std::string yLabel(const std::string& q) {
    if (q == "reward") return "dev surrogate reward";
    if (q == "reward-gain") return "dev reward − iteration 0's";
    if (q == "f1") return "dev F1 (%)";
    return "dev mpush per sentence";
}

} // namespace

void addLolsPlotCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "lols-plot", "Dev reward (or F1, mpush) per iteration of LOLS run directories as an "
                     "SVG figure (the learning curves of docs/results.md)");
    struct Opts {
        std::vector<std::string> runs;
        std::string out, quantity = "reward-gain", panels = "surrogate", title;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("runs", o->runs,
                    "LOLS run directories (their name labels the curve; with --panels surrogate, "
                    "without a trailing -rcp/-rdp)")
        ->required();
    sub->add_option("--out", o->out, "SVG file to write")->required();
    sub->add_option("--quantity", o->quantity,
                    "reward | reward-gain (minus iteration 0's) | f1 | mpush")
        ->check(CLI::IsMember({"reward", "reward-gain", "f1", "mpush"}))
        ->capture_default_str();
    sub->add_option("--panels", o->panels,
                    "surrogate (one panel per surrogate, a curve per run) | run (a panel per run)")
        ->check(CLI::IsMember({"surrogate", "run"}))
        ->capture_default_str();
    sub->add_option("--title", o->title, "Figure title (default: from the quantity)");
    setAction(sub, [o] {
        std::map<std::string, LearningPanel> bySurrogate;
        std::vector<LearningPanel> perRun;
        for (const std::string& dir : o->runs) {
            const RunDirectorySnapshot snap = readRunDirectory(dir);
            checkRunInputs(dir, snap.config, /*refuse=*/false);
            if (snap.log.empty())
                throw InputError(dir + "/log.jsonl", 0, 0,
                                 "LOLS run directory: no committed iteration yet");
            LearningCurve c;
            c.label = std::filesystem::path(dir).lexically_normal().filename().string();
            if (c.label.empty())
                c.label =
                    std::filesystem::path(dir).lexically_normal().parent_path().filename().string();
            for (const LolsIterationRecord& r : snap.log)
                c.y.push_back(quantity(r, o->quantity, snap.log.front().dev.reward));
            c.best = snap.bestIteration;
            const std::string surrogate = snap.config.value("lols", nlohmann::json::object())
                                              .value("surrogate", std::string("?"));
            if (o->panels == "run") {
                LearningPanel p;
                p.title = c.label + " (" + surrogate + ")";
                p.curves.push_back(std::move(c));
                perRun.push_back(std::move(p));
            } else {
                // In a surrogate's panel the surrogate in the name ("w16-rdp") says nothing: "w16",
                // so that the runs of one λ keep one colour in every panel.
                for (const std::string& suffix : {"-" + surrogate, "_" + surrogate})
                    if (c.label.size() > suffix.size() && c.label.ends_with(suffix))
                        c.label.resize(c.label.size() - suffix.size());
                LearningPanel& p = bySurrogate[surrogate];
                p.title = "surrogate " + surrogate;
                p.curves.push_back(std::move(c));
            }
        }
        std::vector<LearningPanel> panels = std::move(perRun);
        for (auto& [name, p] : bySurrogate)
            panels.push_back(std::move(p));
        LearningCurveSvgOptions opt;
        opt.title = o->title.empty()
                        ? "LOLS: " + yLabel(o->quantity) + " per iteration (ring: early-stopped)"
                        : o->title;
        opt.yLabel = yLabel(o->quantity);
        opt.xLabel = "LOLS iteration";
        opt.firstX = 0;
        writeLearningCurveSvg(panels, o->out, opt);
        std::cout << "wrote " << o->out << ": " << panels.size() << " panels, " << o->runs.size()
                  << " curves\n";
        return 0;
    });
}

} // namespace prunescope::cli
