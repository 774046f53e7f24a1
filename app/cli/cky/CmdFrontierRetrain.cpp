// prunescope-cli frontier-retrain: a frontier point without its policy file, retrained from its
// recorded settings (Vieira & Eisner 2017, sec. 7 ¬): a baseline point of a frontier.json
// (core/policy/BaselineRetrain.h) or an iteration of a LOLS run directory (core/lols/LolsRetrain.h,
// see CmdFrontierRetrainLols.cpp). Without --out it prints the settings and the equivalent command.
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
    auto* sub = app.add_subcommand(
        "frontier-retrain",
        "Retrain a frontier point from its recorded settings so it gets a policy file: a "
        "baseline point (weight, l2, training data, dev set) or an iteration of a LOLS run "
        "directory (its config.json); without --out, print the settings and the equivalent "
        "`prunescope-cli baseline` or `prunescope-cli lols` command");
    struct Opts {
        std::string frontier, point, out;
        int threads = 0;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--frontier", o->frontier,
                    "frontier.json (or its run directory), or a LOLS run directory")
        ->required();
    sub->add_option("--point", o->point,
                    "The point's id, e.g. baseline-w32, or RUN/iter-002 of a LOLS run")
        ->required();
    sub->add_option("--out", o->out,
                    "Directory to write <point>.json to (train now); for a LOLS point, the new run "
                    "directory (its policies/iter-NNN.json)");
    sub->add_option("--threads", o->threads,
                    "LOLS points: worker threads (0 = all cores; results do not depend on it)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_flag("--quiet", o->quiet, "No progress output");
    setAction(sub, [o] {
        namespace fs = std::filesystem;
        fs::path file(o->frontier);
        if (isLolsRunArgument(o->frontier, o->point))
            return retrainLolsRunPoint(o->frontier, o->point, o->out, o->threads, o->quiet);
        if (fs::is_directory(file)) file /= "frontier.json";
        const FrontierData d = loadFrontier(file.string());
        const BaselineRetrainSettings s =
            baselineRetrainSettings(d, file.string(), o->point, dataDirFromEnvironment(&std::cerr));
        if (!s.ok())
            throw InputError(file.string(), 0, 0, "cannot retrain " + o->point + ": " + s.why);
        for (const auto& e : d.points)
            if (e.id == o->point && !e.policy.empty())
                std::printf("note: %s records the policy file %s\n", o->point.c_str(),
                            frontierPolicyPath(file.string(), e).c_str());
        std::printf("point %s: positiveWeight %.17g, l2 %.17g\ntrain %s (first %d trees, <= %d "
                    "words)\ndev %s (<= %d words)\n"
                    "grammar %s\nequivalent command:\n  %s\n",
                    s.pointId.c_str(), s.positiveWeight, s.l2, s.train.c_str(), s.trainSentences,
                    s.maxTrainLength, s.dev.c_str(), s.maxDevLength, s.grammar.c_str(),
                    baselineRetrainCommand(s, o->out.empty() ? "OUT" : o->out).c_str());
        if (o->out.empty()) return 0;
        fs::create_directories(o->out);
        const fs::path policyPath = fs::path(o->out) / (o->point + ".json");
        refuseToOverwriteInput(policyPath.string(), {file.string()});
        ConsoleProgress console("frontier-retrain", "point", o->quiet);
        RetrainedPoint r = retrainBaselinePoint(s, console.progress());
        for (const auto& e : d.points)
            if (e.id == o->point)
                r.policy.meta.lambda = e.lambda, r.policy.meta.lambdaUnit = d.lambdaUnit;
        savePolicy(r.policy, policyPath.string());
        const FrontierEntry* rec = nullptr;
        for (const auto& e : d.points)
            if (e.id == o->point) rec = &e;
        std::printf("wrote %s\nrecorded:  F1 %.2f, mpush %.5f\nretrained: F1 %.2f, mpush %.5f\n",
                    policyPath.string().c_str(), 100 * rec->metrics.value("f1", 0.0),
                    rec->metrics.value("meanMpush", 0.0), 100 * r.devMetrics.value("f1", 0.0),
                    r.devMetrics.value("meanMpush", 0.0));
        return 0;
    });
}

} // namespace prunescope::cli
