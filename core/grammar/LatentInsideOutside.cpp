// Inside and outside over one gold tree's refinements, expected counts (Petrov et al. 2006, sec.
// 2.1); see LatentInsideOutside.h.
#include "core/grammar/LatentInsideOutside.h"

namespace prunescope::latent {

// Rescales v[0..k) to max 1; returns log of the factor taken out (-inf if all zero).
double rescale(double* v, int k) {
    double m = 0;
    for (int x = 0; x < k; ++x)
        m = std::max(m, v[x]);
    if (m == 0) return kNegInf;
    const double inv = 1.0 / m;
    for (int x = 0; x < k; ++x)
        v[x] *= inv;
    return std::log(m);
}

// The inside pass; returns the tree's log likelihood (-inf if 0).
double inside(const LatentGrammar& g, const std::vector<LatentTrees::Node>& nodes, Scratch& s) {
    s.prepare(g, nodes);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& n = nodes[i];
        const int k = g.subs[n.symbol];
        double* I = &s.in[s.offset[i]];
        double scale = 0;
        switch (n.kind) {
        case LatentTrees::Node::Lexical: {
            const double* P = &g.prob[g.lexical[n.rule].at];
            for (int x = 0; x < k; ++x)
                I[x] = P[x];
            break;
        }
        case LatentTrees::Node::Fallback: {
            const double* P = &g.fallback[g.subOffset[n.symbol]];
            for (int x = 0; x < k; ++x)
                I[x] = P[x];
            break;
        }
        case LatentTrees::Node::Unary:
        case LatentTrees::Node::Root: {
            const auto& r =
                n.kind == LatentTrees::Node::Root ? g.rootRules[n.rule] : g.unary[n.rule];
            const int kc = g.subs[r.child];
            const double* P = &g.prob[r.at];
            const double* C = &s.in[s.offset[n.left]];
            for (int x = 0; x < k; ++x) {
                double sum = 0;
                for (int y = 0; y < kc; ++y)
                    sum += P[x * kc + y] * C[y];
                I[x] = sum;
            }
            scale = s.inScale[n.left];
            break;
        }
        case LatentTrees::Node::Binary: {
            const auto& r = g.binary[n.rule];
            const int kl = g.subs[r.left], kr = g.subs[r.right];
            const double* P = &g.prob[r.at];
            const double* L = &s.in[s.offset[n.left]];
            const double* R = &s.in[s.offset[n.right]];
            for (int x = 0; x < k; ++x) {
                double sum = 0;
                for (int y = 0; y < kl; ++y) {
                    const double* row = P + (static_cast<std::size_t>(x) * kl + y) * kr;
                    double t = 0;
                    for (int z = 0; z < kr; ++z)
                        t += row[z] * R[z];
                    sum += L[y] * t;
                }
                I[x] = sum;
            }
            scale = s.inScale[n.left] + s.inScale[n.right];
            break;
        }
        }
        const double m = rescale(I, k);
        if (m == kNegInf) return kNegInf;
        s.inScale[i] = scale + m;
    }
    const std::size_t rootNode = nodes.size() - 1;
    return s.inScale[rootNode] + std::log(s.in[s.offset[rootNode]]);
}

namespace {

void accumulate(const LatentGrammar& g, const std::vector<LatentTrees::Node>& nodes, Scratch& s,
                Accumulator& acc) {
    const double logL = inside(g, nodes, s);
    if (logL == kNegInf) return; // compileLatentTrees keeps only trees of positive probability
    acc.logLikelihood += logL;
    outside(g, nodes, s, [&](std::size_t i, const double* O) {
        const auto& n = nodes[i];
        const int k = g.subs[n.symbol];
        const double* I = &s.in[s.offset[i]];
        const double post = std::exp(s.outScale[i] + s.inScale[i] - logL);
        double* sym = &acc.symbol[g.subOffset[n.symbol]];
        for (int x = 0; x < k; ++x)
            sym[x] += post * O[x] * I[x];
        switch (n.kind) {
        case LatentTrees::Node::Lexical: {
            double* E = &acc.rule[g.lexical[n.rule].at];
            for (int x = 0; x < k; ++x)
                E[x] += post * O[x] * I[x];
            if (n.rare) {
                double* F = &acc.fallback[g.subOffset[n.symbol]];
                for (int x = 0; x < k; ++x)
                    F[x] += post * O[x] * I[x];
            }
            break;
        }
        case LatentTrees::Node::Fallback:
            break;
        case LatentTrees::Node::Unary:
        case LatentTrees::Node::Root: {
            const auto& r =
                n.kind == LatentTrees::Node::Root ? g.rootRules[n.rule] : g.unary[n.rule];
            const int kc = g.subs[r.child];
            const double* P = &g.prob[r.at];
            const double* C = &s.in[s.offset[n.left]];
            double* E = &acc.rule[r.at];
            const double f = std::exp(s.outScale[i] + s.inScale[n.left] - logL);
            for (int x = 0; x < k; ++x)
                for (int y = 0; y < kc; ++y)
                    E[x * kc + y] += f * O[x] * P[x * kc + y] * C[y];
            break;
        }
        case LatentTrees::Node::Binary: {
            const auto& r = g.binary[n.rule];
            const int kl = g.subs[r.left], kr = g.subs[r.right];
            const double* P = &g.prob[r.at];
            const double* L = &s.in[s.offset[n.left]];
            const double* R = &s.in[s.offset[n.right]];
            double* E = &acc.rule[r.at];
            const double f =
                std::exp(s.outScale[i] + s.inScale[n.left] + s.inScale[n.right] - logL);
            for (int x = 0; x < k; ++x) {
                if (O[x] == 0) continue;
                for (int y = 0; y < kl; ++y) {
                    const double a = f * O[x] * L[y];
                    const std::size_t base = (static_cast<std::size_t>(x) * kl + y) * kr;
                    for (int z = 0; z < kr; ++z)
                        E[base + z] += a * P[base + z] * R[z];
                }
            }
            break;
        }
        }
    });
}

} // namespace

Accumulator expectedCounts(const LatentGrammar& g, const LatentTrees& trees, int threads,
                           const Progress& progress) {
    std::vector<Accumulator> accs(static_cast<std::size_t>(chunkCount(trees.trees.size())));
    forChunks(trees.trees.size(), threads, progress,
              [&](int c, std::size_t first, std::size_t last) {
                  Accumulator& a = accs[static_cast<std::size_t>(c)];
                  a.rule.assign(g.prob.size(), 0.0);
                  a.symbol.assign(g.refinedSymbols(), 0.0);
                  a.fallback.assign(g.refinedSymbols(), 0.0);
                  Scratch s;
                  for (std::size_t t = first; t < last; ++t)
                      accumulate(g, trees.trees[t], s, a);
              });
    Accumulator total = std::move(accs[0]);
    for (std::size_t c = 1; c < accs.size(); ++c) {
        for (std::size_t i = 0; i < total.rule.size(); ++i)
            total.rule[i] += accs[c].rule[i];
        for (std::size_t i = 0; i < total.symbol.size(); ++i)
            total.symbol[i] += accs[c].symbol[i];
        for (std::size_t i = 0; i < total.fallback.size(); ++i)
            total.fallback[i] += accs[c].fallback[i];
        total.logLikelihood += accs[c].logLikelihood;
    }
    return total;
}

} // namespace prunescope::latent
