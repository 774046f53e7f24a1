#include "core/grammar/SplitMerge.h"

#include "core/grammar/GrammarFile.h"
#include "core/treebank/Binarize.h"
#include "core/treebank/UnknownWords.h"
#include "core/util/AtomicFile.h"
#include "core/util/Clock.h"
#include "core/util/Parallel.h"
#include "core/util/Random.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

namespace prunescope {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
// The E-step's fixed chunks: the trees are cut into this many contiguous ranges whatever the
// thread count, and the chunks' sums are added in chunk order.
constexpr int kChunks = 8;

std::size_t blockSize(const LatentGrammar& g, const LatentGrammar::Binary& r) {
    return static_cast<std::size_t>(g.subs[r.parent]) * g.subs[r.left] * g.subs[r.right];
}
std::size_t blockSize(const LatentGrammar& g, const LatentGrammar::Unary& r) {
    return static_cast<std::size_t>(g.subs[r.parent]) * g.subs[r.child];
}

// Per-tree scratch: scaled inside and outside vectors (value = stored * exp(scale)).
struct Scratch {
    std::vector<std::size_t> offset;
    std::vector<double> in, out;
    std::vector<double> inScale, outScale;
    void prepare(const LatentGrammar& g, const std::vector<LatentTrees::Node>& nodes) {
        offset.resize(nodes.size() + 1);
        std::size_t at = 0;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            offset[i] = at;
            at += static_cast<std::size_t>(g.subs[nodes[i].symbol]);
        }
        offset[nodes.size()] = at;
        if (in.size() < at) {
            in.resize(at);
            out.resize(at);
        }
        inScale.resize(nodes.size());
        outScale.resize(nodes.size());
    }
};

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

// The outside pass (after inside); calls visit(i, O) for every node once its outside vector O
// (scale s.outScale[i]) is final, parents before children.
template <class Visit>
void outside(const LatentGrammar& g, const std::vector<LatentTrees::Node>& nodes, Scratch& s,
             Visit&& visit) {
    const std::size_t last = nodes.size() - 1;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        std::fill_n(&s.out[s.offset[i]], g.subs[nodes[i].symbol], 0.0);
    s.out[s.offset[last]] = 1;
    s.outScale[last] = 0;
    for (std::size_t ii = nodes.size(); ii-- > 0;) {
        const auto& n = nodes[ii];
        const int k = g.subs[n.symbol];
        const double* O = &s.out[s.offset[ii]];
        visit(ii, O);
        switch (n.kind) {
        case LatentTrees::Node::Lexical:
        case LatentTrees::Node::Fallback:
            break;
        case LatentTrees::Node::Unary:
        case LatentTrees::Node::Root: {
            const auto& r =
                n.kind == LatentTrees::Node::Root ? g.rootRules[n.rule] : g.unary[n.rule];
            const int kc = g.subs[r.child];
            const double* P = &g.prob[r.at];
            double* C = &s.out[s.offset[n.left]];
            for (int x = 0; x < k; ++x)
                for (int y = 0; y < kc; ++y)
                    C[y] += O[x] * P[x * kc + y];
            const double m = rescale(C, kc);
            s.outScale[n.left] = s.outScale[ii] + (m == kNegInf ? 0 : m);
            break;
        }
        case LatentTrees::Node::Binary: {
            const auto& r = g.binary[n.rule];
            const int kl = g.subs[r.left], kr = g.subs[r.right];
            const double* P = &g.prob[r.at];
            const double* IL = &s.in[s.offset[n.left]];
            const double* IR = &s.in[s.offset[n.right]];
            double* OL = &s.out[s.offset[n.left]];
            double* OR = &s.out[s.offset[n.right]];
            for (int x = 0; x < k; ++x) {
                if (O[x] == 0) continue;
                for (int y = 0; y < kl; ++y) {
                    const double* row = P + (static_cast<std::size_t>(x) * kl + y) * kr;
                    const double a = O[x] * IL[y];
                    double t = 0;
                    for (int z = 0; z < kr; ++z) {
                        t += row[z] * IR[z];
                        OR[z] += a * row[z];
                    }
                    OL[y] += O[x] * t;
                }
            }
            const double ml = rescale(OL, kl), mr = rescale(OR, kr);
            s.outScale[n.left] = s.outScale[ii] + s.inScale[n.right] + (ml == kNegInf ? 0 : ml);
            s.outScale[n.right] = s.outScale[ii] + s.inScale[n.left] + (mr == kNegInf ? 0 : mr);
            break;
        }
        }
    }
}

