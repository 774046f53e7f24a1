#pragma once
// Weighted CKY with a span pruning mask (Alg. 1), in log space (Viterbi), with the
// left-child loop of Dunlop et al. (2010) over (left symbol, right symbol) rule groups.
#include "core/Chart.h"
#include "core/Grammar.h"
#include "core/PruningMask.h"
#include "core/Tree.h"

#include <span>
#include <string>
#include <vector>

namespace prunescope {

struct ParseStats {
    long pushes = 0;        // rule evaluations with all children built: lexical (line 6),
                            // binary (line 19), unary and root rules (the paper's "push")
    long constituents = 0;  // ||β||_0: (i,k,x) with a post value, over all cells
    int spansKept = 0;      // ||m||_0 over the prunable spans
    bool success = false;   // a ROOT derivation exists
    double logProb = 0;     // best derivation's log probability (if success)
};

class Parser {
public:
    explicit Parser(const Grammar& g);

    // Parses with mask (nullptr = keep every span). The mask's n must equal words.size().
    // Throws std::invalid_argument for an empty sentence, a too-long one or a wrong mask.
    ParseStats parse(std::span<const std::string> words, const PruningMask* mask = nullptr);

    const Chart& chart() const { return chart_; }
    const Grammar& grammar() const { return *g_; }
    const std::vector<std::string>& words() const { return words_; }

    // Fills the unary layer (post) of cell (i,k) from its pre layer; returns pushes.
    // Public so that rollout algorithms can reuse the exact same step.
    static long applyUnaries(const Grammar& g, Chart& chart, int i, int k);

private:
    const Grammar* g_;
    Chart chart_;
    std::vector<std::string> words_;
    std::vector<std::uint32_t> leftSyms_;   // scratch: the left cell's built symbols
    std::vector<float> leftScores_;
    std::vector<std::uint32_t> listBegin_;  // per cell: built post symbols, for the left-child loop
    std::vector<std::uint32_t> listSyms_;
    std::vector<float> listScores_;
    std::vector<std::uint32_t> hitGroups_; // scratch: rule groups whose right child is built
};

// Follows witnesses from ROOT: the binarized best tree (labels as in the grammar), or an
// empty optional-like Tree (label "") if the parse failed.
Tree bestBinarizedTree(const Grammar& g, const Chart& chart, std::span<const std::string> words);
// The n-ary best tree (debinarized). If the parse failed, returns the documented fallback:
// (ROOT (T1 w1) ... (Tn wn)) where Ti is the best-scoring tag of word i, so that EVALB
// scores it as zero matched brackets.
Tree bestTree(const Grammar& g, const Chart& chart, std::span<const std::string> words);

} // namespace prunescope
