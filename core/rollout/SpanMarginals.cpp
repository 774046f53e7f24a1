// Span marginals from one inside-outside pass (sec. 5.3): see SpanMarginals.h.
#include "core/rollout/SpanMarginals.h"

#include "core/rollout/InsideOutside.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prunescope {

namespace {

// No gold nodes: only Z and dZ/dm of the inside-outside pass are used here.
RecallGold noGold(int n) {
    RecallGold g;
    g.n = n;
    g.symbol.assign(static_cast<std::size_t>(n + 1) * (n + 1), RecallGold::kNone);
    return g;
}

SpanMarginals zeroMarginals(int n) {
    SpanMarginals m;
    m.n = n;
    m.marginal.assign(static_cast<std::size_t>(n + 1) * (n + 1), 0.0);
    return m;
}

void setAlwaysKept(SpanMarginals& m) {
    for (int i = 0; i < m.n; ++i)
        m.marginal[static_cast<std::size_t>(i) * (m.n + 1) + i + 1] = 1.0;
    m.marginal[static_cast<std::size_t>(m.n)] = 1.0; // (0, n)
}

} // namespace

SpanMarginals spanMarginals(const Grammar& g, std::span<const std::string> words,
                            const PruningMask& mask) {
    const int n = static_cast<int>(words.size());
    if (mask.n != n)
        throw std::invalid_argument("spanMarginals: mask length differs from the sentence");
    SpanMarginals m = zeroMarginals(n);
    if (n == 0) return m;
    const RecallGold gold = noGold(n);
    InsideOutside io(g);
    io.run(words, mask, gold);
    const ExpectedRecall z = io.current();
    if (!z.success) return m;
    m.success = true;
    m.logZ = z.logZ;
    setAlwaysKept(m);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            if (!mask.keep(i, i + w)) continue;
            const double mu = std::exp(io.gradient(i, i + w).logDZ - z.logZ);
            m.marginal[static_cast<std::size_t>(i) * (n + 1) + i + w] = std::clamp(mu, 0.0, 1.0);
        }
    return m;
}

SpanMarginals naiveSpanMarginals(const Grammar& g, std::span<const std::string> words,
                                 const PruningMask& mask) {
    const int n = static_cast<int>(words.size());
    if (mask.n != n)
        throw std::invalid_argument("naiveSpanMarginals: mask length differs from the sentence");
    SpanMarginals m = zeroMarginals(n);
    if (n == 0) return m;
    const RecallGold gold = noGold(n);
    InsideOutside io(g);
    const ExpectedRecall z = io.inside(words, mask, gold);
    if (!z.success) return m;
    m.success = true;
    m.logZ = z.logZ;
    setAlwaysKept(m);
    PruningMask without = mask;
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            if (!mask.keep(i, i + w)) continue;
            without.set(i, i + w, false);
            const ExpectedRecall zi = io.inside(words, without, gold);
            without.set(i, i + w, true);
            const double mu = zi.success ? 1.0 - std::exp(zi.logZ - z.logZ) : 1.0;
            m.marginal[static_cast<std::size_t>(i) * (n + 1) + i + w] = std::clamp(mu, 0.0, 1.0);
        }
    return m;
}

} // namespace prunescope
