// The vine parser (Rush & Petrov 2012 sec. 3; per-token vine heads, VineParser.h) and the max-marginal threshold (sec. 4): vine
// max-marginals equal brute force over every vine parse of <= 7 words; t_alpha and its keep rule;
// a stage never prunes its own best structure at any alpha.
#include "core/dep/BruteForce.h"
#include "core/vine/CascadeStage.h"
#include "core/dep/Threshold.h"
#include "core/vine/VineParser.h"
#include "core/util/Random.h"
#include "support/RandomDep.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace prunescope;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

VineScores randomVineScores(int n, int band, SplitMix64& rng) {
    VineScores v;
    v.n = n;
    v.band = band;
    v.arcs = testdata::randomArcScores(n, rng);
    v.outer.assign(static_cast<std::size_t>(2 * (n + 1)), kDepNegInf);
    for (int m = 1; m <= n; ++m)
        for (int side = 0; side < 2; ++side)
            v.outer[static_cast<std::size_t>(2 * m + side)] = static_cast<float>(rng.uniform() * 10.0 - 5.0);
    return v;
}

// Every vine parse by brute force: every assignment of one vine-head part per token (a short arc, the
// root arc, or an available outer arc), with one root arc (singleRoot) or at least one.
std::vector<double> bruteVine(const VineScores& v, bool singleRoot, double& best) {
    const int n = v.n, b = v.band;
    std::vector<double> mm(static_cast<std::size_t>(vineLabelCount(n)), -kInf);
    best = -kInf;
    std::vector<std::vector<std::pair<int, double>>> choices(static_cast<std::size_t>(n + 1));  // (label, score)
    for (int m = 1; m <= n; ++m) {
        auto& c = choices[static_cast<std::size_t>(m)];
        for (int h = 0; h <= n; ++h)
            if (h != m && (h == 0 || std::abs(h - m) <= b)) c.emplace_back(arcLabel(n, h, m), v.arcs(h, m));
        for (VineSide side : {VineSide::Left, VineSide::Right})
            if (vineOuterExists(n, b, m, side)) c.emplace_back(vineOuterLabel(n, m, side), v.outerScore(m, side));
    }
    std::vector<std::size_t> pick(static_cast<std::size_t>(n + 1), 0);
    while (true) {
        double s = 0;
        int roots = 0;
        for (int m = 1; m <= n; ++m) {
            const auto& [l, w] = choices[static_cast<std::size_t>(m)][pick[static_cast<std::size_t>(m)]];
            s += w;
            roots += l == arcLabel(n, 0, m);
        }
        if (roots >= 1 && (!singleRoot || roots == 1)) {
            best = std::max(best, s);
            for (int m = 1; m <= n; ++m) {
                const int l = choices[static_cast<std::size_t>(m)][pick[static_cast<std::size_t>(m)]].first;
                mm[static_cast<std::size_t>(l)] = std::max(mm[static_cast<std::size_t>(l)], s);
            }
        }
        int m = 1;
        while (m <= n && ++pick[static_cast<std::size_t>(m)] == choices[static_cast<std::size_t>(m)].size()) pick[static_cast<std::size_t>(m++)] = 0;
        if (m > n) break;
    }
    return mm;
}

} // namespace

class TestVineParser : public QObject {
    Q_OBJECT
private slots:
    void maxMarginalsEqualBruteForce() {
        SplitMix64 rng(12);
        for (int c = 0; c < 160; ++c) {
            const int n = 1 + static_cast<int>(rng.below(7));
            const int band = n >= 6 ? 1 : 1 + static_cast<int>(rng.below(3));
            const bool singleRoot = c % 2 == 0;
            const VineScores v = randomVineScores(n, band, rng);
            double best = 0;
            const std::vector<double> brute = bruteVine(v, singleRoot, best);
            const Hypergraph g = buildVineHypergraph(v, singleRoot);
            const MaxMarginals mm = maxMarginals(g);
            QVERIFY2(std::abs(mm.best - best) < 1e-4, qPrintable(QString("case %1: best %2 vs %3").arg(c).arg(mm.best).arg(best)));
            for (int l = 0; l < vineLabelCount(n); ++l) {
                const double b = brute[static_cast<std::size_t>(l)], h = mm.label[static_cast<std::size_t>(l)];
                if (b == -kInf) QVERIFY2(h == -kInf, qPrintable(QString("case %1 label %2: %3, brute -inf").arg(c).arg(l).arg(h)));
                else QVERIFY2(std::abs(h - b) < 1e-4, qPrintable(QString("case %1 label %2: %3 vs %4").arg(c).arg(l).arg(h).arg(b)));
            }
        }
    }