// Expected counts of one chunk of trees.
struct Accumulator {
    std::vector<double> rule;     // like prob
    std::vector<double> symbol;   // per refined symbol: expected occurrences
    std::vector<double> fallback; // per refined symbol: expected rare-word emissions
    double logLikelihood = 0;
};

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

// Runs fn(chunk, first, last) over the fixed chunks of `count` trees.
template <class Fn>
void forChunks(std::size_t count, int threads, const Progress& progress, Fn&& fn) {
    const int chunks =
        static_cast<int>(std::min<std::size_t>(kChunks, std::max<std::size_t>(count, 1)));
    parallelFor(
        chunks, defaultThreads(threads),
        [&](int c, int) {
            const std::size_t first = count * static_cast<std::size_t>(c) / chunks;
            const std::size_t last = count * static_cast<std::size_t>(c + 1) / chunks;
            fn(c, first, last);
            progress.advance();
        },
        progress.cancelFlag());
    progress.throwIfCancelled();
}

int chunkCount(std::size_t trees) {
    return static_cast<int>(std::min<std::size_t>(kChunks, std::max<std::size_t>(trees, 1)));
}

// Expected counts over the fixed chunks, summed in chunk order.
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

// Calls fn(refined parent index, first probability, count) for every contiguous run of v
// (laid out like prob) that belongs to one refined parent.
template <class Fn> void forParentRuns(const LatentGrammar& g, std::vector<double>& v, Fn&& fn) {
    for (const auto& r : g.binary) {
        const std::size_t run = static_cast<std::size_t>(g.subs[r.left]) * g.subs[r.right];
        for (int x = 0; x < g.subs[r.parent]; ++x)
            fn(g.subOffset[r.parent] + x, &v[r.at + x * run], run);
    }
    for (const auto& r : g.unary) {
        const std::size_t run = static_cast<std::size_t>(g.subs[r.child]);
        for (int x = 0; x < g.subs[r.parent]; ++x)
            fn(g.subOffset[r.parent] + x, &v[r.at + x * run], run);
    }
    for (const auto& r : g.rootRules)
        fn(g.subOffset[g.root], &v[r.at], static_cast<std::size_t>(g.subs[r.child]));
    for (const auto& r : g.lexical)
        for (int x = 0; x < g.subs[r.tag]; ++x)
            fn(g.subOffset[r.tag] + x, &v[r.at + x], std::size_t{1});
}

// Divides every refined parent's probabilities by their sum; returns the sums (before).
std::vector<double> normalizeByParent(LatentGrammar& g, std::vector<double>& v) {
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

std::string refinedName(const std::string& base, int x) {
    return base + "^" + std::to_string(x);
}

} // namespace

void LatentGrammar::layout() {
    subOffset.assign(symbols.size() + 1, 0);
    for (std::size_t b = 0; b < symbols.size(); ++b)
        subOffset[b + 1] = subOffset[b] + static_cast<std::size_t>(subs[b]);
    std::size_t at = 0;
    for (auto& r : binary) {
        r.at = at;
        at += blockSize(*this, r);
    }
    for (auto& r : unary) {
        r.at = at;
        at += blockSize(*this, r);
    }
    for (auto& r : rootRules) {
        r.at = at;
        at += blockSize(*this, r);
    }
    for (auto& r : lexical) {
        r.at = at;
        at += static_cast<std::size_t>(subs[r.tag]);
    }
    prob.assign(at, 0.0);
    fallback.assign(refinedSymbols(), 0.0);
}

