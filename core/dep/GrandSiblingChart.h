#pragma once
// The third-order chart of Koo & Collins 2010 Model 1 (grand-siblings, sec. 4.2): Eisner's items
// (DepChart.h) with the head's own head g attached ("g-spans"), stored only for arcs the mask
// keeps, so that a cascade's sparse mask also shrinks the chart (a dense (n+1)^3 table would cost
// n^3 per sentence whatever the mask).
//
// Positions 0..n (0 = root), N = n + 1. For each token h the chart lists
//   heads(h): the kept heads g of h, increasing (for h = 0 a single slot g = 0 meaning "none");
//   mods(h):  the kept modifiers m of h, increasing.
// and stores
//   C^g(h, e)   complete g-span: h heads everything between h and e on e's side, g = h's head
//               (outside the span); C^g(h, h) = 0. Witness: the modifier m of the last arc,
//               C^g(h, e) = I^g(h, m) + C^h(m, e).
//   I^g(h, m)   incomplete g-span: the arc h -> m with h's modifiers between h and m attached and
//               m's half facing h complete; includes the scores of the parts of the arc (arc,
//               sibling, grandparent, grand-sibling). Witness: the previous sibling q (q == h: m is
//               h's closest modifier on that side, I^g(h, m) = C^h(m, h±1) + parts), otherwise
//               I^g(h, m) = I^g(h, q) + S^h(q, m) + parts.
//   S^h(a, b)   sibling span, a < b two kept modifiers of h on the same side: C^h(a, r) +
//               C^h(b, r + 1) for the best split r (witness r).
// Floats, -inf = not built; witnesses int32, -1 = none, -2 = sibling span never requested.
#include "core/dep/DepChart.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace prunescope {

struct GrandSiblingChart {
    int n = 0;
    float rootScore = kDepNegInf; // C^none(0, n), -inf if no tree under the mask

    // heads(h) = heads[headStart[h] .. headStart[h + 1]); mods(h) likewise.
    std::vector<int> heads, headStart, mods, modStart;
    std::vector<int> headSlot; // [g * N + h]: index of g in heads(h), -1 if not a kept head
    std::vector<int> modSlot;  // [h * N + m]: index of m in mods(h), -1 if not a kept modifier
    // Offsets of each h's block in the value arrays (sizes: heads x N, heads x mods, mods x mods).
    std::vector<std::size_t> completeStart, incompleteStart, siblingStart;
    std::vector<float> complete, incomplete, sibling;
    std::vector<std::int32_t> completeW, incompleteW, siblingW;

    int N() const { return n + 1; }
    int headCount(int h) const { return headStart[h + 1] - headStart[h]; }
    int modCount(int h) const { return modStart[h + 1] - modStart[h]; }
    int slotOfHead(int g, int h) const { return headSlot[std::size_t(g) * std::size_t(N()) + h]; }
    int slotOfMod(int h, int m) const { return modSlot[std::size_t(h) * std::size_t(N()) + m]; }
    // Indices into the value arrays (gi = slot of g in heads(h), mi / ai / bi = slots in mods(h)).
    std::size_t C(int h, int gi, int e) const {
        return completeStart[h] + std::size_t(gi) * std::size_t(N()) + std::size_t(e);
    }
    std::size_t I(int h, int gi, int mi) const {
        return incompleteStart[h] + std::size_t(gi) * std::size_t(modCount(h)) + std::size_t(mi);
    }
    std::size_t S(int h, int ai, int bi) const {
        return siblingStart[h] + std::size_t(ai) * std::size_t(modCount(h)) + std::size_t(bi);
    }
    bool parsed() const { return rootScore != kDepNegInf; }

    // Lays the chart out for the kept arcs (allowed[h * N + m], h != m, m >= 1) and clears it.
    void reset(int n, const std::vector<std::uint8_t>& allowed);
    // Bytes of values, witnesses and slot tables for these kept arcs (before allocating; the
    // memory budget's figure; the O(n) lists are left out).
    static std::size_t bytesFor(int n, const std::vector<std::uint8_t>& allowed);
    std::size_t memoryBytes() const;
};

} // namespace prunescope
