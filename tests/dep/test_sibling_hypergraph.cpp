// The second-order chart as a hypergraph (core/dep/SiblingHypergraph.h) held to second-order Eisner
// (its Viterbi score) and to brute force (every sibling part's and every arc's max-marginal: the
// best projective tree containing it), on sentences of <= 7 words with random masks.
#include "core/dep/BruteForce.h"
#include "core/dep/Eisner.h"
#include "core/dep/SiblingHypergraph.h"
#include "core/util/Random.h"
#include "support/RandomDep.h"

#include "support/TestSuite.h"

#include <cmath>
#include <map>

using namespace prunescope;

namespace {

using testdata::HashSiblings;

bool close(double a, double b) {
    return (a == kHyperNegInf && b == kHyperNegInf) || std::abs(a - b) < 1e-3;
}

void checkMaxMarginals(bool singleRoot, int cases, int maxN, std::uint64_t seed) {
    SplitMix64 rng(seed);
    EisnerOptions opt;
    opt.singleRoot = singleRoot;
    int withTree = 0;
    long partsChecked = 0;
    for (int c = 0; c < cases; ++c) {
        const int n = 1 + static_cast<int>(rng.below(static_cast<std::size_t>(maxN)));
        const ArcScores s = testdata::randomArcScores(n, rng);
        const ArcMask mask = testdata::randomArcMask(n, c % 3 == 0 ? 1.0 : 0.6, rng);
        const HashSiblings sib(seed + static_cast<std::uint64_t>(c));
        const SiblingHypergraph sh = buildSiblingHypergraph(s, sib, &mask, singleRoot);
        const MaxMarginals mm = maxMarginals(sh.graph);
        EisnerParser parser(opt);
        const DepParse p = parser.parse(s, sib, &mask);
        QCOMPARE(mm.best != kHyperNegInf, p.stats.success);
        if (!p.stats.success) continue;
        ++withTree;
        QVERIFY(std::abs(mm.best - p.stats.score) < 1e-3);
        // brute force: the best tree containing each part and each arc
        std::map<std::int64_t, double> partBest;
        const auto N = static_cast<std::size_t>(n + 1);
        std::vector<double> arcBest(N * N, kHyperNegInf);
        forEachProjectiveTree(n, &mask, singleRoot, [&](const std::vector<int>& heads) {
            const double v = treeScore(s, heads, &sib);
            for (const auto& q : siblingParts(heads)) {
                auto [it, fresh] = partBest.try_emplace(siblingPartKey(n, q[0], q[1], q[2]), v);
                if (!fresh) it->second = std::max(it->second, v);
                double& a =
                    arcBest[static_cast<std::size_t>(q[0]) * N + static_cast<std::size_t>(q[2])];
                a = std::max(a, v);
            }
        });
        for (std::size_t l = 0; l < sh.parts.size(); ++l) {
            const auto& q = sh.parts[l];
            const auto it = partBest.find(siblingPartKey(n, q[0], q[1], q[2]));
            const double expect = it == partBest.end() ? kHyperNegInf : it->second;
            QVERIFY2(close(mm.label[l], expect),
                     qPrintable(QString("case %1 part (%2,%3,%4): %5 vs %6")
                                    .arg(c)
                                    .arg(q[0])
                                    .arg(q[1])
                                    .arg(q[2])
                                    .arg(mm.label[l])
                                    .arg(expect)));
            ++partsChecked;
        }
        for (const auto& [key, v] : partBest) // every part of a tree has an edge
            QVERIFY(sh.partLabel.count(key) == 1);
        const std::vector<double> arcs = siblingArcMaxMarginals(sh, mm.label);
        for (std::size_t k = 0; k < arcs.size(); ++k)
            QVERIFY(close(arcs[k], arcBest[k]));
    }
    QVERIFY(withTree > cases / 2);
    QVERIFY(partsChecked > 1000);
}

} // namespace

class TestSiblingHypergraph : public QObject {
    Q_OBJECT
  private slots:
    void maxMarginalsEqualBruteForceSingleRoot() { checkMaxMarginals(true, 150, 7, 31); }
    void maxMarginalsEqualBruteForceManyRoots() { checkMaxMarginals(false, 100, 6, 32); }

    void goldPartsOutsideTheGraphGetLabels() {
        SplitMix64 rng(2);
        const ArcScores s = testdata::randomArcScores(5, rng);
        ArcMask mask = ArcMask::allKeep(5);
        mask.set(2, 1, false);
        SiblingHypergraph sh = buildSiblingHypergraph(s, HashSiblings(1), &mask, true);
        const int before = static_cast<int>(sh.parts.size());
        QCOMPARE(sh.graph.numLabels, before);
        QVERIFY(sh.partLabel.count(siblingPartKey(5, 2, 2, 1)) == 0);
        const int l = sh.labelOf(2, 2, 1);
        QCOMPARE(l, before);
        QCOMPARE(sh.labelOf(2, 2, 1), before);
        QCOMPARE(sh.graph.numLabels, before); // the graph is unchanged
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestSiblingHypergraph)
#include "test_sibling_hypergraph.moc"
