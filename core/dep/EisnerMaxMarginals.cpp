// Arc max-marginals by max-plus inside-outside on the Eisner chart (Rush & Petrov 2012 sec. 4).
#include "core/dep/EisnerMaxMarginals.h"

#include <stdexcept>

namespace prunescope {

// Every sum below is written in the order Hypergraph.cpp's maxMarginals forms it for the edge of
// buildEisnerHypergraph it stands for (weight first, then the tails in order; an item-combining
// edge has weight 0.0f): that, and exact maxima, make the result the same doubles.
void EisnerMaxMarginalSolver::solve(const ArcScores& sc, const ArcMask* mask, bool singleRoot,
                                    ArcMaxMarginals& out) {
    const int n = sc.n;
    if (mask && mask->n != n)
        throw std::invalid_argument("EisnerMaxMarginalSolver: mask length differs from the scores");
    const auto N = static_cast<std::size_t>(n + 1);
    const double NEG = kHyperNegInf;
    cin_.assign(N * N, NEG);
    iin_.assign(N * N, NEG);
    cout_.assign(N * N, NEG);
    iout_.assign(N * N, NEG);
    out.n = n;
    out.best = NEG;
    out.pushes = 0;
    out.value.assign(N * N, NEG);
    auto at = [N](int a, int b) {
        return static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b);
    };
    auto allowed = [&](int h, int m) {
        return (!mask || mask->keep(h, m)) && sc(h, m) != kDepNegInf;
    };
    // Each head's allowed modifiers, outward from it: to the right ascending, to the left
    // descending. I(h, m) is -inf for every other m, so a complete item's edges through them are
    // never pushes and the loops below visit only these (under a tight mask most of the n^2 are
    // pruned).
    sideBegin_.assign(2 * N + 1, 0);
    sideMods_.clear();
    for (int h = 0; h <= n; ++h) {
        sideBegin_[2 * static_cast<std::size_t>(h)] = static_cast<std::uint32_t>(sideMods_.size());
        for (int m = h + 1; m <= n; ++m)
            if (allowed(h, m)) sideMods_.push_back(m);
        sideBegin_[2 * static_cast<std::size_t>(h) + 1] =
            static_cast<std::uint32_t>(sideMods_.size());
        for (int m = h - 1; m >= 1; --m)
            if (allowed(h, m)) sideMods_.push_back(m);
    }
    sideBegin_[2 * N] = static_cast<std::uint32_t>(sideMods_.size());
    // The allowed modifiers m of h strictly past h up to e (toward e), in that order.
    auto toward = [&](int h, int e, auto&& f) {
        const std::size_t side = 2 * static_cast<std::size_t>(h) + (e > h ? 0 : 1);
        const int* m = sideMods_.data() + sideBegin_[side];
        const int* end = sideMods_.data() + sideBegin_[side + 1];
        if (e > h)
            for (; m != end && *m <= e; ++m)
                f(*m);
        else
            for (; m != end && *m >= e; ++m)
                f(*m);
    };
    double* C = cin_.data();
    double* I = iin_.data();
    long pushes = 0;
    // C(h, e) = max over m strictly past h up to e (toward e) of I(h, m) + C(m, e).
    auto completeInside = [&](int h, int e) {
        double best = NEG;
        toward(h, e, [&](int m) {
            const double v = 0.0 + I[at(h, m)] + C[at(m, e)];
            if (v == NEG) return;
            ++pushes;
            if (v > best) best = v;
        });
        C[at(h, e)] = best;
    };
    for (int s = 0; s <= n; ++s)
        C[at(s, s)] = 0.0; // axioms: weight 0.0f, no tails
    for (int w = 1; w <= n; ++w)
        for (int s = 0; s + w <= n; ++s) {
            const int t = s + w;
            for (int dir = 0; dir < 2; ++dir) {
                const int h = dir == 0 ? s : t, m = dir == 0 ? t : s;
                if (m == 0 || !allowed(h, m)) continue;
                const double wt = sc(h, m);
                const int rEnd = eisnerLastSplit(s, t, singleRoot);
                double best = NEG;
                for (int r = s; r <= rEnd; ++r) {
                    const double v = wt + C[at(s, r)] + C[at(t, r + 1)];
                    if (v == NEG) continue;
                    ++pushes;
                    if (v > best) best = v;
                }
                I[at(h, m)] = best;
            }
            if (eisnerRightComplete(s, t, n, singleRoot)) completeInside(s, t);
            if (s > 0) completeInside(t, s);
        }
    out.pushes = pushes;
    if (C[at(0, n)] == NEG) return; // no tree under the mask: every value stays -inf
    out.best = C[at(0, n)];
    double* CO = cout_.data();
    double* IO = iout_.data();
    auto raise = [](double& o, double v) {
        if (v > o) o = v;
    };
    // C(h, e)'s outside passed to the tails of each of its edges.
    auto completeOutside = [&](int h, int e) {
        const double o = CO[at(h, e)];
        if (o == NEG || C[at(h, e)] == NEG) return;
        toward(h, e, [&](int m) {
            const double a = I[at(h, m)], b = C[at(m, e)];
            if (0.0 + a + b == NEG) return;
            raise(IO[at(h, m)], o + 0.0 + b);
            raise(CO[at(m, e)], o + 0.0 + a);
        });
    };
    CO[at(0, n)] = 0.0;
    // Reverse topological order: widest spans first; within a span both complete items before
    // both incomplete ones (a complete item reads the incomplete item of its own span).
    for (int w = n; w >= 1; --w)
        for (int s = n - w; s >= 0; --s) {
            const int t = s + w;
            if (s > 0) completeOutside(t, s);
            if (eisnerRightComplete(s, t, n, singleRoot)) completeOutside(s, t);
            for (int dir = 1; dir >= 0; --dir) {
                const int h = dir == 0 ? s : t, m = dir == 0 ? t : s;
                if (m == 0 || !allowed(h, m)) continue;
                const double o = IO[at(h, m)];
                if (o == NEG || I[at(h, m)] == NEG) continue;
                const double wt = sc(h, m);
                const int rEnd = eisnerLastSplit(s, t, singleRoot);
                double best = NEG;
                for (int r = s; r <= rEnd; ++r) {
                    const double a = C[at(s, r)], b = C[at(t, r + 1)];
                    if (wt + a + b == NEG) continue;
                    raise(CO[at(s, r)], o + wt + b);
                    raise(CO[at(t, r + 1)], o + wt + a);
                    const double v = o + wt + a + b; // the edge's max-marginal (edgeMarginal)
                    if (v > best) best = v;
                }
                out.value[at(h, m)] = best;
            }
        }
}

} // namespace prunescope
