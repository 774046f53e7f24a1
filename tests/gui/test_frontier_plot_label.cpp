// GUI test of the frontier plot's legend and λ label (Vieira & Eisner 2017, sec. 7 Fig. 2) on the
// bundled baseline frontier (ptb-sample/dev, 300 sentences): the legend lists the iso-reward line,
// the λ_i arrows and the optimal-λ cones when they are shown; for every λ the slider reaches, the
// label covers no plotted point, no pixel of the iso-reward line, the sigmoid or the Pareto line,
// no arrow or cone and not the legend (or it has moved to the title above the axis rect).
#include "app/gui/frontier/FrontierWindow.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QCheckBox>
#include <QSlider>

#include <algorithm>
#include <cmath>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

// Pixels along a data-space curve y(x) over the x axis range, every pixel column.
template <class F> std::vector<QPointF> sampleCurve(const widgets::FrontierPlot* plot, F y) {
    std::vector<QPointF> out;
    const QRect ar = plot->axisRect()->rect();
    for (int px = ar.left(); px <= ar.right(); ++px) {
        const double x = plot->xAxis->pixelToCoord(px);
        for (double dx : {-0.5, 0.0, 0.5}) { // and half-pixel neighbours for steep parts
            const double xx = plot->xAxis->pixelToCoord(px + dx);
            const double yy = y(xx);
            if (std::isfinite(yy)) out.emplace_back(px + dx, plot->yAxis->coordToPixel(yy));
        }
        (void)x;
    }
    // Steep curves: also fill vertical gaps between neighbouring samples.
    std::vector<QPointF> filled;
    for (std::size_t i = 0; i < out.size(); ++i) {
        filled.push_back(out[i]);
        if (i + 1 < out.size()) {
            const double gap = std::abs(out[i + 1].y() - out[i].y());
            for (double t = 1; t < gap && t < 2000; t += 1)
                filled.emplace_back(out[i] + (out[i + 1] - out[i]) * (t / gap));
        }
    }
    return filled;
}

std::vector<QPointF> sampleSegment(QPointF a, QPointF b) {
    std::vector<QPointF> out;
    const double len = std::hypot(b.x() - a.x(), b.y() - a.y());
    for (double t = 0; t <= len; t += 1)
        out.push_back(a + (b - a) * (len > 0 ? t / len : 0));
    out.push_back(b);
    return out;
}

double rectDistance(const QRectF& r, QPointF p) {
    const double dx = std::max({r.left() - p.x(), 0.0, p.x() - r.right()});
    const double dy = std::max({r.top() - p.y(), 0.0, p.y() - r.bottom()});
    return std::hypot(dx, dy);
}

// Every way the label can cover data, as text ("" = none). Independent of LabelPlacement: points,
// pixels sampled along the curves from the data, glyph extents (30 px) and the legend's rectangle.
QString coverage(const FrontierWindow& w, const QRectF& r) {
    const auto* plot = w.plot();
    const auto& pts = w.view().plot.points;
    QStringList why;
    for (int i = 0; i < static_cast<int>(pts.size()); ++i) {
        const QPointF p = plot->pointPixel(i);
        if (r.contains(p)) why << "point " + pts[static_cast<std::size_t>(i)].id;
        const auto& pp = pts[static_cast<std::size_t>(i)];
        if (((std::isfinite(pp.lambda) && w.findChild<QCheckBox*>("arrows")->isChecked()) ||
             (!pp.lambdaRange.empty && w.findChild<QCheckBox*>("cones")->isChecked())) &&
            rectDistance(r, p) < 30)
            why << "glyph of " + pp.id;
    }
    const int sel = w.selectedPoint();
    if (sel >= 0) {
        const auto& s = pts[static_cast<std::size_t>(sel)];
        const double lambda = plot->lambda();
        for (const QPointF& q :
             sampleCurve(plot, [&](double x) { return s.accuracy + lambda * (x - s.runtime); }))
            if (r.contains(q)) {
                why << QString("iso-reward line at (%1, %2)").arg(q.x()).arg(q.y());
                break;
            }
    }
    if (const auto& fit = w.view().plot.fit)
        for (const QPointF& q :
             sampleCurve(plot, [&](double x) { return x > -fit->c ? (*fit)(x) : NAN; }))
            if (r.contains(q)) {
                why << "sigmoid";
                break;
            }
    std::vector<const widgets::PlotPolicy*> front;
    for (const auto& p : pts)
        if (p.onFrontier) front.push_back(&p);
    std::sort(front.begin(), front.end(), [](auto* a, auto* b) { return a->runtime < b->runtime; });
    for (std::size_t i = 1; i < front.size(); ++i) {
        const QPointF a(plot->xAxis->coordToPixel(front[i - 1]->runtime),
                        plot->yAxis->coordToPixel(front[i - 1]->accuracy));
        const QPointF b(plot->xAxis->coordToPixel(front[i]->runtime),
                        plot->yAxis->coordToPixel(front[i]->accuracy));
        const QPointF corner(b.x(), a.y());
        for (const auto& seg : {std::pair{a, corner}, std::pair{corner, b}})
            for (const QPointF& q : sampleSegment(seg.first, seg.second))
                if (r.contains(q)) {
                    why << "Pareto line";
                    break;
                }
    }
    if (plot->legend->visible() && r.intersects(QRectF(plot->legend->outerRect()))) why << "legend";
    return why.join("; ");
}

} // namespace