LatentGrammar latentFromBase(const Grammar& base) {
    if (!base.baseLabel.empty())
        throw std::invalid_argument("latentFromBase: the grammar is already refined");
    LatentGrammar g;
    g.symbols = base.symbols;
    g.root = base.root;
    g.subs.assign(base.symbols.size(), 1);
    for (const auto& r : base.binary)
        g.binary.push_back({r.parent, r.left, r.right, 0});
    for (const auto& r : base.unary)
        g.unary.push_back({r.parent, r.child, 0});
    for (const auto& r : base.rootRules)
        g.rootRules.push_back({r.parent, r.child, 0});
    g.words = base.words;
    for (std::size_t w = 0; w < base.lexicon.size(); ++w)
        for (const auto& e : base.lexicon[w])
            g.lexical.push_back({e.tag, static_cast<WordId>(w), 0});
    g.options = base.options;
    g.layout();
    for (std::size_t i = 0; i < base.binary.size(); ++i)
        g.prob[g.binary[i].at] = std::exp(static_cast<double>(base.binary[i].logProb));
    for (std::size_t i = 0; i < base.unary.size(); ++i)
        g.prob[g.unary[i].at] = std::exp(static_cast<double>(base.unary[i].logProb));
    for (std::size_t i = 0; i < base.rootRules.size(); ++i)
        g.prob[g.rootRules[i].at] = std::exp(static_cast<double>(base.rootRules[i].logProb));
    std::size_t l = 0;
    for (const auto& row : base.lexicon)
        for (const auto& e : row)
            g.prob[g.lexical[l++].at] = std::exp(static_cast<double>(e.logProb));
    for (const auto& e : base.unknownFallback)
        g.fallback[g.subOffset[e.tag]] = std::exp(static_cast<double>(e.logProb));
    return g;
}

Grammar fineGrammar(const LatentGrammar& g, const nlohmann::json& extraOptions) {
    Grammar f;
    // Refined ids: ROOT first, then every other base symbol's refinements in base order.
    std::vector<SymbolId> first(g.symbols.size());
    f.symbols.push_back(g.symbols[g.root]);
    f.baseLabel.push_back(g.symbols[g.root]);
    first[g.root] = 0;
    for (std::size_t b = 0; b < g.symbols.size(); ++b) {
        if (b == g.root) continue;
        first[b] = static_cast<SymbolId>(f.symbols.size());
        for (int x = 0; x < g.subs[b]; ++x) {
            f.symbols.push_back(refinedName(g.symbols[b], x));
            f.baseLabel.push_back(g.symbols[b]);
        }
    }
    f.root = 0;
    // Log probabilities as floats; a probability that underflows a float's log is left out, one
    // a rounding above 1 is written as 0.
    auto logp = [](double p) { return std::min(static_cast<float>(std::log(p)), 0.0f); };
    auto finite = [](float lp) { return lp != -std::numeric_limits<float>::infinity(); };
    auto id = [&](SymbolId b, int x) { return first[b] + static_cast<SymbolId>(x); };
    std::size_t binaryCount = 0;
    for (const auto& r : g.binary)
        for (std::size_t i = 0; i < blockSize(g, r); ++i)
            binaryCount += finite(logp(g.prob[r.at + i])) ? 1 : 0;
    if (binaryCount >= kMaxBinaryRules)
        throw std::invalid_argument("the fine grammar would have " + std::to_string(binaryCount) +
                                    " binary rules, more than a grammar holds (" +
                                    std::to_string(kMaxBinaryRules - 1) +
                                    "): train fewer split-merge cycles");
    f.binary.reserve(binaryCount);
    for (const auto& r : g.binary) {
        const int kp = g.subs[r.parent], kl = g.subs[r.left], kr = g.subs[r.right];
        for (int x = 0; x < kp; ++x)
            for (int y = 0; y < kl; ++y)
                for (int z = 0; z < kr; ++z) {
                    const float lp =
                        logp(g.prob[r.at + (static_cast<std::size_t>(x) * kl + y) * kr + z]);
                    if (finite(lp))
                        f.binary.push_back({id(r.parent, x), id(r.left, y), id(r.right, z), lp});
                }
    }
    for (const auto& r : g.unary)
        for (int x = 0; x < g.subs[r.parent]; ++x)
            for (int y = 0; y < g.subs[r.child]; ++y) {
                const float lp =
                    logp(g.prob[r.at + static_cast<std::size_t>(x) * g.subs[r.child] + y]);
                if (finite(lp)) f.unary.push_back({id(r.parent, x), id(r.child, y), lp});
            }
    for (const auto& r : g.rootRules)
        for (int y = 0; y < g.subs[r.child]; ++y) {
            const float lp = logp(g.prob[r.at + y]);
            if (finite(lp)) f.rootRules.push_back({f.root, id(r.child, y), lp});
        }
    f.words = g.words;
    f.lexicon.resize(g.words.size());
    for (const auto& r : g.lexical)
        for (int x = 0; x < g.subs[r.tag]; ++x) {
            const float lp = logp(g.prob[r.at + x]);
            if (finite(lp)) f.lexicon[r.word].push_back({id(r.tag, x), lp});
        }
    for (std::size_t b = 0; b < g.symbols.size(); ++b)
        for (int x = 0; x < g.subs[b]; ++x) {
            const double p = g.fallback[g.subOffset[b] + x];
            if (p > 0 && finite(logp(p)))
                f.unknownFallback.push_back({id(static_cast<SymbolId>(b), x), logp(p)});
        }
    f.options = g.options;
    if (extraOptions.is_object())
        for (auto it = extraOptions.begin(); it != extraOptions.end(); ++it)
            f.options[it.key()] = it.value();
    f.finalize();
    return f;
}

