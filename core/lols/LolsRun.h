#pragma once
// The inputs of a LOLS run (Alg. 2, sec. 7 setup) as a run directory's config.json describes them:
// one function builds them for both `prunescope-cli lols` and the GUI's training queue, so a run
// started from either trains on exactly the same data.
#include "core/grammar/Grammar.h"
#include "core/lols/Lols.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/Tree.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace prunescope {

struct LolsRunInputs {
    Grammar grammar;
    int maxLength = 40;
    std::vector<Tree> trainTrees;     // normalized, every tree of the train treebank
    std::vector<int> treeIndex;       // train sentence x came from trainTrees[treeIndex[x]]
    std::vector<LolsSentence> train;  // ≤ maxLength, first trainLimit (0 = all)
    std::vector<LolsSentence> dev;    // ≤ maxLength, first devLimit (0 = all)
};

// Reads config["grammar"], ["train"], ["dev"], ["maxLength"], ["trainLimit"], ["devLimit"].
// Throws InputError / std::exception naming the file on bad input.
LolsRunInputs loadLolsRunInputs(const nlohmann::json& config);

// Q̂0 (sec. 7: the baseline's asymmetrically weighted examples, config["q0"] = {positiveWeight,
// scale}) for the first trainCount train sentences; empty when config["q0"] is null.
AggregatedDataset initialDataset(const LolsRunInputs& in, std::size_t trainCount, const nlohmann::json& config);

} // namespace prunescope
