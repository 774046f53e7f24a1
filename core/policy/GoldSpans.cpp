#include "core/policy/GoldSpans.h"

#include <algorithm>

namespace prunescope {

std::vector<std::pair<int, int>> prunableSpans(const Tree& t) {
    const int n = t.size();
    std::vector<std::pair<int, int>> out;
    for (const auto& s : labeledSpans(t))
        if (PruningMask::prunable(n, s.begin, s.end)) out.emplace_back(s.begin, s.end);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

PruningMask spanMask(const Tree& t) {
    const int n = t.size();
    PruningMask m = PruningMask::allKeep(n);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            m.set(i, i + w, false);
    for (auto [i, k] : prunableSpans(t))
        m.set(i, k, true);
    return m;
}

std::vector<std::uint8_t> spanIndicator(const Tree& t) {
    const int n = t.size();
    std::vector<std::uint8_t> ind(static_cast<std::size_t>(n + 1) * (n + 1), 0);
    for (auto [i, k] : prunableSpans(t))
        ind[static_cast<std::size_t>(i) * (n + 1) + k] = 1;
    return ind;
}

} // namespace prunescope
