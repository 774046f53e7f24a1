#pragma once
// Weighted CKY with a span pruning mask (Alg. 1), in log space (Viterbi), with the
// left-child loop of Dunlop et al. (2010) over (left symbol, right symbol) rule groups.
// Layout: right children are renumbered densely (67 of ~1200 symbols for the default grammar);
// each cell keeps a bitset and a compact value row over them, each left symbol a bitset of its
// right partners, so a split visits exactly the groups whose children are both built (AND, then
// rank by popcount) instead of probing every group. Cells track their built symbols in bitsets,
// so the unary step, the lists and the next parse's chart clearing touch only built entries.
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
    // Grammar indices in the layout the inner loop wants (built once per Parser).
    struct Group {             // rules x -> y z sharing (y, z); the first rule inline
        std::uint32_t parent;  // binary[begin].parent
        float logProb;         // binary[begin].logProb
        std::uint32_t begin, end;
    };
    struct Rule {              // Grammar::binary[r] reduced to what the push needs
        std::uint32_t parent;
        float logProb;
    };
    struct LeftEntry {         // a built post symbol of a cell that is the left child of some group
        float score;
        std::uint32_t symbol;
    };
    struct Partners {          // per (left symbol y, 64-bit word w): right ids z with a group (y, z)
        std::uint64_t mask;
        std::uint32_t groupBase; // index of the group of the word's lowest set bit
    };
    static long binaryPass(const LeftEntry* lb, const LeftEntry* le, const Partners* partners, int rightWords,
                           const std::uint64_t* rightBits, const float* rightRow, const Group* groups,
                           const Rule* rules, float* out, std::uint32_t* outW, std::uint64_t* preBits,
                           std::uint32_t split);
    void prepareChart(int n, int numSymbols);
    long finishCell(int i, int k, ParseStats& st); // unary layer, lists, right rows

    const Grammar* g_;
    Chart chart_;
    std::vector<std::string> words_;
    std::vector<Group> groups_;
    std::vector<Rule> rules_;
    std::vector<Partners> partners_;       // [y * rightWords_ + w]
    std::vector<std::int32_t> rightId_;    // per symbol: dense right-child id or -1
    int numRight_ = 0, rightWords_ = 0;
    int bitWords_ = 0;                     // 64-bit words of a per-cell symbol bitset
    // Per parse scratch (capacity reused; no allocation once warmed up).
    std::vector<std::uint32_t> listBegin_; // per cell: [begin, end) into leftList_
    std::vector<LeftEntry> leftList_;
    std::vector<float> rightRows_;         // per cell: numRight_ post values of right children
    std::vector<std::uint64_t> rightBits_; // per cell: rightWords_ words, built right children
    std::vector<std::uint64_t> preBits_, postBits_; // the current cell's built symbols
    std::vector<std::uint32_t> dirty_;     // flat chart indices written by the last parse
};

// Follows witnesses from ROOT: the binarized best tree (labels as in the grammar), or an
// empty optional-like Tree (label "") if the parse failed.
Tree bestBinarizedTree(const Grammar& g, const Chart& chart, std::span<const std::string> words);
// The n-ary best tree (debinarized). If the parse failed, returns the documented fallback:
// (ROOT (T1 w1) ... (Tn wn)) where Ti is the best-scoring tag of word i, so that EVALB
// scores it as zero matched brackets.
Tree bestTree(const Grammar& g, const Chart& chart, std::span<const std::string> words);

} // namespace prunescope
