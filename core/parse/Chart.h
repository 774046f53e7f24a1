#pragma once
// The CKY chart β of Alg. 1 with witnesses (backpointers), as the parser builds it: sparse cells,
// only the built symbols of each span stored (docs/architecture.md, "The chart and its readers").
//
// Each span (i,k) is a cell with two layers over the grammar's symbols:
//   pre  — values from lexical rules (width 1) or binary rules x -> y z (width > 1);
//   post — pre plus at most one unary rule x -> y applied on top ("unary rules, though
//          not chains", sec. 6). Binary rules combine post values of the children.
// The whole-sentence cell additionally has the ROOT value (ROOT -> x over post).
// Scores are log probabilities (float); -inf means "not built".
//
// A cell stores one ChartEntry per built symbol x (finite post value; pre may be -inf when only a
// unary rule built x), in ascending symbol order. Every (i,k,x) without an entry has pre = post =
// -inf and no witnesses: the chart is exactly the dense one of the reference CKY, without the
// -inf entries. Memory grows with the built constituents (about 20 bytes each; ~130 per cell at
// 31–40 words), not with cells × symbols. DenseChart (DenseChart.h) is the dense, mutable form
// change propagation edits in place; bitIdentical() compares any two of them value by value.
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace prunescope {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr double kNegInfD =
    -std::numeric_limits<double>::infinity(); // outside scores, max-marginals

// Witness encodings.
//   pre, width 1 : kLexicalWitness
//   pre, width>1 : (splitOffset << 20) | binaryRuleIndex, splitOffset = j - i in [1, 4095]
//   post         : 0 = no unary (value copied from pre), r + 1 = unary rule r
//   root         : index into Grammar::rootRules
//   absent       : kNoWitness
constexpr std::uint32_t kNoWitness = 0xFFFFFFFFu;
constexpr std::uint32_t kLexicalWitness = 0xFFFFFFFEu;
// The longest sentence any chart holds (the split offset of a witness has 12 bits).
constexpr int kMaxSentenceLength = 4095;
inline std::uint32_t packBinaryWitness(int splitOffset, std::uint32_t rule) {
    return (static_cast<std::uint32_t>(splitOffset) << 20) | rule;
}
inline int witnessSplitOffset(std::uint32_t w) {
    return static_cast<int>(w >> 20);
}
inline std::uint32_t witnessRule(std::uint32_t w) {
    return w & 0xFFFFFu;
}

// One built symbol of a cell: both layers' values and witnesses.
struct ChartEntry {
    std::uint32_t symbol;
    float pre = kNegInf, post = kNegInf;
    std::uint32_t preWitness = kNoWitness, postWitness = kNoWitness;
};

// Cells are numbered by width, then start: cell(i,k) = offset(k - i) + i (the same numbering as
// DenseChart, PruningMask-independent).
struct CellIndex {
    int n = 0;
    std::vector<int> cellOffsetByWidth; // first cell index of each width (index 1..n)
    void reset(int len);
    int numCells() const { return n * (n + 1) / 2; }
    int cell(int i, int k) const { return cellOffsetByWidth[k - i] + i; }
};

class Chart {
  public:
    Chart() = default;
    Chart(const Chart& other); // copies the entries (the capacity is not kept)
    Chart& operator=(const Chart& other);
    Chart(Chart&&) noexcept = default;
    Chart& operator=(Chart&&) noexcept = default;

    int n = 0;          // sentence length
    int numSymbols = 0; // N
    float rootScore = kNegInf;
    std::uint32_t rootWitness = kNoWitness;

    int numCells() const { return index_.numCells(); }
    int cell(int i, int k) const { return index_.cell(i, k); }
    const std::vector<int>& cellOffsetByWidth() const { return index_.cellOffsetByWidth; }
    bool parsed() const { return rootScore != kNegInf; }

    // The built symbols of cell (i,k) (or cell index c), ascending; empty for a pruned or empty
    // cell. The span stays valid until the chart is reset or rebuilt.
    std::span<const ChartEntry> entries(int i, int k) const { return cellEntries(cell(i, k)); }
    std::span<const ChartEntry> cellEntries(int c) const {
        return {entries_.get() + cellBegin_[c], entries_.get() + cellEnd_[c]};
    }
    // The entry of (i,k,x), or an empty one (values -inf, no witnesses) if x is not built there.
    // Binary search in the cell: O(log built symbols).
    ChartEntry entry(int i, int k, std::uint32_t x) const;
    // ||β||_0: the number of built constituents (entries) in the whole chart.
    long constituents() const { return static_cast<long>(size_); }

    // Bytes held (entries and per-cell offsets, at capacity).
    std::size_t memoryBytes() const;

    // --- building (Parser) ---
    // Sizes the chart for n words and empties every cell, keeping capacity.
    void reset(int n, int numSymbols);
    // Cell c's entries (ascending symbols; each cell at most once per reset): write at most
    // `maxCount` entries at appendCell(c, maxCount), then endCell(c, count).
    ChartEntry* appendCell(int c, std::size_t maxCount) {
        if (size_ + maxCount > capacity_) grow(size_ + maxCount);
        cellBegin_[c] = static_cast<std::uint32_t>(size_);
        return entries_.get() + size_;
    }
    void endCell(int c, std::size_t count) {
        size_ += count;
        cellEnd_[c] = static_cast<std::uint32_t>(size_);
    }

  private:
    CellIndex index_;
    std::vector<std::uint32_t> cellBegin_, cellEnd_; // per cell: [begin, end) into entries_
    void grow(std::size_t atLeast);
    std::unique_ptr<ChartEntry[]> entries_; // cells in build order; [0, size_) written
    std::size_t size_ = 0, capacity_ = 0;
};

// Whether two charts hold the same values and witnesses for every (i,k,x) and ROOT, bit for bit
// (values compared as bytes, so -0/+0 and NaN payloads count).
bool bitIdentical(const Chart& a, const Chart& b);

// The score of a binary hyperedge, computed the same way everywhere so that every
// algorithm sees bit-identical values: (left + right) + rule.
inline float binaryEdgeScore(float left, float right, float rule) {
    return (left + right) + rule;
}

} // namespace prunescope
