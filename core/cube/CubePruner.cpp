// Cube pruning over Eisner's span hypergraph (CubePruner.h).
#include "core/cube/CubePruner.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace prunescope {

namespace {
// a pops after b: lower score, or equal score and larger (edge, i, j).
struct PopsLater {
    template <typename C> bool operator()(const C& a, const C& b) const {
        if (a.score != b.score) return a.score < b.score;
        if (a.edge != b.edge) return a.edge > b.edge;
        if (a.i != b.i) return a.i > b.i;
        return a.j > b.j;
    }
};
} // namespace

CubePruner::CubePruner(CubeOptions options) : options_(options) {
    if (options_.beam < 1)
        throw std::invalid_argument("cube pruning: the beam must hold at least one item");
}

void CubePruner::checkMemory() const {
    const std::size_t bytes = chart_.items.size() * sizeof(CubeItem);
    if (bytes > options_.memoryBudget)
        throw std::invalid_argument("cube pruning: " + std::to_string(chart_.n) +
                                    " tokens at beam " + std::to_string(options_.beam) +
                                    " need more than " +
                                    std::to_string(options_.memoryBudget >> 20) + " MiB of items");
}

float CubePruner::localScore(const CubeScorer& sc, CubeCell cell, int left, int right) const {
    const CubeFeatureSet f = sc.features();
    if (cell.kind == CubeKind::Incomplete) {
        const int h = cell.head, m = cell.end;
        float v = sc.arc(h, m);
        const int headSide = h < m ? left : right, modSide = h < m ? right : left;
        if (f.siblings) v += sc.sibling(h, chart_.outermost(headSide), m);
        if (f.grandparents)
            chart_.forEachModifier(modSide, [&](int c) { v += sc.grandparent(h, m, c); });
        return v;
    }
    if (!f.grandparents) return 0.0f;
    const int h = cell.head, m = chart_.cell(chart_.item(right).cell).head;
    float v = 0.0f;
    chart_.forEachModifier(right, [&](int c) { v += sc.grandparent(h, m, c); });
    return v;
}

int CubePruner::buildItem(const CubeScorer& sc, CubeCell cell, int edge, int left, int right) {
    CubeItem it;
    it.cell = chart_.cellId(cell);
    it.edge = edge;
    it.left = left;
    it.right = right;
    if (left >= 0) {
        const CubeItem &a = chart_.item(left), &b = chart_.item(right);
        it.local = localScore(sc, cell, left, right);
        it.score = (a.score + b.score) + it.local;
        it.arcs = a.arcs + b.arcs +
                  (cell.kind == CubeKind::Incomplete ? cubeArcHash(cell.head, cell.end) : 0);
    }
    chart_.items.push_back(it);
    return static_cast<int>(chart_.items.size()) - 1;
}

void CubePruner::runCube(const CubeScorer& sc, CubeCell cell, CubeStats& st) {
    const int cellId = chart_.cellId(cell);
    const auto begin = static_cast<std::int32_t>(chart_.items.size());
    chart_.beamBegin[static_cast<std::size_t>(cellId)] = begin;
    if (edges_.empty()) return;
    auto offer = [&](int e, int i, int j) {
        const Edge& ed = edges_[static_cast<std::size_t>(e)];
        const int a = chart_.beamItem(ed.leftCell, i), b = chart_.beamItem(ed.rightCell, j);
        const float local = localScore(sc, cell, a, b);
        heap_.push_back({(chart_.item(a).score + chart_.item(b).score) + local, local, e, i, j});
        std::push_heap(heap_.begin(), heap_.end(), PopsLater{});
        ++st.pushes;
    };
    heap_.clear();
    for (int e = 0; e < static_cast<int>(edges_.size()); ++e)
        offer(e, 0, 0);
    const bool incomplete = cell.kind == CubeKind::Incomplete;
    const std::uint64_t arcHash = incomplete ? cubeArcHash(cell.head, cell.end) : 0;
    int popped = 0;
    while (!heap_.empty() && popped < options_.beam) {
        std::pop_heap(heap_.begin(), heap_.end(), PopsLater{});
        const Candidate c = heap_.back();
        heap_.pop_back();
        const Edge& ed = edges_[static_cast<std::size_t>(c.edge)];
        CubeItem it;
        it.score = c.score;
        it.local = c.local;
        it.cell = cellId;
        it.edge = ed.edge;
        it.left = chart_.beamItem(ed.leftCell, c.i);
        it.right = chart_.beamItem(ed.rightCell, c.j);
        it.arcs = chart_.item(it.left).arcs + chart_.item(it.right).arcs + arcHash;
        chart_.items.push_back(it);
        ++popped;
        if (c.j + 1 < chart_.beamSize[static_cast<std::size_t>(ed.rightCell)])
            offer(c.edge, c.i, c.j + 1);
        if (c.j == 0 && c.i + 1 < chart_.beamSize[static_cast<std::size_t>(ed.leftCell)])
            offer(c.edge, c.i + 1, 0);
    }
    st.pops += popped;
    chart_.beamSize[static_cast<std::size_t>(cellId)] = popped;
    std::stable_sort(chart_.items.begin() + begin, chart_.items.end(),
                     [](const CubeItem& a, const CubeItem& b) { return a.score > b.score; });
    checkMemory();
}

