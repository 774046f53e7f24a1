// GUI tests of the cube-pruning explorer (offscreen; Zhang et al. 2013 sec. 2): the chart shows
// what the core computes (gold ranks, s-max node, p-max frontier — the same as `cube-parse
// --explain`), clicking a cell lists its beam, "Apply update" performs exactly core's perceptron
// step and lowers the violation of the pairs it fixes, reset restores the model; the bundled sample
// opens; the main window's View menu reaches the explorer.
#include "app/gui/cube/CubeExplorerWindow.h"
#include "app/gui/window/MainWindow.h"
#include "core/cube/CubeExplain.h"
#include "core/cube/CubeTraining.h"
#include "core/dep/DepReader.h"
#include "support/TestData.h"
#include "widgets/CubeChartView.h"
#include "widgets/CubeTreeView.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTextBrowser>

#include <fstream>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

// A small model trained by the core on short training sentences (about a second).
const std::string& tinyModelPath() {
    static const std::string path = [] {
        std::vector<DepSentence> train, dev;
        for (auto& s : readDepTreebank(testdata::depDir("train")))
            if (s.size() <= 15 && train.size() < 200) train.push_back(std::move(s));
        for (auto& s : readDepTreebank(testdata::depDir("dev")))
            if (s.size() <= 15 && dev.size() < 10) dev.push_back(std::move(s));
        CubeTrainOptions o;
        o.beam = 2;
        o.epochs = 1;
        o.hashBits = 16;
        const std::string p = testdata::tempDir("cube-gui") + "/model.json";
        saveCubeModel(trainCubeModel(train, dev, o).model, p);
        return p;
    }();
    return path;
}

QString sampleSentences() {
    return QString::fromStdString(testdata::sourceDir() + "/samples/cube/sentences.dp");
}

} // namespace

class TestCubeExplorer : public QObject {
    Q_OBJECT
  private slots:
    void showsWhatTheCoreComputes() {
        CubeExplorerWindow w(nullptr, false);
        w.resize(1300, 850);
        w.show();
        QString err;
        QVERIFY2(w.openSentences(sampleSentences(), &err), qPrintable(err));
        QVERIFY2(w.openModelSync(QString::fromStdString(tinyModelPath()), &err), qPrintable(err));
        QVERIFY(w.session().ready());
        const CubeModel model = loadCubeModel(tinyModelPath());
        const auto sentences = readDepTreebank(sampleSentences().toStdString());
        for (int k : {1, 3}) {
            w.setBeam(k);
            for (int i = 0; i < static_cast<int>(sentences.size()); ++i) {
                w.selectSentence(i);
                // the same analysis, computed directly
                CubeOptions o;
                o.beam = k;
                CubePruner pruner(o);
                const CubeScorer sc(model.weights, sentences[static_cast<std::size_t>(i)],
                                    model.features);
                const CubeParse p = pruner.parse(sc);
                const GoldDerivation g =
                    goldDerivation(pruner, sc, sentences[static_cast<std::size_t>(i)].heads);
                const nlohmann::json explain =
                    explainCubeUpdate(pruner.chart(), sc, g, CubeUpdateStrategy::PMax);
                QCOMPARE(w.session().parse().heads, p.heads);
                QCOMPARE(
                    w.treeView()->wrongArcs(),
                    static_cast<int>(
                        scoreAttachment(sentences[static_cast<std::size_t>(i)], p.heads).tokens -
                        scoreAttachment(sentences[static_cast<std::size_t>(i)], p.heads).correct));
                // gold table = explain's gold nodes
                QCOMPARE(w.goldTable()->rowCount(), static_cast<int>(explain["gold"].size()));
                for (int r = 0; r < w.goldTable()->rowCount(); ++r) {
                    QCOMPARE(
                        w.goldTable()->item(r, 0)->text().toStdString(),
                        explain["gold"][static_cast<std::size_t>(r)]["cell"].get<std::string>());
                    const int rank =
                        explain["gold"][static_cast<std::size_t>(r)]["rank"].get<int>();
                    QCOMPARE(w.goldTable()->item(r, 1)->text(),
                             rank < 0 ? QStringLiteral("fell off") : QString::number(rank + 1));
                }
                // chart marks: s-max and frontier cells
                const auto* chart = w.chartView();
                const int smaxCell = g.nodes[explain["smax"].get<std::size_t>()].cellId;
                std::vector<int> frontierCells;
                for (int f : explain["frontier"])
                    frontierCells.push_back(g.nodes[static_cast<std::size_t>(f)].cellId);
                for (int c = 0; c < pruner.chart().numCells(); ++c) {
                    QCOMPARE(chart->cellView(c).smax, c == smaxCell);
                    QCOMPARE(chart->cellView(c).frontier,
                             std::find(frontierCells.begin(), frontierCells.end(), c) !=
                                 frontierCells.end());
                    QCOMPARE(chart->cellView(c).items,
                             static_cast<int>(pruner.chart().beamOf(c).size()));
                    const int node = g.nodeOfCell(c);
                    QCOMPARE(chart->cellView(c).goldRank,
                             node < 0 ? widgets::CubeCellView::kNotGold
                                      : g.nodes[static_cast<std::size_t>(node)].rank);
                }
                // brackets under the tree: one s-max plus the frontier
                QCOMPARE(w.treeView()->brackets().size(), frontierCells.size() + 1);
            }
        }
    }

