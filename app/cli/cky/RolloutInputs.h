#pragma once
// What check-rollouts and bench-rollouts share: the treebank's sentences by length, the --masks
// list and the roll-in masks it names.
#include "core/grammar/Grammar.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"

#include <random>
#include <string>
#include <vector>

namespace prunescope::cli {

// Roll-in masks: "keep" (all spans), "random" (each span pruned with probability p), "gold" (only
// the spans of the binarized gold tree kept: what a good policy's roll-in looks like).
PruningMask makeMask(const std::string& kind, const Grammar& g, const Tree& gold, double pruneP,
                     std::mt19937& rng);
// The roll-in mask kinds of --masks, refused up front (an unknown kind would otherwise go unnoticed
// when no sentence reaches makeMask) and never empty.
std::vector<std::string> maskKinds(const std::string& list);
// The treebank's trees of minLen to maxLen words.
std::vector<Tree> loadSentences(const std::string& treebank, int minLen, int maxLen);

} // namespace prunescope::cli
