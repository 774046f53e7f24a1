// The one paired permutation test (core/stats/PairedPermutation.h) against a naive reference that
// draws each sentence's swap bit by the documented rule; its tie rule; identical systems; the users
// (reward, UAS, filters, sign flips) all going through it; and Holm's correction.
#include "core/dep/UasSignificance.h"
#include "core/eval/PermutationTest.h"
#include "core/filters/FilterEval.h"
#include "core/mcmc/BiasExperiment.h"
#include "core/stats/Holm.h"
#include "core/stats/PairedPermutation.h"
#include "core/util/Random.h"

#include "support/TestSuite.h"

using namespace prunescope;

namespace {

// The contract, written out naively: permutation p takes ceil(n/64) draws in order from one
// splitmix64 stream at `seed`; sentence i is swapped iff bit i%64 of draw i/64 is set; a permuted
// sum is extreme iff |d| >= |obs| - 1e-12 (1 + |obs|).
double naiveSignFlipP(const std::vector<double>& d, int permutations, std::uint64_t seed) {
    double obs = 0;
    for (double x : d)
        obs += x;
    std::uint64_t state = seed;
    int extreme = 0;
    for (int p = 0; p < permutations; ++p) {
        std::vector<std::uint64_t> draws((d.size() + 63) / 64);
        for (auto& w : draws)
            w = splitmix64(state);
        double sum = 0;
        for (std::size_t i = 0; i < d.size(); ++i)
            sum += ((draws[i / 64] >> (i % 64)) & 1) ? -d[i] : d[i];
        if (std::abs(sum) >= std::abs(obs) - 1e-12 * (1 + std::abs(obs))) ++extreme;
    }
    return (1.0 + extreme) / (1.0 + permutations);
}

} // namespace

class TestPairedPermutation : public QObject {
    Q_OBJECT
  private slots:
    void matchesTheNaiveContract() {
        SplitMix64 rng(7);
        for (std::size_t n : {1u, 5u, 63u, 64u, 65u, 130u}) {
            std::vector<double> d(n);
            for (auto& x : d)
                x = static_cast<double>(rng.below(7)) - 2.5;
            for (std::uint64_t seed : {1u, 99u}) {
                const double fast = pairedSignFlipTest(d, 2000, seed).pValue;
                QCOMPARE(fast, naiveSignFlipP(d, 2000, seed));
            }
        }
    }
    void swapsStayWithinTheSentences() {
        for (std::size_t n : {0u, 3u, 64u, 70u}) {
            int calls = 0;
            bool sized = true, clear = true;
            pairedPermutationTest(n, 50, 3, [&](const SwapSet& s) -> double {
                ++calls;
                sized = sized && s.words().size() == (n + 63) / 64;
                if (n % 64 && !s.words().empty())
                    clear = clear && (s.words().back() >> (n % 64)) == 0;
                return 0.0;
            });
            QVERIFY(sized);
            QVERIFY(clear);
            QCOMPARE(calls, 51); // the observed value, then one per permutation
        }
    }
    void tieRule() {
        QVERIFY(atLeastAsExtreme(0.3, 0.1 + 0.2)); // 0.30000000000000004: a tie, not less
        QVERIFY(atLeastAsExtreme(-2.0, 2.0));
        QVERIFY(!atLeastAsExtreme(1.999999, 2.0));
        QVERIFY(atLeastAsExtreme(1e6 * (1 - 1e-13), 1e6)); // relative at large values
        QVERIFY(atLeastAsExtreme(0.0, 0.0));
    }
    void identicalSystemsGiveOne() {
        const std::vector<double> zero(40, 0.0);
        QCOMPARE(pairedSignFlipTest(zero, 500, 1).pValue, 1.0);
        QCOMPARE(pairedSignFlipTest({}, 500, 1).pValue, 1.0);
        QCOMPARE(pairedSignFlipTest(zero, 0, 1).pValue, 1.0);
        QCOMPARE(pairedSignFlipTest(zero, -5, 1).permutations, 0);
        // A clear, consistent difference is significant.
        const std::vector<double> plus(40, 1.0);
        QVERIFY(pairedSignFlipTest(plus, 999, 1).pValue <= 0.002);
    }
    // Every comparison in core is this test with its own statistic: on the same per-sentence
    // differences, UAS, filter reduction and the mcmc sign flip give the sign-flip p-value.
    void everyUserSharesTheDraws() {
        SplitMix64 rng(11);
        const std::size_t n = 90;
        std::vector<AttachmentScore> a(n), b(n);
        std::vector<double> d(n);
        for (std::size_t i = 0; i < n; ++i) {
            a[i].scoredTokens = b[i].scoredTokens = 20;
            a[i].scoredCorrect = 10 + static_cast<int>(rng.below(10));
            b[i].scoredCorrect = 10 + static_cast<int>(rng.below(9));
            d[i] = a[i].scoredCorrect - b[i].scoredCorrect;
        }
        const double p = pairedSignFlipTest(d, 3000, 5).pValue;
        QCOMPARE(pairedUasPermutationTest(a, b, 3000, 5).pValue, p);
        std::vector<double> da(d.begin(), d.end()), zb(n, 0.0);
        QCOMPARE(prunescope::pairedSignFlipTest(da, zb, 3000, 5), p);
    }
    void holm() {
        const auto adj = holmAdjust({0.01, 0.04, 0.03, 0.5});
        QCOMPARE(adj.size(), std::size_t{4});
        QCOMPARE(adj[0], 0.04);                   // smallest x 4
        QCOMPARE(adj[2], 0.09);                   // second smallest x 3
        QCOMPARE(adj[1], 0.09);                   // x 2 = 0.08, raised to the running max 0.09
        QCOMPARE(adj[3], 0.5);                    // x 1
        QCOMPARE(holmAdjust({0.6, 0.7})[0], 1.0); // capped
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestPairedPermutation)
#include "test_paired_permutation.moc"
