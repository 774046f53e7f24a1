// The tree-constrained vine (Eisner & Smith 2005, with Rush & Petrov 2012's outer parts) as a
// hypergraph.
#include "core/vine/VineTreeParser.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

Hypergraph buildVineTreeHypergraph(const VineScores& sc, bool singleRoot) {
    checkVineScores(sc);
    const int n = sc.n, b = sc.band;
    Hypergraph g;
    g.numLabels = vineLabelCount(n);
    const auto N = static_cast<std::size_t>(n + 1);
    auto idx = [N](int a, int c) {
        return static_cast<std::size_t>(a) * N + static_cast<std::size_t>(c);
    };
    // Items between tokens 1..n: complete C[h][e] (h's half-tree ending at e) and incomplete
    // I[h][m] (a short arc h -> m, |h - m| <= b). The vine's own items: V[f][e] = the vine's
    // complete item over [0, e] and W[f][m] = the vine item "0 ... m, m a vine child", f = whether
    // a root arc is in.
    std::vector<int> C(N * N, -1), I(N * N, -1);
    std::vector<int> V[2] = {std::vector<int>(N, -1), std::vector<int>(N, -1)};
    std::vector<int> W[2] = {std::vector<int>(N, -1), std::vector<int>(N, -1)};
    for (int s = 1; s <= n; ++s) {
        C[idx(s, s)] = g.addNode();
        g.addEdge(C[idx(s, s)], {}, 0.0f);
    }
    V[0][0] = g.addNode();
    g.addEdge(V[0][0], {}, 0.0f);
    auto node = [&g](int& v) {
        if (v < 0) v = g.addNode();
        return v;
    };
    for (int w = 1; w <= n - 1; ++w)
        for (int s = 1; s + w <= n; ++s) {
            const int t = s + w;
            if (w <= b)
                for (int dir = 0; dir < 2; ++dir) {
                    const int h = dir == 0 ? s : t, m = dir == 0 ? t : s;
                    const float arc = sc.arcs(h, m);
                    if (arc == kDepNegInf) continue;
                    int v = -1;
                    for (int r = s; r < t; ++r) {
                        const int a = C[idx(s, r)], c = C[idx(t, r + 1)];
                        if (a >= 0 && c >= 0) g.addEdge(node(v), {a, c}, arc, arcLabel(n, h, m));
                    }
                    I[idx(h, m)] = v;
                }
            // C[s][t] (rightward): I[s][m] + C[m][t], m within the band of s.
            int v = -1;
            for (int m = s + 1; m <= std::min(t, s + b); ++m) {
                const int a = I[idx(s, m)], c = C[idx(m, t)];
                if (a >= 0 && c >= 0) g.addEdge(node(v), {a, c}, 0.0f);
            }
            C[idx(s, t)] = v;
            v = -1; // C[t][s] (leftward): I[t][m] + C[m][s]
            for (int m = std::max(s, t - b); m < t; ++m) {
                const int a = I[idx(t, m)], c = C[idx(m, s)];
                if (a >= 0 && c >= 0) g.addEdge(node(v), {a, c}, 0.0f);
            }
            C[idx(t, s)] = v;
        }
    // The vine, left to right: W[f][m] = V[f'][r] + C[m][r + 1] + (m's vine part), then
    // V[f][e] = W[f][m] + C[m][e]. A vine part is the root arc (sets f; once if singleRoot) or an
    // outer arc.
    for (int e = 1; e <= n; ++e) {
        const int m = e;
        for (int f = 0; f < 2; ++f) {
            int v = -1;
            for (int r = 0; r < m; ++r) {
                const int left = C[idx(m, r + 1)];
                if (left < 0) continue;
                auto add = [&](int tail, float wgt, int label) {
                    if (tail >= 0 && wgt != kDepNegInf)
                        g.addEdge(node(v), {tail, left}, wgt, label);
                };
                const int same = V[f][static_cast<std::size_t>(r)];
                for (VineSide side : {VineSide::Left, VineSide::Right})
                    if (vineOuterExists(n, b, m, side))
                        add(same, sc.outerScore(m, side), vineOuterLabel(n, m, side));
                if (f == 1) {
                    add(V[0][static_cast<std::size_t>(r)], sc.arcs(0, m), arcLabel(n, 0, m));
                    if (!singleRoot) add(same, sc.arcs(0, m), arcLabel(n, 0, m));
                }
            }
            W[f][static_cast<std::size_t>(m)] = v;
        }
        for (int f = 0; f < 2; ++f) {
            int v = -1;
            for (int h = 1; h <= e; ++h) {
                const int a = W[f][static_cast<std::size_t>(h)], c = C[idx(h, e)];
                if (a >= 0 && c >= 0) g.addEdge(node(v), {a, c}, 0.0f);
            }
            V[f][static_cast<std::size_t>(e)] = v;
        }
    }
    int top = V[1][N - 1];
    for (int h = 1; h <= n; ++h)
        top = appendVineOuterHeadChoices(g, sc, h, top); // independent of the tree
    g.goal = top >= 0 ? top : g.addNode(); // no vine parse: every max-marginal stays -inf
    return g;
}

} // namespace prunescope
