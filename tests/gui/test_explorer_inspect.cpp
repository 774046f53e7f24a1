// GUI test (offscreen) of the explorer's Inspect action (issue 42, "a non-destructive Inspect
// action ... beside the flip that a click does"): right-click, I and Edit ▸ Inspect Cell open the
// inspector on a cell without touching the mask or the undo history; its rows are the core
// inspection of the session's chart; it follows flips; a left click still flips. On the bundled
// sample and on a WSJ dev file.
#include "app/gui/explorer/CellInspector.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/window/MainWindow.h"
#include "support/ExplorerWindow.h"
#include "support/TestData.h"
#include "widgets/ChartHeatMap.h"
#include "widgets/TreeView.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QUndoStack>

using namespace prunescope;
using namespace prunescope::gui;

class TestExplorerInspect : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

    // The inspector shows exactly inspectCell(session chart, i, k).
    void checkShows(int i, int k) {
        CellInspector* in = ex()->cellInspector();
        QVERIFY(in && in->isVisible());
        QCOMPARE(in->cellI(), i);
        QCOMPARE(in->cellK(), k);
        const SentenceSession& s = *ex()->session();
        const CellInspection c = inspectCell(s.grammar(), s.chart(), s.words(), i, k);
        QCOMPARE(in->table()->rowCount(), static_cast<int>(c.labels.size()));
        for (int r = 0; r < in->table()->rowCount(); ++r) {
            const CellLabel& l = c.labels[static_cast<std::size_t>(r)];
            QCOMPARE(in->table()->item(r, 0)->text(), QString::fromStdString(l.label));
            QCOMPARE(in->table()->item(r, 1)->text(), QString::fromStdString(l.name));
            QCOMPARE(in->table()->item(r, 2)->text(), QString::number(l.post, 'f', 3));
            QCOMPARE(!in->table()->item(r, 3)->text().isEmpty(), l.onBest);
        }
        QCOMPARE(in->inspection().bestSubtree.toString(), c.bestSubtree.toString());
        QVERIFY(in->headingText().startsWith(QString("(%1,%2) ").arg(i).arg(k)));
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QString error;
        win_ = testgui::shownMainWindow(1400, 900, false, error);
        QVERIFY2(win_, qPrintable(error));
        win_->selectSentence(1);
    }

    void rightClickInspectsWithoutFlipping() {
        const PruningMask before = ex()->session()->mask();
        const int undoCount = ex()->undoStack()->count();
        auto* heat = ex()->heatMap();
        const int n = ex()->session()->length();
        QVERIFY(n >= 4);
        QTest::mouseClick(heat, Qt::RightButton, {}, heat->cellRect(0, 2).center().toPoint());
        checkShows(0, 2);
        QCOMPARE(heat->focusCell(), std::make_pair(0, 2));
        QVERIFY(ex()->session()->mask() == before); // nothing flipped
        QCOMPARE(ex()->undoStack()->count(), undoCount);
        QVERIFY(ex()->cellInspector()->table()->rowCount() > 0);
        QVERIFY(ex()->cellInspector()->inspection().onBestParse() ==
                ex()->session()->isBestSpan(0, 2));
    }

    void keyAndMenuInspectTheFocusedCell() {
        auto* heat = ex()->heatMap();
        const int n = ex()->session()->length();
        heat->setFocus();
        heat->setFocusCell(1, 3);
        QTest::keyClick(heat, Qt::Key_I);
        checkShows(1, 3);
        heat->setFocusCell(0, n);
        QCOMPARE(ex()->inspectAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_I));
        ex()->inspectAction()->trigger();
        checkShows(0, n);
        QVERIFY(!ex()->cellInspector()->inspection().labels.empty());
    }

    void followsFlipsAndLeftClickStillFlips() {
        auto* heat = ex()->heatMap();
        ex()->inspectCell(0, 3);
        checkShows(0, 3);
        const bool kept = ex()->session()->mask().keep(0, 3);
        QTest::mouseClick(heat, Qt::LeftButton, {}, heat->cellRect(0, 3).center().toPoint());
        QCOMPARE(ex()->session()->mask().keep(0, 3), !kept); // a click flips, as before
        checkShows(0, 3);                                    // the inspector shows the new chart
        if (kept) {                                          // now pruned: nothing is built there
            QCOMPARE(ex()->cellInspector()->table()->rowCount(), 0);
        }
        ex()->undoStack()->undo();
        QCOMPARE(ex()->session()->mask().keep(0, 3), kept);
        checkShows(0, 3);
    }

    void worksOnAWsjDevFile() {
        const QString file = QString::fromStdString(testdata::ptbDir("dev")) + "/wsj_0130.mrg";
        QVERIFY(win_->openFileSync(file));
        const int n = ex()->session()->length();
        QVERIFY(n >= 3);
        ex()->inspectCell(0, n);
        checkShows(0, n);
        ex()->inspectCell(n - 2, n);
        checkShows(n - 2, n);
    }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerInspect)
#include "test_explorer_inspect.moc"