    void clickingACellListsItsBeam() {
        CubeExplorerWindow w(nullptr, false);
        w.resize(1300, 850);
        w.show();
        QVERIFY(w.openSentences(sampleSentences()));
        QVERIFY(w.openModelSync(QString::fromStdString(tinyModelPath())));
        w.setBeam(3);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* chart = w.chartView();
        const CubeChart& ch = w.session().chart();
        int checked = 0, fellOffRows = 0;
        for (const GoldNode& node : w.session().gold().nodes) {
            const QRectF r = chart->cellRect(node.cellId);
            QVERIFY(!r.isEmpty());
            QTest::mouseClick(chart, Qt::LeftButton, {}, r.center().toPoint());
            QCOMPARE(chart->selectedCell(), node.cellId);
            const int beam = static_cast<int>(ch.beamOf(node.cellId).size());
            QCOMPARE(w.beamTable()->rowCount(), beam + (node.fellOff() ? 1 : 0));
            if (node.rank >= 0)
                QCOMPARE(w.beamTable()->item(node.rank, 3)->text(), QStringLiteral("gold"));
            if (node.fellOff()) {
                ++fellOffRows;
                QVERIFY(w.beamTable()->item(beam, 3)->text().contains("fell off"));
            }
            QCOMPARE(w.beamTable()->item(0, 1)->text(),
                     QString::number(static_cast<double>(ch.beamOf(node.cellId)[0].score), 'f', 3));
            ++checked;
        }
        QVERIFY(checked > 20);
        // Every existing cell is hit by its own rectangle.
        for (int c = 0; c < ch.numCells(); ++c)
            if (const QRectF r = chart->cellRect(c); !r.isEmpty())
                QCOMPARE(chart->cellAt(r.center()).value_or(-1), c);
        Q_UNUSED(fellOffRows);
    }

