// Third-order grand-sibling parsing (core/dep/GrandSibling.cpp, Koo & Collins 2010 Model 1) held
// to brute force over every projective tree (core/dep/BruteForce.h) on sentences of <= 8 words, one
// or many roots, random masks; second order as its special case; the sparse chart; pruned arcs
// never built; memory budget; reuse.
#include "core/dep/BruteForce.h"
#include "core/dep/DepTree.h"
#include "core/dep/Eisner.h"
#include "core/util/Random.h"
#include "support/RandomDep.h"

#include "support/TestSuite.h"

#include <atomic>
#include <cmath>

using namespace prunescope;

namespace {

// Sibling, grandparent and grand-sibling scores from a hash of the part: arbitrary but fixed.
// scale = 0 switches the third-order parts off (a second-order model).
struct HashParts : GrandSiblingScorer {
    std::uint64_t seed;
    float scale;
    HashParts(std::uint64_t s, float third = 1.0f) : seed(s), scale(third) {}
    float draw(std::uint64_t key, std::uint64_t stream) const {
        SplitMix64 r(seed, key, stream);
        return static_cast<float>(r.uniform() * 4.0 - 2.0);
    }
    float sibling(int h, int q, int m) const override {
        return draw(static_cast<std::uint64_t>(h * 10007 + q * 101 + m), 7);
    }
    float grandparent(int g, int h, int m) const override {
        return scale * draw(static_cast<std::uint64_t>(g * 10007 + h * 101 + m), 8);
    }
    float grandSibling(int g, int h, int q, int m) const override {
        return scale * draw(static_cast<std::uint64_t>(((g * 101 + h) * 101 + q) * 101 + m), 9);
    }
};

// Sets flag at its `after`-th grand-sibling score and counts the scores asked for after it.
struct CancellingParts : HashParts {
    std::atomic<bool>* flag;
    long after;
    mutable long calls = 0, callsAfterCancel = 0;
    CancellingParts(std::atomic<bool>* f, long a) : HashParts(3), flag(f), after(a) {}
    float grandSibling(int g, int h, int q, int m) const override {
        if (++calls == after) flag->store(true);
        if (calls > after) ++callsAfterCancel;
        return HashParts::grandSibling(g, h, q, m);
    }
};

void checkAgainstBruteForce(bool singleRoot, int cases, int maxN, std::uint64_t seed) {
    SplitMix64 rng(seed);
    EisnerOptions opt;
    opt.singleRoot = singleRoot;
    EisnerParser parser(opt);
    int withTree = 0, withoutTree = 0, distinctBest = 0;
    for (int c = 0; c < cases; ++c) {
        const int n = 1 + static_cast<int>(rng.below(static_cast<std::size_t>(maxN)));
        const ArcScores s = testdata::randomArcScores(n, rng);
        const double keep = c % 3 == 0 ? 1.0 : 0.3 + 0.6 * rng.uniform();
        const ArcMask mask = testdata::randomArcMask(n, keep, rng);
        const HashParts parts(seed + static_cast<std::uint64_t>(c));
        double best = -INFINITY, second = -INFINITY;
        std::vector<int> bestHeads;
        long trees = 0;
        forEachProjectiveTree(n, &mask, singleRoot, [&](const std::vector<int>& heads) {
            ++trees;
            const double v = thirdOrderTreeScore(s, heads, parts);
            if (v > best) {
                second = best;
                best = v;
                bestHeads = heads;
            } else if (v > second) {
                second = v;
            }
        });
        const DepParse p = parser.parseGrandSiblings(s, parts, &mask);
        QCOMPARE(p.stats.success, trees > 0);
        if (trees == 0) {
            ++withoutTree;
            QCOMPARE(p.heads, std::vector<int>(static_cast<std::size_t>(n) + 1, -1));
            continue;
        }
        ++withTree;
        QVERIFY(mask.keepsTree(p.heads));
        QVERIFY(treeProblem(p.heads).empty() && isProjective(p.heads));
        if (singleRoot) QCOMPARE(rootCount(p.heads), 1);
        const double got = thirdOrderTreeScore(s, p.heads, parts);
        QVERIFY2(std::abs(got - best) < 1e-4,
                 qPrintable(QString("case %1 n=%2: third order %3, brute force %4")
                                .arg(c)
                                .arg(n)
                                .arg(got)
                                .arg(best)));
        QVERIFY(std::abs(p.stats.score - best) < 1e-3);
        if (best - second > 1e-3) {
            QCOMPARE(p.heads, bestHeads);
            ++distinctBest;
        }
    }
    QVERIFY(withTree > cases / 2);
    QVERIFY(withoutTree > 0 || cases < 50);
    QVERIFY(distinctBest > withTree / 2);
}

} // namespace

class TestGrandSibling : public QObject {
    Q_OBJECT
  private slots:
    void equalsBruteForceSingleRoot() { checkAgainstBruteForce(true, 300, 8, 21); }
    void equalsBruteForceManyRoots() { checkAgainstBruteForce(false, 200, 7, 22); }

    void withoutThirdOrderPartsItIsSecondOrder() {
        // Grandparent and grand-sibling scores of zero: the same tree score as second-order Eisner.
        SplitMix64 rng(3);
        for (int c = 0; c < 40; ++c) {
            const int n = 1 + static_cast<int>(rng.below(25));
            const ArcScores s = testdata::randomArcScores(n, rng);
            const ArcMask mask = testdata::randomArcMask(n, 0.5 + 0.5 * rng.uniform(), rng);
            const HashParts parts(static_cast<std::uint64_t>(c), 0.0f);
            EisnerParser a, b;
            const DepParse two = a.parse(s, parts, &mask);
            const DepParse three = b.parseGrandSiblings(s, parts, &mask);
            QCOMPARE(three.stats.success, two.stats.success);
            if (!two.stats.success) continue;
            QVERIFY(std::abs(three.stats.score - two.stats.score) < 1e-3);
            QVERIFY(std::abs(treeScore(s, three.heads, &parts) - two.stats.score) < 1e-3);
        }
    }

