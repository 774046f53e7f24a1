#pragma once
// Two pruning masks of one sentence side by side (issue 18, the explorer's mask comparison after
// NLTK's chart comparer): the prunable spans both keep, only A keeps and only B keeps, and the
// parse of each mask (Alg. 1, the same Parser and tree as `parse` and `eval`) with its F1 against
// the gold tree, pushes and spans kept. The explorer's overlay and table and `prunescope-cli
// compare-masks` both print this.
#include "core/grammar/Grammar.h"
#include "core/parse/Parser.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

// One mask's parse: the counters, the n-ary best tree (bestTree, the flat fallback if the parse
// failed) and sentenceF1 against gold in [0,1] (NaN without gold or when EVALB cannot pair them).
struct MaskParse {
    ParseStats stats;
    Tree tree;
    double f1 = 0;
};

// Which of the T prunable spans (1 < k-i < n) each mask keeps, in (i, k) order. Spans both prune
// are in none of the lists: intersection + onlyA + onlyB + prunedByBoth = T.
struct MaskSpanSets {
    std::vector<std::pair<int, int>> intersection, onlyA, onlyB;
    int prunedByBoth = 0;
};

struct MaskComparison {
    MaskParse a, b;
    MaskSpanSets spans;
};

// Throws std::invalid_argument when the masks' lengths differ.
MaskSpanSets compareMaskSpans(const PruningMask& a, const PruningMask& b);
// parser.parse(words, &mask), then bestTree and sentenceF1 (as SentenceSession and evaluateCorpus).
MaskParse parseUnderMask(Parser& parser, std::span<const std::string> words,
                         const PruningMask& mask, const Tree* gold);
// Both parses and the span sets. gold (normalized, may be null) only scores F1.
MaskComparison compareMasks(const Grammar& g, std::span<const std::string> words, const Tree* gold,
                            const PruningMask& a, const PruningMask& b);

// The gold mask: keeps exactly the prunable spans of the binarized gold tree (binarizeLike), the
// explorer's "Keep Gold Only". Throws std::invalid_argument if gold cannot be binarized like g.
PruningMask goldSpanMask(const Grammar& g, const Tree& gold);

// {"a": {"f1", "pushes", "kept", "constituents", "success"}, "b": {…}, "intersection": [[i,k],…],
//  "onlyA": […], "onlyB": […], "counts": {"intersection", "onlyA", "onlyB", "prunedByBoth",
//  "prunable"}}
// f1 is null when NaN. docs/user-guide.md, "Compare two masks".
nlohmann::json maskComparisonJson(const MaskComparison& c, int n);

} // namespace prunescope
