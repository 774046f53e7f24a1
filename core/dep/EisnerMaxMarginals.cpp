// Arc max-marginals by max-plus inside-outside on the Eisner chart (Rush & Petrov 2012 sec. 4).
#include "core/dep/EisnerMaxMarginals.h"

#include <stdexcept>

namespace prunescope {

// Every sum below is written in the order Hypergraph.cpp's maxMarginals forms it for the edge of
// buildEisnerHypergraph it stands for (weight first, then the tails in order; an item-combining
// edge has weight 0.0f): that, and exact maxima, make the result the same doubles.
void EisnerMaxMarginalSolver::solve(const ArcScores& sc, const ArcMask* mask, bool singleRoot, ArcMaxMarginals& out) {
    const int n = sc.n;
    if (mask && mask->n != n) throw std::invalid_argument("EisnerMaxMarginalSolver: mask length differs from the scores");
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
    auto at = [N](int a, int b) { return static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b); };
    auto allowed = [&](int h, int m) { return (!mask || mask->keep(h, m)) && sc(h, m) != kDepNegInf; };
    auto rightComplete = [&](int s, int t) { return !(s == 0 && singleRoot && t != n); };  // C(s, t) is an item
    double* C = cin_.data();
    double* I = iin_.data();
    long pushes = 0;
    for (int s = 0; s <= n; ++s) C[at(s, s)] = 0.0;  // axioms: weight 0.0f, no tails
    for (int w = 1; w <= n; ++w)
        for (int s = 0; s + w <= n; ++s) {
            const int t = s + w;
            for (int dir = 0; dir < 2; ++dir) {
                const int h = dir == 0 ? s : t, m = dir == 0 ? t : s;
                if (m == 0 || !allowed(h, m)) continue;
                const double wt = sc(h, m);
                const int rEnd = (s == 0 && singleRoot) ? 0 : t - 1;
                double best = NEG;
                for (int r = s; r <= rEnd; ++r) {
                    const double v = wt + C[at(s, r)] + C[at(t, r + 1)];
                    if (v == NEG) continue;
                    ++pushes;
                    if (v > best) best = v;
                }
                I[at(h, m)] = best;
            }
            if (rightComplete(s, t)) {
                double best = NEG;
                for (int m = s + 1; m <= t; ++m) {
                    const double v = 0.0 + I[at(s, m)] + C[at(m, t)];
                    if (v == NEG) continue;
                    ++pushes;
                    if (v > best) best = v;
                }
                C[at(s, t)] = best;
            }
            if (s > 0) {
                double best = NEG;
                for (int m = s; m < t; ++m) {
                    const double v = 0.0 + I[at(t, m)] + C[at(m, s)];
                    if (v == NEG) continue;
                    ++pushes;
                    if (v > best) best = v;
                }
                C[at(t, s)] = best;
            }
        }
    out.pushes = pushes;
    if (C[at(0, n)] == NEG) return;  // no tree under the mask: every value stays -inf
    out.best = C[at(0, n)];
    double* CO = cout_.data();
    double* IO = iout_.data();
    auto raise = [](double& o, double v) {
        if (v > o) o = v;
    };
    CO[at(0, n)] = 0.0;
    // Reverse topological order: widest spans first; within a span both complete items before
    // both incomplete ones (a complete item reads the incomplete item of its own span).
    for (int w = n; w >= 1; --w)
        for (int s = n - w; s >= 0; --s) {
            const int t = s + w;
            if (s > 0 && CO[at(t, s)] != NEG && C[at(t, s)] != NEG) {
                const double o = CO[at(t, s)];
                for (int m = s; m < t; ++m) {
                    const double a = I[at(t, m)], b = C[at(m, s)];
                    if (0.0 + a + b == NEG) continue;
                    raise(IO[at(t, m)], o + 0.0 + b);
                    raise(CO[at(m, s)], o + 0.0 + a);
                }
            }
            if (rightComplete(s, t) && CO[at(s, t)] != NEG && C[at(s, t)] != NEG) {
                const double o = CO[at(s, t)];
                for (int m = s + 1; m <= t; ++m) {
                    const double a = I[at(s, m)], b = C[at(m, t)];
                    if (0.0 + a + b == NEG) continue;
                    raise(IO[at(s, m)], o + 0.0 + b);
                    raise(CO[at(m, t)], o + 0.0 + a);
                }
            }
            for (int dir = 1; dir >= 0; --dir) {
                const int h = dir == 0 ? s : t, m = dir == 0 ? t : s;
                if (m == 0 || !allowed(h, m)) continue;
                const double o = IO[at(h, m)];
                if (o == NEG || I[at(h, m)] == NEG) continue;
                const double wt = sc(h, m);
                const int rEnd = (s == 0 && singleRoot) ? 0 : t - 1;
                double best = NEG;
                for (int r = s; r <= rEnd; ++r) {
                    const double a = C[at(s, r)], b = C[at(t, r + 1)];
                    if (wt + a + b == NEG) continue;
                    raise(CO[at(s, r)], o + wt + b);
                    raise(CO[at(t, r + 1)], o + wt + a);
                    const double v = o + wt + a + b;  // the edge's max-marginal (edgeMarginal)
                    if (v > best) best = v;
                }
                out.value[at(h, m)] = best;
            }
        }
}

} // namespace prunescope
