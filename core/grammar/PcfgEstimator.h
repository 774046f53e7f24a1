#pragma once
// Relative-frequency PCFG estimation from a treebank (paper sec. 6: the "coarse"
// left-binarized treebank grammar).
#include "core/grammar/Grammar.h"
#include "core/treebank/Binarize.h"
#include "core/treebank/Tree.h"

#include <vector>

namespace prunescope {

struct GrammarOptions {
    BinarizeOptions binarize;
    // Words seen at most this many times in training are replaced by their
    // unknown-word signature (and counted for the generic fallback).
    int rareWordThreshold = 1;
};

// The binarization a grammar was trained with (from its options).
BinarizeOptions binarizeOptionsOf(const Grammar& g);
// A normalized gold tree binarized the way g's training trees were.
Tree binarizeLike(const Grammar& g, const Tree& normalized);

// trees: raw treebank trees (normalized here). Throws InputError on unusable trees and
// std::invalid_argument when there are none.
Grammar estimatePcfg(const std::vector<Tree>& trees, const GrammarOptions& opt);
// The same from trees that are already normalized (readNormalizedTreebank).
Grammar estimatePcfgFromNormalized(const std::vector<Tree>& normalized, const GrammarOptions& opt);

} // namespace prunescope
