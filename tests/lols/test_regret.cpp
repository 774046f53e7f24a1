// Regret of the gold oracle vs the rollout oracle (sec. 7.3, eq. 4) on hand-worked rollouts and
// on real sentences, and the paired permutation test against exact enumeration.
#include "core/eval/PermutationTest.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/lols/Regret.h"
#include "core/policy/GoldSpans.h"
#include "core/policy/Policy.h"
#include "support/SharedGrammar.h"

#include "support/TestSuite.h"

#include <cmath>

using namespace prunescope;

namespace {
bool near(double a, double b, double tol = 1e-12) {
    return std::abs(a - b) <= tol;
}
} // namespace

class TestRegret : public QObject {
    Q_OBJECT
  private slots:
    void handWorkedRegret() {
        // n = 4: prunable spans (0,2) (1,3) (2,4) (0,3) (1,4). Gold: (0,2) and (0,3).
        const int n = 4;
        std::vector<std::uint8_t> gold((n + 1) * (n + 1), 0);
        gold[0 * 5 + 2] = gold[0 * 5 + 3] = 1;
        const double lambda = 0.1;
        // accuracyKeep, accuracyPrune, runtimeKeep, runtimePrune per span.
        std::vector<SpanRollout> r(5);
        r[0] = {0, 2, true, 1.0, 1.0, 10, 9}; // gold; prune better by 0.1 -> regret 0.1
        r[1] = {1,   3,  false, 0.8,
                0.5, 10, 9}; // non-gold; keep better: 0.8-1 = -0.2 vs 0.5-0.9 = -0.4 -> 0.2
        r[2] = {2, 4, false, 0.5, 0.5, 10, 9}; // non-gold; prune better -> regret 0
        r[3] = {0, 3, true, 0.9, 0.2, 10, 9};  // gold; keep better -> 0
        r[4] = {1, 4, true, 0.9, 0.5, 10, 8};  // non-gold; keep -0.1 vs prune -0.3 -> regret 0.2
        const RegretStats s = regretOfRollouts(r, gold, n, lambda);
        QCOMPARE(s.states, 5.0);
        QCOMPARE(s.gold, 2.0);
        QCOMPARE(s.diff, 3.0);
        QCOMPARE(s.diffGold, 1.0);
        QVERIFY(near(s.pDiff(), 0.6));
        QVERIFY(near(s.pGoldGivenDiff(), 1.0 / 3));
        QVERIFY(near(s.pNonGoldGivenDiff(), 2.0 / 3));
        QVERIFY(near(s.regretGivenDiffGold(), 0.1));
        QVERIFY(near(s.regretGivenDiffNonGold(), 0.2));
        QVERIFY(near(s.meanRegret(), 0.5 / 5));
        QVERIFY(near(s.regretGivenGold(), 0.1 / 2));
        QVERIFY(near(s.regretGivenNonGold(), 0.4 / 3));
        QVERIFY(near(s.eq4(), s.meanRegret()));
        const auto j = s.toJson();
        QVERIFY(near(j["E[regret|diff,not gold]"].get<double>(), 0.2));
    }

    void regretOnDevSentences() {
        // The baseline oracle's regret under rCP rollouts of a real policy on real sentences:
        // compared state by state with naive reparsing, and eq. 4 holds.
        const Grammar& g = testdata::trainGrammar();
        auto sentences = lolsSentences(testdata::normalizedTrees("dev"), 12);
        sentences.resize(std::min<std::size_t>(sentences.size(), 8));
        QVERIFY(sentences.size() >= 5);
        Policy p; // bias only: keeps everything (p = 0.5 >= threshold)
        RegretOptions opt;
        opt.lambda = 1e-4;
        opt.threads = 2;
        const RegretStats fast = regretAnalysis(g, sentences, p, opt);
        RegretStats ref;
        for (const auto& s : sentences) {
            RolloutRequest req{
                &g, s.words, s.gold, PruningMask::allKeep(static_cast<int>(s.words.size())), {}};
            ref.add(regretOfRollouts(naiveRollouts(req, Surrogate::CP),
                                     spanIndicator(binarizeLike(g, s.gold)),
                                     static_cast<int>(s.words.size()), opt.lambda));
        }
        QCOMPARE(fast.states, ref.states);
        QCOMPARE(fast.gold, ref.gold);
        QCOMPARE(fast.diff, ref.diff);
        QCOMPARE(fast.diffGold, ref.diffGold);
        QVERIFY(near(fast.regret, ref.regret, 1e-9));
        QVERIFY(near(fast.eq4(), fast.meanRegret(), 1e-12));
        // Keeping everything: pruning a non-gold span never hurts F1 much and saves
        // constituents, so the gold oracle (prune non-gold) rarely loses; but p(diff) > 0 overall.
        QVERIFY(fast.gold > 0 && fast.gold < fast.states);
        QVERIFY(fast.diff > 0);
        // Thread count does not matter.
        opt.threads = 1;
        const RegretStats one = regretAnalysis(g, sentences, p, opt);
        QCOMPARE(one.regret, fast.regret);
    }

    void permutationTestMatchesExactEnumeration() {
        // 8 sentences: the exact two-sided p-value enumerates all 2^8 swaps.
        std::vector<SentenceScore> a, b;
        const int counts[8][6] = {{5, 8, 7, 6, 8, 8}, {3, 6, 6, 4, 6, 5}, {7, 9, 9, 7, 9, 8},
                                  {2, 5, 4, 3, 5, 4}, {6, 7, 7, 6, 7, 7}, {1, 4, 3, 2, 4, 3},
                                  {4, 6, 5, 5, 6, 6}, {5, 5, 5, 4, 5, 5}};
        for (int s = 0; s < 8; ++s) {
            a.push_back({{counts[s][0], counts[s][1], counts[s][2]}, 1e5 * (s + 1)});
            b.push_back({{counts[s][3], counts[s][4], counts[s][5]}, 0.9e5 * (s + 1)});
        }
        const CorpusReward reward{20.0, 1e6};
        const double observed = reward(a) - reward(b);
        int extreme = 0;
        for (int bits = 0; bits < 256; ++bits) {
            std::vector<SentenceScore> x, y;
            for (int s = 0; s < 8; ++s) {
                x.push_back((bits >> s) & 1 ? b[s] : a[s]);
                y.push_back((bits >> s) & 1 ? a[s] : b[s]);
            }
            if (std::abs(reward(x) - reward(y)) >= std::abs(observed) - 1e-12) ++extreme;
        }
        const double exact = extreme / 256.0;
        const auto t = pairedPermutationTest(a, b, reward, 20000, 7);
        QVERIFY(near(t.difference, observed));
        QVERIFY2(std::abs(t.pValue - exact) < 0.015,
                 qPrintable(QString("%1 vs %2").arg(t.pValue).arg(exact)));
        QVERIFY(exact > 0.0 && exact < 1.0);
        // Deterministic given the seed; identical systems give p = 1.
        QCOMPARE(pairedPermutationTest(a, b, reward, 2000, 7).pValue,
                 pairedPermutationTest(a, b, reward, 2000, 7).pValue);
        QCOMPARE(pairedPermutationTest(a, a, reward, 500, 1).pValue, 1.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 pairedPermutationTest(a, std::span(b).first(3), reward, 10, 1));
        // Hand check of the statistic: F1 of summed counts minus lambda * mean mpush.
        const double f1 = 2.0 * 33 / (50 + 46); // matched 33, gold 50, test 46 (A)
        QVERIFY(near(reward(a), 100 * f1 - 20.0 * 0.45));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestRegret)
#include "test_regret.moc"
