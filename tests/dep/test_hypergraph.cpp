// Max-plus inside-outside over a hypergraph (core/dep/Hypergraph.h) on the Eisner chart
// (core/dep/EisnerHypergraph.h): arc max-marginals equal brute force over every projective tree
// containing the arc; the Viterbi derivation is Eisner's tree with the same pushes; the witness
// label counts equal explicit witness derivations.
#include "core/dep/BruteForce.h"
#include "core/dep/EisnerHypergraph.h"
#include "core/dep/EisnerMaxMarginals.h"
#include "core/util/Random.h"
#include "support/RandomDep.h"

#include "support/TestSuite.h"

#include <cmath>
#include <cstring>

using namespace prunescope;

class TestHypergraph : public QObject {
    Q_OBJECT
  private slots:
    void arcMaxMarginalsEqualBruteForce() {
        SplitMix64 rng(21);
        for (int c = 0; c < 150; ++c) {
            const int n = 1 + static_cast<int>(rng.below(7));
            const bool singleRoot = c % 2 == 0;
            const ArcScores s = testdata::randomArcScores(n, rng);
            const ArcMask mask =
                testdata::randomArcMask(n, c % 4 == 0 ? 1.0 : 0.5 + 0.5 * rng.uniform(), rng);
            std::vector<double> brute(static_cast<std::size_t>((n + 1) * (n + 1)), kHyperNegInf);
            double best = kHyperNegInf;
            forEachProjectiveTree(n, &mask, singleRoot, [&](const std::vector<int>& heads) {
                const double v = treeScore(s, heads);
                best = std::max(best, v);
                for (int m = 1; m <= n; ++m) {
                    auto& b = brute[static_cast<std::size_t>(
                        arcLabel(n, heads[static_cast<std::size_t>(m)], m))];
                    b = std::max(b, v);
                }
            });
            const ArcMaxMarginals mm = arcMaxMarginals(s, &mask, singleRoot);
            if (best == kHyperNegInf) {
                QCOMPARE(mm.best, kHyperNegInf);
            } else {
                QVERIFY(std::abs(mm.best - best) < 1e-4);
            }
            for (int h = 0; h <= n; ++h)
                for (int m = 1; m <= n; ++m) {
                    if (h == m) continue;
                    const double b = brute[static_cast<std::size_t>(arcLabel(n, h, m))];
                    if (b == kHyperNegInf)
                        QVERIFY2(mm(h, m) == kHyperNegInf,
                                 qPrintable(QString("case %1 arc %2->%3").arg(c).arg(h).arg(m)));
                    else
                        QVERIFY2(std::abs(mm(h, m) - b) < 1e-4,
                                 qPrintable(QString("case %1 arc %2->%3: %4 vs %5")
                                                .arg(c)
                                                .arg(h)
                                                .arg(m)
                                                .arg(mm(h, m))
                                                .arg(b)));
                }
        }
    }

