// The merge step: each split pair's approximate likelihood loss, and merging the pairs that lose
// least (Petrov et al. 2006, sec. 2.2); see SplitMerge.h.
#include "core/grammar/LatentInsideOutside.h"
#include "core/grammar/SplitMerge.h"

namespace prunescope {

using namespace latent;

namespace {

// A merge as a map of old refinements onto new ones: P'(x' -> y' z') =
// sum_{x -> x'} weight(x) sum_{y -> y'} sum_{z -> z'} P(x -> y z).
struct Remap {
    std::vector<std::vector<int>> to;        // per base symbol: old refinement -> new refinement
    std::vector<std::vector<double>> weight; // per base symbol: weight of old refinement as parent
};
LatentGrammar remapLatent(const LatentGrammar& g, const std::vector<int>& newSubs, const Remap& m) {
    LatentGrammar h = g;
    h.subs = newSubs;
    h.layout();
    for (std::size_t b = 0; b < g.binary.size(); ++b) {
        const auto& r = g.binary[b];
        const int kp = g.subs[r.parent], kl = g.subs[r.left], kr = g.subs[r.right];
        const int nl = h.subs[r.left], nr = h.subs[r.right];
        for (int x = 0; x < kp; ++x)
            for (int y = 0; y < kl; ++y)
                for (int z = 0; z < kr; ++z)
                    h.prob[h.binary[b].at +
                           (static_cast<std::size_t>(m.to[r.parent][x]) * nl + m.to[r.left][y]) *
                               nr +
                           m.to[r.right][z]] +=
                        m.weight[r.parent][x] *
                        g.prob[r.at + (static_cast<std::size_t>(x) * kl + y) * kr + z];
    }
    auto unaries = [&](const std::vector<LatentGrammar::Unary>& gu,
                       const std::vector<LatentGrammar::Unary>& hu) {
        for (std::size_t u = 0; u < gu.size(); ++u) {
            const auto& r = gu[u];
            const int kp = g.subs[r.parent], kc = g.subs[r.child], nc = h.subs[r.child];
            for (int x = 0; x < kp; ++x)
                for (int y = 0; y < kc; ++y)
                    h.prob[hu[u].at + static_cast<std::size_t>(m.to[r.parent][x]) * nc +
                           m.to[r.child][y]] +=
                        m.weight[r.parent][x] * g.prob[r.at + static_cast<std::size_t>(x) * kc + y];
        }
    };
    unaries(g.unary, h.unary);
    unaries(g.rootRules, h.rootRules);
    for (std::size_t l = 0; l < g.lexical.size(); ++l) {
        const auto& r = g.lexical[l];
        for (int x = 0; x < g.subs[r.tag]; ++x)
            h.prob[h.lexical[l].at + m.to[r.tag][x]] += m.weight[r.tag][x] * g.prob[r.at + x];
    }
    for (std::size_t b = 0; b < g.symbols.size(); ++b)
        for (int x = 0; x < g.subs[b]; ++x)
            h.fallback[h.subOffset[b] + m.to[b][x]] +=
                m.weight[b][x] * g.fallback[g.subOffset[b] + x];
    return h;
}

// symbolCount: expected refinement counts (they give each pair's weights p1, p2).
std::vector<SplitPair> lossesGivenCounts(const LatentGrammar& g, const LatentTrees& trees,
                                         const std::vector<double>& symbolCount, int threads) {
    std::vector<SplitPair> pairs;
    std::vector<std::size_t> pairBegin(g.symbols.size() + 1, 0);
    for (std::size_t b = 0; b < g.symbols.size(); ++b) {
        pairBegin[b] = pairs.size();
        if (b == g.root) continue;
        for (int j = 0; 2 * j + 1 < g.subs[b]; ++j)
            pairs.push_back({static_cast<SymbolId>(b), j, 0.0});
    }
    pairBegin[g.symbols.size()] = pairs.size();
    std::vector<std::vector<double>> delta(
        static_cast<std::size_t>(chunkCount(trees.trees.size())));
    forChunks(
        trees.trees.size(), threads, Progress{}, [&](int c, std::size_t first, std::size_t last) {
            auto& d = delta[static_cast<std::size_t>(c)];
            d.assign(pairs.size(), 0.0);
            Scratch s;
            for (std::size_t t = first; t < last; ++t) {
                const auto& nodes = trees.trees[t];
                if (inside(g, nodes, s) == kNegInf) continue;
                outside(g, nodes, s, [&](std::size_t i, const double* O) {
                    const SymbolId b = nodes[i].symbol;
                    const double* I = &s.in[s.offset[i]];
                    double whole = 0;
                    for (int x = 0; x < g.subs[b]; ++x)
                        whole += I[x] * O[x];
                    if (whole <= 0) return;
                    for (std::size_t p = pairBegin[b]; p < pairBegin[b + 1]; ++p) {
                        const int x1 = 2 * pairs[p].pair, x2 = x1 + 1;
                        const double c1 = symbolCount[g.subOffset[b] + x1];
                        const double c2 = symbolCount[g.subOffset[b] + x2];
                        const double w1 = c1 + c2 > 0 ? c1 / (c1 + c2) : 0.5;
                        const double merged = whole - I[x1] * O[x1] - I[x2] * O[x2] +
                                              (w1 * I[x1] + (1 - w1) * I[x2]) * (O[x1] + O[x2]);
                        d[p] += std::log(std::max(merged, 0.0) / whole);
                    }
                });
            }
        });
    for (const auto& d : delta)
        for (std::size_t p = 0; p < pairs.size(); ++p)
            pairs[p].loss -= d[p];
    return pairs;
}

} // namespace

std::vector<SplitPair> mergeLosses(const LatentGrammar& g, const LatentTrees& trees, int threads) {
    return lossesGivenCounts(g, trees, expectedCounts(g, trees, threads, Progress{}).symbol,
                             threads);
}

LatentGrammar mergeLatent(const LatentGrammar& g, const LatentTrees& trees, double fraction,
                          int threads, int* merged) {
    // One E-step's refinement counts weigh the pairs' losses and the merged parents' rules.
    const std::vector<double> symbolCount = expectedCounts(g, trees, threads, Progress{}).symbol;
    const std::vector<SplitPair> pairs = lossesGivenCounts(g, trees, symbolCount, threads);
    std::vector<std::size_t> order(pairs.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return pairs[a].loss < pairs[b].loss; });
    const std::size_t take = std::min(
        pairs.size(),
        static_cast<std::size_t>(std::llround(fraction * static_cast<double>(pairs.size()))));
    std::vector<std::vector<bool>> mergePair(g.symbols.size());
    for (std::size_t b = 0; b < g.symbols.size(); ++b)
        mergePair[b].assign(static_cast<std::size_t>(g.subs[b] / 2), false);
    for (std::size_t i = 0; i < take; ++i)
        mergePair[pairs[order[i]].symbol][static_cast<std::size_t>(pairs[order[i]].pair)] = true;
    if (merged) *merged = static_cast<int>(take);
    Remap m;
    m.to.resize(g.symbols.size());
    m.weight.resize(g.symbols.size());
    std::vector<int> newSubs(g.symbols.size());
    for (std::size_t b = 0; b < g.symbols.size(); ++b) {
        const int k = g.subs[b];
        m.to[b].assign(static_cast<std::size_t>(k), 0);
        m.weight[b].assign(static_cast<std::size_t>(k), 1.0);
        int next = 0;
        for (int x = 0; x < k; ++x) {
            const bool inPair = static_cast<std::size_t>(x / 2) < mergePair[b].size();
            if (inPair && mergePair[b][static_cast<std::size_t>(x / 2)]) {
                if (x % 2 == 1) continue; // handled with its even twin
                const double c1 = symbolCount[g.subOffset[b] + x];
                const double c2 = symbolCount[g.subOffset[b] + x + 1];
                const double w1 = c1 + c2 > 0 ? c1 / (c1 + c2) : 0.5;
                m.to[b][static_cast<std::size_t>(x)] = next;
                m.to[b][static_cast<std::size_t>(x + 1)] = next;
                m.weight[b][static_cast<std::size_t>(x)] = w1;
                m.weight[b][static_cast<std::size_t>(x + 1)] = 1 - w1;
                ++next;
            } else {
                m.to[b][static_cast<std::size_t>(x)] = next++;
            }
        }
        newSubs[b] = next;
    }
    return remapLatent(g, newSubs, m);
}

} // namespace prunescope