LatentGrammar latentFromFine(const LatentGrammar& base, const Grammar& fine) {
    if (fine.baseLabel.empty())
        throw std::invalid_argument("not a fine grammar (its symbols name no base symbols)");
    std::map<std::string, SymbolId> baseId;
    for (std::size_t b = 0; b < base.symbols.size(); ++b)
        baseId.emplace(base.symbols[b], static_cast<SymbolId>(b));
    LatentGrammar g = base;
    std::fill(g.subs.begin(), g.subs.end(), 0);
    std::vector<SymbolId> toBase(fine.symbols.size());
    std::vector<int> sub(fine.symbols.size());
    for (std::size_t s = 0; s < fine.symbols.size(); ++s) {
        auto it = baseId.find(fine.baseLabel[s]);
        if (it == baseId.end())
            throw std::invalid_argument("symbol '" + fine.symbols[s] + "' refines '" +
                                        fine.baseLabel[s] + "', which the base grammar lacks");
        const SymbolId b = it->second;
        const std::string expect =
            b == base.root ? base.symbols[b] : refinedName(base.symbols[b], g.subs[b]);
        if (fine.symbols[s] != expect)
            throw std::invalid_argument("symbol '" + fine.symbols[s] + "' is not '" + expect +
                                        "' (refinements must be listed in order)");
        toBase[s] = b;
        sub[s] = g.subs[b]++;
    }
    for (std::size_t b = 0; b < g.subs.size(); ++b)
        if (g.subs[b] == 0)
            throw std::invalid_argument("base symbol '" + base.symbols[b] + "' has no refinement");
    g.layout();
    std::map<std::tuple<SymbolId, SymbolId, SymbolId>, std::size_t> binaryAt;
    for (const auto& r : g.binary)
        binaryAt[{r.parent, r.left, r.right}] = r.at;
    std::map<std::pair<SymbolId, SymbolId>, std::size_t> unaryAt, lexAt;
    for (const auto& r : g.unary)
        unaryAt[{r.parent, r.child}] = r.at;
    for (const auto& r : g.rootRules)
        unaryAt[{r.parent, r.child}] = r.at;
    std::map<std::string, WordId> wordId;
    for (std::size_t w = 0; w < g.words.size(); ++w)
        wordId.emplace(g.words[w], static_cast<WordId>(w));
    for (const auto& r : g.lexical)
        lexAt[{r.tag, r.word}] = r.at;
    auto p = [](float lp) { return std::exp(static_cast<double>(lp)); };
    for (const auto& r : fine.binary) {
        auto it = binaryAt.find({toBase[r.parent], toBase[r.left], toBase[r.right]});
        if (it == binaryAt.end())
            throw std::invalid_argument("binary rule " + fine.symbols[r.parent] + " -> " +
                                        fine.symbols[r.left] + " " + fine.symbols[r.right] +
                                        " has no base rule");
        g.prob[it->second +
               (static_cast<std::size_t>(sub[r.parent]) * g.subs[toBase[r.left]] + sub[r.left]) *
                   g.subs[toBase[r.right]] +
               sub[r.right]] = p(r.logProb);
    }
    auto unaries = [&](const std::vector<UnaryRule>& rules) {
        for (const auto& r : rules) {
            auto it = unaryAt.find({toBase[r.parent], toBase[r.child]});
            if (it == unaryAt.end())
                throw std::invalid_argument("unary rule " + fine.symbols[r.parent] + " -> " +
                                            fine.symbols[r.child] + " has no base rule");
            g.prob[it->second + static_cast<std::size_t>(sub[r.parent]) * g.subs[toBase[r.child]] +
                   sub[r.child]] = p(r.logProb);
        }
    };
    unaries(fine.unary);
    unaries(fine.rootRules);
    for (std::size_t w = 0; w < fine.words.size(); ++w) {
        auto wi = wordId.find(fine.words[w]);
        for (const auto& e : fine.lexicon[w]) {
            auto it = wi == wordId.end() ? lexAt.end() : lexAt.find({toBase[e.tag], wi->second});
            if (it == lexAt.end())
                throw std::invalid_argument("lexical entry " + fine.symbols[e.tag] + " -> " +
                                            fine.words[w] + " has no base entry");
            g.prob[it->second + sub[e.tag]] = p(e.logProb);
        }
    }
    for (const auto& e : fine.unknownFallback)
        g.fallback[g.subOffset[toBase[e.tag]] + sub[e.tag]] = p(e.logProb);
    return g;
}

