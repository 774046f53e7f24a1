// Mask comparison (issue 18, the explorer's chart comparison): the span sets against a hand-made
// example and against the masks' bits, and each mask's parse against the Parser and EVALB called
// directly, on real dev sentences; the JSON the CLI prints.
#include "core/eval/Evalb.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/policy/GoldSpans.h"
#include "core/policy/MaskComparison.h"
#include "support/SharedGrammar.h"

#include "support/TestSuite.h"

#include <cmath>
#include <random>

using namespace prunescope;
using Spans = std::vector<std::pair<int, int>>;

class TestMaskComparison : public QObject {
    Q_OBJECT

  private slots:
    void spanSetsOfAHandMadePair() {
        // n = 5: prunable spans are widths 2..4 (3 + 2 + 1... = 4 + 3 + 2 = 9).
        PruningMask a = PruningMask::allKeep(5), b = PruningMask::allKeep(5);
        a.set(0, 2, false); // only B keeps (0,2)
        b.set(1, 3, false); // only A keeps (1,3)
        a.set(2, 5, false);
        b.set(2, 5, false); // both prune (2,5)
        const MaskSpanSets s = compareMaskSpans(a, b);
        QCOMPARE(s.onlyA, (Spans{{1, 3}}));
        QCOMPARE(s.onlyB, (Spans{{0, 2}}));
        QCOMPARE(s.prunedByBoth, 1);
        QCOMPARE(static_cast<int>(s.intersection.size()), PruningMask::prunableCount(5) - 3);
        QVERIFY(std::find(s.intersection.begin(), s.intersection.end(), std::pair{0, 4}) !=
                s.intersection.end());
        // Width-1 spans and the whole sentence are never listed.
        for (const Spans* v : {&s.intersection, &s.onlyA, &s.onlyB})
            for (auto [i, k] : *v)
                QVERIFY(PruningMask::prunable(5, i, k));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 compareMaskSpans(a, PruningMask::allKeep(6)));
    }

    void spanSetsPartitionRandomMasks() {
        std::mt19937 rng(18);
        for (int n : {3, 7, 20, 41}) {
            PruningMask a = PruningMask::allKeep(n), b = PruningMask::allKeep(n);
            for (int i = 0; i <= n; ++i)
                for (int k = i + 2; k <= n; ++k)
                    if (PruningMask::prunable(n, i, k)) {
                        a.set(i, k, rng() % 2);
                        b.set(i, k, rng() % 3 == 0);
                    }
            const MaskSpanSets s = compareMaskSpans(a, b);
            QCOMPARE(static_cast<int>(s.intersection.size() + s.onlyA.size() + s.onlyB.size()) +
                         s.prunedByBoth,
                     PruningMask::prunableCount(n));
            for (auto [i, k] : s.intersection)
                QVERIFY(a.keep(i, k) && b.keep(i, k));
            for (auto [i, k] : s.onlyA)
                QVERIFY(a.keep(i, k) && !b.keep(i, k));
            for (auto [i, k] : s.onlyB)
                QVERIFY(!a.keep(i, k) && b.keep(i, k));
            QCOMPARE(static_cast<int>(s.intersection.size() + s.onlyA.size()), a.keptCount());
            QCOMPARE(static_cast<int>(s.intersection.size() + s.onlyB.size()), b.keptCount());
            const MaskSpanSets r = compareMaskSpans(b, a); // swapping A and B swaps the only-lists
            QCOMPARE(r.onlyA, s.onlyB);
            QCOMPARE(r.onlyB, s.onlyA);
            QVERIFY(std::is_sorted(s.intersection.begin(), s.intersection.end()));
        }
    }

    // Keep-all vs the gold mask on real dev sentences: each side equals the Parser + bestTree +
    // sentenceF1 called directly, and the sets are the binarized gold tree's prunable spans.
    void parsesEqualTheParserOnDevSentences() {
        const Grammar& g = testdata::trainGrammar();
        int checked = 0;
        for (const Tree& gold : testdata::normalizedTrees("dev")) {
            const std::vector<std::string> words = gold.words();
            if (words.size() < 4 || words.size() > 18) continue;
            if (++checked > 8) break;
            const PruningMask all = PruningMask::allKeep(static_cast<int>(words.size()));
            const PruningMask goldMask = goldSpanMask(g, gold);
            QCOMPARE(goldMask, spanMask(binarizeLike(g, gold)));
            const MaskComparison c = compareMasks(g, words, &gold, all, goldMask);
            QCOMPARE(c.spans.onlyB, Spans{});
            QCOMPARE(c.spans.prunedByBoth, 0);
            QCOMPARE(c.spans.intersection, prunableSpans(binarizeLike(g, gold)));
            Parser direct(g);
            for (const PruningMask* m : {&all, &goldMask}) {
                const MaskParse& side = m == &all ? c.a : c.b;
                const ParseStats st = direct.parse(words, m);
                QCOMPARE(side.stats.pushes, st.pushes);
                QCOMPARE(side.stats.spansKept, st.spansKept);
                QCOMPARE(side.stats.constituents, st.constituents);
                const Tree t = bestTree(g, direct.chart(), words);
                QCOMPARE(side.tree.toString(), t.toString());
                QCOMPARE(side.f1, sentenceF1(gold, t));
            }
            // Gold pruning never costs more pushes than keeping everything.
            QVERIFY(c.b.stats.pushes <= c.a.stats.pushes);
            QVERIFY(c.b.stats.success);
        }
        QCOMPARE(checked, 9);
    }

    void withoutGoldF1IsNaNAndJsonIsNull() {
        const Grammar& g = testdata::trainGrammar();
        const std::vector<std::string> words{"the", "market", "fell", "sharply", "on", "monday"};
        const MaskComparison c =
            compareMasks(g, words, nullptr, PruningMask::allKeep(6), PruningMask::allKeep(6));
        QVERIFY(std::isnan(c.a.f1));
        const nlohmann::json j = maskComparisonJson(c, 6);
        QVERIFY(j["a"]["f1"].is_null());
        QCOMPARE(j["counts"]["intersection"].get<int>(), PruningMask::prunableCount(6));
        QCOMPARE(j["counts"]["prunable"].get<int>(), PruningMask::prunableCount(6));
        QCOMPARE(j["onlyA"].size(), std::size_t{0});
        QCOMPARE(j["a"]["pushes"].get<long>(), c.a.stats.pushes);
        QVERIFY(j["b"]["success"].get<bool>());
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestMaskComparison)
#include "test_mask_comparison.moc"
