#include "core/parse/DenseChart.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace prunescope {

void DenseChart::reset(int len, int symbols) {
    if (len < 0 || len > kMaxSentenceLength)
        throw std::invalid_argument("sentence length " + std::to_string(len) + " outside [0, " +
                                    std::to_string(kMaxSentenceLength) + "]");
    n = len;
    numSymbols = symbols;
    CellIndex idx;
    idx.reset(n);
    cellOffsetByWidth = std::move(idx.cellOffsetByWidth);
    const std::size_t size = static_cast<std::size_t>(numCells()) * numSymbols;
    pre.assign(size, kNegInf);
    post.assign(size, kNegInf);
    preWitness.assign(size, kNoWitness);
    postWitness.assign(size, kNoWitness);
    rootScore = kNegInf;
    rootWitness = kNoWitness;
}

std::size_t DenseChart::memoryBytes() const {
    return pre.capacity() * sizeof(float) + post.capacity() * sizeof(float) +
           preWitness.capacity() * sizeof(std::uint32_t) +
           postWitness.capacity() * sizeof(std::uint32_t);
}

DenseChart toDense(const Chart& c) {
    DenseChart d;
    d.reset(c.n, c.numSymbols);
    for (int cell = 0; cell < c.numCells(); ++cell)
        for (const ChartEntry& e : c.cellEntries(cell)) {
            const std::size_t v = static_cast<std::size_t>(cell) * c.numSymbols + e.symbol;
            d.pre[v] = e.pre;
            d.post[v] = e.post;
            d.preWitness[v] = e.preWitness;
            d.postWitness[v] = e.postWitness;
        }
    d.rootScore = c.rootScore;
    d.rootWitness = c.rootWitness;
    return d;
}

namespace {
bool sameFloat(float a, float b) {
    return std::memcmp(&a, &b, sizeof(float)) == 0;
}
} // namespace

bool bitIdentical(const DenseChart& a, const DenseChart& b) {
    auto same = [](const auto& x, const auto& y) {
        return x.size() == y.size() &&
               std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
    };
    return a.n == b.n && same(a.pre, b.pre) && same(a.post, b.post) &&
           same(a.preWitness, b.preWitness) && same(a.postWitness, b.postWitness) &&
           sameFloat(a.rootScore, b.rootScore) && a.rootWitness == b.rootWitness;
}

// Every dense entry must equal the sparse one: the built symbols' values and witnesses, and
// -inf / kNoWitness everywhere else.
bool bitIdentical(const DenseChart& a, const Chart& b) {
    if (a.n != b.n || a.numSymbols != b.numSymbols || !sameFloat(a.rootScore, b.rootScore) ||
        a.rootWitness != b.rootWitness)
        return false;
    const std::size_t N = static_cast<std::size_t>(a.numSymbols);
    if (a.pre.size() < static_cast<std::size_t>(a.numCells()) * N) return false;
    for (int c = 0; c < a.numCells(); ++c) {
        const std::size_t base = static_cast<std::size_t>(c) * N;
        std::uint32_t x = 0;
        auto empty = [&](std::uint32_t s) {
            return sameFloat(a.pre[base + s], kNegInf) && sameFloat(a.post[base + s], kNegInf) &&
                   a.preWitness[base + s] == kNoWitness && a.postWitness[base + s] == kNoWitness;
        };
        for (const ChartEntry& e : b.cellEntries(c)) {
            for (; x < e.symbol; ++x)
                if (!empty(x)) return false;
            if (!sameFloat(a.pre[base + x], e.pre) || !sameFloat(a.post[base + x], e.post) ||
                a.preWitness[base + x] != e.preWitness || a.postWitness[base + x] != e.postWitness)
                return false;
            ++x;
        }
        for (; x < N; ++x)
            if (!empty(x)) return false;
    }
    return true;
}

} // namespace prunescope
