// The vine parser as a hypergraph (Rush & Petrov 2012 sec. 3; Eisner & Smith 2005).
#include "core/vine/VineParser.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

Hypergraph buildVineHypergraph(const VineScores& sc, bool singleRoot) {
    const int n = sc.n, b = sc.band;
    if (n < 1) throw std::invalid_argument("vine parser: empty sentence");
    if (b < 1) throw std::invalid_argument("vine parser: band must be >= 1");
    if (sc.arcs.n != n || sc.outer.size() != static_cast<std::size_t>(2 * (n + 1)))
        throw std::invalid_argument("vine parser: scores of the wrong size");
    Hypergraph g;
    g.numLabels = vineLabelCount(n);
    const int W = 2 * b + 1;  // item (s, t) with |s - t| <= b stored at [s][t - s + b]
    std::vector<int> C(static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(W), -1), I(C.size(), -1);
    auto at = [&](int s, int t) { return static_cast<std::size_t>(s) * static_cast<std::size_t>(W) + static_cast<std::size_t>(t - s + b); };
    auto cN = [&](int s, int t) { return C[at(s, t)]; };
    auto iN = [&](int s, int t) { return I[at(s, t)]; };
    for (int s = 1; s <= n; ++s) {
        const int v = g.addNode();
        g.addEdge(v, {}, 0.0f);
        C[at(s, s)] = v;
    }
    // Eisner's items of width <= b over tokens 1..n (no root inside: the vine is the root's part).
    for (int w = 1; w <= b; ++w)
        for (int s = 1; s + w <= n; ++s) {
            const int t = s + w;
            for (int dir = 0; dir < 2; ++dir) {
                const int h = dir == 0 ? s : t, m = dir == 0 ? t : s;
                const float a = sc.arcs(h, m);
                if (a == kDepNegInf) continue;
                int node = -1;
                for (int r = s; r < t; ++r) {
                    const int x = cN(s, r), y = cN(t, r + 1);
                    if (x < 0 || y < 0) continue;
                    if (node < 0) node = g.addNode();
                    g.addEdge(node, {x, y}, a, arcLabel(n, h, m));
                }
                I[at(h, m)] = node;
            }
            int node = -1;
            for (int m = s + 1; m <= t; ++m) {
                const int x = iN(s, m), y = cN(m, t);
                if (x < 0 || y < 0) continue;
                if (node < 0) node = g.addNode();
                g.addEdge(node, {x, y}, 0.0f);
            }
            C[at(s, t)] = node;
            node = -1;
            for (int m = s; m < t; ++m) {
                const int x = iN(t, m), y = cN(m, s);
                if (x < 0 || y < 0) continue;
                if (node < 0) node = g.addNode();
                g.addEdge(node, {x, y}, 0.0f);
            }
            C[at(t, s)] = node;
        }
    // The vine, left to right. V[f][p]: tokens 1..p covered by finished vine children, f = whether
    // a root arc was used. L[f][v]: V[f][l - 1] plus v's left half C(v, l).
    std::vector<int> V0(static_cast<std::size_t>(n + 1), -1), V1(V0), L0(V0), L1(V0);
    V0[0] = g.addNode();
    g.addEdge(V0[0], {}, 0.0f);
    for (int p = 1; p <= n; ++p) {
        for (int f = 0; f < 2; ++f) {
            auto& Vf = f == 0 ? V0 : V1;
            int node = -1;
            for (int l = std::max(1, p - b); l <= p; ++l) {
                const int x = Vf[static_cast<std::size_t>(l - 1)], y = cN(p, l);
                if (x < 0 || y < 0) continue;
                if (node < 0) node = g.addNode();
                g.addEdge(node, {x, y}, 0.0f);
            }
            (f == 0 ? L0 : L1)[static_cast<std::size_t>(p)] = node;
        }
        for (int f = 0; f < 2; ++f) {
            int node = -1;
            auto edge = [&](int tailL, int right, float w, int label) {
                if (tailL < 0 || right < 0 || w == kDepNegInf) return;
                if (node < 0) node = g.addNode();
                g.addEdge(node, {tailL, right}, w, label);
            };
            for (int v = std::max(1, p - b); v <= p; ++v) {
                const int right = cN(v, p);
                const auto vs = static_cast<std::size_t>(v);
                // outer arcs keep the flag
                const int same = (f == 0 ? L0 : L1)[vs];
                if (vineOuterExists(n, b, v, VineSide::Left)) edge(same, right, sc.outerScore(v, VineSide::Left), vineOuterLabel(n, v, VineSide::Left));
                if (vineOuterExists(n, b, v, VineSide::Right)) edge(same, right, sc.outerScore(v, VineSide::Right), vineOuterLabel(n, v, VineSide::Right));
                // the root arc sets the flag
                if (f == 1) {
                    edge(L0[vs], right, sc.arcs(0, v), arcLabel(n, 0, v));
                    if (!singleRoot) edge(L1[vs], right, sc.arcs(0, v), arcLabel(n, 0, v));
                }
            }
            (f == 0 ? V0 : V1)[static_cast<std::size_t>(p)] = node;
        }
    }
    g.goal = V1[static_cast<std::size_t>(n)];
    if (g.goal < 0) g.goal = g.addNode();  // no vine parse: every max-marginal stays -inf
    return g;
}

std::vector<int> vineProjection(int n, int band, const std::vector<int>& heads) {
    std::vector<int> out;
    out.reserve(static_cast<std::size_t>(n));
    for (int m = 1; m <= n; ++m) {
        const int h = heads[static_cast<std::size_t>(m)];
        if (h < 0) continue;
        if (vineShortArc(band, h, m)) out.push_back(arcLabel(n, h, m));
        else out.push_back(vineOuterLabel(n, m, h < m ? VineSide::Left : VineSide::Right));
    }
    return out;
}

} // namespace prunescope