LatentTrees compileLatentTrees(const Grammar& base, const LatentGrammar& g,
                               const std::vector<Tree>& normalized) {
    std::map<std::tuple<SymbolId, SymbolId, SymbolId>, std::uint32_t> binaryIndex;
    for (std::size_t i = 0; i < g.binary.size(); ++i)
        binaryIndex[{g.binary[i].parent, g.binary[i].left, g.binary[i].right}] =
            static_cast<std::uint32_t>(i);
    std::map<std::pair<SymbolId, SymbolId>, std::uint32_t> unaryIndex, rootIndex, lexIndex;
    for (std::size_t i = 0; i < g.unary.size(); ++i)
        unaryIndex[{g.unary[i].parent, g.unary[i].child}] = static_cast<std::uint32_t>(i);
    for (std::size_t i = 0; i < g.rootRules.size(); ++i)
        rootIndex[{g.rootRules[i].parent, g.rootRules[i].child}] = static_cast<std::uint32_t>(i);
    for (std::size_t i = 0; i < g.lexical.size(); ++i)
        lexIndex[{g.lexical[i].tag, g.lexical[i].word}] = static_cast<std::uint32_t>(i);
    std::map<std::string, WordId> wordIndex;
    for (std::size_t w = 0; w < g.words.size(); ++w)
        wordIndex.emplace(g.words[w], static_cast<WordId>(w));
    std::vector<bool> hasFallback(g.symbols.size(), false);
    for (std::size_t b = 0; b < g.symbols.size(); ++b)
        hasFallback[b] = g.fallback[g.subOffset[b]] > 0;

    LatentTrees out;
    std::vector<LatentTrees::Node> nodes;
    for (const Tree& t : normalized) {
        const Tree bin = binarizeLike(base, t);
        nodes.clear();
        int pos = 0;
        bool ok = true;
        // Appends the nodes of n (postorder); returns n's index, -1 once the tree cannot be used.
        auto visit = [&](auto&& self, const Tree& n, bool top) -> std::int32_t {
            LatentTrees::Node node{};
            auto sym = base.symbolIndex.find(n.label);
            if (sym == base.symbolIndex.end()) return ok = false, -1;
            node.symbol = sym->second;
            if (n.isPreterminal()) {
                const std::string& w = n.children[0].label;
                auto wi = wordIndex.find(w);
                node.rare = wi == wordIndex.end();
                if (node.rare) wi = wordIndex.find(unknownSignature(w, pos));
                ++pos;
                if (wi != wordIndex.end()) {
                    auto li = lexIndex.find({node.symbol, wi->second});
                    if (li == lexIndex.end()) return ok = false, -1;
                    node.kind = LatentTrees::Node::Lexical;
                    node.rule = li->second;
                } else {
                    if (!hasFallback[node.symbol]) return ok = false, -1;
                    node.kind = LatentTrees::Node::Fallback;
                }
            } else if (n.children.size() == 1) {
                node.left = self(self, n.children[0], false);
                if (!ok) return -1;
                auto& index = top ? rootIndex : unaryIndex;
                auto it = index.find({node.symbol, nodes[node.left].symbol});
                if (it == index.end()) return ok = false, -1;
                node.kind = top ? LatentTrees::Node::Root : LatentTrees::Node::Unary;
                node.rule = it->second;
            } else if (n.children.size() == 2 && !top) {
                node.left = self(self, n.children[0], false);
                if (!ok) return -1;
                node.right = self(self, n.children[1], false);
                if (!ok) return -1;
                auto it = binaryIndex.find(
                    {node.symbol, nodes[node.left].symbol, nodes[node.right].symbol});
                if (it == binaryIndex.end()) return ok = false, -1;
                node.kind = LatentTrees::Node::Binary;
                node.rule = it->second;
            } else {
                return ok = false, -1;
            }
            nodes.push_back(node);
            return static_cast<std::int32_t>(nodes.size() - 1);
        };
        visit(visit, bin, true);
        if (ok && !nodes.empty() && nodes.back().symbol == g.root)
            out.trees.push_back(nodes);
        else
            ++out.skipped;
    }
    return out;
}

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