    // EisnerMaxMarginalSolver (the chart route arcMaxMarginals takes) against the generic
    // hypergraph route: the same doubles, best and pushes. Integer scores make ties and exact sums;
    // some kept arcs are -inf (no such arc); masks from nearly empty (no tree) to full.
    void solverEqualsTheHypergraphBitForBit() {
        SplitMix64 rng(24);
        EisnerMaxMarginalSolver
            solver; // reused across lengths, as the pipeline reuses nothing stale
        int noTree = 0, withTree = 0;
        for (int c = 0; c < 400; ++c) {
            const int n = 1 + static_cast<int>(rng.below(30));
            const bool singleRoot = c % 2 == 0;
            ArcScores s = testdata::randomArcScores(n, rng);
            if (c % 3 == 0)
                for (float& x : s.s)
                    if (x != kDepNegInf) x = std::round(x);
            if (c % 5 == 0)
                s.at(static_cast<int>(rng.below(static_cast<std::uint64_t>(n) + 1)),
                     1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(n)))) = kDepNegInf;
            const ArcMask mask =
                testdata::randomArcMask(n, c % 4 == 0 ? 1.0 : 0.05 + 0.95 * rng.uniform(), rng);
            const ArcMask* mp = c % 7 == 0 ? nullptr : &mask;
            const ArcMaxMarginals ref = arcMaxMarginalsByHypergraph(s, mp, singleRoot);
            ArcMaxMarginals fast;
            solver.solve(s, mp, singleRoot, fast);
            QCOMPARE(fast.n, ref.n);
            QCOMPARE(fast.pushes, ref.pushes);
            QVERIFY(std::memcmp(&fast.best, &ref.best, sizeof(double)) == 0);
            QCOMPARE(fast.value.size(), ref.value.size());
            QVERIFY(std::memcmp(fast.value.data(), ref.value.data(),
                                ref.value.size() * sizeof(double)) == 0);
            (ref.best == kHyperNegInf ? noTree : withTree) += 1;
        }
        QVERIFY(noTree > 10);
        QVERIFY(withTree > 200);
    }

    void viterbiDerivationIsEisnersTreeWithItsPushes() {
        SplitMix64 rng(22);
        for (int c = 0; c < 40; ++c) {
            const int n = 1 + static_cast<int>(rng.below(25));
            const bool singleRoot = c % 3 != 0;
            const ArcScores s = testdata::randomArcScores(n, rng);
            const ArcMask mask = testdata::randomArcMask(n, 0.3 + 0.7 * rng.uniform(), rng);
            EisnerOptions opt;
            opt.singleRoot = singleRoot;
            EisnerParser parser(opt);
            const DepParse p = parser.parse(s, &mask);
            const EisnerHypergraph eh = buildEisnerHypergraph(s, &mask, singleRoot);
            const MaxMarginals mm = maxMarginals(eh.graph);
            QCOMPARE(mm.edgesVisited, p.stats.pushes);
            QCOMPARE(mm.best != kHyperNegInf, p.stats.success);
            if (!p.stats.success) continue;
            // the arcs of the Viterbi derivation
            std::vector<int> heads(static_cast<std::size_t>(n) + 1, -1);
            std::vector<int> stack{eh.graph.goal};
            while (!stack.empty()) {
                const int v = stack.back();
                stack.pop_back();
                const int e = mm.insideEdge[static_cast<std::size_t>(v)];
                if (const int l = eh.graph.edgeLabel[static_cast<std::size_t>(e)]; l >= 0)
                    heads[static_cast<std::size_t>(l % (n + 1))] = l / (n + 1);
                for (int t : eh.graph.tailsOf(e))
                    stack.push_back(t);
            }
            QCOMPARE(heads, p.heads);
            // every arc of the best tree has max-marginal = best (>= any threshold with alpha <= 1)
            const ArcMaxMarginals am = arcMaxMarginals(s, &mask, singleRoot);
            for (int m = 1; m <= n; ++m)
                QVERIFY(std::abs(am(p.heads[static_cast<std::size_t>(m)], m) - am.best) < 1e-9);
        }
    }

    void witnessLabelCountsEqualExplicitWitnesses() {
        SplitMix64 rng(23);
        for (int c = 0; c < 40; ++c) {
            const int n = 1 + static_cast<int>(rng.below(12));
            const ArcScores s = testdata::randomArcScores(n, rng);
            const ArcMask mask = testdata::randomArcMask(n, 0.4 + 0.6 * rng.uniform(), rng);
            const EisnerHypergraph eh = buildEisnerHypergraph(s, &mask, c % 2 == 0);
            const Hypergraph& g = eh.graph;
            const MaxMarginals mm = maxMarginals(g);
            std::vector<double> naive(static_cast<std::size_t>(g.numLabels), 0.0);
            for (int l = 0; l < g.numLabels; ++l) {
                const int e = mm.labelEdge[static_cast<std::size_t>(l)];
                if (e < 0) continue;
                const auto w = witnessEdges(g, mm, e);
                double score = 0;
                int arcs = 0;
                for (int x : w) {
                    score += g.edgeWeight[static_cast<std::size_t>(x)];
                    if (const int k = g.edgeLabel[static_cast<std::size_t>(x)]; k >= 0) {
                        naive[static_cast<std::size_t>(k)] += 1.0;
                        ++arcs;
                    }
                }
                QCOMPARE(arcs, n); // a witness is a whole tree
                QVERIFY(std::abs(score - mm.label[static_cast<std::size_t>(l)]) < 1e-4);
            }
            QCOMPARE(witnessLabelCounts(g, mm), naive);
        }
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestHypergraph)
#include "test_hypergraph.moc"
