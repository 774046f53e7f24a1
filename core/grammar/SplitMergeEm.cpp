// EM over the gold trees with smoothing toward the base symbol, and the split step (Petrov et al.
// 2006, sec. 2.1 and 2.3); see SplitMerge.h.
#include "core/grammar/LatentInsideOutside.h"
#include "core/grammar/SplitMerge.h"
#include "core/util/Random.h"

namespace prunescope {

using namespace latent;

std::vector<double> latent::normalizeByParent(LatentGrammar& g, std::vector<double>& v) {
    std::vector<double> total(g.refinedSymbols(), 0.0);
    forParentRuns(g, v, [&](std::size_t p, const double* a, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i)
            total[p] += a[i];
    });
    forParentRuns(g, v, [&](std::size_t p, double* a, std::size_t n) {
        if (total[p] <= 0) return;
        const double inv = 1.0 / total[p];
        for (std::size_t i = 0; i < n; ++i)
            a[i] *= inv;
    });
    return total;
}

namespace {

// Linear smoothing toward the base symbol (Petrov et al. 2006, sec. 2.3): each refinement x of a
// parent keeps (1 - alpha) of its probability and gets alpha times the mean over the parent's
// refinements, for every combination of child refinements.
void smoothBlock(double* block, int parentSubs, std::size_t run, double alpha) {
    if (parentSubs < 2 || alpha <= 0) return;
    for (std::size_t c = 0; c < run; ++c) {
        double mean = 0;
        for (int x = 0; x < parentSubs; ++x)
            mean += block[x * run + c];
        mean /= parentSubs;
        for (int x = 0; x < parentSubs; ++x)
            block[x * run + c] = (1 - alpha) * block[x * run + c] + alpha * mean;
    }
}

} // namespace

double latentLogLikelihood(const LatentGrammar& g, const LatentTrees& trees, int threads,
                           const Progress& progress) {
    std::vector<double> sums(static_cast<std::size_t>(chunkCount(trees.trees.size())), 0.0);
    forChunks(trees.trees.size(), threads, progress,
              [&](int c, std::size_t first, std::size_t last) {
                  Scratch s;
                  for (std::size_t t = first; t < last; ++t)
                      sums[static_cast<std::size_t>(c)] += inside(g, trees.trees[t], s);
              });
    double total = 0;
    for (double v : sums)
        total += v;
    return total;
}

EmStep emIteration(const LatentGrammar& g, const LatentTrees& trees, const SmoothingOptions& smooth,
                   int threads, const Progress& progress) {
    Accumulator total = expectedCounts(g, trees, threads, progress);
    EmStep step;
    step.logLikelihood = total.logLikelihood;
    LatentGrammar h = g;
    h.prob = std::move(total.rule);
    const std::vector<double> parentTotal = normalizeByParent(h, h.prob);
    // A refined parent without expected counts keeps its old distribution.
    forParentRuns(h, h.prob, [&](std::size_t p, double* a, std::size_t n) {
        if (parentTotal[p] > 0) return;
        const double* old = &g.prob[static_cast<std::size_t>(a - h.prob.data())];
        std::copy(old, old + n, a);
    });
    for (std::size_t i = 0; i < h.fallback.size(); ++i)
        h.fallback[i] = parentTotal[i] > 0 ? total.fallback[i] / parentTotal[i] : g.fallback[i];
    for (const auto& r : h.binary)
        smoothBlock(&h.prob[r.at], h.subs[r.parent],
                    static_cast<std::size_t>(h.subs[r.left]) * h.subs[r.right], smooth.phrasal);
    for (const auto& r : h.unary)
        smoothBlock(&h.prob[r.at], h.subs[r.parent], static_cast<std::size_t>(h.subs[r.child]),
                    smooth.phrasal);
    for (const auto& r : h.lexical)
        smoothBlock(&h.prob[r.at], h.subs[r.tag], 1, smooth.lexical);
    if (smooth.phrasal > 0 || smooth.lexical > 0) normalizeByParent(h, h.prob);
    step.next = std::move(h);
    return step;
}

LatentGrammar splitLatent(const LatentGrammar& g, double perturbation, std::uint64_t seed) {
    std::vector<int> newSubs(g.subs.size());
    for (std::size_t b = 0; b < g.subs.size(); ++b)
        newSubs[b] = b == g.root ? g.subs[b] : 2 * g.subs[b];
    LatentGrammar h = g;
    h.subs = newSubs;
    h.layout();
    // New refinement x' descends from old x'/2 (ROOT: x' itself); a child's share is 1/2.
    auto old = [&](SymbolId b, int x) { return b == g.root ? x : x / 2; };
    auto share = [&](SymbolId b) { return b == g.root ? 1.0 : 0.5; };
    for (std::size_t i = 0; i < g.binary.size(); ++i) {
        const auto& r = g.binary[i];
        const int kl = g.subs[r.left], kr = g.subs[r.right];
        const int np = h.subs[r.parent], nl = h.subs[r.left], nr = h.subs[r.right];
        const double s = share(r.left) * share(r.right);
        for (int x = 0; x < np; ++x)
            for (int y = 0; y < nl; ++y)
                for (int z = 0; z < nr; ++z)
                    h.prob[h.binary[i].at + (static_cast<std::size_t>(x) * nl + y) * nr + z] =
                        s *
                        g.prob[r.at +
                               (static_cast<std::size_t>(old(r.parent, x)) * kl + old(r.left, y)) *
                                   kr +
                               old(r.right, z)];
    }
    auto unaries = [&](const std::vector<LatentGrammar::Unary>& gu,
                       const std::vector<LatentGrammar::Unary>& hu) {
        for (std::size_t i = 0; i < gu.size(); ++i) {
            const auto& r = gu[i];
            const int kc = g.subs[r.child], np = h.subs[r.parent], nc = h.subs[r.child];
            for (int x = 0; x < np; ++x)
                for (int y = 0; y < nc; ++y)
                    h.prob[hu[i].at + static_cast<std::size_t>(x) * nc + y] =
                        share(r.child) *
                        g.prob[r.at + static_cast<std::size_t>(old(r.parent, x)) * kc +
                               old(r.child, y)];
        }
    };
    unaries(g.unary, h.unary);
    unaries(g.rootRules, h.rootRules);
    for (std::size_t i = 0; i < g.lexical.size(); ++i) {
        const auto& r = g.lexical[i];
        for (int x = 0; x < h.subs[r.tag]; ++x)
            h.prob[h.lexical[i].at + x] = g.prob[r.at + old(r.tag, x)];
    }
    for (std::size_t b = 0; b < g.symbols.size(); ++b)
        for (int x = 0; x < h.subs[b]; ++x)
            h.fallback[h.subOffset[b] + x] =
                g.fallback[g.subOffset[b] + old(static_cast<SymbolId>(b), x)];
    if (perturbation != 0) {
        SplitMix64 rng(seed, 0x5B117);
        for (double& p : h.prob)
            p *= 1 + perturbation * (2 * rng.uniform() - 1);
        normalizeByParent(h, h.prob);
    }
    return h;
}

} // namespace prunescope
