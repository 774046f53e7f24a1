// Randomized pruning (Bouchard-Côté, Petrov & Klein 2009): Alg. 2's masks, the selection chain k*,
// invariance of the posterior under the block Gibbs kernel (by enumeration), the chain's stationary
// distribution, exactness with an empty selection, and bias shrinking with iterations;
// progress and cancel.
#include "core/mcmc/FigureOfMerit.h"
#include "core/mcmc/RandomizedPruning.h"
#include "core/policy/GoldSpans.h"
#include "core/policy/Policy.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"
#include "support/TinyPcfg.h"

#include "support/TestSuite.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <thread>

using namespace prunescope;

namespace {
std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s + " ") {
        if (c != ' ')
            cur += c;
        else if (!cur.empty())
            out.push_back(cur), cur.clear();
    }
    return out;
}

SpanList allPrunable(int n) {
    SpanList out;
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            out.emplace_back(i, i + w);
    return out;
}

std::vector<double> constantFom(int n, double v) {
    return std::vector<double>(static_cast<std::size_t>(n + 1) * (n + 1), v);
}

// Exact posterior over derivations (keyed by binarized tree) of the tiny grammar.
std::map<std::string, double> exactPosterior(const Grammar& g, const std::vector<std::string>& w) {
    const auto d =
        testdata::enumerateDerivations(g, w, PruningMask::allKeep(static_cast<int>(w.size())));
    double Z = 0;
    for (const auto& x : d)
        Z += x.p;
    std::map<std::string, double> out;
    for (const auto& x : d)
        out[x.tree.toString()] += x.p / Z;
    return out;
}

Expectations exactExpectations(const Grammar& g, const std::vector<std::string>& w) {
    PrunedInsideOutside io(g);
    io.inside(w, PruningMask::allKeep(static_cast<int>(w.size())));
    Expectations e;
    io.outside(e);
    return e;
}
} // namespace

