// Min, median and max of the benchmark commands (core/util/Spread.h): an even count's median is the
// mean of the middle two (before, some commands reported the upper one), input order does not
// matter.
#include "core/util/Spread.h"

#include "support/TestSuite.h"

using namespace prunescope;

class TestSpread : public QObject {
    Q_OBJECT
  private slots:
    void oddEvenEmpty() {
        const Spread odd = spreadOf({5, 1, 3});
        QCOMPARE(odd.min, 1.0);
        QCOMPARE(odd.median, 3.0);
        QCOMPARE(odd.max, 5.0);
        const Spread even = spreadOf({10, 2, 4, 8});
        QCOMPARE(even.min, 2.0);
        QCOMPARE(even.median, 6.0);
        QCOMPARE(even.max, 10.0);
        QCOMPARE(spreadOf({7, 9}).median, 8.0);
        QCOMPARE(spreadOf({4}).median, 4.0);
        const Spread none = spreadOf({});
        QCOMPARE(none.min, 0.0);
        QCOMPARE(none.median, 0.0);
        QCOMPARE(none.max, 0.0);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestSpread)
#include "test_spread.moc"
