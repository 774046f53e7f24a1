#pragma once
// The best partial analysis of a chart built part way (issue 18, teaching: Replay CKY after cell s,
// the explorer's trees): the sequence of built constituents that covers the sentence left to right
// with the FEWEST fragments, ties broken by the highest sum of the fragments' inside scores (each
// cell's best post symbol), found by a Viterbi over span ends (best[k] from best[i] + cell (i,k)).
// A word always counts as a width-1 fragment: its cell's best tag once built, else the bare word.
//
// Why fewest first, not the highest score alone: an inside score only falls as a constituent grows
// (β(X,i,k) = rule + β(Y,i,j) + β(Z,j,k) ≤ best(i,j) + best(j,k), log probabilities ≤ 0), so the
// highest sum is always one tag per word and would show nothing of the chart until the root cell.
//
// Contract (tests/parse/test_partial_parse.cpp, ptb-sample/dev, keep-all and random masks, several
// replay steps): bestPartialParse has the fragment count and score of naivePartialParse, which
// enumerates all 2^(n-1) segmentations, and after the whole-sentence cell of a parse that succeeded
// the explorer shows the parser's tree instead (PartialParse only covers the steps before it).
#include "core/grammar/Grammar.h"
#include "core/parse/CkyReplay.h"
#include "core/parse/DenseChart.h"
#include "core/treebank/Tree.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace prunescope {

struct PartialFragment {
    int i = 0, k = 0;
    int symbol = -1;  // the cell's best post symbol (first among ties); -1: a bare word
    double score = 0; // its inside (post) score; 0 for a bare word
};

struct PartialParse {
    std::vector<PartialFragment> fragments; // left to right, covering [0, n) without gaps
    double score = 0;                       // the sum of the fragments' scores
    int size() const { return static_cast<int>(fragments.size()); }
};

// Which cells count as built: built[chart.cell(i,k)] != 0 (a pruned or empty cell may be marked
// built; it offers no constituent).
// The cells a replay has built after `step` cells (0..t.cells.size()), indexed as `chart` (the
// replay's chart or the parser's of the same sentence and mask; the explorer drops the trace's
// copy). Throws std::invalid_argument for a step out of range or a chart of another length.
std::vector<std::uint8_t> builtAfter(const ReplayTrace& t, const DenseChart& chart, int step);

// Viterbi over span ends; O(n^2 · N) for the best symbols, O(n^2) after. Throws
// std::invalid_argument if built has not chart.numCells() entries.
PartialParse bestPartialParse(const DenseChart& chart, std::span<const std::uint8_t> built);
// Every segmentation of [0, n) into built cells (2^(n-1) of them): the reference for tests. Throws
// std::invalid_argument for n > 24.
PartialParse naivePartialParse(const DenseChart& chart, std::span<const std::uint8_t> built);

// The binarized subtree of symbol x over (i,k), post layer (labels as in the grammar), following
// witnesses; throws std::logic_error if (i,k,x) is not built. (Defined in ChartTrees.cpp, next to
// the witness walk of bestBinarizedTree it shares.)
Tree binarizedSubtree(const Grammar& g, const DenseChart& chart, std::span<const std::string> words,
                      int i, int k, std::uint32_t x);

// The fragments as n-ary trees (debinarized; a binarization intermediate "@NP|..." is shown as NP
// over its spliced children, a bare word as a leaf), left to right.
std::vector<Tree> fragmentTrees(const Grammar& g, const DenseChart& chart,
                                std::span<const std::string> words, const PartialParse& p);

} // namespace prunescope
