#pragma once
// The chart β of Alg. 1 in dense form: every cell holds a row of N values and witnesses per layer,
// built or not (-inf / kNoWitness). Change propagation (sec. 5.2) edits this form in place, vertex
// by vertex, and the explorer's heat map reads it; the parser builds the sparse Chart (Chart.h),
// which holds the same values. Layout: [cell * N + symbol], cells numbered as in Chart.
#include "core/parse/Chart.h"

#include <cstdint>
#include <vector>

namespace prunescope {

struct DenseChart {
    int n = 0;                          // sentence length
    int numSymbols = 0;                 // N
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
    const float* preRow(int i, int k) const {
        return pre.data() + static_cast<std::size_t>(cell(i, k)) * numSymbols;
    }
    const float* postRow(int i, int k) const {
        return post.data() + static_cast<std::size_t>(cell(i, k)) * numSymbols;
    }
    bool parsed() const { return rootScore != kNegInf; }
    // The values and witnesses of (i,k,x), as Chart::entry returns them.
    ChartEntry entry(int i, int k, std::uint32_t x) const {
        const std::size_t v = at(i, k, x);
        return ChartEntry{x, pre[v], post[v], preWitness[v], postWitness[v]};
    }
    // Sizes the arrays for a sentence of length n (reusing capacity) and clears every value.
    void reset(int n, int numSymbols);
    // Bytes held by the value and witness arrays.
    std::size_t memoryBytes() const;
};

// The dense form of a sparse chart (same values and witnesses everywhere).
DenseChart toDense(const Chart& c);

// Whether two charts are equal bit for bit (values compared as bytes, so -0/+0 and NaN payloads
// count): the exactness check of change propagation and of its undo list.
bool bitIdentical(const DenseChart& a, const DenseChart& b);
bool bitIdentical(const DenseChart& a, const Chart& b);

} // namespace prunescope
