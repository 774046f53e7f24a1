// The vine parser as a hypergraph (Rush & Petrov 2012 sec. 3; Eisner & Smith 2005).
#include "core/vine/VineParser.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

void checkVineScores(const VineScores& sc) {
    const int n = sc.n;
    if (n < 1) throw std::invalid_argument("vine parser: empty sentence");
    if (sc.band < 1) throw std::invalid_argument("vine parser: band must be >= 1");
    if (sc.arcs.n != n || sc.outer.size() != static_cast<std::size_t>(2 * (n + 1)) ||
        sc.outerHead.size() != sc.outer.size())
        throw std::invalid_argument("vine parser: scores of the wrong size");
}

int appendVineOuterHeadChoices(Hypergraph& g, const VineScores& sc, int h, int node) {
    for (VineSide side : {VineSide::Left, VineSide::Right}) {
        if (node < 0 || !vineOuterHeadExists(sc.n, sc.band, h, side)) continue;
        const float w = sc.outerHeadScore(h, side);
        if (w == kDepNegInf) continue;
        const int next = g.addNode();
        g.addEdge(next, {node}, 0.0f);
        g.addEdge(next, {node}, w, vineOuterHeadLabel(sc.n, h, side));
        node = next;
    }
    return node;
}

Hypergraph buildVineHypergraph(const VineScores& sc, bool singleRoot) {
    checkVineScores(sc);
    const int n = sc.n, b = sc.band;
    Hypergraph g;
    g.numLabels = vineLabelCount(n);
    // P[f][m]: tokens 1..m have their vine heads, f = whether a root arc was used.
    std::vector<int> P0(static_cast<std::size_t>(n + 1), -1), P1(P0);
    P0[0] = g.addNode();
    g.addEdge(P0[0], {}, 0.0f);
    for (int m = 1; m <= n; ++m) {
        const auto prev = static_cast<std::size_t>(m - 1);
        for (int f = 0; f < 2; ++f) {
            int node = -1;
            auto edge = [&](int tail, float w, int label) {
                if (tail < 0 || w == kDepNegInf) return;
                if (node < 0) node = g.addNode();
                g.addEdge(node, {tail}, w, label);
            };
            const int same = (f == 0 ? P0 : P1)[prev];
            for (int h = std::max(1, m - b); h <= std::min(n, m + b); ++h)
                if (h != m) edge(same, sc.arcs(h, m), arcLabel(n, h, m));
            if (vineOuterExists(n, b, m, VineSide::Left))
                edge(same, sc.outerScore(m, VineSide::Left), vineOuterLabel(n, m, VineSide::Left));
            if (vineOuterExists(n, b, m, VineSide::Right))
                edge(same, sc.outerScore(m, VineSide::Right),
                     vineOuterLabel(n, m, VineSide::Right));
            if (f == 1) {
                edge(P0[prev], sc.arcs(0, m), arcLabel(n, 0, m));
                if (!singleRoot) edge(P1[prev], sc.arcs(0, m), arcLabel(n, 0, m));
            }
            node = appendVineOuterHeadChoices(g, sc, m, node);
            (f == 0 ? P0 : P1)[static_cast<std::size_t>(m)] = node;
        }
    }
    g.goal = P1[static_cast<std::size_t>(n)];
    if (g.goal < 0) g.goal = g.addNode(); // no vine parse: every max-marginal stays -inf
    return g;
}

std::vector<int> vineProjection(int n, int band, const std::vector<int>& heads) {
    std::vector<int> out;
    out.reserve(static_cast<std::size_t>(n));
    for (int m = 1; m <= n; ++m) {
        const int h = heads[static_cast<std::size_t>(m)];
        if (h < 0) continue;
        if (vineShortArc(band, h, m))
            out.push_back(arcLabel(n, h, m));
        else
            out.push_back(vineOuterLabel(n, m, h < m ? VineSide::Left : VineSide::Right));
    }
    std::vector<char> far(static_cast<std::size_t>(2 * (n + 1)),
                          0); // [2 * h + side]: h has a far modifier there
    for (int m = 1; m <= n; ++m) {
        const int h = heads[static_cast<std::size_t>(m)];
        if (h >= 0 && !vineShortArc(band, h, m))
            far[static_cast<std::size_t>(2 * h + (m < h ? 0 : 1))] = 1;
    }
    for (int h = 1; h <= n; ++h)
        for (VineSide side : {VineSide::Left, VineSide::Right})
            if (far[static_cast<std::size_t>(2 * h + static_cast<int>(side))])
                out.push_back(vineOuterHeadLabel(n, h, side));
    return out;
}

} // namespace prunescope