class TestFrontierPlotLabel : public QObject {
    Q_OBJECT
    QString frontier_;

  private slots:
    void initTestCase() {
        frontier_ =
            QString::fromStdString(testdata::sourceDir()) + "/samples/policies/frontier.json";
        QVERIFY(QFileInfo::exists(frontier_));
    }

    void legendListsTheDrawnItems() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        auto has = [&](const char* word) {
            const QStringList e = w.plot()->legendEntries();
            return std::any_of(e.begin(), e.end(), [&](const QString& s) {
                return s.contains(QString::fromUtf8(word));
            });
        };
        QVERIFY(w.selectedPoint() >= 0);
        QVERIFY2(has("iso-reward line"), qPrintable(w.plot()->legendEntries().join(" | ")));
        QVERIFY(has("arrow"));
        QVERIFY(has("cone"));
        QVERIFY(has("baseline policies"));
        // Hidden glyphs leave the legend, shown ones come back.
        w.findChild<QCheckBox*>("arrows")->setChecked(false);
        QVERIFY(!has("arrow"));
        QVERIFY(has("cone"));
        w.findChild<QCheckBox*>("cones")->setChecked(false);
        QVERIFY(!has("cone"));
        w.findChild<QCheckBox*>("arrows")->setChecked(true);
        w.findChild<QCheckBox*>("cones")->setChecked(true);
        QVERIFY(has("arrow") && has("cone") && has("iso-reward line"));
    }

    void labelNeverCoversData_data() {
        QTest::addColumn<bool>("logX");
        QTest::addColumn<bool>("unpruned");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("expectInside"); // some λ has a free place in the axis rect
        QTest::newRow("log axis") << true << false << 1280 << true;
        QTest::newRow("log axis, unpruned shown") << true << true << 1280 << true;
        QTest::newRow("linear axis") << false << false << 1280 << true;
        QTest::newRow("log axis, narrow window") << true << false << 900 << false;
    }

    void labelNeverCoversData() {
        QFETCH(bool, logX);
        QFETCH(bool, unpruned);
        QFETCH(int, width);
        QFETCH(bool, expectInside);
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.resize(width, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.findChild<QCheckBox*>("logX")->setChecked(logX);
        w.findChild<QCheckBox*>("unpruned")->setChecked(unpruned);
        int inside = 0, title = 0;
        for (int pos = 0; pos <= widgets::LambdaSlider::kSteps; pos += 4) {
            w.slider()->slider()->setValue(pos);
            w.plot()->replot();
            if (w.selectedPoint() < 0) continue;
            const QRectF r = w.plot()->lambdaLabelRect();
            if (w.plot()->lambdaLabelInTitle()) {
                ++title;
                QVERIFY(r.isEmpty());
                continue;
            }
            ++inside;
            QVERIFY2(!r.isEmpty(), qPrintable(QString("λ = %1: no label").arg(w.lambda())));
            QVERIFY2(QRectF(w.plot()->axisRect()->rect()).contains(r),
                     "the label leaves the axis rect");
            const QString why = coverage(w, r);
            QVERIFY2(why.isEmpty(),
                     qPrintable(QString("λ = %1: the label (%2, %3, %4×%5) covers %6")
                                    .arg(w.lambda())
                                    .arg(r.x())
                                    .arg(r.y())
                                    .arg(r.width())
                                    .arg(r.height())
                                    .arg(why)));
        }
        if (expectInside)
            QVERIFY2(inside > 0, "the label never found a free place: the test checks nothing");
        QVERIFY(inside + title > 0);
        qInfo("%d λ values with the label inside the axis rect, %d with it in the title", inside,
              title);
    }

    void fullPlotMovesTheLabelToTheTitle() {
        // A plot too small for the label anywhere in its axis rect: the label becomes the title
        // row above it; a new λ in a large plot brings it back inside.
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        w.resize(1280, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* plot = w.plot();
        QVERIFY(w.selectedPoint() >= 0);
        QVERIFY(!plot->lambdaLabelInTitle());
        QCOMPARE(plot->plotLayout()->rowCount(), 1);
        QImage small = plot->toPixmap(300, 220).toImage(); // lays the plot out at 300×220
        QVERIFY(!small.isNull());
        QVERIFY(plot->lambdaLabelInTitle());
        QVERIFY(plot->lambdaLabelRect().isEmpty());
        QCOMPARE(plot->plotLayout()->rowCount(), 2);
        const double l = w.lambda();
        w.setLambda(l * 1.01);
        plot->replot();
        QVERIFY(!plot->lambdaLabelInTitle());
        QCOMPARE(plot->plotLayout()->rowCount(), 1);
        QVERIFY(coverage(w, plot->lambdaLabelRect()).isEmpty());
    }
};

PRUNESCOPE_QTEST_MAIN(TestFrontierPlotLabel)
#include "test_frontier_plot_label.moc"
