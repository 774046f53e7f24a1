#pragma once
// The cube-pruned chart (Zhang & McDonald 2012; Zhang et al. 2013 sec. 3): the cells of Eisner's
// span hypergraph, each holding a beam of at most k items — whole derivations, not dynamic-program
// values — so that features of any scope over an item's subtree can be scored when items combine.
//
// Cells (positions 0..n, 0 = root; the same indices as DepChart):
//   C(h,e) complete: head h with its descendants between h and e on e's side (C(h,h) = the leaf);
//   I(h,m) incomplete: the arc h -> m with everything strictly between h and m attached.
// Hyperedges (Eisner 1996):  I(h,m) <- C(min,r) C(max,r+1)  (+ arc h->m),  r = the split;
//                            C(h,e) <- I(h,m) C(m,e)         (m = h's outermost modifier in it).
// Every projective tree has exactly one derivation, so two items of a cell differ in their arcs.
//
// Items live in one arena (ids are indices); a cell's beam is a contiguous range of it, best first.
// Gold items built for training (CubePruner::buildItem) are appended to the same arena, outside any
// beam, so every walk below works for beam and gold items alike.
#include "core/cube/CubeScorer.h"

#include <cstdint>
#include <span>
#include <vector>

namespace prunescope {

enum class CubeKind : std::uint8_t { Complete = 0, Incomplete = 1 };

struct CubeCell {
    CubeKind kind = CubeKind::Complete;
    int head = 0; // h
    int end = 0;  // e for C(h,e), m for I(h,m)
    bool operator==(const CubeCell&) const = default;
};

struct CubeItem {
    float score =
        0; // w . phi(derivation): children's scores + local, summed in float like Eisner's chart
    float local = 0;        // the parts scored at this item's own combination
    std::int32_t cell = -1; // CubeChart::cellId
    std::int32_t edge =
        -1; // I: the split r; C: the modifier m of its last arc; -1 for a leaf C(h,h)
    std::int32_t left = -1;  // I: C(min, r); C: I(h, m); -1 for a leaf
    std::int32_t right = -1; // I: C(max, r + 1); C: C(m, e); -1 for a leaf
    std::uint64_t arcs =
        0; // order-free hash of its arc set: equal arcs <=> same derivation (w.h.p.)
};

class CubeChart {
  public:
    int n = 0;
    int beam = 0;                                  // k
    std::vector<CubeItem> items;                   // the arena
    std::vector<std::int32_t> beamBegin, beamSize; // per cell

    int N() const { return n + 1; }
    int numCells() const { return 2 * N() * N(); }
    int cellId(CubeKind k, int head, int end) const {
        return (static_cast<int>(k) * N() + head) * N() + end;
    }
    int cellId(CubeCell c) const { return cellId(c.kind, c.head, c.end); }
    CubeCell cell(int id) const {
        const int NN = N() * N();
        return {static_cast<CubeKind>(id / NN), (id % NN) / N(), id % N()};
    }
    int rootCell() const { return cellId(CubeKind::Complete, 0, n); }
    std::span<const CubeItem> beamOf(int cellId) const {
        return {items.data() + beamBegin[static_cast<std::size_t>(cellId)],
                static_cast<std::size_t>(beamSize[static_cast<std::size_t>(cellId)])};
    }
    // Arena id of the r-th item of a cell's beam.
    int beamItem(int cellId, int rank) const {
        return beamBegin[static_cast<std::size_t>(cellId)] + rank;
    }
    const CubeItem& item(int id) const { return items[static_cast<std::size_t>(id)]; }
    // The best tree's item (rank 0 of C(0, n)), -1 if no tree exists under the mask.
    int bestRootItem() const {
        return beamSize.empty() || beamSize[static_cast<std::size_t>(rootCell())] == 0
                   ? -1
                   : beamItem(rootCell(), 0);
    }

    // Resets for a sentence (capacity reused); every beam empty.
    void reset(int n, int beam);

    // Heads of the tokens an item covers (size n + 1; -1 elsewhere).
    std::vector<int> heads(int itemId) const;
    // Appends the arcs (h, m) of an item's derivation.
    void arcs(int itemId, std::vector<std::array<int, 2>>& out) const;
    // The parts scored inside an item's derivation, at every combination it contains (its score is
    // their model score): arcs, siblings (scored on building I), grandparents (scored on building I
    // for the modifier's inner children and on building C for its outer ones).
    CubeParts parts(int itemId, CubeFeatureSet features) const;
    // A complete item's outermost modifier (its last arc's), or its head for a leaf.
    int outermost(int itemId) const;
    // The modifiers of a complete item's head, outermost first.
    template <typename Fn> void forEachModifier(int completeItem, Fn&& fn) const;
    // The complete child on the head's side of an incomplete item, and on the modifier's side.
    int headSide(int incompleteItem) const;
    int modifierSide(int incompleteItem) const;
};

template <typename Fn> void CubeChart::forEachModifier(int c, Fn&& fn) const {
    while (c >= 0) {
        const CubeItem& it = items[static_cast<std::size_t>(c)];
        if (it.edge < 0) return; // leaf
        fn(static_cast<int>(it.edge));
        c = headSide(it.left); // I(h, m)'s head-side child: h's modifiers inside m
    }
}

inline int CubeChart::headSide(int i) const {
    const CubeItem& it = items[static_cast<std::size_t>(i)];
    const CubeCell c = cell(it.cell);
    return c.head < c.end ? it.left : it.right;
}

inline int CubeChart::modifierSide(int i) const {
    const CubeItem& it = items[static_cast<std::size_t>(i)];
    const CubeCell c = cell(it.cell);
    return c.head < c.end ? it.right : it.left;
}

inline int CubeChart::outermost(int c) const {
    const CubeItem& it = items[static_cast<std::size_t>(c)];
    return it.edge >= 0 ? it.edge : cell(it.cell).head;
}

// The hash of one arc inside CubeItem::arcs (a sum over the arcs, so order-free).
std::uint64_t cubeArcHash(int h, int m);

} // namespace prunescope
