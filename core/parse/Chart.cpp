#include "core/parse/Chart.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace prunescope {

void Chart::reset(int len, int symbols) {
    if (len < 0 || len > kMaxSentenceLength)
        throw std::invalid_argument("sentence length " + std::to_string(len) + " outside [0, " +
                                    std::to_string(kMaxSentenceLength) + "]");
    n = len;
    numSymbols = symbols;
    cellOffsetByWidth.assign(n + 2, 0);
    for (int w = 1; w <= n; ++w) cellOffsetByWidth[w + 1] = cellOffsetByWidth[w] + (n - w + 1);
    // cellOffsetByWidth[w] = number of cells of width < w
    const std::size_t size = static_cast<std::size_t>(numCells()) * numSymbols;
    pre.assign(size, kNegInf);
    post.assign(size, kNegInf);
    preWitness.assign(size, kNoWitness);
    postWitness.assign(size, kNoWitness);
    rootScore = kNegInf;
    rootWitness = kNoWitness;
}

std::size_t Chart::memoryBytes() const {
    return pre.capacity() * sizeof(float) + post.capacity() * sizeof(float) +
           preWitness.capacity() * sizeof(std::uint32_t) + postWitness.capacity() * sizeof(std::uint32_t);
}

bool bitIdentical(const Chart& a, const Chart& b) {
    auto same = [](const auto& x, const auto& y) {
        return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
    };
    return a.n == b.n && same(a.pre, b.pre) && same(a.post, b.post) && same(a.preWitness, b.preWitness) &&
           same(a.postWitness, b.postWitness) && std::memcmp(&a.rootScore, &b.rootScore, sizeof(float)) == 0 &&
           a.rootWitness == b.rootWitness;
}

} // namespace prunescope
