// The dependency frontier window (issue 13, offscreen): File > Open Dependency Frontier… exists in
// the main window; on dep-eval outputs made here by prunescope-cli from a dev file and the bundled
// model, the plot holds one graph per series and one point per run, each point's tooltip gives its
// name, model, UAS and tokens/s as in the file; series from different models are said to be; a bad
// file is refused with its name and the previous plot stays.
#include "app/gui/dep/DepFrontierWindow.h"
#include "app/gui/window/MainWindow.h"
#include "core/frontier/DepFrontier.h"
#include "core/util/AtomicFile.h"
#include "support/TestData.h"
#include "widgets/DepFrontierPlot.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QMenuBar>
#include <QProcess>

#include <filesystem>
#include <nlohmann/json.hpp>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

// prunescope-cli dep-eval --json on the first dev file; "" if the binary is missing.
std::string depEvalJson(const QStringList& extra) {
    const QString cli = QString::fromStdString(testdata::binaryDir()) + "/app/prunescope-cli";
    if (!QFile::exists(cli)) return "";
    std::vector<std::filesystem::path> dev;
    for (const auto& e : std::filesystem::directory_iterator(testdata::depDir("dev")))
        dev.push_back(e.path());
    std::sort(dev.begin(), dev.end());
    QProcess p;
    p.start(cli,
            QStringList{"dep-eval", "--model",
                        QString::fromStdString(testdata::sourceDir() + "/samples/dep/model.json"),
                        "--treebank", QString::fromStdString(dev.front().string()), "--json",
                        "--quiet"} +
                extra);
    p.waitForFinished(600000);
    return p.exitCode() == 0 ? p.readAllStandardOutput().toStdString() : "";
}

} // namespace

class TestDepFrontierGui : public QObject {
    Q_OBJECT
    std::string dir_, none_, vine_;

  private slots:
    void initTestCase() {
        dir_ = testdata::tempDir("dep-frontier-gui");
        const std::string a = depEvalJson({}), b = depEvalJson({"--length-vine", "2"});
        if (a.empty() || b.empty()) QSKIP("prunescope-cli not built");
        none_ = dir_ + "/exhaustive.json";
        vine_ = dir_ + "/length-vine.json";
        writeFileAtomically(none_, a);
        writeFileAtomically(vine_, b);
    }

    void menuOffersTheFrontier() {
        MainWindow w(MainWindowOptions{false, false});
        bool found = false;
        for (QAction* m : w.menuBar()->actions())
            if (m->menu())
                for (QAction* a : m->menu()->actions())
                    found = found || a->text().remove('&') == "Open Dependency Frontier…";
        QVERIFY(found);
    }

    void plotHoldsEveryRun() {
        QWidget parent;
        QString err;
        DepFrontierWindow* w = DepFrontierWindow::openFiles(
            &parent, {QString::fromStdString(vine_), QString::fromStdString(none_)}, &err);
        QVERIFY2(w, qPrintable(err));
        auto* plot = w->plot();
        QCOMPARE(plot->seriesCount(), 2); // pruned (the length vine) and its model's exhaustive run
        QCOMPARE(plot->graphCount(), 2);
        QCOMPARE(plot->pointCount(), 2);
        QCOMPARE(plot->graph(0)->dataCount(), 1);
        QCOMPARE(plot->graph(1)->dataCount(), 1);
        QVERIFY(plot->graph(0)->name().contains("model.json (order 1)"));
        w->resize(900, 640);
        plot->replot();
        const auto j = nlohmann::json::parse(readFile(vine_));
        const QPointF px = plot->pointPixel(0, 0);
        QCOMPARE(plot->pointAt(px), std::make_pair(0, 0));
        const QString tip = plot->pointDescription(0, 0);
        QVERIFY2(tip.contains("length-vine") &&
                     tip.contains(QString::number(j["uas"].get<double>(), 'f', 2)) &&
                     tip.contains(QString::number(j["tokensPerSecond"].get<double>(), 'f', 0)) &&
                     tip.contains("model.json"),
                 qPrintable(tip));
        QVERIFY(!w->modelNote().contains("different"));
        // the same window, reopened with a bad file: refused, named, the plot kept
        writeFileAtomically(dir_ + "/bad.json", "{\"stages\": [],\n \"uas\": \"high\"}\n");
        QVERIFY(!DepFrontierWindow::openFiles(&parent, {QString::fromStdString(dir_ + "/bad.json")},
                                              &err));
        QVERIFY2(err.contains("bad.json:"), qPrintable(err));
        QCOMPARE(plot->pointCount(), 2);
    }

    void seriesOfTwoModelsAreSaidToBe() {
        DepFrontier f;
        f.title = "two models";
        f.series.push_back({"sweep",
                            "a.json",
                            "#1f77b4",
                            DepFrontierStyle::Sweep,
                            {{"α=0", 90, 7000, 0.9, false}, {"α=0.5", 89, 9000, 0.5, true}}});
        f.series.push_back({"ex",
                            "a.json",
                            "#1f77b4",
                            DepFrontierStyle::Reference,
                            {{"exhaustive", 90.4, 3700, 1, false}}});
        f.series.push_back({"filters",
                            "b.json",
                            "#d62728",
                            DepFrontierStyle::Points,
                            {{"joint", 91, 17000, 0.3, false}}});
        f.series.push_back({"ex",
                            "b.json",
                            "#d62728",
                            DepFrontierStyle::Reference,
                            {{"exhaustive", 90.9, 4000, 1, false}}});
        saveDepFrontier(f, dir_ + "/combined.json");
        QWidget parent;
        QString err;
        DepFrontierWindow* w = DepFrontierWindow::openFiles(
            &parent, {QString::fromStdString(dir_ + "/combined.json")}, &err);
        QVERIFY2(w, qPrintable(err));
        QCOMPARE(w->plot()->seriesCount(), 4);
        QCOMPARE(w->plot()->pointCount(), 5);
        QCOMPARE(w->plot()->graph(0)->lineStyle(), QCPGraph::lsLine);
        QCOMPARE(w->plot()->graph(2)->lineStyle(), QCPGraph::lsNone);
        QVERIFY(w->modelNote().contains("2 different final models"));
        const QString png = QString::fromStdString(dir_ + "/plot.png");
        QVERIFY2(w->plot()->saveImage(png, 800, 600, &err), qPrintable(err));
        QCOMPARE(QImage(png).size(), QSize(800, 600));
    }
};

PRUNESCOPE_QTEST_MAIN(TestDepFrontierGui)
#include "test_dep_frontier_gui.moc"
