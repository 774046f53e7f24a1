// Eisner under an arc mask (core/dep/Eisner.h) held to brute force over every projective tree
// (core/dep/BruteForce.h) on sentences of <= 8 words: first and second order, one or many roots,
// random masks; pruned arcs never built; pushes; tie-break; memory budget.
#include "core/dep/BruteForce.h"
#include "core/dep/DepTree.h"
#include "core/dep/Eisner.h"
#include "core/util/Random.h"
#include "support/RandomDep.h"

#include "support/TestSuite.h"

#include <cmath>

using namespace prunescope;

namespace {

bool isProjectiveTree(const std::vector<int>& heads, bool singleRoot) {
    return treeProblem(heads).empty() && isProjective(heads) &&
           (!singleRoot || rootCount(heads) == 1);
}

using testdata::HashSiblings;

struct Best {
    double score = -INFINITY, second = -INFINITY;
    std::vector<int> heads;
    long trees = 0;
};

Best bruteForce(const ArcScores& s, const ArcMask* mask, bool singleRoot,
                const SiblingScorer* sib) {
    Best b;
    forEachProjectiveTree(s.n, mask, singleRoot, [&](const std::vector<int>& heads) {
        ++b.trees;
        const double v = treeScore(s, heads, sib);
        if (v > b.score) {
            b.second = b.score;
            b.score = v;
            b.heads = heads;
        } else if (v > b.second) {
            b.second = v;
        }
    });
    return b;
}

void checkAgainstBruteForce(int order, bool singleRoot, int cases, int maxN, std::uint64_t seed) {
    SplitMix64 rng(seed);
    EisnerOptions opt;
    opt.singleRoot = singleRoot;
    EisnerParser parser(opt);
    int withTree = 0, withoutTree = 0;
    for (int c = 0; c < cases; ++c) {
        const int n = 1 + static_cast<int>(rng.below(static_cast<std::size_t>(maxN)));
        const ArcScores s = testdata::randomArcScores(n, rng);
        const double keep = c % 3 == 0 ? 1.0 : 0.3 + 0.6 * rng.uniform();
        const ArcMask mask = testdata::randomArcMask(n, keep, rng);
        const HashSiblings sib(seed + static_cast<std::uint64_t>(c));
        const SiblingScorer* sp = order == 2 ? &sib : nullptr;
        const Best b = bruteForce(s, &mask, singleRoot, sp);
        const DepParse p = order == 2 ? parser.parse(s, sib, &mask) : parser.parse(s, &mask);
        QCOMPARE(p.stats.success, b.trees > 0);
        if (b.trees == 0) {
            ++withoutTree;
            QCOMPARE(p.heads, std::vector<int>(static_cast<std::size_t>(n) + 1, -1));
            continue;
        }
        ++withTree;
        QVERIFY(mask.keepsTree(p.heads));
        QVERIFY(isProjectiveTree(p.heads, singleRoot));
        const double got = treeScore(s, p.heads, sp);
        QVERIFY2(
            std::abs(got - b.score) < 1e-4,
            qPrintable(
                QString("case %1 n=%2: eisner %3 brute %4").arg(c).arg(n).arg(got).arg(b.score)));
        QVERIFY(std::abs(p.stats.score - b.score) < 1e-3);
        if (b.score - b.second > 1e-3) QCOMPARE(p.heads, b.heads);
    }
    QVERIFY(withTree > cases / 2);
    QVERIFY(withoutTree > 0 || cases < 50);
}

} // namespace

class TestEisner : public QObject {
    Q_OBJECT
  private slots:
    void firstOrderEqualsBruteForceSingleRoot() { checkAgainstBruteForce(1, true, 300, 8, 11); }
    void firstOrderEqualsBruteForceManyRoots() { checkAgainstBruteForce(1, false, 200, 7, 12); }
    void secondOrderEqualsBruteForceSingleRoot() { checkAgainstBruteForce(2, true, 300, 8, 13); }
    void secondOrderEqualsBruteForceManyRoots() { checkAgainstBruteForce(2, false, 200, 7, 14); }

    void bruteForceCountsProjectiveTrees() {
        // C(3n, n) / (2n + 1) projective trees with any number of root modifiers (OEIS A001764),
        // C(3n - 2, n - 1) / n with exactly one (A006013).
        const long many[] = {1, 3, 12, 55, 273, 1428}, one[] = {1, 2, 7, 30, 143, 728};
        for (int n = 1; n <= 6; ++n) {
            long a = 0, b = 0;
            forEachProjectiveTree(n, nullptr, false, [&](const std::vector<int>&) { ++a; });
            forEachProjectiveTree(n, nullptr, true, [&](const std::vector<int>& h) {
                QVERIFY(isProjectiveTree(h, true));
                ++b;
            });
            QCOMPARE(a, many[n - 1]);
            QCOMPARE(b, one[n - 1]);
        }
    }

