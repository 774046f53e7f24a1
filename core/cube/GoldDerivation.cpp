// The gold derivation in the cube-pruned chart (GoldDerivation.h).
#include "core/cube/GoldDerivation.h"

#include "core/dep/DepTree.h"

#include <algorithm>
#include <functional>

namespace prunescope {

int GoldDerivation::fellOffCount() const {
    return static_cast<int>(
        std::count_if(nodes.begin(), nodes.end(), [](const GoldNode& g) { return g.fellOff(); }));
}

std::vector<ViolationNode> GoldDerivation::violationTree() const {
    std::vector<ViolationNode> t(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        t[i].children = nodes[i].children;
        t[i].violation = nodes[i].violation;
        t[i].differs = !nodes[i].correct();
    }
    return t;
}

int GoldDerivation::nodeOfCell(int cellId) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].cellId == cellId) return static_cast<int>(i);
    return -1;
}

namespace {

// Whether the token between lo and hi (exclusive) all descend from h.
bool arcIsProjective(const std::vector<int>& heads, int h, int m) {
    const int lo = std::min(h, m), hi = std::max(h, m);
    for (int x = lo + 1; x < hi; ++x) {
        int y = x;
        while (y != h && y > 0)
            y = heads[static_cast<std::size_t>(y)];
        if (y != h) return false;
    }
    return true;
}

} // namespace

std::vector<int> liftToProjective(std::vector<int> heads) {
    const int n = static_cast<int>(heads.size()) - 1;
    for (;;) {
        int pick = -1, pickLen = 0;
        for (int m = 1; m <= n; ++m) {
            const int h = heads[static_cast<std::size_t>(m)];
            if (h <= 0) continue; // arcs from the root cover only its descendants
            const int len = std::abs(h - m);
            if ((pick < 0 || len < pickLen) && !arcIsProjective(heads, h, m)) {
                pick = m;
                pickLen = len;
            }
        }
        if (pick < 0) return heads;
        heads[static_cast<std::size_t>(pick)] =
            heads[static_cast<std::size_t>(heads[static_cast<std::size_t>(pick)])];
    }
}

GoldDerivation goldDerivation(CubePruner& pruner, const CubeScorer& sc,
                              const std::vector<int>& gold) {
    GoldDerivation g;
    const CubeChart& ch = pruner.chart();
    const int n = ch.n;
    if (static_cast<int>(gold.size()) != n + 1 || sc.size() != n) {
        g.problem = "the gold tree has " + std::to_string(static_cast<int>(gold.size()) - 1) +
                    " tokens, the chart " + std::to_string(n);
        return g;
    }
    if (const std::string p = treeProblem(gold); !p.empty()) {
        g.problem = "not a tree: " + p;
        return g;
    }
    if (!isProjective(gold)) {
        g.problem = "not projective";
        return g;
    }
    if (pruner.options().singleRoot && rootCount(gold) != 1) {
        g.problem = std::to_string(rootCount(gold)) + " root modifiers under a single-root parser";
        return g;
    }
    for (int m = 1; m <= n; ++m)
        if (!sc.allowed(gold[static_cast<std::size_t>(m)], m)) {
            g.problem = "the mask prunes the gold arc " +
                        std::to_string(gold[static_cast<std::size_t>(m)]) + " -> " +
                        std::to_string(m);
            return g;
        }
    // Leftmost / rightmost descendant of every position (the spans of its complete items).
    std::vector<int> lo(static_cast<std::size_t>(n) + 1), hi(static_cast<std::size_t>(n) + 1);
    for (int x = 0; x <= n; ++x)
        lo[static_cast<std::size_t>(x)] = hi[static_cast<std::size_t>(x)] = x;
    for (int m = 1; m <= n; ++m)
        for (int y = gold[static_cast<std::size_t>(m)]; y >= 0;
             y = gold[static_cast<std::size_t>(y)]) {
            lo[static_cast<std::size_t>(y)] = std::min(lo[static_cast<std::size_t>(y)], m);
            hi[static_cast<std::size_t>(y)] = std::max(hi[static_cast<std::size_t>(y)], m);
        }
    // Post-order construction; returns the node index.
    std::function<int(CubeCell)> build = [&](CubeCell c) -> int {
        GoldNode node;
        node.cell = c;
        node.cellId = ch.cellId(c);
        int edge = -1;
        std::vector<CubeCell> kids;
        if (c.kind == CubeKind::Complete && c.head != c.end) {
            const int h = c.head, e = c.end;
            int m = -1;
            if (h < e) {
                for (int x = e; x > h && m < 0; --x)
                    if (gold[static_cast<std::size_t>(x)] == h) m = x;
            } else {
                for (int x = e; x < h && m < 0; ++x)
                    if (gold[static_cast<std::size_t>(x)] == h) m = x;
            }
            edge = m;
            kids = {{CubeKind::Incomplete, h, m}, {CubeKind::Complete, m, e}};
        } else if (c.kind == CubeKind::Incomplete) {
            const int h = c.head, m = c.end;
            const int r =
                h < m ? lo[static_cast<std::size_t>(m)] - 1 : hi[static_cast<std::size_t>(m)];
            edge = r;
            const int s = std::min(h, m), t = std::max(h, m);
            kids = {{CubeKind::Complete, s, r}, {CubeKind::Complete, t, r + 1}};
        }
        for (const CubeCell& k : kids)
            node.children.push_back(build(k));
        if (node.children.empty()) {
            node.goldItem = ch.beamItem(node.cellId, 0); // the leaf
        } else {
            const int a = g.nodes[static_cast<std::size_t>(node.children[0])].goldItem;
            const int b = g.nodes[static_cast<std::size_t>(node.children[1])].goldItem;
            node.goldItem = pruner.buildItem(sc, c, edge, a, b);
        }
        const int self = static_cast<int>(g.nodes.size());
        for (const int k : node.children)
            g.nodes[static_cast<std::size_t>(k)].parent = self;
        g.nodes.push_back(std::move(node));
        return self;
    };
    build({CubeKind::Complete, 0, n});
    for (GoldNode& node : g.nodes) {
        const auto beam = ch.beamOf(node.cellId);
        const CubeItem& gi = ch.item(node.goldItem);
        node.rank = -1;
        for (std::size_t r = 0; r < beam.size(); ++r)
            if (beam[r].arcs == gi.arcs) {
                node.rank = static_cast<int>(r);
                break;
            }
        node.viterbiItem = beam.empty() ? -1 : ch.beamItem(node.cellId, 0);
        node.violation = node.rank == 0 || node.viterbiItem < 0
                             ? 0.0
                             : static_cast<double>(ch.item(node.viterbiItem).score) -
                                   static_cast<double>(gi.score);
    }
    return g;
}

} // namespace prunescope
