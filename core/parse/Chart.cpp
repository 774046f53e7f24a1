#include "core/parse/Chart.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace prunescope {

void CellIndex::reset(int len) {
    n = len;
    cellOffsetByWidth.assign(n + 2, 0);
    // cellOffsetByWidth[w] = number of cells of width < w
    for (int w = 1; w <= n; ++w)
        cellOffsetByWidth[w + 1] = cellOffsetByWidth[w] + (n - w + 1);
}

void Chart::reset(int len, int symbols) {
    if (len < 0 || len > kMaxSentenceLength)
        throw std::invalid_argument("sentence length " + std::to_string(len) + " outside [0, " +
                                    std::to_string(kMaxSentenceLength) + "]");
    n = len;
    numSymbols = symbols;
    if (index_.n != len) index_.reset(len);
    const std::size_t cells = static_cast<std::size_t>(numCells());
    cellBegin_.assign(cells, 0);
    cellEnd_.assign(cells, 0);
    size_ = 0;
    rootScore = kNegInf;
    rootWitness = kNoWitness;
}

ChartEntry Chart::entry(int i, int k, std::uint32_t x) const {
    const std::span<const ChartEntry> es = entries(i, k);
    const auto it = std::lower_bound(
        es.begin(), es.end(), x, [](const ChartEntry& e, std::uint32_t s) { return e.symbol < s; });
    if (it != es.end() && it->symbol == x) return *it;
    return ChartEntry{x};
}

// Geometric growth; the chart keeps its high-water capacity across sentences.
void Chart::grow(std::size_t atLeast) {
    const std::size_t cap = std::max(atLeast, capacity_ + capacity_ / 2);
    std::unique_ptr<ChartEntry[]> bigger(new ChartEntry[cap]);
    std::copy(entries_.get(), entries_.get() + size_, bigger.get());
    entries_ = std::move(bigger);
    capacity_ = cap;
}

Chart::Chart(const Chart& o)
    : n(o.n), numSymbols(o.numSymbols), rootScore(o.rootScore), rootWitness(o.rootWitness),
      index_(o.index_), cellBegin_(o.cellBegin_), cellEnd_(o.cellEnd_) {
    grow(o.size_);
    std::copy(o.entries_.get(), o.entries_.get() + o.size_, entries_.get());
    size_ = o.size_;
}

Chart& Chart::operator=(const Chart& o) {
    if (this != &o) {
        Chart copy(o);
        *this = std::move(copy);
    }
    return *this;
}

std::size_t Chart::memoryBytes() const {
    return capacity_ * sizeof(ChartEntry) +
           (cellBegin_.capacity() + cellEnd_.capacity()) * sizeof(std::uint32_t) +
           index_.cellOffsetByWidth.capacity() * sizeof(int);
}

bool bitIdentical(const Chart& a, const Chart& b) {
    if (a.n != b.n || a.numSymbols != b.numSymbols ||
        std::memcmp(&a.rootScore, &b.rootScore, sizeof(float)) != 0 ||
        a.rootWitness != b.rootWitness)
        return false;
    for (int c = 0; c < a.numCells(); ++c) {
        const auto x = a.cellEntries(c), y = b.cellEntries(c);
        if (x.size() != y.size() ||
            std::memcmp(x.data(), y.data(), x.size() * sizeof(ChartEntry)) != 0)
            return false;
    }
    return true;
}

} // namespace prunescope
