// Span marginals under the PCFG from the rDP inside-outside pass (sec. 5.3): against brute-force
// enumeration of every derivation on a tiny grammar, against one inside pass per span
// (naiveSpanMarginals) on real dev sentences, and the sum check: every derivation of a binarized
// grammar uses exactly n - 1 spans of width >= 2.
#include "core/rollout/SpanMarginals.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"
#include "support/TinyPcfg.h"

#include "support/TestSuite.h"

#include <cmath>
#include <random>

using namespace prunescope;

namespace {

std::vector<PruningMask> masksFor(int n, unsigned seed) {
    std::vector<PruningMask> out{PruningMask::allKeep(n)};
    std::mt19937 rng(seed);
    for (int r = 0; r < 3; ++r) {
        PruningMask m = PruningMask::allKeep(n);
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i)
                if (rng() % 100 < 25) m.set(i, i + w, false);
        out.push_back(m);
    }
    return out;
}

void checkSums(const SpanMarginals& m, const PruningMask& mask) {
    const int n = m.n;
    double sumWide = 0;
    for (int w = 1; w <= n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            const double mu = m.at(i, i + w);
            QVERIFY(mu >= 0 && mu <= 1);
            if (PruningMask::prunable(n, i, i + w) && !mask.keep(i, i + w)) QCOMPARE(mu, 0.0);
            if (w == 1 || w == n) QCOMPARE(mu, 1.0); // in every derivation
            if (w >= 2) sumWide += mu;
        }
    QVERIFY2(std::abs(sumWide - (n - 1)) < 1e-9 * n,
             qPrintable(QString("sum %1, n %2").arg(sumWide).arg(n)));
    // The marginals of one width never exceed the spans a tree can hold there without crossing.
    for (int w = 2; w <= n; ++w) {
        double s = 0;
        for (int i = 0; i + w <= n; ++i)
            s += m.at(i, i + w);
        QVERIFY(s <= n / w + 1e-9);
    }
}

} // namespace

class TestSpanMarginals : public QObject {
    Q_OBJECT
  private slots:
    void bruteForceOnTinyGrammar() {
        const Grammar& g = testdata::tinyPcfg();
        int checked = 0;
        for (const std::vector<std::string>& w :
             {std::vector<std::string>{"a", "cat", "saw", "a", "dog"},
              std::vector<std::string>{"a", "cat", "with", "a", "dog", "saw", "fish"},
              std::vector<std::string>{"cat", "fish"}}) {
            const int n = static_cast<int>(w.size());
            for (const PruningMask& mask : masksFor(n, 5 + n)) {
                const auto ds = testdata::enumerateDerivations(g, w, mask);
                double Z = 0;
                for (const auto& d : ds)
                    Z += d.p;
                const SpanMarginals m = spanMarginals(g, w, mask);
                QCOMPARE(m.success, Z > 0);
                if (Z <= 0) continue;
                QVERIFY(std::abs(m.logZ - std::log(Z)) < 1e-9);
                for (int i = 0; i < n; ++i)
                    for (int k = i + 1; k <= n; ++k) {
                        double through = 0;
                        const std::string key = "s:" + std::to_string(i) + ":" + std::to_string(k);
                        for (const auto& d : ds)
                            if (auto it = d.features.find(key);
                                it != d.features.end() && it->second > 0)
                                through += d.p;
                        QVERIFY2(std::abs(m.at(i, k) - through / Z) < 1e-9,
                                 qPrintable(QString("(%1,%2): %3 vs %4")
                                                .arg(i)
                                                .arg(k)
                                                .arg(m.at(i, k))
                                                .arg(through / Z)));
                    }
                checkSums(m, mask);
                ++checked;
            }
        }
        QVERIFY(checked >= 6);
    }

    void equalsNaiveOnDevSentences() {
        const Grammar& g = testdata::trainGrammar();
        int sentences = 0;
        for (const Tree& t : testdata::normalizedTrees("dev")) {
            const std::vector<std::string> w = t.words();
            const int n = static_cast<int>(w.size());
            if (n < 3 || n > 14) continue;
            for (const PruningMask& mask : masksFor(n, 100 + static_cast<unsigned>(sentences))) {
                const SpanMarginals fast = spanMarginals(g, w, mask);
                const SpanMarginals naive = naiveSpanMarginals(g, w, mask);
                QCOMPARE(fast.success, naive.success);
                if (!fast.success) continue;
                QVERIFY(std::abs(fast.logZ - naive.logZ) <
                        1e-9 * std::max(1.0, std::abs(naive.logZ)));
                for (int i = 0; i < n; ++i)
                    for (int k = i + 1; k <= n; ++k)
                        QVERIFY(std::abs(fast.at(i, k) - naive.at(i, k)) < 1e-7);
                checkSums(fast, mask);
            }
            if (++sentences == (testdata::kUnderSanitizer ? 4 : 15)) break;
        }
        QCOMPARE(sentences, testdata::kUnderSanitizer ? 4 : 15);
    }

    void noDerivationGivesZeros() {
        const Grammar& g = testdata::tinyPcfg();
        const std::vector<std::string> w{"a", "cat", "saw", "a", "dog"};
        PruningMask m = PruningMask::allKeep(5);
        for (int wd = 2; wd < 5; ++wd)
            for (int i = 0; i + wd <= 5; ++i)
                m.set(i, i + wd, false);
        const SpanMarginals s =
            spanMarginals(g, w, m); // only flat trees remain: none in a binarized grammar
        QVERIFY(!s.success);
        for (double mu : s.marginal)
            QCOMPARE(mu, 0.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 spanMarginals(g, w, PruningMask::allKeep(4)));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestSpanMarginals)
#include "test_span_marginals.moc"
