// Coverage, reduction, operating point and the paired permutation test (core/filters/FilterEval,
// Cherry & Bergsma 2011 sec. 4) on hand-made margins whose answers are known.
#include "core/filters/FilterEval.h"

#include "support/TestSuite.h"

#include <cmath>

using namespace prunescope;

class TestFilterEval : public QObject {
    Q_OBJECT
  private slots:
    void countsAndOperatingPoint() {
        FilterMargins m;
        // 10 gold arcs with margins 0.1 .. 1.0, 20 other arcs with margins 0 .. 1.9
        FilterMargins::Sentence s;
        for (int i = 1; i <= 10; ++i)
            s.gold.push_back(0.1f * static_cast<float>(i));
        for (int i = 0; i < 20; ++i)
            s.other.push_back(0.1f * static_cast<float>(i));
        m.sentences.push_back(s);
        const FilterCounts c =
            countsAt(m, 0.55); // filters gold 0.6..1.0 (5) and others 0.6..1.9 (14)
        QCOMPARE(c.gold, 10L);
        QCOMPARE(c.goldKept, 5L);
        QCOMPARE(c.total, 30L);
        QCOMPARE(c.filtered, 19L);
        QCOMPARE(c.coverage(), 0.5);
        // coverage 0.9 needs 9 of 10 gold arcs kept: threshold = the 9th smallest gold margin
        QCOMPARE(thresholdForCoverage(m, 0.9), static_cast<double>(s.gold[8]));
        QCOMPARE(countsAt(m, thresholdForCoverage(m, 0.9)).goldKept, 9L);
        QCOMPARE(countsAt(m, thresholdForCoverage(m, 1.0)).goldKept, 10L);
        QCOMPARE(countsAt(m, std::numeric_limits<double>::infinity()).filtered, 0L);
    }
    void permutationTest() {
        std::vector<FilterCounts> a, b;
        for (int i = 0; i < 40; ++i) {
            a.push_back({10, 10, 80, 100}); // 80 % reduction
            b.push_back({10, 10, 60, 100}); // 60 % reduction, same coverage
        }
        const FilterComparison d = compareFilters(a, b, 2000, 3);
        QCOMPARE(d.reductionA, 0.8);
        QCOMPARE(d.reductionB, 0.6);
        QVERIFY(d.pReduction < 0.001); // 40 sentences all one way
        QCOMPARE(d.pCoverage, 1.0);    // identical coverage
        const FilterComparison same = compareFilters(a, a, 500, 3);
        QCOMPARE(same.pReduction, 1.0);
        // deterministic per seed
        QCOMPARE(compareFilters(a, b, 500, 9).pReduction, compareFilters(a, b, 500, 9).pReduction);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFilterEval)
#include "test_filter_eval.moc"