    void grandSiblingPartsOfATree() {
        // 0 -> 3; 3 -> 1, 3 -> 2 (left: 2 closest), 3 -> 5; 5 -> 4. The root's own parts have no
        // grandparent.
        const auto parts = grandSiblingParts({-1, 3, 3, 0, 5, 3});
        const std::vector<std::array<int, 4>> expect = {
            {0, 3, 2, 1}, {0, 3, 3, 2}, {3, 5, 5, 4}, {0, 3, 3, 5}};
        QCOMPARE(parts, expect);
    }

    void prunedArcsShrinkTheChartAndTheWork() {
        SplitMix64 rng(5);
        const int n = 30;
        const ArcScores s = testdata::randomArcScores(n, rng);
        const ArcMask mask = testdata::randomArcMask(n, 0.1, rng);
        ArcMask withChain = mask; // a left-branching chain keeps a tree under the mask
        for (int m = 1; m <= n; ++m)
            withChain.set(m - 1, m, true);
        const HashParts parts(4);
        EisnerParser pruned, full;
        const DepParse p = pruned.parseGrandSiblings(s, parts, &withChain);
        const DepParse q = full.parseGrandSiblings(s, parts);
        QVERIFY(p.stats.success && q.stats.success);
        QVERIFY(withChain.keepsTree(p.heads));
        QVERIFY(p.stats.pushes * 20 < q.stats.pushes);
        QVERIFY(p.stats.items < q.stats.items);
        QVERIFY(pruned.thirdOrderChart().memoryBytes() * 5 < full.thirdOrderChart().memoryBytes());
        QCOMPARE(p.stats.arcsKept, withChain.keptCount());
        QCOMPARE(q.stats.arcsKept, ArcMask::totalArcs(n));
        // Every built item's arc is kept.
        const GrandSiblingChart& ch = pruned.thirdOrderChart();
        for (int h = 0; h <= n; ++h)
            for (int k = ch.modStart[h]; k < ch.modStart[h + 1]; ++k)
                QVERIFY(withChain.keep(h, ch.mods[static_cast<std::size_t>(k)]));
    }

    void memoryBudgetAndLimits() {
        SplitMix64 rng(1);
        const ArcScores s = testdata::randomArcScores(40, rng);
        std::vector<std::uint8_t> all(41 * 41, 1);
        for (int p = 0; p <= 40; ++p) {
            all[static_cast<std::size_t>(p * 41 + p)] = 0;
            all[static_cast<std::size_t>(p * 41)] = 0; // nothing heads the root
        }
        EisnerOptions opt;
        opt.memoryBudget = GrandSiblingChart::bytesFor(40, all);
        EisnerParser parser(opt);
        const HashParts parts(1);
        QVERIFY(parser.parseGrandSiblings(s, parts).stats.success);
        QCOMPARE(parser.thirdOrderChart().memoryBytes(), opt.memoryBudget);
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            parser.parseGrandSiblings(testdata::randomArcScores(41, rng), parts));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 parser.parseGrandSiblings(ArcScores{}, parts));
        ArcMask wrong = ArcMask::allKeep(3);
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            parser.parseGrandSiblings(testdata::randomArcScores(4, rng), parts, &wrong));
    }

    void reusedParserGivesIdenticalResults() {
        SplitMix64 rng(9);
        EisnerParser reused;
        for (int c = 0; c < 20; ++c) {
            const int n = 1 + static_cast<int>(rng.below(20));
            const ArcScores s = testdata::randomArcScores(n, rng);
            const ArcMask mask = testdata::randomArcMask(n, 0.6, rng);
            const HashParts parts(static_cast<std::uint64_t>(c));
            EisnerParser fresh;
            const DepParse a = reused.parseGrandSiblings(s, parts, &mask);
            const DepParse b = fresh.parseGrandSiblings(s, parts, &mask);
            QCOMPARE(a.heads, b.heads);
            QCOMPARE(a.stats.pushes, b.stats.pushes);
            QCOMPARE(reused.parse(s, parts).heads, fresh.parse(s, parts).heads);
        }
    }

    // A cancel flag set while a long sentence is being parsed stops the parse at the next span
    // width with Cancelled (the flag is set from inside the scorer after a fixed number of part
    // scores, so the test does not depend on timing); the parser then works again.
    void cancelStopsALongParseMidSentence() {
        SplitMix64 rng(5);
        const int n = 60;
        const ArcScores s = testdata::randomArcScores(n, rng);
        std::atomic<bool> never{false};
        EisnerParser parser;
        parser.setCancelFlag(&never);
        CancellingParts counting(&never, -1); // counts the calls of a whole parse
        const DepParse whole = parser.parseGrandSiblings(s, counting);
        QVERIFY(whole.stats.success);
        QVERIFY(counting.calls > 100000);

        std::atomic<bool> flag{false};
        parser.setCancelFlag(&flag);
        CancellingParts cancelling(&flag, counting.calls / 10);
        QVERIFY_THROWS_EXCEPTION(Cancelled, parser.parseGrandSiblings(s, cancelling));
        // stopped within the width it was in: far less than the rest of the parse
        QVERIFY(cancelling.callsAfterCancel < counting.calls / 4);
        QVERIFY_THROWS_EXCEPTION(Cancelled, parser.parse(s)); // every order polls the flag
        flag.store(false);
        QCOMPARE(parser.parseGrandSiblings(s, counting).heads, whole.heads);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestGrandSibling)
#include "test_grand_sibling.moc"
