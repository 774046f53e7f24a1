#pragma once
// The CKY chart β of Alg. 1 with witnesses (backpointers), shared by the parser,
// change propagation (sec. 5.2) and the inside-outside rollouts (sec. 5.3).
//
// Each span (i,k) is a cell with two layers over all symbols:
//   pre  — values from lexical rules (width 1) or binary rules x -> y z (width > 1);
//   post — pre plus at most one unary rule x -> y applied on top ("unary rules, though
//          not chains", sec. 6). Binary rules combine post values of the children.
// The whole-sentence cell additionally has the ROOT value (ROOT -> x over post).
// Scores are log probabilities (float); -inf means "not built".
#include <cstdint>
#include <limits>
#include <vector>

namespace prunescope {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Witness encodings.
//   pre, width 1 : kLexicalWitness
//   pre, width>1 : (splitOffset << 20) | binaryRuleIndex, splitOffset = j - i in [1, 4095]
//   post         : 0 = no unary (value copied from pre), r + 1 = unary rule r
//   root         : index into Grammar::rootRules
//   absent       : kNoWitness
constexpr std::uint32_t kNoWitness = 0xFFFFFFFFu;
constexpr std::uint32_t kLexicalWitness = 0xFFFFFFFEu;
constexpr int kMaxSentenceLength = 4095;
inline std::uint32_t packBinaryWitness(int splitOffset, std::uint32_t rule) {
    return (static_cast<std::uint32_t>(splitOffset) << 20) | rule;
}
inline int witnessSplitOffset(std::uint32_t w) { return static_cast<int>(w >> 20); }
inline std::uint32_t witnessRule(std::uint32_t w) { return w & 0xFFFFFu; }

struct Chart {
    int n = 0;          // sentence length
    int numSymbols = 0; // N
    std::vector<int> cellOffsetByWidth; // first cell index of each width (index 1..n)
    std::vector<float> pre, post;       // [cell * N + symbol]
    std::vector<std::uint32_t> preWitness, postWitness;
    float rootScore = kNegInf;
    std::uint32_t rootWitness = kNoWitness;

    int numCells() const { return n * (n + 1) / 2; }
    int cell(int i, int k) const { return cellOffsetByWidth[k - i] + i; }
    std::size_t at(int i, int k, std::uint32_t symbol) const {
        return static_cast<std::size_t>(cell(i, k)) * numSymbols + symbol;
    }
    const float* preRow(int i, int k) const { return pre.data() + static_cast<std::size_t>(cell(i, k)) * numSymbols; }
    const float* postRow(int i, int k) const { return post.data() + static_cast<std::size_t>(cell(i, k)) * numSymbols; }
    bool parsed() const { return rootScore != kNegInf; }
    // Sizes the arrays for a sentence of length n (reusing capacity) and clears every value.
    void reset(int n, int numSymbols);
    // Bytes held by the value and witness arrays.
    std::size_t memoryBytes() const;
};

// Whether two charts are equal bit for bit (values compared as bytes, so -0/+0 and NaN payloads
// count): the exactness check of change propagation and of its undo list.
bool bitIdentical(const Chart& a, const Chart& b);

// The score of a binary hyperedge, computed the same way everywhere so that every
// algorithm sees bit-identical values: (left + right) + rule.
inline float binaryEdgeScore(float left, float right, float rule) { return (left + right) + rule; }

} // namespace prunescope
