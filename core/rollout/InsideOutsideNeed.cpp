// Which outside values the mask derivatives of sec. 5.3 can use: the outside pass computes Ω only
// for them (docs/rollouts.md, "The outside pass computes only what a derivative uses").
#include "core/rollout/InsideOutside.h"
#include "core/util/BitSet.h"

#include <limits>

namespace prunescope {

// need(c) = the post-layer symbols whose outside Ω_c can enter a derivative:
//   - sup(c), the symbols with an inside value (kept) or as-if-kept value (pruned): c's own
//     derivative Σ Ω·α̂, and for a kept c the flow to its kept children's derivatives;
//   - for a kept c, pot(c): the symbols one prune→keep flip of a cell strictly inside c could
//     build in c (a kept child's pot minus its sup, or a pruned child's whole as-if-kept sup, next
//     to a kept sibling's sup; then the unary layer). Ω_c of those reaches the flipped cell.
// Every term that the full outside pass adds into a needed Ω comes from a needed Ω of a parent
// (the parent symbol is built by the same flip, or already), so restricting the pass to need
// changes no needed value: the outside pass then adds the same terms in the same order.
void InsideOutside::neededSymbols() {
    const Grammar& g = *g_;
    const std::size_t W = needWords_;
    const int cells = in_.numCells();
    need_.assign(static_cast<std::size_t>(cells) * W, 0);
    extra_.assign(static_cast<std::size_t>(cells) * W, 0);
    hasExtra_.assign(cells, 0);
    auto cellBits = [&](std::vector<std::uint64_t>& v, int c) { return v.data() + c * W; };
    for (int c = 0; c < cells; ++c) // sup(c)
        for (std::uint32_t li = in_.postRange(c).first; li < in_.postRange(c).second; ++li)
            bits::set(cellBits(need_, c), in_.postSym(li));
    // As a child: a pruned cell offers its whole sup (its own flip), a kept one pot \ sup.
    auto finishExtra = [&](int c, bool kept) {
        std::uint64_t* e = cellBits(extra_, c);
        const std::uint64_t* s = cellBits(need_, c);
        std::uint64_t any = 0;
        for (std::size_t w = 0; w < W; ++w) {
            e[w] = kept ? e[w] & ~s[w] : s[w];
            any |= e[w];
        }
        hasExtra_[c] = any != 0;
    };
    // Marks in pot the parents of every rule y -> ... z with y in left and z in right.
    auto parents = [&](const std::uint64_t* left, const std::uint64_t* right, std::uint64_t* pot) {
        bits::forEach(left, W, [&](std::uint32_t y) {
            for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
                const RuleGroup& grp = g.groups[gi];
                if (!bits::test(right, grp.right)) continue;
                for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri)
                    bits::set(pot, g.binary[ri].parent);
            }
        });
    };
    for (int w = 2; w < n_; ++w)
        for (int i = 0; i + w <= n_; ++i) {
            const int k = i + w, c = cell(i, k);
            const bool kept = in_.mask().keep(i, k);
            if (kept) {
                std::uint64_t* pot =
                    cellBits(extra_, c); // pot(c) is built in place, then minus sup
                for (int j = i + 1; j < k; ++j) {
                    const int l = cell(i, j), r = cell(j, k);
                    if (hasExtra_[l] && in_.usable(j, k))
                        parents(cellBits(extra_, l), cellBits(need_, r), pot);
                    if (hasExtra_[r] && in_.usable(i, j))
                        parents(cellBits(need_, l), cellBits(extra_, r), pot);
                }
                preBits_.assign(pot, pot + W); // the unary layer on top
                bits::forEach(preBits_.data(), W, [&](std::uint32_t y) {
                    for (std::uint32_t u = g.unaryByChildBegin[y]; u < g.unaryByChildBegin[y + 1];
                         ++u)
                        bits::set(pot, g.unary[u].parent);
                });
            }
            finishExtra(c, kept);
        }
    // need_ held sup while pot was built (a child's sup is what its sibling's flip meets).
    for (int w = 2; w < n_; ++w)
        for (int i = 0; i + w <= n_; ++i) {
            const int c = cell(i, i + w);
            if (hasExtra_[c] && in_.mask().keep(i, i + w))
                for (std::size_t x = 0; x < W; ++x)
                    cellBits(need_, c)[x] |= cellBits(extra_, c)[x];
        }
    if (fullOutside_) { // every symbol, the sibling walks only
        for (int c = 0; c < cells; ++c)
            for (std::uint32_t x = 0; x < static_cast<std::uint32_t>(N_); ++x)
                bits::set(cellBits(need_, c), x);
        needLeftCost_.assign(cells, std::numeric_limits<long>::max());
        needRightCost_.assign(cells, std::numeric_limits<long>::max());
        sibRightCost_.assign(cells, 0);
        sibLeftCost_.assign(cells, 0);
        return;
    }
    // What each walk of the outside pull costs (OutsidePull.cpp chooses the shorter).
    auto groupsOf = [&](std::uint32_t y) {
        return static_cast<long>(g.groupsByLeftBegin[y + 1] - g.groupsByLeftBegin[y]);
    };
    auto byRightOf = [&](std::uint32_t y) {
        return static_cast<long>(g.binaryByRightBegin[y + 1] - g.binaryByRightBegin[y]);
    };
    needLeftCost_.assign(cells, 0);
    needRightCost_.assign(cells, 0);
    sibRightCost_.assign(cells, 0);
    sibLeftCost_.assign(cells, 0);
    for (int c = 0; c < cells; ++c) {
        bits::forEach(cellBits(need_, c), W, [&](std::uint32_t y) {
            needLeftCost_[c] += groupsOf(y);
            needRightCost_[c] += byRightOf(y);
        });
        for (std::uint32_t li = in_.postRange(c).first; li < in_.postRange(c).second; ++li) {
            sibRightCost_[c] += byRightOf(in_.postSym(li));
            sibLeftCost_[c] += groupsOf(in_.postSym(li));
        }
    }
}

} // namespace prunescope
