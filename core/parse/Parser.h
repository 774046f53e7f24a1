#pragma once
// Weighted CKY with a span pruning mask (Alg. 1), in log space (Viterbi).
// Layout (docs/benchmarks.md, "Layout decisions"): when a cell is finished, every binary rule
// whose left child it built becomes an 8-byte Item {left score, rule index}, bucketed
// by the rule's right child (renumbered densely: 67 of ~1200 symbols are right children). A
// split (i,j,k) then walks the right children built in (j,k) and streams exactly the items of
// those buckets: every item read is a push, with no failed lookups and no per-symbol overhead.
// Ties keep the smallest (split, rule index), as a rule-index-ordered loop with '>' would.
// Cells track their built symbols in bitsets, so the unary step, the item lists and the next
// parse's chart clearing touch only built entries.
#include "core/parse/Chart.h"
#include "core/grammar/Grammar.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"

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

    // Bytes of per-parse scratch held besides the chart (item lists, right rows, offsets).
    std::size_t scratchBytes() const;

private:
    // One binary rule as the inner loop reads it from a left cell's item list: the left
    // child's score is copied in, so a split streams items sequentially (no lookups).
    struct Item {
        float left;          // post score of the rule's left child in the left cell
        std::uint32_t rule;  // index into Grammar::binary (the witness's rule part)
    };
    struct RuleHead {        // Grammar::binary[r] reduced to what a push reads
        std::uint32_t parent;
        float logProb;
    };
    static long binarySplit(const Item* items, const RuleHead* heads, const std::uint32_t* zBegin, int rightWords,
                            const std::uint64_t* rightBits, const float* rightRow, float* out,
                            std::uint32_t* outW, std::uint64_t* preBits, std::uint32_t split);
    void prepareChart(int n, int numSymbols);
    long finishCell(int i, int k, ParseStats& st); // unary layer, built symbols, right rows
    const std::uint32_t* cellItems(int cell);       // the cell's bucket offsets, built on first use
    long directSplit(int leftCell, const std::uint64_t* rightBits, const float* rightRow, float* out,
                     std::uint32_t* outW, std::uint64_t* preBits, std::uint32_t split) const;

    const Grammar* g_;
    Chart chart_;
    std::vector<std::string> words_;
    std::vector<RuleHead> ruleHeads_;           // per binary rule
    std::vector<std::uint32_t> ruleRightId_;    // per binary rule: dense id of its right child
    std::vector<std::uint32_t> leftRulesBegin_; // per symbol: [begin, end) of the rules it is left child of
    std::vector<std::int32_t> rightId_;         // per symbol: dense right-child id or -1
    int numRight_ = 0, rightWords_ = 0;
    int bitWords_ = 0;                          // 64-bit words of a per-cell symbol bitset
    // Per parse scratch (capacity reused; no allocation once warmed up).
    // Items are built lazily, the first time a split needs the cell as its left child (with a
    // non-empty right cell), so heavily pruned parses build few. Arrays grow to a high-water
    // mark and are never re-zeroed; [0, used) is this parse's.
    std::vector<Item> items_;                   // bucketed by right id, cell after cell
    std::uint32_t itemsUsed_ = 0;
    std::vector<std::uint32_t> zBegins_;        // per built cell: numRight_ + 1 offsets into items_
    std::uint32_t zBeginsUsed_ = 0;
    std::vector<std::uint32_t> cellZBegin_;     // per cell: offset into zBegins_, or kUnbuilt
    std::vector<std::uint32_t> cellDirtyBegin_; // per cell + 1: its built post symbols are
                                                // dirty_[cellDirtyBegin_[c], cellDirtyBegin_[c+1])
    std::vector<std::uint32_t> zCount_;         // numRight_ counters for the bucketing
    std::vector<float> rightRows_;              // per cell: numRight_ post values of right children
    std::vector<std::uint64_t> rightBits_;      // per cell: rightWords_ words, built right children
    std::vector<std::uint64_t> preBits_, postBits_; // the current cell's built symbols
    std::vector<std::uint32_t> dirty_;          // flat chart indices written by the last parse
};

// Follows witnesses from ROOT: the binarized best tree (labels as in the grammar), or an
// empty optional-like Tree (label "") if the parse failed.
Tree bestBinarizedTree(const Grammar& g, const Chart& chart, std::span<const std::string> words);
// The n-ary best tree (debinarized). If the parse failed, returns the documented fallback:
// (ROOT (T1 w1) ... (Tn wn)) where Ti is the best-scoring tag of word i, so that EVALB
// scores it as zero matched brackets.
Tree bestTree(const Grammar& g, const Chart& chart, std::span<const std::string> words);

} // namespace prunescope
