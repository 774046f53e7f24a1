#pragma once
// A treebank prepared once for filter training (Cherry & Bergsma 2011, sec. 2-3): each token's
// feature keys and role truth values, each arc's Vine/None tag-pair keys and length. Both trainers
// (independent and joint) read it.
#include "core/dep/DepTree.h"
#include "core/filters/TokenRoleEvents.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <vector>

namespace prunescope {

struct FilterTrainingSentence {
    int n = 0;
    std::vector<int> heads;               // gold, size n + 1
    std::vector<std::uint64_t> tokenKeys; // keys of token t in [keyStart[t], keyStart[t + 1])
    std::vector<std::uint32_t> keyStart; // size n + 2 (entries 0 and 1 are 0: no keys for the root)
    std::vector<std::uint64_t> vinePair, nonePair; // per arc index h * (n + 1) + m
    TokenRoleEvents roles;
    std::size_t arc(int h, int m) const {
        return static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
               static_cast<std::size_t>(m);
    }
};

struct FilterTrainingData {
    std::vector<FilterTrainingSentence> sentences;
    std::uint64_t vineBias = 0, noneBias = 0; // bias keys of Vine and None
    long arcs = 0, goldArcs = 0, tokens = 0;
};

// Sentences without a complete tree are refused (std::invalid_argument). Polls progress per
// sentence.
FilterTrainingData prepareFilterTraining(const std::vector<DepSentence>& treebank,
                                         const Progress& progress = {});

} // namespace prunescope
