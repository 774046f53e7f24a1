#pragma once
// Weighted CKY with a span pruning mask (Alg. 1), in log space (Viterbi).
// Layout (docs/benchmarks.md, "Layout decisions"): cells are built row by row from the right
// (start i = n-1 down to 0, end k ascending), so a cell (i,j) is the left child only of cells of
// its own row: its binary rules become Items (left score, rule's log-prob, parent, rule index;
// structure of arrays) when a split first needs it, bucketed by the rule's right child (renumbered
// densely: 67 of ~1200 symbols are right children), and the row's items are dropped when the row is
// done. A split (i,j,k) walks the right children built in (j,k) and streams exactly the items of
// those buckets, 16 (AVX-512) or 8 (AVX2) at a time, with a portable scalar loop for other CPUs:
// every item read is a push. Ties keep the smallest (split, rule index), as a rule-index-ordered
// loop with '>' would, so every kernel gives the same chart bit for bit. The cell being built is a
// dense row of scratch; the finished cell is stored sparsely in the Chart (built symbols only).
#include "core/grammar/Grammar.h"
#include "core/parse/Chart.h"
#include "core/parse/DenseChart.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace prunescope {

struct ParseStats {
    long pushes = 0;       // rule evaluations with all children built: lexical (line 6),
                           // binary (line 19), unary and root rules (the paper's "push")
    long constituents = 0; // ||β||_0: (i,k,x) with a post value, over all cells
    int spansKept = 0;     // ||m||_0 over the prunable spans
    bool success = false;  // a ROOT derivation exists
    double logProb = 0;    // best derivation's log probability (if success)
};

// Where parses spend their time (`bench-parse --phases`; docs/benchmarks.md): steady-clock
// nanoseconds per phase, summed over every parse made while attached to a Parser (setPhases).
// Timing costs two clock reads per phase call, so time parses without it and read these as shares.
struct ParsePhases {
    double itemBuild = 0; // Parser::cellItems: a left cell's rules bucketed as items
    double split = 0;     // split kernels over items
    double direct = 0;    // direct passes (a left cell's last use, without items)
    double finishCell =
        0;            // unary layer, chart entries and right row of each cell (lexical cells too)
    double total = 0; // whole parses, set-up and ROOT included
    long parses = 0, pushes = 0, cells = 0, splits = 0, directs = 0, itemBuilds = 0, items = 0;
};

// The inner loop of a split (docs/benchmarks.md): chosen once per Parser from what the CPU offers
// (checked at run time, so the release build runs on any x86-64), or forced for tests.
enum class CkyKernel { Auto, Portable, Avx2, Avx512 };
const char* ckyKernelName(CkyKernel k);
bool ckyKernelSupported(CkyKernel k); // Auto and Portable: always
CkyKernel bestCkyKernel();            // the widest supported one

// A sentence the parser refuses before allocating for it: longer than kMaxSentenceLength words,
// or needing more memory than the parser's budget. Callers that go through a corpus skip it.
class SentenceTooLarge : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

// Default memory budget of one parser (chart and scratch): 2 GiB, a sentence of about 440 words
// with the bundled grammar. docs/file-formats.md, "Memory budget".
constexpr std::size_t kDefaultParserMemoryBudget = std::size_t{2} << 30;

class Parser {
  public:
    explicit Parser(const Grammar& g, CkyKernel kernel = CkyKernel::Auto);

    // Parses with mask (nullptr = keep every span). The mask's n must equal words.size().
    // Throws std::invalid_argument for an empty sentence or a wrong mask, and SentenceTooLarge
    // (before allocating) for one longer than kMaxSentenceLength or over the memory budget.
    ParseStats parse(std::span<const std::string> words, const PruningMask* mask = nullptr);

    // Bytes a parse of n words may need besides its lazily built item lists: the sparse chart at
    // its worst case (every symbol built in every cell) and the per-cell scratch, an upper bound
    // for this grammar. Item lists are checked against the rest of the budget as they grow.
    std::size_t denseBytes(int n) const;
    void setMemoryBudget(std::size_t bytes) { budget_ = bytes; }
    std::size_t memoryBudget() const { return budget_; }
    // Throws SentenceTooLarge if n words exceed the length limit or the budget.
    void checkFits(int n) const;

    // Attaches phase timing to the following parses (nullptr: none, the default).
    void setPhases(ParsePhases* phases) { phases_ = phases; }

    const Chart& chart() const { return chart_; }
    const Grammar& grammar() const { return *g_; }
    const std::vector<std::string>& words() const { return words_; }
    CkyKernel kernel() const { return kernel_; } // never Auto

    // Fills the unary layer (post) of cell (i,k) of a dense chart from its pre layer; returns
    // pushes. Public so that rollout algorithms can reuse the exact same step.
    static long applyUnaries(const Grammar& g, DenseChart& chart, int i, int k);

