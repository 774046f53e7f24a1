// The outside pull of sec. 5.3 from one parent and sibling: Ω_c(y) += P(x -> y z)·Ω_par(x)·α_sib(z)
// (and the expectation semiring's Ψ), over the needed symbols y of c only (InsideOutsideNeed.cpp).
// Two walks add the same nonzero terms: over the sibling's built symbols z and their rules, or
// over c's needed symbols y and their rules; the one with fewer rule visits is taken (a function
// of the mask and grammar alone, so the result does not depend on anything else).
#include "core/rollout/InsideOutside.h"
#include "core/util/BitSet.h"

#include <cmath>

namespace prunescope {

// c = (i,j) as the left child of par = (i,k) with sibling (j,k): rules x -> y z.
void InsideOutside::pullAsLeft(int c, int par, int sib, int Tc) {
    const Grammar& g = *g_;
    const double f = std::ldexp(1.0, T_[par] + S(sib) - Tc); // exact (0 if negligible)
    if (f == 0.0) return;
    const InsidePair* row = in_.post(sib);
    const std::size_t N = N_;
    const double* oP = oPre_.data() + par * N;
    const double* pP = pPre_.data() + par * N;
    if (needLeftCost_[c] < sibRightCost_[sib]) { // c's needed symbols y, their groups (y, z)
        const std::uint64_t* need = need_.data() + static_cast<std::size_t>(c) * needWords_;
        bits::forEach(need, needWords_, [&](std::uint32_t y) {
            for (std::uint32_t gi = g.groupsByLeftBegin[y]; gi < g.groupsByLeftBegin[y + 1]; ++gi) {
                const RuleGroup& grp = g.groups[gi];
                const InsidePair v = row[grp.right];
                if (v.a == 0.0) continue;
                double o = 0, p = 0;
                for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                    o += in_.binaryProb(ri) * oP[g.binary[ri].parent];
                    p += in_.binaryProb(ri) * pP[g.binary[ri].parent];
                }
                if (o == 0.0) continue;
                const double as = v.a * f, rs = v.r * f;
                touch(y);
                sa_[y] += o * as;
                sr_[y] += p * as + o * rs;
            }
        });
        return;
    }
    for (std::uint32_t li = in_.postRange(sib).first; li < in_.postRange(sib).second; ++li) {
        const std::uint32_t z = in_.postSym(li); // the sibling's symbols z, their rules x -> y z
        const double as = row[z].a * f, rs = row[z].r * f;
        for (std::uint32_t b = g.binaryByRightBegin[z]; b < g.binaryByRightBegin[z + 1]; ++b) {
            const std::uint32_t ri = g.binaryByRight[b];
            const std::uint32_t y = g.binary[ri].left;
            if (!needed(c, y)) continue;
            const std::uint32_t x = g.binary[ri].parent;
            const double o = oP[x];
            if (o == 0.0) continue;
            const double p = in_.binaryProb(ri);
            touch(y);
            sa_[y] += p * o * as;
            sr_[y] += p * (pP[x] * as + o * rs);
        }
    }
}

// c = (i,j) as the right child of par = (h,j) with sibling (h,i): rules x -> z y.
void InsideOutside::pullAsRight(int c, int par, int sib, int Tc) {
    const Grammar& g = *g_;
    const double f = std::ldexp(1.0, T_[par] + S(sib) - Tc);
    if (f == 0.0) return;
    const InsidePair* row = in_.post(sib);
    const std::size_t N = N_;
    const double* oP = oPre_.data() + par * N;
    const double* pP = pPre_.data() + par * N;
    if (needRightCost_[c] < sibLeftCost_[sib]) { // c's needed symbols y, their rules x -> z y
        const std::uint64_t* need = need_.data() + static_cast<std::size_t>(c) * needWords_;
        bits::forEach(need, needWords_, [&](std::uint32_t y) {
            for (std::uint32_t b = g.binaryByRightBegin[y]; b < g.binaryByRightBegin[y + 1]; ++b) {
                const std::uint32_t ri = g.binaryByRight[b];
                const InsidePair v = row[g.binary[ri].left];
                if (v.a == 0.0) continue;
                const std::uint32_t x = g.binary[ri].parent;
                const double o = oP[x];
                if (o == 0.0) continue;
                const double p = in_.binaryProb(ri), as = v.a * f, rs = v.r * f;
                touch(y);
                sa_[y] += p * o * as;
                sr_[y] += p * (pP[x] * as + o * rs);
            }
        });
        return;
    }
    for (std::uint32_t li = in_.postRange(sib).first; li < in_.postRange(sib).second; ++li) {
        const std::uint32_t z = in_.postSym(li); // the sibling's symbols z, their groups (z, y)
        const double as = row[z].a * f, rs = row[z].r * f;
        for (std::uint32_t gi = g.groupsByLeftBegin[z]; gi < g.groupsByLeftBegin[z + 1]; ++gi) {
            const RuleGroup& grp = g.groups[gi];
            if (!needed(c, grp.right)) continue;
            double o = 0, p = 0;
            for (std::uint32_t ri = grp.begin; ri < grp.end; ++ri) {
                o += in_.binaryProb(ri) * oP[g.binary[ri].parent];
                p += in_.binaryProb(ri) * pP[g.binary[ri].parent];
            }
            if (o == 0.0) continue;
            touch(grp.right);
            sa_[grp.right] += o * as;
            sr_[grp.right] += p * as + o * rs;
        }
    }
}

} // namespace prunescope
