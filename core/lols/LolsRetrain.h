#pragma once
// Retraining one iteration of a LOLS run from its recorded settings (Vieira & Eisner 2017, Alg. 2;
// sec. 7): a point of a run directory whose policies/iter-NNN.json is gone can be made loadable
// again. LOLS is deterministic for its config (the seed fixes every minibatch and rCP sample;
// thread counts never change results), so the run's config.json, with lols.iterations = NNN, run
// by the same driver as `prunescope-cli lols` (runLols, LolsRun.h) into a new run directory,
// reproduces iteration NNN's policy weight for weight, and its log line (dev F1, pushes). The new
// directory is an ordinary run directory: a cancelled retrain continues with `lols --resume`.
#include "core/lols/LolsTrainer.h"
#include "core/util/Progress.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace prunescope {

// The frontier's name of iteration t of run directory dir: "<dir's name>/iter-NNN" (as the frontier
// window and frontier-best show it).
std::string lolsPointId(const std::string& runDir, int iteration);
// The iteration a point id names ("iter-NNN" or "<anything>/iter-NNN"), or -1.
int lolsPointIteration(const std::string& pointId);

struct LolsRetrainSettings {
    std::string runDir, pointId;
    int iteration = -1;
    std::string policyPath;    // the run's policies/iter-NNN.json
    bool policyExists = false; // then nothing needs retraining (why says so)
    // config.json as recorded, with grammar, init, train and dev resolved (resolveRecordedPath,
    // BaselineRetrain.h) and lols.iterations = iteration: the new run directory's config.
    nlohmann::json config;
    LolsIterationRecord recorded; // the iteration's line of log.jsonl
    std::string why;              // non-empty: why it cannot (or need not) be retrained
    bool ok() const { return why.empty(); }
};

// The settings of iteration `iteration` of the run at runDir, read from its config.json (strictly,
// RunConfig.h) and log.jsonl. Never throws: every problem is in why, naming the file.
LolsRetrainSettings lolsRetrainSettings(const std::string& runDir, int iteration,
                                        const std::string& dataDir = std::string());

// The equivalent command: `prunescope-cli lols --grammar ... --iterations NNN --out OUT`; its
// iteration NNN is written to OUT/policies/iter-NNN.json.
std::string lolsRetrainCommand(const LolsRetrainSettings& s, const std::string& outDir);
// The recorded settings the command's flags cannot give (each "key: recorded vs what the flags
// give"; e.g. an l2 that is not the initial policy's). Empty: the command reproduces the config.
// Reads the initial policy (its l2 and positive weight are what the flags give).
std::vector<std::string> lolsRetrainCommandDifferences(const LolsRetrainSettings& s);

struct LolsRetrainResult {
    bool cancelled = false;        // the iterations committed so far are kept in runDir (resumable)
    std::string runDir;            // the new run directory
    std::string policyPath;        // runDir/policies/iter-NNN.json (when not cancelled)
    LolsIterationRecord retrained; // its log line
    // The retrained iteration's dev evaluation equals the recorded one (F1, mean pushes, reward,
    // accuracy and sentences, exactly).
    bool reproduced = false;
};

// Trains iterations 0..s.iteration into the new run directory outDir (created; or resumed when it
// already holds a run with exactly this config) with runLols. Throws InputError if the settings
// are not ok or outDir holds something else. Progress: runLols's; a cancel returns cancelled.
LolsRetrainResult retrainLolsPoint(const LolsRetrainSettings& s, const std::string& outDir,
                                   int threads = 0, const Progress& progress = {});

} // namespace prunescope
