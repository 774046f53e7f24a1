// The empirical-complexity window (issue 41, offscreen): File > Open Complexity Run… exists; a
// `prunescope-cli vine-complexity --out-json` file made here from WSJ dev sentences and the bundled
// model opens in it (also through the main window's File > Open, by its format) with one dot per
// sentence and one fitted line per series, the legend giving the exponents the file holds, each
// dot's tooltip its length, time and pushes; a bad file is refused at file:line and the plot stays.
#include "app/gui/dep/ComplexityWindow.h"
#include "app/gui/window/MainWindow.h"
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"
#include "widgets/ComplexityPlot.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QMenuBar>

#include <nlohmann/json.hpp>

using namespace prunescope;
using namespace prunescope::gui;

class TestComplexityWindow : public QObject {
    Q_OBJECT
    std::string dir_, run_;

  private slots:
    void initTestCase() {
        dir_ = testdata::tempDir("complexity-window");
        run_ = dir_ + "/run.json";
        const testdata::CliRun r = testdata::runCli(
            {"vine-complexity", "--model",
             QString::fromStdString(testdata::sourceDir() + "/samples/dep/model.json"),
             "--treebank", QString::fromStdString(testdata::depDir("dev")), "--max-sentences", "30",
             "--repeats", "1", "--length-vine", "3", "--out-json", QString::fromStdString(run_),
             "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void menuOffersIt() {
        MainWindow w(MainWindowOptions{false, false});
        bool found = false;
        for (QAction* m : w.menuBar()->actions())
            if (m->menu())
                for (QAction* a : m->menu()->actions())
                    found = found || a->text().remove('&') == "Open Complexity Run…";
        QVERIFY(found);
    }

    void plotHoldsTheRun() {
        QWidget parent;
        QString err;
        ComplexityWindow* w =
            ComplexityWindow::openFiles(&parent, {QString::fromStdString(run_)}, &err);
        QVERIFY2(w, qPrintable(err));
        widgets::ComplexityPlot* plot = w->plot();
        const auto j = nlohmann::json::parse(readFile(run_));
        QCOMPARE(plot->series().size(), std::size_t(2));
        QCOMPARE(plot->graphCount(), 4); // dots and fitted line of each series
        QCOMPARE(plot->graph(0)->dataCount(), 30);
        QCOMPARE(plot->graph(1)->dataCount(), 2);
        const double b = j["series"][0]["exponent"].get<double>();
        QVERIFY2(plot->graph(1)->name().contains("n^" + QString::number(b, 'f', 2)),
                 qPrintable(plot->graph(1)->name()));
        QVERIFY(plot->graph(3)->name().startsWith("length-vine"));
        w->resize(900, 640);
        plot->replot();
        const auto& p0 = j["series"][0]["points"][0];
        const QPointF px = plot->pointPixel(0, 0);
        QCOMPARE(plot->pointAt(px).first, 0);
        const QString tip = plot->pointDescription(0, 0);
        QVERIFY2(tip.contains(QString::number(p0[0].get<int>()) + " words") &&
                     tip.contains(QString::number(p0[2].get<long>()) + " pushes"),
                 qPrintable(tip));
        QVERIFY(w->note().startsWith("2 series"));
        const QString png = QString::fromStdString(dir_ + "/plot.png");
        QVERIFY2(plot->saveImage(png, 800, 600, &err), qPrintable(err));
        QVERIFY(QFile(png).size() > 1000);
        // a bad file: refused at file:line, the plot kept
        writeFileAtomically(dir_ + "/bad.json",
                            "{\"format\": \"prunescope-complexity\",\n \"series\": 3}\n");
        QVERIFY(!ComplexityWindow::openFiles(&parent, {QString::fromStdString(dir_ + "/bad.json")},
                                             &err));
        QVERIFY2(err.contains("bad.json:2"), qPrintable(err));
        QCOMPARE(plot->series().size(), std::size_t(2));
    }

    void mainWindowOpensItByFormat() {
        MainWindow w(MainWindowOptions{false, false});
        w.openFile(QString::fromStdString(run_));
        auto* cw = w.findChild<ComplexityWindow*>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(cw);
        QCOMPARE(cw->plot()->series().size(), std::size_t(2));
    }
};

PRUNESCOPE_QTEST_MAIN(TestComplexityWindow)
#include "test_complexity_window.moc"
