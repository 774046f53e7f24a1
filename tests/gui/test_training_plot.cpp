// GUI tests of the LOLS reward-per-iteration plot (TrainingPanel.h setupRewardPlot /
// showRewardCurves): the iteration axis has only integer ticks, for a 1-iteration run as for a
// 40-iteration one, and the legend lies outside the axes, so it covers no curve point.
#include "app/gui/frontier/TrainingPanel.h"

#include <qcustomplot.h>

#include "support/TestSuite.h"

#include <cmath>

using namespace prunescope;
using namespace prunescope::gui;

namespace {
std::vector<LolsIterationRecord> records(int n) {
    std::vector<LolsIterationRecord> log;
    for (int t = 0; t <= n; ++t) {
        LolsIterationRecord r;
        r.iteration = t;
        r.trainRollInReward = 0.5 + 0.01 * t;
        r.dev.reward = 0.6 - 0.005 * t;
        log.push_back(r);
    }
    return log;
}
} // namespace

class TestTrainingPlot : public QObject {
    Q_OBJECT
  private slots:
    void integerIterationTicks_data() {
        QTest::addColumn<int>("iterations");
        QTest::newRow("1") << 1;
        QTest::newRow("3") << 3;
        QTest::newRow("40") << 40;
        QTest::newRow("250") << 250;
    }
    void integerIterationTicks() {
        QFETCH(int, iterations);
        QCustomPlot plot;
        plot.resize(420, 260);
        setupRewardPlot(&plot);
        showRewardCurves(&plot, records(iterations), iterations);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QVector<double> ticks = plot.xAxis->tickVector();
        QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(ticks.size())));
        for (double t : ticks)
            QVERIFY2(t == std::round(t), qPrintable(QString("tick %1").arg(t)));
        for (const QString& label : plot.xAxis->tickVectorLabels())
            QVERIFY2(!label.contains('.'), qPrintable(label));
    }

    void legendHidesNoCurve() {
        QCustomPlot plot;
        plot.resize(420, 260);
        setupRewardPlot(&plot);
        showRewardCurves(&plot, records(5), 5);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(plot.legend->visible());
        QCOMPARE(plot.legend->itemCount(), 2);
        const QRect legend = plot.legend->outerRect();
        const QRect axes = plot.axisRect()->rect();
        QVERIFY(legend.isValid() && axes.isValid());
        QVERIFY2(!legend.intersects(axes), "the legend overlaps the data area");
        // and every data point is drawn inside the axes, so outside the legend
        for (int g = 0; g < 2; ++g)
            for (auto it = plot.graph(g)->data()->constBegin();
                 it != plot.graph(g)->data()->constEnd(); ++it) {
                const QPoint p(int(plot.xAxis->coordToPixel(it->key)),
                               int(plot.yAxis->coordToPixel(it->value)));
                QVERIFY(axes.contains(p));
                QVERIFY(!legend.contains(p));
            }
    }
};

PRUNESCOPE_QTEST_MAIN(TestTrainingPlot)
#include "test_training_plot.moc"
