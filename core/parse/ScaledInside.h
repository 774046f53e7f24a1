#pragma once
// The scaled sum-product inside pass over a span-pruned CKY chart, one kernel for every paper
// that sums over the mask's derivations: expected-recall rollouts (Vieira & Eisner 2017, sec.
// 5.3, carrying the expectation-semiring pair (α, ρ)) and PrunedInside (Bouchard-Côté, Petrov &
// Klein 2009, Alg. 3, carrying α) with its EM and sampling. The outside passes differ in kind
// (a pull over pruned cells for mask derivatives; a posterior-normalised push for expected counts)
// and stay with their owners, core/rollout/InsideOutside and core/mcmc/PrunedInsideOutside.
//
// Contract (tests/parse/test_scaled_inside.cpp): a cell's values are the sums over the
// derivations whose spans of width >= 2 below it are all kept, i.e. what naive enumeration of
// those derivations gives; the scalar carry visits exactly the hyperedges Parser::parse visits
// (same pushes); the pair carry's α equals the scalar carry's α bit for bit.
//
// Layout (the Viterbi parser's, core/parse/Parser.h): the binary rules of a left cell become
// items — p·(left value) and the parent — bucketed by the rule's right child, built the first
// time a split of the cell's row needs them and dropped when a cell of another row is built. A
// split then streams exactly the buckets of the right children its right cell built: every item
// read is a push. A left cell's first split reads its rules directly (a tight mask uses most
// cells once). Build cells row by row (start i = n-1 down to 0, end ascending) so that each
// left cell's items are built once; any order that builds children first gives the same values.
//
// Numerics: real-space doubles with one binary exponent per cell (value = mantissa × 2^S_c, the
// cell's largest post-layer α mantissa in [1,2)). Rescaling by powers of two is exact, so nothing
// under- or overflows at any sentence length and only the mantissa sums round.
#include "core/grammar/Grammar.h"
#include "core/parse/PruningMask.h"

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace prunescope {

// What a chart vertex carries. InsideValue: the inside sum α. InsidePair: the expectation
// semiring's (α, ρ), ρ = Σ_d p̃(d)·count(d), with (a1,r1)·(a2,r2) = (a1·a2, r1·a2 + a1·r2).
struct InsideValue {
    double a = 0;
};
struct InsidePair {
    double a = 0, r = 0;
};

template <class V> class ScaledInside {
  public:
    static constexpr int kEmpty = std::numeric_limits<int>::min(); // scale of an empty cell
    static constexpr std::uint32_t kNoCount = 0xFFFFFFFFu;

    explicit ScaledInside(const Grammar& g);

    // Starts a sentence: every cell empty, the dense rows of the previous sentence cleared.
    // Throws std::invalid_argument for an empty sentence, one over kMaxSentenceLength, or a mask
    // of another length.
    void reset(std::span<const std::string> words, const PruningMask& mask);
    // Builds cell (i,k) from the lexicon (width 1) or from every split whose two children are kept
    // by the mask and built, then its unary layer (identity or one unary rule on top). The cell's
    // own mask bit is not read: rollouts build pruned cells "as if kept". With the pair carry, the
    // post-layer vertex (i,k,countSym) counts once (ρ += α there); kNoCount for none.
    void buildCell(int i, int k, std::uint32_t countSym = kNoCount);

    int length() const { return n_; }
    int numSymbols() const { return N_; }
    int cell(int i, int k) const { return cellOffset_[k - i] + i; }
    int numCells() const { return n_ * (n_ + 1) / 2; }
    int scale(int c) const { return S_[c]; }
    bool built(int i, int k) const { return S_[cell(i, k)] != kEmpty; }
    // A child the binary rules may use: kept by the mask and built.
    bool usable(int i, int k) const { return mask_.keep(i, k) && built(i, k); }
    const PruningMask& mask() const { return mask_; }
    const std::vector<std::string>& words() const { return words_; }
    std::span<const LexicalEntry> lexical(int i) const { return lexical_[i]; }
    long pushes() const { return pushes_; } // hyperedges visited, Parser's unit (root excluded)

    // Post layer: dense row of cell c ([x] for symbol x, zero where not built) and its symbols.
    const V* post(int c) const { return post_.data() + static_cast<std::size_t>(c) * N_; }
    std::pair<std::uint32_t, std::uint32_t> postRange(int c) const { return postRange_[c]; }
    std::uint32_t postSym(std::uint32_t li) const { return postSym_[li]; }
    // Pre layer (before unaries): the symbols and values of cell c in list order.
    std::pair<std::uint32_t, std::uint32_t> preRange(int c) const { return preRange_[c]; }
    std::uint32_t preSym(std::uint32_t li) const { return preSym_[li]; }
    const V& preValue(std::uint32_t li) const { return pre_[li]; }

    // exp(logProb) of every rule; rootProb summed per child symbol.
    double binaryProb(std::uint32_t ri) const { return binaryProb_[ri]; }
    double unaryProb(std::uint32_t u) const { return unaryProb_[u]; }
    double rootProb(std::uint32_t x) const { return rootProb_[x]; }

  private:
    int binaryScale(int i, int k) const;
    void addBinary(int i, int k, int P);
    // Row i's items start empty (a new row drops the last row's).
    void openRow(int i);
    // The item buckets of left cell (i,j) of row i (built on first use); returns the index of its
    // first bucket bound in bucketBound_.
    std::uint32_t items(int i, int j);
    // Whether this is the first split of row i with left cell (i,j); the first split reads the
    // cell's rules directly.
    bool firstUse(int i, int j);
    void addSplitDirect(int l, const V* right, double f);
    int collect(int c, std::uint32_t countSym);

    const Grammar* g_;
    int N_ = 0, n_ = 0;
    PruningMask mask_;
    std::vector<std::string> words_;
    std::vector<std::span<const LexicalEntry>> lexical_;
    std::vector<int> cellOffset_; // as Chart::cellOffsetByWidth
    std::vector<double> binaryProb_, unaryProb_, rootProb_;
    std::vector<int> S_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> preRange_, postRange_;
    std::vector<std::uint32_t> preSym_, postSym_;
    std::vector<V> pre_;  // pre-layer values in list order
    std::vector<V> post_; // dense [cell*N + x]; grows only, cleared through the lists
    long pushes_ = 0;
    // Items (see Layout): the dense id of each symbol that is some rule's right child (-1 if
    // none); per end j of the row's left cells (i,j) the offset of its numRight_ + 1 bucket bounds
    // in bucketBound_ (kNoItems until built); the items, grown only.
    static constexpr std::uint32_t kNoItems = 0xFFFFFFFFu;
    std::vector<std::int32_t> rightId_;
    int numRight_ = 0;
    int itemsRow_ = -1;
    std::vector<std::uint32_t> itemsOfEnd_, usedOfEnd_, bucketBound_, cursor_;
    std::vector<V> itemValue_;
    std::vector<std::uint32_t> itemParent_;
    std::uint32_t itemsUsed_ = 0, boundsUsed_ = 0;
    // Scratch over the symbols of one cell (zero between cells).
    std::vector<V> scratch_;
    std::vector<std::uint32_t> touched_;
    std::vector<std::uint8_t> mark_;
};

extern template class ScaledInside<InsideValue>;
extern template class ScaledInside<InsidePair>;

} // namespace prunescope