namespace {
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

namespace {

struct Stats {
    std::size_t binary = 0, unary = 0, lexical = 0;
};
Stats refinedRuleCounts(const LatentGrammar& g) {
    Stats s;
    for (const auto& r : g.binary)
        s.binary += blockSize(g, r);
    for (const auto& r : g.unary)
        s.unary += blockSize(g, r);
    for (const auto& r : g.lexical)
        s.lexical += static_cast<std::size_t>(g.subs[r.tag]);
    return s;
}

nlohmann::json settingsJson(const SplitMergeOptions& opt, std::size_t trainTrees, bool heldOut,
                            std::size_t devTrees) {
    return {{"seed", opt.seed},
            {"perturbation", opt.perturbation},
            {"mergeFraction", opt.mergeFraction},
            {"smoothing", {opt.smoothing.phrasal, opt.smoothing.lexical}},
            {"splitIterations", opt.splitIterations},
            {"mergeIterations", opt.mergeIterations},
            {"patience", opt.patience},
            {"trainTrees", trainTrees},
            {"heldOut", heldOut},
            {"devTrees", devTrees}};
}

} // namespace

Grammar trainSplitMerge(const std::vector<Tree>& train, const std::vector<Tree>& dev,
                        const SplitMergeOptions& opt, const Progress& progress,
                        SplitMergeReport* report) {
    if (opt.cycles < 0 || opt.cycles > 8)
        throw std::invalid_argument("split-merge cycles must be in 0..8, not " +
                                    std::to_string(opt.cycles));
    std::vector<Tree> trainPart, devPart;
    const bool heldOut = dev.empty();
    if (heldOut) {
        for (std::size_t i = 0; i < train.size(); ++i)
            (i % 20 == 19 ? devPart : trainPart).push_back(train[i]);
    } else {
        trainPart = train;
        devPart = dev;
    }
    SplitMergeReport rep;
    rep.heldOut = heldOut;
    const Grammar base = estimatePcfgFromNormalized(trainPart, opt.grammar);
    LatentGrammar g = latentFromBase(base);
    const LatentTrees trainTrees = compileLatentTrees(base, g, trainPart);
    if (trainTrees.skipped != 0)
        throw std::logic_error("a training tree does not fit the grammar estimated from it");
    const LatentTrees devTrees = compileLatentTrees(base, g, devPart);
    rep.trainTrees = trainTrees.trees.size();
    rep.devTrees = devTrees.trees.size();
    rep.devSkipped = devTrees.skipped;
    const nlohmann::json settings = settingsJson(opt, trainPart.size(), heldOut, devPart.size());
    auto extra = [&](int cycle) {
        return nlohmann::json{{"splitMerge", {{"cycle", cycle}, {"settings", settings}}}};
    };

    int start = 0;
    if (!opt.checkpointPrefix.empty()) {
        for (int k = opt.cycles; k >= 1 && start == 0; --k) {
            const std::string path = opt.checkpointPrefix + ".sm" + std::to_string(k);
            if (!std::filesystem::exists(path)) continue;
            const Grammar fine = loadGrammar(path);
            const auto& o = fine.options;
            if (!o.contains("splitMerge") || o["splitMerge"].value("cycle", -1) != k ||
                o["splitMerge"]["settings"] != settings ||
                o["binarize"] != base.options["binarize"] ||
                o["rareWordThreshold"] != base.options["rareWordThreshold"])
                continue; // another run's checkpoint: not resumed, overwritten later
            g = latentFromFine(g, fine);
            start = k;
            for (int c = 1; c <= k; ++c) {
                SplitMergeCycle sc;
                sc.cycle = c;
                sc.resumed = true;
                rep.cycles.push_back(sc);
            }
            progress.log("resuming after cycle " + std::to_string(k) + " from " + path);
        }
    }

    // EM from g for at most maxIterations; g becomes the iterate (>= 1) of best held-out
    // likelihood, and EM stops once `patience` iterations in a row have not improved on it.
    // Returns that iterate's number.
    auto runEm = [&](int maxIterations, int cycle, const char* what, SplitMergeCycle& sc) {
        if (maxIterations <= 0) return 0;
        double bestDev = kNegInf;
        int bestIt = 0;
        LatentGrammar best;
        for (int it = 1; it <= maxIterations && it - bestIt <= opt.patience; ++it) {
            progress.begin(std::string("split-merge EM (") + what + ")",
                           chunkCount(trainTrees.trees.size()));
            progress.setStep(cycle, opt.cycles);
            EmStep step = emIteration(g, trainTrees, opt.smoothing, opt.threads, progress);
            const double devLl = latentLogLikelihood(step.next, devTrees, opt.threads);
            if (bestIt == 0 || devLl > bestDev) {
                bestDev = devLl;
                bestIt = it;
                best = step.next;
            }
            g = std::move(step.next);
        }
        g = std::move(best);
        sc.devLogLikelihood = bestDev;
        return bestIt;
    };

    for (int cycle = start + 1; cycle <= opt.cycles; ++cycle) {
        const double t0 = wallSeconds();
        SplitMergeCycle sc;
        sc.cycle = cycle;
        g = splitLatent(g, opt.perturbation,
                        opt.seed * 1000003ull + static_cast<std::uint64_t>(cycle));
        sc.splitIterations = runEm(opt.splitIterations, cycle, "split", sc);
        progress.begin("merge", 0); // three passes over the trees, seconds; not itemized
        g = mergeLatent(g, trainTrees, opt.mergeFraction, opt.threads, &sc.merged);
        progress.throwIfCancelled();
        sc.mergeIterations = runEm(opt.mergeIterations, cycle, "merge", sc);
        sc.trainLogLikelihood = latentLogLikelihood(g, trainTrees, opt.threads);
        const Stats st = refinedRuleCounts(g);
        sc.refinedSymbols = g.refinedSymbols();
        sc.binaryRules = st.binary;
        sc.unaryRules = st.unary;
        sc.lexicalEntries = st.lexical;
        if (!opt.checkpointPrefix.empty())
            saveGrammar(fineGrammar(g, extra(cycle)),
                        opt.checkpointPrefix + ".sm" + std::to_string(cycle));
        sc.seconds = wallSeconds() - t0;
        progress.log("cycle " + std::to_string(cycle) + ": " + std::to_string(sc.refinedSymbols) +
                     " refined symbols, train log likelihood " +
                     std::to_string(sc.trainLogLikelihood) + ", dev " +
                     std::to_string(sc.devLogLikelihood) + ", " + std::to_string(sc.seconds) +
                     " s");
        rep.cycles.push_back(sc);
    }
    if (report) *report = rep;
    // SM-0 is the X-bar grammar itself, from every training tree (what `grammar --markov 0` gives).
    if (opt.cycles == 0) return estimatePcfgFromNormalized(train, opt.grammar);
    return fineGrammar(g, extra(opt.cycles));
}

} // namespace prunescope