    void applyUpdateIsCorePerceptronStep() {
        CubeExplorerWindow w(nullptr, false);
        w.show();
        QVERIFY(w.openSentences(sampleSentences()));
        QVERIFY(w.openModelSync(QString::fromStdString(tinyModelPath())));
        w.setBeam(1);
        int applied = 0;
        for (auto s : {CubeUpdateStrategy::Standard, CubeUpdateStrategy::Skip,
                       CubeUpdateStrategy::SMax, CubeUpdateStrategy::PMax}) {
            w.setStrategy(s);
            for (int i = 0; i < static_cast<int>(w.session().sentences().size()); ++i) {
                w.selectSentence(i);
                if (!w.session().choice().update) {
                    QVERIFY(!w.applyUpdate());
                    continue;
                }
                HashedWeights expect = w.session().weights();
                applyCubeUpdate(expect, w.session().pairs());
                const double before = w.session().choice().violation;
                QVERIFY(w.applyUpdate());
                QCOMPARE(w.session().weights().w, expect.w);
                QVERIFY(w.updateView()->toPlainText().contains("Applied update"));
                // the same subtree pairs now violate less (the update moved toward gold)
                const QString text = w.updateView()->toPlainText();
                QVERIFY2(before >= 0 || s == CubeUpdateStrategy::Standard, qPrintable(text));
                ++applied;
                break;
            }
        }
        QVERIFY(applied >= 3);
        QVERIFY(w.session().updatesApplied() == applied);
        w.resetWeights();
        QCOMPARE(w.session().updatesApplied(), 0);
        QCOMPARE(w.session().weights().w, loadCubeModel(tinyModelPath()).weights.w);
    }

    void stepsLowerTheViolationOfTheUpdatedPairs() {
        CubeSession session;
        session.setSentences(readDepTreebank(sampleSentences().toStdString()));
        session.setModel(std::make_shared<const CubeModel>(loadCubeModel(tinyModelPath())));
        session.setBeam(2);
        session.setStrategy(CubeUpdateStrategy::SMax);
        int steps = 0;
        for (int i = 0; i < static_cast<int>(session.sentences().size()); ++i) {
            session.select(i);
            while (session.choice().update && steps < 40) {
                const auto r = session.applyUpdate();
                QVERIFY(r.has_value());
                QVERIFY2(r->after < r->before,
                         qPrintable(QString("%1 -> %2").arg(r->before).arg(r->after)));
                ++steps;
            }
        }
        QVERIFY(steps > 0);
    }

    void bundledSampleOpens() {
        if (defaultCubeModelPath().isEmpty()) QSKIP("no bundled cube model");
        CubeExplorerWindow w(nullptr, true);
        QSignalSpy spy(&w, &CubeExplorerWindow::loaded);
        QVERIFY(spy.wait(60000));
        QCOMPARE(spy.first().at(0).toBool(), true);
        QVERIFY(w.session().ready());
        QCOMPARE(static_cast<int>(w.session().sentences().size()), 12);
        QVERIFY(w.statusText().contains("UAS"));
    }

    void badModelSaysWhy() {
        CubeExplorerWindow w(nullptr, false);
        const std::string dir = testdata::tempDir("cube-gui-bad");
        {
            std::ofstream f(dir + "/bad.json");
            f << "{\"format\": \"prunescope-cube-model\", \"version\": 7}";
        }
        QString err;
        QVERIFY(!w.openModelSync(QString::fromStdString(dir + "/bad.json"), &err));
        QVERIFY2(err.contains("bad.json") && err.contains("version"), qPrintable(err));
        QVERIFY(!w.openSentences(QString::fromStdString(dir + "/missing.dp"), &err));
        QVERIFY(!w.session().ready());
    }

    void reachableFromTheMainWindow() {
        MainWindow main(MainWindowOptions{false, false});
        QAction* open = nullptr;
        for (QAction* a : main.menuBar()->findChildren<QAction*>())
            if (a->text().contains("Cube Pruning Explorer")) open = a;
        QVERIFY(open);
        open->trigger();
        auto* w = main.findChild<CubeExplorerWindow*>();
        QVERIFY(w);
        QVERIFY(w->isVisible());
        open->trigger(); // the same window again
        QCOMPARE(main.findChildren<CubeExplorerWindow*>().size(), qsizetype(1));
        if (w->isLoading()) QSignalSpy(w, &CubeExplorerWindow::loaded).wait(60000);
    }
};

PRUNESCOPE_QTEST_MAIN(TestCubeExplorer)
#include "test_cube_explorer.moc"
