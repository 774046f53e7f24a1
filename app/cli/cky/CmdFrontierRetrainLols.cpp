// prunescope-cli frontier-retrain for an iteration of a LOLS run directory (Vieira & Eisner 2017,
// Alg. 2; core/lols/LolsRetrain.h): prints the recorded settings and the equivalent
// `prunescope-cli lols` command; with --out, trains iterations 0..NNN into that new run directory
// (the same driver as `lols`) and checks the iteration's dev evaluation against the recorded one.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "core/lols/LolsRetrain.h"
#include "core/util/DataDir.h"
#include "core/util/Error.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace prunescope::cli {

bool isLolsRunArgument(const std::string& frontier, const std::string& point) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(frontier, ec)) return false;
    if (fs::exists(fs::path(frontier) / "frontier.json", ec)) return false;
    return fs::exists(fs::path(frontier) / "config.json", ec) || lolsPointIteration(point) >= 0;
}

int retrainLolsRunPoint(const std::string& runDir, const std::string& point, const std::string& out,
                        int threads, bool quiet) {
    const int iteration = lolsPointIteration(point);
    if (iteration < 0)
        throw InputError(runDir, 0, 0,
                         "'" + point +
                             "' is not an iteration of a LOLS run (ids are RUN/iter-NNN)");
    const LolsRetrainSettings s =
        lolsRetrainSettings(runDir, iteration, dataDirFromEnvironment(&std::cerr));
    if (s.policyExists) {
        std::printf("nothing to retrain: %s\n", s.why.c_str());
        return 0;
    }
    if (!s.ok()) throw InputError(s.runDir, 0, 0, "cannot retrain " + s.pointId + ": " + s.why);
    const nlohmann::json& l = s.config.at("lols");
    std::printf(
        "point %s: iteration %d of the LOLS run %s\nrecorded: dev F1 %.2f, mpush %.5f, reward "
        "%.6g\n"
        "grammar %s\ninit %s\ntrain %s\ndev %s\nsurrogate %s, lambda %.17g, seed %s, minibatch %d\n"
        "equivalent command:\n  %s\n",
        s.pointId.c_str(), s.iteration, s.runDir.c_str(), s.recorded.dev.f1, s.recorded.dev.mpush,
        s.recorded.dev.reward, s.config.at("grammar").get<std::string>().c_str(),
        s.config.at("init").get<std::string>().c_str(),
        s.config.at("train").get<std::string>().c_str(),
        s.config.at("dev").get<std::string>().c_str(), l.value("surrogate", std::string()).c_str(),
        l.value("lambda", 0.0), l.value("seed", nlohmann::json(1)).dump().c_str(),
        l.value("minibatch", 0), lolsRetrainCommand(s, out.empty() ? "OUT" : out).c_str());
    const auto differences = lolsRetrainCommandDifferences(s);
    for (const std::string& d : differences)
        std::printf("note: the command differs from the recorded run in %s (the retrain uses the "
                    "recorded value)\n",
                    d.c_str());
    if (out.empty()) return 0;
    ConsoleProgress console("frontier-retrain", "iteration", quiet);
    const LolsRetrainResult r = retrainLolsPoint(s, out, threads, console.progress());
    if (r.cancelled) {
        std::cerr << "frontier-retrain: cancelled; the committed iterations are kept in "
                  << r.runDir
                  << " (continue with the same command, or prunescope-cli lols --resume)\n";
        return 130;
    }
    std::printf("wrote %s\nrecorded:  F1 %.2f, mpush %.5f, reward %.6g\nretrained: F1 %.2f, mpush "
                "%.5f, reward %.6g\n",
                r.policyPath.c_str(), s.recorded.dev.f1, s.recorded.dev.mpush,
                s.recorded.dev.reward, r.retrained.dev.f1, r.retrained.dev.mpush,
                r.retrained.dev.reward);
    if (!r.reproduced) {
        std::fprintf(stderr,
                     "warning: the retrained iteration's dev evaluation differs from the recorded "
                     "one: an input "
                     "(the initial policy, a treebank, the grammar) changed since the run\n");
        return 3;
    }
    std::printf("reproduced: the dev evaluation equals the recorded one\n");
    return 0;
}

} // namespace prunescope::cli
