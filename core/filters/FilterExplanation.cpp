// Per-arc and per-token explanation of an arc filter (FilterExplanation.h).
#include "core/filters/FilterExplanation.h"

namespace prunescope {

ArcFilterExplanation explainArcFilter(const ArcFilter& f, const DepSentence& s, double threshold) {
    const ArcFilterScorer sc(f, s);
    ArcFilterExplanation e;
    const int n = s.size();
    e.n = n;
    e.threshold = threshold;
    e.mask = sc.mask(threshold);
    const std::size_t cells = static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 1);
    e.maxEvent.assign(cells, FilterEvent{});
    e.margin.assign(cells, -std::numeric_limits<float>::infinity());
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m) {
            if (h == m) continue;
            e.margin[e.idx(h, m)] = sc.margin(h, m, &e.maxEvent[e.idx(h, m)]);
        }
    e.roles.assign(static_cast<std::size_t>(n + 1), {});
    for (int t = 1; t <= n; ++t)
        for (int r = 0; r < kTokenRoleCount; ++r) {
            const auto kind = static_cast<FilterEventKind>(r);
            if (kind == FilterEventKind::Root && !f.useRoot) continue;
            const double v = sc.role(kind, t);
            bool fires = false;
            for (int h = 0; h <= n && !fires; ++h)
                for (int m = 1; m <= n && !fires; ++m)
                    if (h != m && roleFilters(kind, t, h, m) &&
                        v - static_cast<double>(sc.none(h, m)) > threshold)
                        fires = true;
            if (fires) e.roles[static_cast<std::size_t>(t)].push_back(kind);
        }
    e.totalArcs = ArcMask::totalArcs(n);
    e.filtered = e.totalArcs - e.mask.keptCount();
    if (s.hasTree())
        for (int m = 1; m <= n; ++m) {
            ++e.goldArcs;
            if (e.mask.keep(s.heads[static_cast<std::size_t>(m)], m)) ++e.goldKept;
        }
    return e;
}

std::vector<std::pair<FilterEvent, float>>
arcFilterEventScores(const ArcFilter& f, const ArcFilterScorer& s, int h, int m) {
    std::vector<std::pair<FilterEvent, float>> out;
    for (const FilterEvent& z : filteringEvents(s.size(), h, m, f.useRoot, f.useVine))
        out.emplace_back(z, s.score(z));
    const FilterEvent none{FilterEventKind::None, -1, h, m};
    out.emplace_back(none, s.score(none));
    return out;
}

} // namespace prunescope
