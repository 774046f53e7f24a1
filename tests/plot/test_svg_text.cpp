// The SVG text helpers of core's figures (core/plot/SvgText.h): escaping, fixed-point numbers, and
// round tick values that stay inside the axis range (a padded 0-100 % axis shows 0 and 100, never
// -0.79 or 100.15).
#include "core/plot/SvgText.h"

#include "support/TestSuite.h"

#include <vector>

using namespace prunescope;

class TestSvgText : public QObject {
    Q_OBJECT
  private slots:
    void escapeAndFixed() {
        QCOMPARE(svgEscape("a<b & \"c\">"), std::string("a&lt;b &amp; &quot;c&quot;&gt;"));
        QCOMPARE(svgFixed(2.345, 1), std::string("2.3"));
        QCOMPARE(svgFixed(7, 0), std::string("7"));
    }

    void niceSteps() {
        QCOMPARE(svgNiceStep(3.3, 6), 1.0);    // 0.55 -> 1
        QCOMPARE(svgNiceStep(73.38, 6), 20.0); // 12.2 -> 20
        QCOMPARE(svgNiceStep(6, 6), 1.0);      // exactly 1 stays 1
        QCOMPARE(svgNiceStep(0.27, 6), 0.05);  // 0.045 -> 0.05
        QCOMPARE(svgNiceStep(900, 6), 200.0);  // 150 -> 200
        QCOMPARE(svgNiceStep(7, 1), 10.0);     // 7 -> 10
    }

    void linearTicksStayInside() {
        QCOMPARE(svgTicks(96.85, 100.15, 6), (std::vector<double>{97, 98, 99, 100}));
        QCOMPARE(svgTicks(-0.79, 72.59, 6), (std::vector<double>{0, 20, 40, 60}));
        QCOMPARE(svgTicks(0, 1, 5), (std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}));
        QCOMPARE(svgTicks(-12, 7, 4), (std::vector<double>{-10, -5, 0, 5}));
        for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{
                 {96.85, 100.15}, {-0.79, 72.59}, {0.0123, 0.0456}, {-3e6, 2e7}}) {
            const std::vector<double> t = svgTicks(lo, hi, 6);
            QVERIFY(t.size() >= 2 && t.size() <= 13);
            for (double v : t)
                QVERIFY(v >= lo && v <= hi);
        }
        QVERIFY(svgTicks(1, 1, 6).empty());
        QVERIFY(svgTicks(2, 1, 6).empty());
        QVERIFY(svgTicks(0, std::numeric_limits<double>::infinity(), 6).empty());
    }

    void logTicks() {
        QCOMPARE(svgTicks(0.03, 300, 6, true),
                 (std::vector<double>{0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200}));
        QCOMPARE(svgTicks(100, 1000, 6, true), (std::vector<double>{100, 200, 500, 1000}));
        QVERIFY(svgTicks(0, 10, 6, true).empty());
    }

    void labelDecimals() {
        QCOMPARE(svgTickDecimals(20), 0);
        QCOMPARE(svgTickDecimals(1), 0);
        QCOMPARE(svgTickDecimals(0.5), 1);
        QCOMPARE(svgTickDecimals(0.2), 1);
        QCOMPARE(svgTickDecimals(0.05), 2);
        QCOMPARE(svgTickDecimals(0.01), 2);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestSvgText)
#include "test_svg_text.moc"