    void prunedArcsAreNeverBuilt() {
        SplitMix64 rng(5);
        const int n = 12;
        const ArcScores s = testdata::randomArcScores(n, rng);
        const ArcMask mask = testdata::randomArcMask(n, 0.4, rng);
        const HashSiblings sib(3);
        for (int order : {1, 2}) {
            EisnerParser parser;
            const DepParse p = order == 2 ? parser.parse(s, sib, &mask) : parser.parse(s, &mask);
            const DepChart& ch = parser.chart();
            for (int h = 0; h <= n; ++h)
                for (int m = 1; m <= n; ++m)
                    if (h != m && !mask.keep(h, m)) QVERIFY(ch.I(h, m) == kDepNegInf);
            EisnerParser full;
            const DepParse q = order == 2 ? full.parse(s, sib) : full.parse(s);
            QVERIFY(p.stats.pushes < q.stats.pushes);
            QVERIFY(p.stats.items < q.stats.items);
            QCOMPARE(p.stats.arcsKept, mask.keptCount());
            QCOMPARE(q.stats.arcsKept, ArcMask::totalArcs(n));
        }
    }

    void pushCountsOfTheUnprunedFirstOrderChart() {
        // Single root: I(s,t), t-s = w, s > 0 has w splits for each of its 2 arcs; I(0,t) has one
        // split; C(s,t) right has w candidates (s > 0, or s = 0 and t = n); C(t,s) left has w (s >
        // 0).
        for (int n : {1, 2, 5, 9}) {
            long expect = 0;
            for (int w = 1; w <= n; ++w)
                for (int s = 0; s + w <= n; ++s) {
                    const int t = s + w;
                    expect += s > 0 ? 2L * w : 1;
                    if (s > 0 || t == n) expect += w;
                    if (s > 0) expect += w;
                }
            SplitMix64 rng(static_cast<std::uint64_t>(n));
            EisnerParser parser;
            QCOMPARE(parser.parse(testdata::randomArcScores(n, rng)).stats.pushes, expect);
        }
    }

    void tiesKeepTheSmallestSplit() {
        // All scores equal: every tree ties; the smallest-index rule makes the result a fixed tree.
        ArcScores s;
        s.reset(4);
        for (int h = 0; h <= 4; ++h)
            for (int m = 1; m <= 4; ++m)
                if (h != m) s.at(h, m) = 1.0f;
        EisnerParser a, b;
        const auto p1 = a.parse(s), p2 = b.parse(s);
        QCOMPARE(p1.heads, p2.heads);
        // C(0,4) picks the smallest root child m with the best score; I splits the smallest r.
        QCOMPARE(p1.heads[1], 0);
    }

    void memoryBudgetAndLimits() {
        EisnerOptions opt;
        opt.memoryBudget = DepChart::bytesFor(50, 1);
        EisnerParser parser(opt);
        SplitMix64 rng(1);
        QVERIFY(parser.parse(testdata::randomArcScores(50, rng)).stats.success);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 parser.parse(testdata::randomArcScores(51, rng)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parser.parse(ArcScores{}));
        ArcMask wrong = ArcMask::allKeep(3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 parser.parse(testdata::randomArcScores(4, rng), &wrong));
        QCOMPARE(DepChart::bytesFor(100, 1), std::size_t(101 * 101 * 16));
        QCOMPARE(DepChart::bytesFor(100, 2), std::size_t(101 * 101 * 24));
    }

    void reusedParserGivesIdenticalResults() {
        SplitMix64 rng(9);
        EisnerParser reused;
        for (int c = 0; c < 20; ++c) {
            const int n = 1 + static_cast<int>(rng.below(20));
            const ArcScores s = testdata::randomArcScores(n, rng);
            const HashSiblings sib(static_cast<std::uint64_t>(c));
            EisnerParser fresh;
            QCOMPARE(reused.parse(s, sib).heads, fresh.parse(s, sib).heads);
            QCOMPARE(reused.parse(s).heads, fresh.parse(s).heads);
        }
    }

    void siblingPartsOfATree() {
        // 0 -> 3; 3 -> 1, 3 -> 2 (left: 2 closest), 3 -> 5; 5 -> 4
        const auto parts = siblingParts({-1, 3, 3, 0, 5, 3});
        const std::vector<std::array<int, 3>> expect = {
            {3, 2, 1}, {3, 3, 2}, {0, 0, 3}, {5, 5, 4}, {3, 3, 5}};
        QCOMPARE(parts, expect);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestEisner)
#include "test_eisner.moc"
