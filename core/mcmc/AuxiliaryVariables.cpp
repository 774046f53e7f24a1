// Auxiliary variables, Alg. 2 and the selection chain k* (Bouchard-Côté et al. 2009,
// sec. 2.3, 3.2).
#include "core/mcmc/AuxiliaryVariables.h"

#include "core/policy/GoldSpans.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prunescope {

std::vector<std::uint8_t> assignmentOf(const Tree& t) {
    return spanIndicator(t);
}

PruningMask createMask(int n, const SpanList& selected, const std::vector<std::uint8_t>& a) {
    if (a.size() != static_cast<std::size_t>(n + 1) * (n + 1))
        throw std::invalid_argument("assignment vector is for another sentence length");
    PruningMask m = PruningMask::allKeep(n);
    SpanList positive;
    for (const auto& [i, k] : selected) {
        if (!PruningMask::prunable(n, i, k))
            throw std::invalid_argument("selected span is not prunable");
        if (a[static_cast<std::size_t>(i) * (n + 1) + k])
            positive.emplace_back(i, k);
        else
            m.set(i, k, false); // a_ι = − and ι selected
    }
    if (positive.empty()) return m;
    // Spans crossing a positive selected span (a, b): i < a < k < b or a < i < b < k.
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            const int k = i + w;
            for (const auto& [pa, pb] : positive)
                if (spansCross(i, k, pa, pb)) {
                    m.set(i, k, false);
                    break;
                }
        }
    return m;
}

const char* selectionName(SelectionKind k) {
    switch (k) {
    case SelectionKind::Rotate:
        return "rotate";
    case SelectionKind::Independent:
        return "independent";
    case SelectionKind::None:
        return "none";
    }
    return "?";
}

SelectionKind selectionFromName(const std::string& name) {
    for (SelectionKind k : {SelectionKind::Rotate, SelectionKind::Independent, SelectionKind::None})
        if (name == selectionName(k)) return k;
    throw std::invalid_argument("unknown selection chain '" + name +
                                "' (rotate, independent or none)");
}

SelectionChain::SelectionChain(SelectionKind kind, SpanList support, double fraction)
    : kind_(kind), fraction_(fraction), support_(std::move(support)) {
    if (!(fraction > 0 && fraction < 1))
        throw std::invalid_argument("the selection fraction must lie in (0, 1)");
    if (kind == SelectionKind::Rotate && fraction < 0.5)
        throw std::invalid_argument(
            "the rotating selection chain needs a selection fraction of at least 1/2");
    in_.assign(support_.size(), 0);
}

int SelectionChain::selectionSize() const {
    const int m = static_cast<int>(support_.size());
    if (kind_ == SelectionKind::None || m < 2) return 0;
    // The paper's ⌊2|M'|/3⌋ exactly for f = 2/3 (no rounding of f·|M'|).
    const int s = fraction_ == 2.0 / 3.0 ? 2 * m / 3 : static_cast<int>(std::floor(fraction_ * m));
    return std::min(s, m - 1);
}

void SelectionChain::rebuildSelected() {
    selected_.clear();
    for (std::size_t q = 0; q < support_.size(); ++q)
        if (in_[q]) selected_.push_back(support_[q]);
}

void SelectionChain::drawUniform(SplitMix64& rng) {
    std::fill(in_.begin(), in_.end(), 0);
    const int size = selectionSize();
    // Partial Fisher-Yates over the support indices.
    std::vector<std::uint32_t> idx(support_.size());
    for (std::size_t q = 0; q < idx.size(); ++q)
        idx[q] = static_cast<std::uint32_t>(q);
    for (int t = 0; t < size; ++t) {
        const std::size_t j = t + rng.below(idx.size() - t);
        std::swap(idx[t], idx[j]);
        in_[idx[t]] = 1;
    }
    rebuildSelected();
}

void SelectionChain::initialize(SplitMix64& rng) {
    drawUniform(rng);
}

void SelectionChain::next(SplitMix64& rng) {
    switch (kind_) {
    case SelectionKind::None:
        return;
    case SelectionKind::Independent:
        return drawUniform(rng);
    case SelectionKind::Rotate:
        break;
    }
    const int s = selectionSize();
    if (s == 0) return;
    const int m = static_cast<int>(support_.size());
    const int keep = 2 * s - m; // |R|: |(M' \ s) ∪ R| = m - s + |R| = s
    std::vector<std::uint32_t> cur;
    for (std::size_t q = 0; q < in_.size(); ++q)
        if (in_[q]) cur.push_back(static_cast<std::uint32_t>(q));
    for (int t = 0; t < keep; ++t)
        std::swap(cur[t], cur[t + rng.below(cur.size() - t)]);
    for (auto& b : in_)
        b = !b; // M' \ s
    for (int t = 0; t < keep; ++t)
        in_[cur[t]] = 1; // ∪ R
    rebuildSelected();
}

} // namespace prunescope
