// The vine parser (Rush & Petrov 2012 sec. 3; per-token vine heads, VineParser.h) and the
// max-marginal threshold (sec. 4): vine max-marginals equal brute force over every vine parse of <=
// 7 words; t_alpha and its keep rule; a stage never prunes its own best structure at any alpha.
#include "core/dep/BruteForce.h"
#include "core/dep/Threshold.h"
#include "core/util/Random.h"
#include "core/vine/CascadeStage.h"
#include "core/vine/VineParser.h"
#include "support/RandomDep.h"
#include "support/TestData.h"
#include "support/VineTesting.h"

#include "support/TestSuite.h"

#include <cmath>
#include <limits>

using namespace prunescope;
using testdata::randomVineScores;

namespace {

using testdata::kInf;

// Every vine parse by brute force: every assignment of one vine-head part per token (a short arc,
// the root arc, or an available outer arc), with one root arc (singleRoot) or at least one; and
// every token's outer-head parts, each taken or not (slotCount n+1..: one per existing (h, side);
// label -1 = not).
std::vector<double> bruteVine(const VineScores& v, bool singleRoot, double& best) {
    const int n = v.n, b = v.band;
    std::vector<double> mm(static_cast<std::size_t>(vineLabelCount(n)), -kInf);
    best = -kInf;
    std::vector<std::vector<std::pair<int, double>>> choices(
        static_cast<std::size_t>(n + 1)); // (label, score)
    for (int m = 1; m <= n; ++m) {
        auto& c = choices[static_cast<std::size_t>(m)];
        for (int h = 0; h <= n; ++h)
            if (h != m && (h == 0 || std::abs(h - m) <= b))
                c.emplace_back(arcLabel(n, h, m), v.arcs(h, m));
        for (VineSide side : {VineSide::Left, VineSide::Right})
            if (vineOuterExists(n, b, m, side))
                c.emplace_back(vineOuterLabel(n, m, side), v.outerScore(m, side));
    }
    for (int h = 1; h <= n; ++h)
        for (VineSide side : {VineSide::Left, VineSide::Right})
            if (vineOuterHeadExists(n, b, h, side))
                choices.push_back(
                    {{-1, 0.0}, {vineOuterHeadLabel(n, h, side), v.outerHeadScore(h, side)}});
    const std::size_t slotCount = choices.size();
    std::vector<std::size_t> pick(slotCount, 0);
    while (true) {
        double s = 0;
        int roots = 0;
        for (std::size_t k = 1; k < slotCount; ++k) {
            const auto& [l, w] = choices[k][pick[k]];
            s += w;
            roots += k <= static_cast<std::size_t>(n) && l == arcLabel(n, 0, static_cast<int>(k));
        }
        if (roots >= 1 && (!singleRoot || roots == 1)) {
            best = std::max(best, s);
            for (std::size_t k = 1; k < slotCount; ++k) {
                const int l = choices[k][pick[k]].first;
                if (l >= 0)
                    mm[static_cast<std::size_t>(l)] = std::max(mm[static_cast<std::size_t>(l)], s);
            }
        }
        std::size_t k = 1;
        while (k < slotCount && ++pick[k] == choices[k].size())
            pick[k++] = 0;
        if (k >= slotCount) break;
    }
    return mm;
}

// A random tree (any shape, one root): tokens in a random order, each attached to an earlier one.
std::vector<int> randomTree(int n, SplitMix64& rng) {
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        order[static_cast<std::size_t>(i)] = i + 1;
    shuffleInPlace(order, rng);
    std::vector<int> heads(static_cast<std::size_t>(n + 1), -1);
    heads[static_cast<std::size_t>(order[0])] = 0;
    for (int i = 1; i < n; ++i)
        heads[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] =
            order[rng.below(static_cast<std::uint64_t>(i))];
    return heads;
}

} // namespace

class TestVineParser : public QObject {
    Q_OBJECT
  private slots:
    void maxMarginalsEqualBruteForce() {
        SplitMix64 rng(12);
        // Under a sanitizer the first 40 of the same random cases (lengths 1-6): the brute force
        // runs at the suites' -O0 and took 63 s of the sanitizer stage (docs/reliability.md, "CI").
        const int cases = testdata::kUnderSanitizer ? 40 : 160;
        for (int c = 0; c < cases; ++c) {
            const int n = 1 + static_cast<int>(rng.below(6));
            const int band =
                n >= 5 ? 1 + static_cast<int>(rng.below(2)) : 1 + static_cast<int>(rng.below(3));
            const bool singleRoot = c % 2 == 0;
            const VineScores v = randomVineScores(n, band, rng);
            double best = 0;
            const std::vector<double> brute = bruteVine(v, singleRoot, best);
            const Hypergraph g = buildVineHypergraph(v, singleRoot);
            const MaxMarginals mm = maxMarginals(g);
            const std::string err = testdata::maxMarginalMismatch(mm, best, brute, 1e-4);
            QVERIFY2(err.empty(),
                     qPrintable(QString("case %1: %2").arg(c).arg(QString::fromStdString(err))));
        }
    }