class TestRandomizedPruning : public QObject {
    Q_OBJECT
  private slots:
    // Alg. 2 against its definition, on every span of a 7-word sentence.
    void createMaskFollowsAlgorithm2() {
        const int n = 7;
        const Tree t =
            Tree{"ROOT",
                 {Tree{"S",
                       {Tree{"A", {Tree{"A", {Tree{"a", {}}}}, Tree{"B", {Tree{"b", {}}}}}},
                        Tree{"C",
                             {Tree{"C", {Tree{"c", {}}}},
                              Tree{"D",
                                   {Tree{"D", {Tree{"d", {}}}},
                                    Tree{"E",
                                         {Tree{"E", {Tree{"e", {}}}},
                                          Tree{"F",
                                               {Tree{"F", {Tree{"f", {}}}},
                                                Tree{"G", {Tree{"g", {}}}}}}}}}}}}}}}};
        QCOMPARE(t.size(), n);
        const auto a = assignmentOf(t); // constituents (0,2) (2,7) (3,7) (4,7) (5,7)
        QCOMPARE(int(a[0 * 8 + 2]) + a[2 * 8 + 7] + a[3 * 8 + 7] + a[4 * 8 + 7] + a[5 * 8 + 7], 5);
        const SpanList selected = {{0, 2}, {1, 3}, {3, 7}, {4, 6}}; // +, −, +, −
        const PruningMask m = createMask(n, selected, a);
        for (const auto& [i, k] : allPrunable(n)) {
            bool prune = false;
            for (const auto& [p, q] : selected) {
                const bool pos = a[static_cast<std::size_t>(p) * (n + 1) + q];
                if (!pos && i == p && k == q) prune = true;
                const bool nested = (p <= i && k <= q) || (i <= p && q <= k);
                const bool overlap = i < q && p < k;
                if (pos && overlap && !nested) prune = true;
            }
            QCOMPARE(m.keep(i, k), !prune);
        }
        QVERIFY(!m.keep(1, 3) && !m.keep(4, 6) && !m.keep(1, 4) && !m.keep(2, 4) && m.keep(0, 2) &&
                m.keep(3, 7));
        // The current tree always survives; with every variable selected only its bracketing does.
        for (const auto& [i, k] : prunableSpans(t))
            QVERIFY(m.keep(i, k));
        const PruningMask all = createMask(n, allPrunable(n), a);
        QCOMPARE(all, spanMask(t));
        // No variable selected: nothing pruned.
        QCOMPARE(createMask(n, {}, a), PruningMask::allKeep(n));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, createMask(n, {{0, 7}}, a));
    }

    // k* of sec. 3.2: constant size ⌊2|M'|/3⌋, s' = (M' \ s) ∪ R with R ⊂ s of size 2|s| − |M'|,
    // every variable eventually excluded, and deterministic for a seed.
    void rotatingSelectionChain() {
        for (int m : {0, 1, 2, 3, 7, 9, 14, 30}) {
            SpanList support;
            for (int q = 0; q < m; ++q)
                support.emplace_back(q, q + 2);
            SelectionChain chain(SelectionKind::Rotate, support);
            SplitMix64 rng(5, static_cast<std::uint64_t>(m));
            chain.initialize(rng);
            const int size = m < 2 ? 0 : 2 * m / 3;
            QCOMPARE(chain.selectionSize(), size);
            QCOMPARE(static_cast<int>(chain.selected().size()), size);
            std::set<std::pair<int, int>> everExcluded;
            for (int it = 0; it < 60; ++it) {
                const std::set<std::pair<int, int>> before(chain.selected().begin(),
                                                           chain.selected().end());
                chain.next(rng);
                const std::set<std::pair<int, int>> after(chain.selected().begin(),
                                                          chain.selected().end());
                QCOMPARE(static_cast<int>(after.size()), size);
                if (size == 0) continue;
                int kept = 0;
                for (const auto& sp : support) {
                    if (!before.count(sp)) QVERIFY(after.count(sp)); // M' \ s ⊆ s'
                    kept += before.count(sp) && after.count(sp);
                    if (!after.count(sp)) everExcluded.insert(sp);
                }
                QCOMPARE(kept, 2 * size - m);       // |s ∩ s'| = |R|
                QVERIFY(before != after || m == 0); // never a self-transition
            }
            if (size > 0) QCOMPARE(static_cast<int>(everExcluded.size()), m);
        }
        SelectionChain a(SelectionKind::Independent, allPrunable(8)),
            b(SelectionKind::Independent, allPrunable(8));
        SplitMix64 ra(9), rb(9);
        a.initialize(ra), b.initialize(rb);
        for (int it = 0; it < 5; ++it)
            a.next(ra), b.next(rb);
        QCOMPARE(a.selected(), b.selected());
        QCOMPARE(static_cast<int>(a.selected().size()), 2 * 27 / 3);
        SelectionChain none(SelectionKind::None, allPrunable(8));
        none.initialize(ra);
        none.next(ra);
        QVERIFY(none.selected().empty());
        SelectionChain third(SelectionKind::Independent, allPrunable(8), 1.0 / 3.0);
        QCOMPARE(third.selectionSize(), 9);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 SelectionChain(SelectionKind::Rotate, allPrunable(8), 0.4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 SelectionChain(SelectionKind::Independent, allPrunable(8), 1.0));
        QVERIFY(selectionFromName("rotate") == SelectionKind::Rotate);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, selectionFromName("gibbs"));
    }

    // The invariance the sampler relies on, by enumeration: for a fixed selection s, the block
    // Gibbs kernel k_s(T, T') = p(T') [T' agrees with a(T) on s] / Z_m(s,a(T)) (the pruned chart's
    // distribution; Z from PrunedInside) leaves the exact posterior invariant:
    // Σ_T π(T) k_s(T, T') = π(T') for every T'.
    void blockGibbsKernelLeavesPosteriorInvariant() {
        const Grammar& g = testdata::tinyPcfg();
        const auto w = words("a dog saw a cat with fish");
        const int n = static_cast<int>(w.size());
        const auto all = testdata::enumerateDerivations(g, w, PruningMask::allKeep(n));
        double Z = 0;
        for (const auto& d : all)
            Z += d.p;
        PrunedInsideOutside io(g);
        SplitMix64 rng(42);
        const SpanList spans = allPrunable(n);
        int tested = 0;
        for (int trial = 0; trial < 12; ++trial) {
            SpanList s; // a random selection, from tiny to nearly all spans
            const double frac = (trial + 1) / 13.0;
            for (const auto& sp : spans)
                if (rng.uniform() < frac) s.push_back(sp);
            std::map<std::string, double> flow;
            for (const auto& from : all) {
                const PruningMask m = createMask(n, s, assignmentOf(from.tree));
                const auto st = io.inside(w, m);
                QVERIFY(st.success); // the current tree survives its own mask
                const double Zm = std::exp(st.logZ);
                for (const auto& to : testdata::enumerateDerivations(g, w, m))
                    flow[to.tree.toString()] += (from.p / Z) * (to.p / Zm);
            }
            double tv = 0;
            for (const auto& d : all)
                tv += std::abs(flow[d.tree.toString()] - d.p / Z);
            QVERIFY2(tv < 1e-12, std::to_string(tv).c_str());
            ++tested;
        }
        QCOMPARE(tested, 12);
    }

    // The whole sampler (k*, Alg. 2, PrunedInside, tree sampling): the trees it visits follow the
    // exact posterior (enumeration), and the Rao-Blackwellised span estimate converges to exact.
    void chainStationaryDistributionIsThePosterior() {
        const Grammar& g = testdata::tinyPcfg();
        const auto w = words("a dog saw a cat with fish");
        const int n = static_cast<int>(w.size());
        const auto truth = exactPosterior(g, w);
        const Expectations exact = exactExpectations(g, w);
        for (SelectionKind kind : {SelectionKind::Rotate, SelectionKind::Independent}) {
            RandomizedPruning rp(g);
            RandomizedOptions opt;
            opt.selection = kind;
            opt.seed = 17;
            rp.start(w, constantFom(n, 1.0), opt); // M' = every prunable span
            const int iterations = 30000;
            std::map<std::string, double> freq;
            for (int t = 0; t < iterations; ++t) {
                rp.step();
                freq[rp.currentTree().toString()] += 1.0 / iterations;
            }
            double tv = 0;
            for (const auto& [k, p] : truth)
                tv += std::abs(p - freq[k]);
            for (const auto& [k, p] : freq)
                QVERIFY2(truth.count(k), k.c_str());
            tv /= 2;
            QVERIFY2(tv < 0.03,
                     (std::string(selectionName(kind)) + " tv " + std::to_string(tv)).c_str());
            const Expectations est = rp.estimate();
            QVERIFY2(spanL1(est, exact) < 0.05, std::to_string(spanL1(est, exact)).c_str());
            QVERIFY(ruleL1(est, exact) < 0.1);
            QVERIFY(rp.pushes() > rp.initPushes());
        }
    }

    // Nothing selected (nothing prunable): one iteration equals exact inside-outside, bit for bit,
    // and costs exactly the unpruned pass.
    void emptySelectionIsExactInsideOutside() {
        const Grammar& g = testdata::trainGrammar();
        RandomizedPruning rp(g);
        PrunedInsideOutside io(g);
        int checked = 0;
        for (const Tree& t : testdata::normalizedTrees("dev")) {
            const auto w = t.words();
            const int n = static_cast<int>(w.size());
            if (n < 3 || n > 20) continue;
            RandomizedOptions opt;
            opt.selection = SelectionKind::None;
            try {
                rp.start(w, constantFom(n, 1.0), opt, static_cast<std::uint64_t>(checked));
            } catch (const NoDerivation&) {
                continue;
            }
            const ChainIteration it = rp.step();
            const auto st = io.inside(w, PruningMask::allKeep(n));
            Expectations exact;
            io.outside(exact);
            QCOMPARE(it.pushes, st.pushes);
            QCOMPARE(it.spansKept, PruningMask::prunableCount(n));
            const Expectations est = rp.estimate();
            QCOMPARE(est.span, exact.span);
            QCOMPARE(est.binary, exact.binary);
            QCOMPARE(est.unary, exact.unary);
            QCOMPARE(est.root, exact.root);
            QCOMPARE(est.lexical, exact.lexical);
            QCOMPARE(spanL1(est, exact), 0.0);
            if (++checked == 8) break;
        }
        QCOMPARE(checked, 8);
    }

    // Bias shrinks as more masks are averaged: the mean over seeds of the span L1 distance to exact
    // inside-outside is non-increasing in the number of iterations (1, 2, 4, ..., 32), on dev
    // sentences with the bundled policy as figure of merit.
    void biasNonIncreasingAcrossSeeds() {
        const Grammar& g = testdata::trainGrammar();
        const Policy& policy = testdata::bundledPolicy();
        const std::vector<int> checkpoints = {1, 2, 4, 8, 16, 32};
        std::vector<double> meanL1(checkpoints.size(), 0.0);
        RandomizedPruning rp(g);
        int sentences = 0;
        const int seeds = 6;
        for (const Tree& t : testdata::normalizedTrees("dev")) {
            const auto w = t.words();
            const int n = static_cast<int>(w.size());
            if (n < 8 || n > 14) continue;
            const Expectations exact = exactExpectations(g, w);
            if (!std::isfinite(exact.logZ)) continue;
            const auto fom = policyFigureOfMerit(policy, w);
            for (int seed = 1; seed <= seeds; ++seed) {
                RandomizedOptions opt;
                opt.seed = static_cast<std::uint64_t>(seed);
                rp.start(w, fom, opt, static_cast<std::uint64_t>(sentences));
                std::size_t c = 0;
                for (int it = 1; it <= checkpoints.back(); ++it) {
                    rp.step();
                    if (it == checkpoints[c]) meanL1[c++] += spanL1(rp.estimate(), exact);
                }
            }
            if (++sentences == 6) break;
        }
        QCOMPARE(sentences, 6);
        QString curve;
        for (double v : meanL1)
            curve += QString::number(v / (seeds * sentences), 'f', 4) + " ";
        for (std::size_t c = 1; c < checkpoints.size(); ++c)
            QVERIFY2(meanL1[c] <= meanL1[c - 1], qPrintable(curve));
        QVERIFY2(meanL1.back() < 0.95 * meanL1.front(), qPrintable(curve));
    }

    // Same seed and stream: the same chain; another seed: another chain.
    void deterministicGivenSeed() {
        const Grammar& g = testdata::trainGrammar();
        const Tree& t = testdata::normalizedTrees("dev")[3];
        const auto w = t.words();
        const auto fom = policyFigureOfMerit(testdata::bundledPolicy(), w);
        auto runChain = [&](std::uint64_t seed) {
            RandomizedPruning rp(g);
            RandomizedOptions opt;
            opt.seed = seed;
            rp.start(w, fom, opt, 3, 4);
            rp.run(6);
            return std::make_pair(rp.estimate().span, rp.pushes());
        };
        QCOMPARE(runChain(5), runChain(5));
        QVERIFY(runChain(5).first != runChain(6).first);
    }

    // Progress: one "MCMC iterations" phase of `iterations` items, advanced once per iteration.
    // A cancel requested while the chain runs (from another thread, as the GUI does) stops it
    // (Cancelled), keeping the finished iterations: the estimate is that of an uninterrupted chain
    // of the same length, and a cancelled Progress stops the next run before its first iteration.
    void progressAndCancel() {
        const Grammar& g = testdata::trainGrammar();
        const auto w = testdata::normalizedTrees("dev")[3].words();
        const auto fom = policyFigureOfMerit(testdata::bundledPolicy(), w);
        RandomizedPruning rp(g);
        rp.start(w, fom, RandomizedOptions{});
        std::vector<ProgressUpdate> seen;
        Progress quiet([&](const ProgressUpdate& u) { seen.push_back(u); },
                       std::chrono::milliseconds(0));
        rp.run(4, quiet);
        QCOMPARE(rp.iterations(), 4);
        QVERIFY(!seen.empty());
        QCOMPARE(seen.front().phase, std::string("MCMC iterations"));
        QCOMPARE(seen.front().total, 4L);
        QCOMPARE(seen.back().done, 4L);
        for (std::size_t i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i].done >= seen[i - 1].done);

        std::atomic<long> done{0};
        Progress p([&](const ProgressUpdate& u) { done.store(u.done); },
                   std::chrono::milliseconds(0));
        std::thread canceller([&] {
            while (done.load() < 3)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            p.requestCancel();
        });
        const int requested = 1'000'000;
        RandomizedPruning cut(g);
        cut.start(w, fom, RandomizedOptions{});
        QVERIFY_THROWS_EXCEPTION(Cancelled, cut.run(requested, p));
        canceller.join();
        const int kept = cut.iterations();
        QVERIFY(kept >= 3 && kept < requested);
        RandomizedPruning whole(g);
        whole.start(w, fom, RandomizedOptions{});
        whole.run(kept);
        QCOMPARE(cut.estimate().span, whole.estimate().span);
        QCOMPARE(cut.estimate().binary, whole.estimate().binary);
        QVERIFY_THROWS_EXCEPTION(Cancelled, cut.run(5, p));
        QCOMPARE(cut.iterations(), kept);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestRandomizedPruning)
#include "test_randomized_pruning.moc"
