// prunescope-cli frontier-retrain: a baseline frontier point written without its policy file,
// retrained from its recorded settings (Vieira & Eisner 2017, sec. 7 ¬; core/policy/BaselineRetrain.h).
// Without --out it prints the settings and the equivalent `prunescope-cli baseline` command.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "core/frontier/FrontierFile.h"
#include "core/policy/BaselineRetrain.h"
#include "core/util/AtomicFile.h"
#include "core/util/DataDir.h"
#include "core/util/Error.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace prunescope::cli {

void addFrontierRetrainCommand(CLI::App& app) {
    auto* sub = app.add_subcommand("frontier-retrain",
                                   "Retrain a baseline frontier point from its recorded settings (weight, l2, training "
                                   "data, dev set) so it gets a policy file; without --out, print the settings and the "
                                   "equivalent `prunescope-cli baseline` command");
    struct Opts {
        std::string frontier, point, out;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--frontier", o->frontier, "frontier.json (or its run directory)")->required();
    sub->add_option("--point", o->point, "The point's id, e.g. baseline-w32")->required();
    sub->add_option("--out", o->out, "Directory to write <point>.json to (train now)");
    sub->add_flag("--quiet", o->quiet, "No progress output");
    setAction(sub, [o] {
        namespace fs = std::filesystem;
        fs::path file(o->frontier);
        if (fs::is_directory(file)) file /= "frontier.json";
        const FrontierData d = loadFrontier(file.string());
        const BaselineRetrainSettings s = baselineRetrainSettings(d, file.string(), o->point, dataDirFromEnvironment(&std::cerr));
        if (!s.ok()) throw InputError(file.string(), 0, 0, "cannot retrain " + o->point + ": " + s.why);
        for (const auto& e : d.points)
            if (e.id == o->point && !e.policy.empty())
                std::printf("note: %s records the policy file %s\n", o->point.c_str(), frontierPolicyPath(file.string(), e).c_str());
        std::printf("point %s: positiveWeight %.17g, l2 %.17g\ntrain %s (first %d trees, <= %d words)\ndev %s (<= %d words)\n"
                    "grammar %s\nequivalent command:\n  %s\n",
                    s.pointId.c_str(), s.positiveWeight, s.l2, s.train.c_str(), s.trainSentences, s.maxTrainLength,
                    s.dev.c_str(), s.maxDevLength, s.grammar.c_str(),
                    baselineRetrainCommand(s, o->out.empty() ? "OUT" : o->out).c_str());
        if (o->out.empty()) return 0;
        fs::create_directories(o->out);
        const fs::path policyPath = fs::path(o->out) / (o->point + ".json");
        refuseToOverwriteInput(policyPath.string(), {file.string()});
        ConsoleProgress console("frontier-retrain", "point", o->quiet);
        RetrainedPoint r = retrainBaselinePoint(s, console.progress());
        for (const auto& e : d.points)
            if (e.id == o->point) r.policy.meta.lambda = e.lambda, r.policy.meta.lambdaUnit = d.lambdaUnit;
        savePolicy(r.policy, policyPath.string());
        const FrontierEntry* rec = nullptr;
        for (const auto& e : d.points)
            if (e.id == o->point) rec = &e;
        std::printf("wrote %s\nrecorded:  F1 %.2f, mpush %.5f\nretrained: F1 %.2f, mpush %.5f\n", policyPath.string().c_str(),
                    100 * rec->metrics.value("f1", 0.0), rec->metrics.value("meanMpush", 0.0),
                    100 * r.devMetrics.value("f1", 0.0), r.devMetrics.value("meanMpush", 0.0));
        return 0;
    });
}

} // namespace prunescope::cli