    void linearInLength() {
        // Edges grow linearly in n for a fixed band (affine: the increments are proportional), and
        // the growth per token is bounded by the band alone (O(b)).
        SplitMix64 rng(3);
        const auto edges = [&](int n) {
            return buildVineHypergraph(randomVineScores(n, 3, rng), true).numEdges();
        };
        const int e50 = edges(50), e100 = edges(100), e200 = edges(200);
        QCOMPARE(e200 - e100, 2 * (e100 - e50));
        QVERIFY((e100 - e50) / 50 <=
                2 * (2 * 3 + 4) + 2 * 2 * 2); // + two outer-head choices per state
    }

    void thresholdFormula() {
        const std::vector<double> mm{1.0, 3.0, -kInf, 5.0, 3.0};
        CascadeThreshold t = cascadeThreshold(mm, 0.5);
        QCOMPARE(t.parts, 4L);
        QCOMPARE(t.max, 5.0);
        QCOMPARE(t.mean, 3.0);
        QCOMPARE(t.value, 4.0);
        QVERIFY(!keepPart(4.0, t)); // equal to t: pruned (strict)
        QVERIFY(keepPart(4.5, t));
        QVERIFY(!keepPart(-kInf, t));
        t = cascadeThreshold(mm, 0.0); // t = mean
        QCOMPARE(t.value, 3.0);
        QVERIFY(!keepPart(3.0, t));
        QVERIFY(keepPart(5.0, t));
        t = cascadeThreshold(mm, 1.0); // t = max: the best parts survive by the tie clause
        QCOMPARE(t.value, 5.0);
        QVERIFY(keepPart(5.0, t));
        QVERIFY(!keepPart(4.9, t));
        t = cascadeThreshold(mm, -kInf); // keep every finite part
        QVERIFY(keepPart(1.0, t));
        QVERIFY(!keepPart(-kInf, t));
        const std::vector<double> equal{2.0, 2.0, 2.0};
        t = cascadeThreshold(equal, 0.3); // mean == max: everything is the best; nothing pruned
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
            int headParts = 0; // one vine-head part per token, then any outer-head parts
            for (int l : best)
                headParts += l < vineOuterHeadLabel(n, 0, VineSide::Left);
            QCOMPARE(headParts, n);
            for (double alpha : {0.0, 0.5, 0.9, 0.999, 1.0}) {
                const ArcMask mask = stageMask(sm, alpha, ArcMask::allKeep(n));
                for (int l : best) {
                    if (l < (n + 1) * (n + 1))
                        QVERIFY(mask.keep(l / (n + 1), l % (n + 1)));
                    else { // an outer arc / outer-head part: it survives (the arc's other part may
                           // not)
                        const CascadeThreshold t = cascadeThreshold(sm.mm.label, alpha);
                        QVERIFY(keepPart(sm.mm.label[static_cast<std::size_t>(l)], t));
                    }
                }
            }
            // alpha = -inf keeps every arc (each vine part is in some vine parse).
            QCOMPARE(stageMask(sm, -kInf, ArcMask::allKeep(n)).keptCount(), ArcMask::totalArcs(n));
        }
    }

    void goldArcsKeptWhenGoldClearsThreshold() {
        // The structured cascade's guarantee (Weiss & Taskar 2010) with the two-sided outer parts:
        // every part of the gold projection has a max-marginal >= the gold score, so when the gold
        // score clears t_alpha every gold arc survives, long arcs included (both of their parts are
        // gold parts); at the bottom (alpha = -inf) every gold arc survives whatever the scores.
        SplitMix64 rng(2012);
        int cleared = 0, longGold = 0;
        for (int c = 0; c < 300; ++c) {
            const int n = 2 + static_cast<int>(rng.below(30));
            const int band = 1 + static_cast<int>(rng.below(4));
            const std::vector<int> heads = randomTree(n, rng);
            VineScores v = randomVineScores(n, band, rng);
            const std::vector<int> gold = vineProjection(n, band, heads);
            double goldScore = 0;
            for (int l : gold) {
                float& w = testdata::partScore(v, l);
                w += static_cast<float>(4.0 + rng.uniform() *
                                                  8.0); // a margin, so that gold often clears t
                goldScore += w;
            }
            StageMarginals sm;
            sm.kind = CascadeStageKind::Vine;
            sm.n = n;
            sm.band = band;
            sm.graph = buildVineHypergraph(v, true);
            sm.mm = maxMarginals(sm.graph);
            for (int l : gold)
                QVERIFY(sm.mm.label[static_cast<std::size_t>(l)] >= goldScore - 1e-3);
            for (double alpha : {-kInf, 0.0, 0.3}) {
                const CascadeThreshold t = cascadeThreshold(sm.mm.label, alpha);
                if (!(goldScore > t.value)) continue;
                ++cleared;
                const ArcMask mask = stageMask(sm, alpha, ArcMask::allKeep(n));
                for (int m = 1; m <= n; ++m) {
                    const int h = heads[static_cast<std::size_t>(m)];
                    longGold += alpha > -kInf && !vineShortArc(band, h, m);
                    QVERIFY2(mask.keep(h, m),
                             qPrintable(QString("case %1 alpha %2: gold arc %3 -> %4 pruned")
                                            .arg(c)
                                            .arg(alpha)
                                            .arg(h)
                                            .arg(m)));
                }
            }
        }
        QVERIFY2(cleared >= 250, qPrintable(QString("gold cleared t only %1 times").arg(cleared)));
        QVERIFY2(
            longGold >= 50,
            qPrintable(QString("long gold arcs checked at a finite alpha: %1")
                           .arg(longGold))); // the long arcs (decided by two parts) were exercised
    }

    void longArcNeedsBothOuterParts() {
        // n = 6, band 1: arc 1 -> 5 is long; it survives only when LEFT -> 5 and 1 -> RIGHT both
        // do.
        SplitMix64 rng(5);
        VineScores v = randomVineScores(6, 1, rng);
        StageMarginals sm;
        sm.kind = CascadeStageKind::Vine;
        sm.n = 6;
        sm.band = 1;
        for (int drop = 0; drop < 3; ++drop) { // 0: neither dropped, 1: outer arc, 2: outer head
            VineScores u = v;
            for (int h = 0; h <= 6;
                 ++h) // short arcs 0, token 1 the root: the best parse is all outer parts
                for (int m = 1; m <= 6; ++m)
                    if (h != m) u.arcs.at(h, m) = h == 0 && m == 1 ? 20.0f : 0.0f;
            for (int m = 1; m <= 6; ++m)
                for (int s2 = 0; s2 < 2; ++s2) {
                    u.outer[static_cast<std::size_t>(2 * m + s2)] = 5.0f;
                    u.outerHead[static_cast<std::size_t>(2 * m + s2)] = 5.0f;
                }
            if (drop == 1) u.outer[static_cast<std::size_t>(2 * 5 + 0)] = -100.0f;
            if (drop == 2) u.outerHead[static_cast<std::size_t>(2 * 1 + 1)] = -100.0f;
            sm.graph = buildVineHypergraph(u, true);
            sm.mm = maxMarginals(sm.graph);
            const ArcMask mask = stageMask(sm, 0.5, ArcMask::allKeep(6));
            QCOMPARE(mask.keep(1, 5), drop == 0);
            QCOMPARE(mask.keep(2, 5), drop != 1); // 2 -> RIGHT still strong: decided by LEFT -> 5
        }
    }

    void vineProjectionParts() {
        // band 1: 2 -> 1, 0 -> 2, 4 -> 3, 5 -> 4 are vine arcs; 5's head 2 is 3 to its left: outer
        // LEFT -> 5.
        const std::vector<int> heads{-1, 2, 0, 4, 5, 2};
        const std::vector<int> p = vineProjection(5, 1, heads);
        const std::vector<int> expected{arcLabel(5, 2, 1),
                                        arcLabel(5, 0, 2),
                                        arcLabel(5, 4, 3),
                                        arcLabel(5, 5, 4),
                                        vineOuterLabel(5, 5, VineSide::Left),
                                        vineOuterHeadLabel(5, 2, VineSide::Right)};
        QCOMPARE(p, expected);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestVineParser)
#include "test_vine_parser.moc"