void CubePruner::fillIncomplete(const CubeScorer& sc, int h, int m, CubeStats& st) {
    const int s = std::min(h, m), t = std::max(h, m);
    const int rEnd = (s == 0 && options_.singleRoot) ? 0 : t - 1;
    edges_.clear();
    for (int r = s; r <= rEnd; ++r) {
        const int L = chart_.cellId(CubeKind::Complete, s, r),
                  R = chart_.cellId(CubeKind::Complete, t, r + 1);
        if (chart_.beamSize[static_cast<std::size_t>(L)] > 0 &&
            chart_.beamSize[static_cast<std::size_t>(R)] > 0)
            edges_.push_back({r, L, R});
    }
    runCube(sc, {CubeKind::Incomplete, h, m}, st);
}

void CubePruner::fillComplete(const CubeScorer& sc, int h, int e, CubeStats& st) {
    edges_.clear();
    const int lo = h < e ? h + 1 : e, hi = h < e ? e : h - 1;
    for (int m = lo; m <= hi; ++m) {
        const int L = chart_.cellId(CubeKind::Incomplete, h, m),
                  R = chart_.cellId(CubeKind::Complete, m, e);
        if (chart_.beamSize[static_cast<std::size_t>(L)] > 0 &&
            chart_.beamSize[static_cast<std::size_t>(R)] > 0)
            edges_.push_back({m, L, R});
    }
    runCube(sc, {CubeKind::Complete, h, e}, st);
}

bool CubePruner::fits(int n, std::string* why) const {
    auto fail = [&](const std::string& w) {
        if (why) *why = w;
        return false;
    };
    if (n < 1) return fail("cube pruning: empty sentence");
    if (n > kMaxDepSentenceLength)
        return fail("cube pruning: sentence of " + std::to_string(n) +
                    " tokens exceeds the limit of " + std::to_string(kMaxDepSentenceLength));
    if (options_.beam < kCubeUnboundedBeam) {
        const double bytes =
            2.0 * (n + 1.0) * (n + 1.0) * options_.beam * static_cast<double>(sizeof(CubeItem));
        if (bytes > static_cast<double>(options_.memoryBudget))
            return fail("cube pruning: a " + std::to_string(n) + "-token sentence at beam " +
                        std::to_string(options_.beam) + " may need " +
                        std::to_string(static_cast<long>(bytes / 1048576.0)) +
                        " MiB of items, over the budget of " +
                        std::to_string(options_.memoryBudget >> 20) +
                        " MiB (use a smaller --beam)");
    }
    return true;
}

CubeParse CubePruner::parse(const CubeScorer& sc) {
    const int n = sc.size();
    if (std::string why; !fits(n, &why)) throw std::invalid_argument(why);
    chart_.reset(n, options_.beam);
    chart_.items.reserve(static_cast<std::size_t>(chart_.numCells()) *
                         static_cast<std::size_t>(std::min(options_.beam, 8)));
    CubeStats st;
    for (int s = 0; s <= n; ++s) {
        const int id = chart_.cellId(CubeKind::Complete, s, s);
        chart_.beamBegin[static_cast<std::size_t>(id)] =
            static_cast<std::int32_t>(chart_.items.size());
        chart_.beamSize[static_cast<std::size_t>(id)] = 1;
        CubeItem leaf;
        leaf.cell = id;
        chart_.items.push_back(leaf);
    }
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            st.arcsKept += h != m && sc.allowed(h, m);
    const bool oneRoot = options_.singleRoot;
    for (int w = 1; w <= n; ++w)
        for (int s = 0; s + w <= n; ++s) {
            const int t = s + w;
            if (sc.allowed(s, t)) fillIncomplete(sc, s, t, st);
            if (s > 0 && sc.allowed(t, s)) fillIncomplete(sc, t, s, st);
            if (!(s == 0 && oneRoot && t != n)) fillComplete(sc, s, t, st);
            if (s > 0) fillComplete(sc, t, s, st);
        }
    CubeParse out;
    const int best = chart_.bestRootItem();
    st.success = best >= 0;
    if (st.success) {
        st.score = chart_.item(best).score;
        out.heads = chart_.heads(best);
    } else {
        out.heads.assign(static_cast<std::size_t>(n) + 1, -1);
    }
    out.stats = st;
    return out;
}

} // namespace prunescope
