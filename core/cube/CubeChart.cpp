// Walks over the items of the cube-pruned chart (CubeChart.h).
#include "core/cube/CubeChart.h"

#include "core/util/FeatureHash.h"

namespace prunescope {

std::uint64_t cubeArcHash(int h, int m) {
    return mixKey(mixKey(0x6375626541726373ull, static_cast<std::uint64_t>(h)),
                  static_cast<std::uint64_t>(m));
}

void CubeChart::reset(int len, int k) {
    n = len;
    beam = k;
    items.clear();
    beamBegin.assign(static_cast<std::size_t>(numCells()), 0);
    beamSize.assign(static_cast<std::size_t>(numCells()), 0);
}

void CubeChart::arcs(int itemId, std::vector<std::array<int, 2>>& out) const {
    std::vector<int> stack{itemId};
    while (!stack.empty()) {
        const CubeItem& it = item(stack.back());
        stack.pop_back();
        if (it.edge < 0) continue;
        const CubeCell c = cell(it.cell);
        if (c.kind == CubeKind::Incomplete) out.push_back({c.head, c.end});
        stack.push_back(it.right);
        stack.push_back(it.left);
    }
}

std::vector<int> CubeChart::heads(int itemId) const {
    std::vector<int> h(static_cast<std::size_t>(n) + 1, -1);
    std::vector<std::array<int, 2>> a;
    arcs(itemId, a);
    for (const auto& [head, m] : a)
        h[static_cast<std::size_t>(m)] = head;
    return h;
}

CubeParts CubeChart::parts(int itemId, CubeFeatureSet features) const {
    CubeParts p;
    std::vector<int> stack{itemId};
    while (!stack.empty()) {
        const int id = stack.back();
        stack.pop_back();
        const CubeItem& it = item(id);
        if (it.edge < 0) continue;
        const CubeCell c = cell(it.cell);
        if (c.kind == CubeKind::Incomplete) {
            const int h = c.head, m = c.end;
            p.arcs.push_back({h, m});
            if (features.siblings) p.siblings.push_back({h, outermost(headSide(id)), m});
            if (features.grandparents)
                forEachModifier(modifierSide(id), [&](int x) {
                    p.grandparents.push_back({h, m, x});
                });
        } else if (features.grandparents) {
            const int h = c.head, m = it.edge;
            forEachModifier(it.right, [&](int x) { p.grandparents.push_back({h, m, x}); });
        }
        stack.push_back(it.right);
        stack.push_back(it.left);
    }
    return p;
}

} // namespace prunescope