    // Bytes of per-parse scratch held besides the chart (items, right rows, the dense cell row).
    std::size_t scratchBytes() const;

    // The items of a left cell, structure of arrays; bucket z is [zBegin[z], zEnd[z]).
    struct Items {
        const float* left;    // post score of the rule's left child in the left cell
        const float* logProb; // the rule's log-probability
        const std::uint32_t* parent;
        const std::uint32_t* rule; // index into Grammar::binary (the witness's rule part)
    };
    // What a split kernel reads and writes (ParserKernels.cpp).
    struct Split {
        Items items;
        const std::uint32_t* zBegin;
        const std::uint32_t* zEnd;
        const std::uint64_t* rightBits; // right children built in (j,k), by dense id
        int rightWords;
        const float* rightRow; // their post scores, by dense id
        float* out;            // the cell's dense pre row
        std::uint32_t* outW;
        std::uint64_t* preBits; // built pre symbols of the cell
        std::uint32_t split;    // packBinaryWitness(j - i, 0)
    };
    using SplitKernel = long (*)(const Split&);
    // The rules of a left symbol y, grouped by right child (Grammar::groups: a run of rules y -> ?
    // z per z, in rule-index order): which right children y has (a bitset per symbol) and where
    // each group starts, so a pass over y's rules can skip every group whose right child it does
    // not need.
    struct LeftGroups {
        const std::uint64_t*
            rightBits; // per symbol: rightWords words, the dense right ids of its rules
        const std::uint32_t* groupBegin; // per symbol: its first group (Grammar::groupsByLeftBegin)
        const std::uint32_t* groupRule;  // per group: its first rule; [groups] = number of rules
        int rightWords;
    };
    // A split without items (DirectKernel): the left cell's built symbols and their rules in index
    // order (the static per-rule arrays), each tested against the right cell's dense row; the
    // portable and AVX2 kernels visit only the rule groups whose right child (j,k) built.
    struct Direct {
        const ChartEntry* leftBegin;
        const ChartEntry* leftEnd;
        LeftGroups groups;
        const std::uint32_t* leftRulesBegin; // per symbol
        const std::uint32_t* ruleRightId;
        const float* ruleLogProb;
        const std::uint32_t* ruleParent;
        const std::uint32_t* ruleIndex; // r -> r
        const std::uint64_t* rightBits;
        const float* rightRow; // -inf where not built
        float* out;
        std::uint32_t* outW;
        std::uint64_t* preBits;
        std::uint32_t split;
    };
    using DirectKernel = long (*)(const Direct&);
    // What the AVX-512 item builder reads and writes: for each needed right child z, the rules
    // x -> y z (in index order) whose y the left cell built, appended at `pos`.
    struct ItemBuild {
        const float* leftDense;      // the left cell's post scores by symbol, -inf if not built
        const std::uint64_t* needed; // dense right ids whose buckets are filled
        int numRight;
        const std::uint32_t* byRightBegin; // per dense right id: its rules in the lists below
        const std::uint32_t* byRightLeft;
        const float* byRightLogProb;
        const std::uint32_t* byRightParent;
        const std::uint32_t* byRightRule;
        float* left;
        float* logProb;
        std::uint32_t* parent;
        std::uint32_t* rule;
        std::uint32_t pos; // first free item slot (16 writable slots past the last item)
        std::uint32_t* zBegin;
        std::uint32_t* zEnd;
    };

    // What the portable and AVX2 item builder reads and writes: the groups of the left cell's
    // symbols whose right child is `needed`, counted, then copied into packed buckets from `pos`
    // on, in symbol order, so ascending rule index within a bucket. Returns the first free slot.
    struct ItemScatter {
        const ChartEntry* leftBegin;
        const ChartEntry* leftEnd;
        LeftGroups groups;
        const std::uint64_t* needed;
        const float* ruleLogProb;
        const std::uint32_t* ruleParent;
        float* left;
        float* logProb;
        std::uint32_t* parent;
        std::uint32_t* rule;
        std::uint32_t* zBegin; // per dense right id: its bucket's first slot
        std::uint32_t* cursor; // per dense right id: its bucket's end
        std::uint32_t pos;
        int numRight;
    };
    using ItemScatterKernel = std::uint32_t (*)(const ItemScatter&);

