#pragma once
// The parts the split-merge files share (internal to core/grammar; Petrov et al. 2006, sec. 2.1):
// inside and outside over the refinements of one gold tree's nodes (scaled), the E-step's expected
// counts over fixed chunks of trees, and per-parent runs of a probability vector.
//   LatentInsideOutside.cpp: the passes and expected counts; LatentGrammar.cpp: the grammar's
//   layout and files; SplitMergeEm.cpp: EM and splitting; SplitMergeMerge.cpp: merging;
//   SplitMerge.cpp: the training cycles.
#include "core/grammar/SplitMerge.h"
#include "core/util/Parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace prunescope::latent {

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
double rescale(double* v, int k);

// The inside pass; returns the tree's log likelihood (-inf if 0).
double inside(const LatentGrammar& g, const std::vector<LatentTrees::Node>& nodes, Scratch& s);

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

// Expected counts over the fixed chunks, summed in chunk order.
Accumulator expectedCounts(const LatentGrammar& g, const LatentTrees& trees, int threads,
                           const Progress& progress);

inline int chunkCount(std::size_t trees) {
    return static_cast<int>(std::min<std::size_t>(kChunks, std::max<std::size_t>(trees, 1)));
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
std::vector<double> normalizeByParent(LatentGrammar& g, std::vector<double>& v);

// b^x, the name of refinement x of base symbol b (ROOT keeps its name).
std::string refinedName(const std::string& base, int x);

} // namespace prunescope::latent