    void linearInLength() {
        // Edges grow linearly in n for a fixed band (affine: the increments are proportional), and the
        // growth per token is bounded by the band alone (O(b)).
        SplitMix64 rng(3);
        const auto edges = [&](int n) { return buildVineHypergraph(randomVineScores(n, 3, rng), true).numEdges(); };
        const int e50 = edges(50), e100 = edges(100), e200 = edges(200);
        QCOMPARE(e200 - e100, 2 * (e100 - e50));
        QVERIFY((e100 - e50) / 50 <= 2 * (2 * 3 + 4));
    }

    void thresholdFormula() {
        const std::vector<double> mm{1.0, 3.0, -kInf, 5.0, 3.0};
        CascadeThreshold t = cascadeThreshold(mm, 0.5);
        QCOMPARE(t.parts, 4L);
        QCOMPARE(t.max, 5.0);
        QCOMPARE(t.mean, 3.0);
        QCOMPARE(t.value, 4.0);
        QVERIFY(!keepPart(4.0, t));  // equal to t: pruned (strict)
        QVERIFY(keepPart(4.5, t));
        QVERIFY(!keepPart(-kInf, t));
        t = cascadeThreshold(mm, 0.0);  // t = mean
        QCOMPARE(t.value, 3.0);
        QVERIFY(!keepPart(3.0, t));
        QVERIFY(keepPart(5.0, t));
        t = cascadeThreshold(mm, 1.0);  // t = max: the best parts survive by the tie clause
        QCOMPARE(t.value, 5.0);
        QVERIFY(keepPart(5.0, t));
        QVERIFY(!keepPart(4.9, t));
        t = cascadeThreshold(mm, -kInf);  // keep every finite part
        QVERIFY(keepPart(1.0, t));
        QVERIFY(!keepPart(-kInf, t));
        const std::vector<double> equal{2.0, 2.0, 2.0};
        t = cascadeThreshold(equal, 0.3);  // mean == max: everything is the best; nothing pruned
        QVERIFY(keepPart(2.0, t));
        const std::vector<double> none{-kInf};
        t = cascadeThreshold(none, 0.5);
        QCOMPARE(t.parts, 0L);
        QVERIFY(!keepPart(-kInf, t));
    }

    void bestStructureSurvivesEveryAlpha() {
        SplitMix64 rng(77);
        for (int c = 0; c < 60; ++c) {
            const int n = 2 + static_cast<int>(rng.below(25));
            StageMarginals sm;
            sm.kind = CascadeStageKind::Vine;
            sm.n = n;
            sm.band = 1 + static_cast<int>(rng.below(4));
            sm.graph = buildVineHypergraph(randomVineScores(n, sm.band, rng), true);
            sm.mm = maxMarginals(sm.graph);
            const std::vector<int> best = viterbiLabels(sm.graph, sm.mm);
            QCOMPARE(static_cast<int>(best.size()), n);
            for (double alpha : {0.0, 0.5, 0.9, 0.999, 1.0}) {
                const ArcMask mask = stageMask(sm, alpha, ArcMask::allKeep(n));
                for (int l : best) {
                    if (l < (n + 1) * (n + 1)) QVERIFY(mask.keep(l / (n + 1), l % (n + 1)));
                    else {  // an outer arc: every long arc on its side survives
                        const int rest = l - (n + 1) * (n + 1), m = rest / 2;
                        const int h = rest % 2 == 0 ? 1 : n;
                        QVERIFY(mask.keep(h, m));
                    }
                }
            }
            // alpha = -inf keeps every arc (each vine part is in some vine parse).
            QCOMPARE(stageMask(sm, -kInf, ArcMask::allKeep(n)).keptCount(), ArcMask::totalArcs(n));
        }
    }

    void vineProjectionParts() {
        // band 1: 2 -> 1, 0 -> 2, 4 -> 3, 5 -> 4 are vine arcs; 5's head 2 is 3 to its left: outer LEFT -> 5.
        const std::vector<int> heads{-1, 2, 0, 4, 5, 2};
        const std::vector<int> p = vineProjection(5, 1, heads);
        const std::vector<int> expected{arcLabel(5, 2, 1), arcLabel(5, 0, 2), arcLabel(5, 4, 3), arcLabel(5, 5, 4),
                                        vineOuterLabel(5, 5, VineSide::Left)};
        QCOMPARE(p, expected);
    }
};

QTEST_APPLESS_MAIN(TestVineParser)
#include "test_vine_parser.moc"
