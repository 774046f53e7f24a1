// The Eisner chart as a hypergraph.
#include "core/dep/EisnerHypergraph.h"

#include "core/dep/EisnerMaxMarginals.h"

namespace prunescope {

void addEisnerCompleteNodes(Hypergraph& g, int n, int s, int t, bool singleRoot,
                            const std::vector<int>& incompleteNode,
                            std::vector<int>& completeNode) {
    const auto N = static_cast<std::size_t>(n + 1);
    auto at = [N](int a, int b) {
        return static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b);
    };
    auto side = [&](int head, int end, int mFirst,
                    int mLast) { // C(head, end) = I(head, m) + C(m, end)
        int node = -1;
        for (int m = mFirst; m <= mLast; ++m) {
            const int a = incompleteNode[at(head, m)], b = completeNode[at(m, end)];
            if (a < 0 || b < 0) continue;
            if (node < 0) node = g.addNode();
            g.addEdge(node, {a, b}, 0.0f);
        }
        completeNode[at(head, end)] = node;
    };
    if (eisnerRightComplete(s, t, n, singleRoot)) side(s, t, s + 1, t);
    if (s > 0) side(t, s, s, t - 1);
}

EisnerHypergraph buildEisnerHypergraph(const ArcScores& sc, const ArcMask* mask, bool singleRoot) {
    const int n = sc.n;
    EisnerHypergraph eh;
    eh.n = n;
    const auto N = static_cast<std::size_t>(n + 1);
    eh.completeNode.assign(N * N, -1);
    eh.incompleteNode.assign(N * N, -1);
    Hypergraph& g = eh.graph;
    g.numLabels = static_cast<int>(N * N);
    auto idx = [N](int a, int b) {
        return static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b);
    };
    auto C = [&](int a, int b) { return eh.completeNode[idx(a, b)]; };
    auto allowed = [&](int h, int m) {
        return (!mask || mask->keep(h, m)) && sc(h, m) != kDepNegInf;
    };
    for (int s = 0; s <= n; ++s) {
        const int v = g.addNode();
        g.addEdge(v, {}, 0.0f);
        eh.completeNode[idx(s, s)] = v;
    }
    for (int w = 1; w <= n; ++w)
        for (int s = 0; s + w <= n; ++s) {
            const int t = s + w;
            for (int dir = 0; dir < 2; ++dir) {
                const int h = dir == 0 ? s : t, m = dir == 0 ? t : s;
                if (m == 0 || !allowed(h, m)) continue;
                const int rEnd = eisnerLastSplit(s, t, singleRoot);
                int node = -1;
                for (int r = s; r <= rEnd; ++r) {
                    const int a = C(s, r), b = C(t, r + 1);
                    if (a < 0 || b < 0) continue;
                    if (node < 0) node = g.addNode();
                    g.addEdge(node, {a, b}, sc(h, m), arcLabel(n, h, m));
                }
                eh.incompleteNode[idx(h, m)] = node;
            }
            addEisnerCompleteNodes(g, n, s, t, singleRoot, eh.incompleteNode, eh.completeNode);
        }
    g.goal = C(0, n);
    if (g.goal < 0) { // no tree: an unbuildable goal node keeps every max-marginal at -inf
        g.goal = g.addNode();
    }
    return eh;
}

ArcMaxMarginals arcMaxMarginals(const ArcScores& scores, const ArcMask* mask, bool singleRoot) {
    ArcMaxMarginals out;
    EisnerMaxMarginalSolver().solve(scores, mask, singleRoot, out);
    return out;
}

ArcMaxMarginals arcMaxMarginalsByHypergraph(const ArcScores& scores, const ArcMask* mask,
                                            bool singleRoot) {
    const EisnerHypergraph eh = buildEisnerHypergraph(scores, mask, singleRoot);
    const MaxMarginals mm = maxMarginals(eh.graph);
    ArcMaxMarginals out;
    out.n = scores.n;
    out.best = mm.best;
    out.value = mm.label;
    out.pushes = mm.edgesVisited;
    return out;
}

} // namespace prunescope