  private:
    void prepare(int n);
    long finishCell(int i, int k, ParseStats& st); // unary layer, chart entries, right row
    void emptyCell(int i, int k);                  // a pruned cell: no entries, no right children
    // Builds (i,j)'s items (at least the buckets of `needed`); returns its offset into zBegins_.
    std::uint32_t cellItems(int i, int j, const std::uint64_t* needed);
    long directSplit(int i, int j, const std::uint64_t* rightBits, const float* rightRow,
                     std::uint32_t split);
    DirectKernel directKernel_;
    ItemScatterKernel scatterKernel_;
    std::vector<std::uint64_t> leftRightBits_; // LeftGroups::rightBits
    std::vector<std::uint32_t> groupRule_;     // LeftGroups::groupRule
    LeftGroups leftGroups() const;
    std::vector<std::uint32_t> ruleIndex_; // 0, 1, ..., rules - 1
    void growItems(std::size_t count);
    ParseStats parseChecked(std::span<const std::string> words, const PruningMask* mask);
    void lexicalCell(int i, ParseStats& st);
    bool itemsPayOff(int i, int j, int k, const PruningMask* mask, const std::uint64_t* rbits);
    long binaryCell(int i, int k, const PruningMask* mask, Split& sp);
    void rootLayer(ParseStats& st);

    const Grammar* g_;
    CkyKernel kernel_;
    SplitKernel splitKernel_;
    Chart chart_;
    std::vector<std::string> words_;
    int N_ = 0;
    // Per binary rule, in Grammar::binary order (rules of a left symbol are contiguous).
    std::vector<float> ruleLogProb_;
    std::vector<std::uint32_t> ruleParent_;
    std::vector<std::uint32_t> ruleRightId_; // dense id of its right child
    std::vector<std::uint32_t>
        leftRulesBegin_; // per symbol: [begin, end) of the rules it is left child of
    std::vector<std::uint32_t>
        staticZBegin_; // per dense right id: the number of its rules before it
    std::vector<std::uint32_t> byRightBegin_, byRightLeft_, byRightParent_,
        byRightRule_; // ItemBuild's lists
    std::vector<float> byRightLogProb_;
    std::vector<float> leftDense_;          // N scores, -inf but while cellItems runs
    std::vector<std::uint64_t> neededBits_; // rightWords_
    std::vector<std::int32_t> rightId_;     // per symbol: dense right-child id or -1
    std::vector<std::uint32_t>
        rootBegin_; // per symbol: [begin, end) of its rules in Grammar::rootRules
    int numRight_ = 0, rightWords_ = 0;
    int bitWords_ = 0; // 64-bit words of a per-cell symbol bitset
    // Per parse scratch (capacity reused; no allocation once warmed up).
    // Items of the current row's left cells, built lazily (the first time a split needs the cell as
    // its left child with a non-empty right cell), dropped when the row is done. [0, itemsUsed_).
    std::vector<float> itemLeft_, itemLogProb_;
    std::vector<std::uint32_t> itemParent_, itemRule_;
    std::uint32_t itemsUsed_ = 0;
    std::vector<std::uint32_t> zBegins_,
        zEnds_; // per built left cell of the row: numRight_ bucket bounds
    std::uint32_t zBeginsUsed_ = 0;
    std::vector<std::uint32_t>
        rowZBegin_; // per end j of the row's cell (i,j): offset into zBegins_ or unbuilt
    std::vector<float> rightRows_;         // per cell: numRight_ + 1 post values of right children
                                           // (-inf where not built; the last is finishCell's dummy)
    std::vector<std::uint64_t> rightBits_; // per cell: rightWords_ words, built right children
    // The cell being built, dense over the symbols; back to -inf / kNoWitness after each cell.
    std::vector<float> out_;                        // pre layer
    std::vector<std::uint32_t> outW_;               // valid where out_ is finite
    std::vector<std::uint64_t> preBits_, postBits_; // its built symbols
    std::vector<float> unaryBest_; // per unary parent (+ a dummy): best unary score
    std::vector<std::uint32_t> unaryBestW_;
    // Grammar-derived, for finishCell.
    std::vector<std::uint32_t> unaryParentId_;  // per symbol: dense unary-parent id or the dummy
    std::vector<std::uint64_t> hasUnary_;       // symbols that are the child of a unary rule
    std::vector<std::uint32_t> rightIdOrDummy_; // per symbol: dense right id or numRight_
    ParsePhases* phases_ = nullptr;
    std::size_t budget_ = kDefaultParserMemoryBudget;
    std::size_t dense_ = 0; // denseBytes of the current parse
};

// Follows witnesses from ROOT: the binarized best tree (labels as in the grammar), or an
// empty optional-like Tree (label "") if the parse failed.
Tree bestBinarizedTree(const Grammar& g, const Chart& chart, std::span<const std::string> words);
Tree bestBinarizedTree(const Grammar& g, const DenseChart& chart,
                       std::span<const std::string> words);
// The n-ary best tree (debinarized). If the parse failed, returns the documented fallback:
// (ROOT (T1 w1) ... (Tn wn)) where Ti is the best-scoring tag of word i, so that EVALB
// scores it as zero matched brackets.
Tree bestTree(const Grammar& g, const Chart& chart, std::span<const std::string> words);
Tree bestTree(const Grammar& g, const DenseChart& chart, std::span<const std::string> words);

} // namespace prunescope
