// EM with exact, randomized or fixed-mask expectations (see EmStep.h).
#include "core/mcmc/EmStep.h"

#include "core/mcmc/FigureOfMerit.h"
#include "core/treebank/UnknownWords.h"
#include "core/util/Parallel.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

namespace prunescope {

const char* expectationMethodName(ExpectationMethod m) {
    switch (m) {
    case ExpectationMethod::Exact:
        return "exact";
    case ExpectationMethod::Randomized:
        return "randomized";
    case ExpectationMethod::FixedMask:
        return "fixed-mask";
    }
    return "?";
}

namespace {
// The lexicon row (word id) whose entries lexicalEntries(word, pos) returned, or -1 (fallback).
long lexiconRow(const Grammar& g, const std::string& word, int pos) {
    std::string how;
    g.lexicalEntries(word, pos, &how);
    if (how == "known") return static_cast<long>(g.wordIndex.at(word));
    if (how == "signature") return static_cast<long>(g.wordIndex.at(unknownSignature(word, pos)));
    return -1;
}

struct SentenceCounts {
    Expectations e;
    long pushes = 0;
    bool failed = false;
};

struct EWorker {
    explicit EWorker(const Grammar& g) : io(g), chain(g) {}
    PrunedInsideOutside io;
    RandomizedPruning chain;
};
} // namespace

CorpusCounts expectedCounts(const Grammar& g,
                            const std::vector<std::vector<std::string>>& sentences,
                            const Policy& fomPolicy, const EStepOptions& opt,
                            const Progress& progress) {
    if (opt.method == ExpectationMethod::Randomized) validateRandomizedOptions(opt.chain);
    const int count = static_cast<int>(sentences.size());
    std::vector<SentenceCounts> per(count);
    const int threads = std::max(1, std::min(defaultThreads(opt.threads), std::max(count, 1)));
    std::vector<std::unique_ptr<EWorker>> workers;
    for (int t = 0; t < threads; ++t)
        workers.push_back(std::make_unique<EWorker>(g));
    progress.begin(std::string("E-step (") + expectationMethodName(opt.method) + ")", count);
    parallelFor(
        count, threads,
        [&](int s, int wi) {
            EWorker& w = *workers[wi];
            const auto& words = sentences[s];
            const int n = static_cast<int>(words.size());
            SentenceCounts& out = per[s];
            if (opt.method == ExpectationMethod::Randomized) {
                try {
                    w.chain.start(words, policyFigureOfMerit(fomPolicy, words), opt.chain,
                                  static_cast<std::uint64_t>(s));
                    for (int it = 0; it < opt.iterations; ++it)
                        w.chain.step(progress);
                    w.chain.estimateInto(out.e);
                    out.pushes = w.chain.pushes();
                } catch (const NoDerivation&) {
                    out.failed = true;
                }
            } else {
                const PruningMask m = opt.method == ExpectationMethod::Exact
                                          ? PruningMask::allKeep(n)
                                          : thresholdMask(n, policyFigureOfMerit(fomPolicy, words),
                                                          opt.fixedThreshold);
                const auto st = w.io.inside(words, m, progress);
                out.pushes = st.pushes;
                out.failed = !st.success;
                if (st.success) w.io.outside(out.e);
            }
            progress.advance();
        },
        progress.cancelFlag());
    progress.throwIfCancelled();

    CorpusCounts c;
    c.binary.assign(g.binary.size(), 0.0);
    c.unary.assign(g.unary.size(), 0.0);
    c.root.assign(g.rootRules.size(), 0.0);
    c.lexicon.resize(g.lexicon.size());
    for (std::size_t w = 0; w < g.lexicon.size(); ++w)
        c.lexicon[w].assign(g.lexicon[w].size(), 0.0);
    for (int s = 0; s < count; ++s) { // in sentence order: the sums do not depend on the threads
        const SentenceCounts& sc = per[s];
        ++c.sentences;
        c.pushes += sc.pushes;
        if (sc.failed) {
            ++c.failures;
            continue;
        }
        for (std::size_t r = 0; r < c.binary.size(); ++r)
            c.binary[r] += sc.e.binary[r];
        for (std::size_t r = 0; r < c.unary.size(); ++r)
            c.unary[r] += sc.e.unary[r];
        for (std::size_t r = 0; r < c.root.size(); ++r)
            c.root[r] += sc.e.root[r];
        const auto& words = sentences[s];
        for (int i = 0; i < static_cast<int>(words.size()); ++i) {
            const long row = lexiconRow(g, words[i], i);
            if (row < 0) continue; // the generic fallback is not re-estimated
            for (std::uint32_t q = sc.e.lexicalBegin[i]; q < sc.e.lexicalBegin[i + 1]; ++q)
                c.lexicon[row][q - sc.e.lexicalBegin[i]] += sc.e.lexical[q];
        }
    }
    return c;
}

Grammar emUpdate(const Grammar& g, const CorpusCounts& c, double eta) {
    if (!(eta > 0 && eta <= 1)) throw std::invalid_argument("EM step size must lie in (0, 1]");
    if (c.binary.size() != g.binary.size() || c.unary.size() != g.unary.size() ||
        c.root.size() != g.rootRules.size() || c.lexicon.size() != g.lexicon.size())
        throw std::invalid_argument("counts are of another grammar");
    const std::size_t N = g.symbols.size();
    std::vector<double> total(N, 0.0), tagTotal(N, 0.0);
    for (std::size_t r = 0; r < g.binary.size(); ++r)
        total[g.binary[r].parent] += c.binary[r];
    for (std::size_t r = 0; r < g.unary.size(); ++r)
        total[g.unary[r].parent] += c.unary[r];
    double rootTotal = 0;
    for (double v : c.root)
        rootTotal += v;
    for (std::size_t w = 0; w < g.lexicon.size(); ++w)
        for (std::size_t e = 0; e < g.lexicon[w].size(); ++e)
            tagTotal[g.lexicon[w][e].tag] += c.lexicon[w][e];
    auto step = [eta](float logOld, double count, double tot) {
        if (tot <= 0) return logOld; // no evidence for this left-hand side: unchanged
        const double p = (1 - eta) * std::exp(static_cast<double>(logOld)) + eta * count / tot;
        return static_cast<float>(std::log(p));
    };
    Grammar out = g;
    for (std::size_t r = 0; r < g.binary.size(); ++r)
        out.binary[r].logProb = step(g.binary[r].logProb, c.binary[r], total[g.binary[r].parent]);
    for (std::size_t r = 0; r < g.unary.size(); ++r)
        out.unary[r].logProb = step(g.unary[r].logProb, c.unary[r], total[g.unary[r].parent]);
    for (std::size_t r = 0; r < g.rootRules.size(); ++r)
        out.rootRules[r].logProb = step(g.rootRules[r].logProb, c.root[r], rootTotal);
    for (std::size_t w = 0; w < g.lexicon.size(); ++w)
        for (std::size_t e = 0; e < g.lexicon[w].size(); ++e)
            out.lexicon[w][e].logProb =
                step(g.lexicon[w][e].logProb, c.lexicon[w][e], tagTotal[g.lexicon[w][e].tag]);
    out.finalize(); // same rules, same order: only the derived root table changes
    return out;
}

double grammarDistance(const Grammar& a, const Grammar& b) {
    if (a.binary.size() != b.binary.size() || a.unary.size() != b.unary.size() ||
        a.rootRules.size() != b.rootRules.size() || a.lexicon.size() != b.lexicon.size() ||
        a.symbols.size() != b.symbols.size())
        throw std::invalid_argument("grammars with different rules");
    const std::size_t N = a.symbols.size();
    std::vector<double> lhs(N, 0.0), tag(N, 0.0);
    std::vector<std::uint8_t> hasLhs(N, 0), hasTag(N, 0);
    auto d = [](float x, float y) {
        return std::abs(std::exp(static_cast<double>(x)) - std::exp(static_cast<double>(y)));
    };
    for (std::size_t r = 0; r < a.binary.size(); ++r)
        lhs[a.binary[r].parent] += d(a.binary[r].logProb, b.binary[r].logProb),
            hasLhs[a.binary[r].parent] = 1;
    for (std::size_t r = 0; r < a.unary.size(); ++r)
        lhs[a.unary[r].parent] += d(a.unary[r].logProb, b.unary[r].logProb),
            hasLhs[a.unary[r].parent] = 1;
    double root = 0;
    for (std::size_t r = 0; r < a.rootRules.size(); ++r)
        root += d(a.rootRules[r].logProb, b.rootRules[r].logProb);
    for (std::size_t w = 0; w < a.lexicon.size(); ++w) {
        if (a.lexicon[w].size() != b.lexicon[w].size())
            throw std::invalid_argument("grammars with different lexicons");
        for (std::size_t e = 0; e < a.lexicon[w].size(); ++e)
            tag[a.lexicon[w][e].tag] += d(a.lexicon[w][e].logProb, b.lexicon[w][e].logProb),
                hasTag[a.lexicon[w][e].tag] = 1;
    }
    double sum = root;
    int count = 1;
    for (std::size_t x = 0; x < N; ++x) {
        if (hasLhs[x]) sum += lhs[x], ++count;
        if (hasTag[x]) sum += tag[x], ++count;
    }
    return sum / count;
}

CorpusLikelihood corpusLikelihood(const Grammar& g,
                                  const std::vector<std::vector<std::string>>& sentences,
                                  int threads, const Progress& progress) {
    const int count = static_cast<int>(sentences.size());
    std::vector<std::optional<double>> logZ(count);
    const int workers = std::max(1, std::min(defaultThreads(threads), std::max(count, 1)));
    std::vector<std::unique_ptr<PrunedInsideOutside>> io;
    for (int t = 0; t < workers; ++t)
        io.push_back(std::make_unique<PrunedInsideOutside>(g));
    progress.begin("likelihood", count);
    parallelFor(
        count, workers,
        [&](int s, int wi) {
            const auto st = io[wi]->inside(
                sentences[s], PruningMask::allKeep(static_cast<int>(sentences[s].size())),
                progress);
            if (st.success) logZ[s] = st.logZ;
            progress.advance();
        },
        progress.cancelFlag());
    progress.throwIfCancelled();
    CorpusLikelihood out;
    for (int s = 0; s < count; ++s) {
        if (!logZ[s]) {
            ++out.failures;
            continue;
        }
        out.logLikelihood += *logZ[s];
        out.words += static_cast<long>(sentences[s].size());
    }
    return out;
}

} // namespace prunescope

namespace prunescope {
double matchedFixedThreshold(const Grammar& g,
                             const std::vector<std::vector<std::string>>& sentences,
                             const Policy& fomPolicy, double maxPushes,
                             const std::vector<double>& thresholds, const Progress& progress) {
    if (thresholds.empty()) throw std::invalid_argument("no thresholds to choose from");
    std::vector<double> sorted = thresholds;
    std::sort(sorted.begin(), sorted.end()); // ascending threshold = descending cost
    PrunedInsideOutside io(g);
    std::vector<std::vector<double>> foms;
    for (const auto& w : sentences)
        foms.push_back(policyFigureOfMerit(fomPolicy, w));
    progress.begin("matching the fixed mask's cost", static_cast<long>(sorted.size()));
    for (double t : sorted) {
        double pushes = 0;
        for (std::size_t s = 0; s < sentences.size(); ++s) {
            const int n = static_cast<int>(sentences[s].size());
            pushes += static_cast<double>(
                io.inside(sentences[s], thresholdMask(n, foms[s], t), progress).pushes);
        }
        progress.advance();
        if (pushes <= maxPushes) return t;
    }
    return sorted.back();
}
} // namespace prunescope
