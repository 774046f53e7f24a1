// The second-order Eisner chart as a hypergraph (SiblingHypergraph.h).
#include "core/dep/SiblingHypergraph.h"

#include "core/dep/EisnerHypergraph.h"

#include <algorithm>
#include <limits>

namespace prunescope {

int SiblingHypergraph::labelOf(int h, int q, int m) {
    const auto [it, inserted] =
        partLabel.try_emplace(siblingPartKey(n, h, q, m), static_cast<int>(parts.size()));
    if (inserted) parts.push_back({h, q, m});
    return it->second;
}

SiblingHypergraph buildSiblingHypergraph(const ArcScores& sc, const SiblingScorer& sib,
                                         const ArcMask* mask, bool singleRoot) {
    const int n = sc.n;
    SiblingHypergraph sh;
    sh.n = n;
    const auto N = static_cast<std::size_t>(n + 1);
    std::vector<int> completeNode(N * N, -1), incompleteNode(N * N, -1), siblingNode(N * N, -1);
    Hypergraph& g = sh.graph;
    g.numLabels = std::numeric_limits<int>::max(); // labels are numbered as parts appear (below)
    auto idx = [N](int a, int b) {
        return static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b);
    };
    auto C = [&](int a, int b) { return completeNode[idx(a, b)]; };
    auto I = [&](int a, int b) { return incompleteNode[idx(a, b)]; };
    std::vector<std::uint8_t> allowed(N * N, 0);
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            allowed[idx(h, m)] = h != m && (!mask || mask->keep(h, m)) && sc(h, m) != kDepNegInf;
    // S(a, b) is needed only if some head keeps both a and b on one side of it.
    auto siblingNeeded = [&](int a, int b) {
        for (int h = 0; h < a; ++h)
            if (allowed[idx(h, a)] && allowed[idx(h, b)] && !(h == 0 && singleRoot)) return true;
        for (int h = b + 1; h <= n; ++h)
            if (allowed[idx(h, a)] && allowed[idx(h, b)]) return true;
        return false;
    };
    for (int s = 0; s <= n; ++s) {
        const int v = g.addNode();
        g.addEdge(v, {}, 0.0f);
        completeNode[idx(s, s)] = v;
    }
    for (int w = 1; w <= n; ++w)
        for (int s = 0; s + w <= n; ++s) {
            const int t = s + w;
            // S(s, t) = C(s, r) + C(t, r + 1), from items of smaller widths.
            if (s > 0 && siblingNeeded(s, t)) {
                int node = -1;
                for (int r = s; r < t; ++r) {
                    const int a = C(s, r), b = C(t, r + 1);
                    if (a < 0 || b < 0) continue;
                    if (node < 0) node = g.addNode();
                    g.addEdge(node, {a, b}, 0.0f);
                }
                siblingNode[idx(s, t)] = node;
            }
            for (int dir = 0; dir < 2; ++dir) {
                const int h = dir == 0 ? s : t, m = dir == 0 ? t : s;
                if (m == 0 || !allowed[idx(h, m)]) continue;
                const int step = h < m ? 1 : -1;
                int node = -1;
                const int first = C(m, h + step);
                if (first >= 0) {
                    node = g.addNode();
                    g.addEdge(node, {first}, sc(h, m) + sib.sibling(h, h, m), sh.labelOf(h, h, m));
                }
                if (!(h == 0 && singleRoot))
                    for (int q = s + 1; q < t; ++q) {
                        const int iq = I(h, q);
                        const int sq = siblingNode[idx(std::min(q, m), std::max(q, m))];
                        if (iq < 0 || sq < 0) continue;
                        if (node < 0) node = g.addNode();
                        g.addEdge(node, {iq, sq}, sc(h, m) + sib.sibling(h, q, m),
                                  sh.labelOf(h, q, m));
                    }
                incompleteNode[idx(h, m)] = node;
            }
            addEisnerCompleteNodes(g, n, s, t, singleRoot, incompleteNode, completeNode);
        }
    g.numLabels = static_cast<int>(sh.parts.size());
    g.goal = C(0, n);
    if (g.goal < 0) g.goal = g.addNode(); // no tree: every max-marginal stays -inf
    return sh;
}

std::vector<double> siblingArcMaxMarginals(const SiblingHypergraph& sh,
                                           const std::vector<double>& labelValue) {
    const auto N = static_cast<std::size_t>(sh.n + 1);
    std::vector<double> out(N * N, kHyperNegInf);
    const std::size_t labels = std::min(labelValue.size(), sh.parts.size());
    for (std::size_t l = 0; l < labels; ++l) {
        const auto& p = sh.parts[l];
        double& v = out[static_cast<std::size_t>(p[0]) * N + static_cast<std::size_t>(p[2])];
        v = std::max(v, labelValue[l]);
    }
    return out;
}

} // namespace prunescope
