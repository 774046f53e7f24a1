#pragma once
// A LOLS run over a run directory (Vieira & Eisner 2017, Alg. 2 lines 2-15; sec. 7 setup): the
// config.json a new run gets, the inputs that config describes, and runLols, the one driver that
// `prunescope-cli lols` and the GUI's training queue both call, so a run started from either
// writes the same config, trains on exactly the same data and commits the same iterations.
//
// Intended usage (any front end; the CLI and the GUI are thin shells around these three calls):
//     RunDirectory rd = RunDirectory::create(out, newLolsRunConfig(spec));   // or ::open(dir)
//     const LolsRunInputs in = loadLolsRunInputs(rd.config());
//     const LolsRunResult r = runLols(rd, in, {threads, onCommit}, progress);  // resumable
#include "core/grammar/Grammar.h"
#include "core/lols/Lols.h"
#include "core/lols/RolloutDistributor.h"
#include "core/lols/RunDirectory.h"
#include "core/treebank/Tree.h"
#include "core/util/Progress.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace prunescope {

// What a user chooses for a new run (the CLI's flags, the GUI's dialog).
struct LolsRunSpec {
    std::string grammar, init, train, dev; // files / treebanks, as the user gave them
    LolsConfig lols =
        withLambdaFromPolicy(); // threads are not recorded (they never change results)
    int maxLength = 40, trainLimit = 0, devLimit = 0;
    bool q0 = true;       // aggregate the baseline dataset Q̂0 (sec. 7)
    double q0Scale = 1.0; // multiplier on Q̂0's weights

    static LolsConfig withLambdaFromPolicy() {
        LolsConfig c;
        c.lambda = std::numeric_limits<double>::quiet_NaN();
        return c;
    }
};

// The form in which config.json stores a path: absolute and lexically normalized ("." and ".."
// resolved, no trailing separator; symbolic links kept), so a run can be resumed, followed or
// compared from any working directory (docs/lols.md "Paths").
std::string runConfigPath(const std::string& path);

// config.json of a new run (docs/lols.md): paths stored by runConfigPath; λ = the initial
// policy's meta.lambda when spec.lols.lambda is NaN (throws std::invalid_argument if it records
// none); l2 = the initial policy's meta.training.l2 (sec. 6: the baseline's dev choice) when it
// has one; Q̂0's positiveWeight = the initial policy's. Reads spec.init.
nlohmann::json newLolsRunConfig(const LolsRunSpec& spec);

struct LolsRunInputs {
    Grammar grammar;
    int maxLength = 40;
    std::vector<Tree> trainTrees;    // normalized, every tree of the train treebank
    std::vector<int> treeIndex;      // train sentence x came from trainTrees[treeIndex[x]]
    std::vector<LolsSentence> train; // ≤ maxLength, first trainLimit (0 = all)
    std::vector<LolsSentence> dev;   // ≤ maxLength, first devLimit (0 = all)
};

// Reads config["grammar"], ["train"], ["dev"], ["maxLength"], ["trainLimit"], ["devLimit"].
// Throws InputError / std::exception naming the file on bad input; Cancelled on a cancel
// (progress phase "normalizing" per treebank).
LolsRunInputs loadLolsRunInputs(const nlohmann::json& config, const Progress& progress = {});

// Q̂0 (sec. 7: the baseline's asymmetrically weighted examples, config["q0"] = {positiveWeight,
// scale}) for the first trainCount train sentences; empty when config["q0"] is null.
AggregatedDataset initialDataset(const LolsRunInputs& in, std::size_t trainCount,
                                 const nlohmann::json& config, const Progress& progress = {});

struct LolsRunOptions {
    int threads = 0; // worker threads (0 = all cores); never changes results, not recorded
    // Called on the running thread after each committed iteration (iteration 0 included), in
    // order; st.log.back() is the iteration's record. The GUI posts it to its thread.
    std::function<void(const LolsState& st)> onCommit;
    // Where each iteration's rollouts run (RolloutDistributor.h; empty = this process's threads)
    // and over how many processes (for the log line only). Never changes results.
    RolloutDistributor distributor;
    int ranks = 1;
};

struct LolsRunResult {
    bool cancelled = false; // stopped by a cancel; every committed iteration is kept (resumable)
    LolsState state;        // after the last committed iteration (state.log empty: none yet)
};

// Trains until config["lols"]["iterations"] are committed: iteration 0 (the initial policy
// config["init"] with Q̂0) if the directory has no log yet, otherwise resumes after its last
// committed iteration (RunDirectory::restore). Every iteration is committed before the next
// starts. Progress: the trainer's phases (LolsTrainer.h) with step = iteration, plus log lines
// (data sizes, resuming); a cancel returns {cancelled = true} within the trainer's cancel
// latency with every finished iteration committed and none half-written.
LolsRunResult runLols(RunDirectory& rd, const LolsRunInputs& in, const LolsRunOptions& opt,
                      const Progress& progress = {});

} // namespace prunescope
