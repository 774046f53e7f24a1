// GUI test (offscreen) of the incremental cell presentation (issue 18, latency): on a 40-word
// ptb-sample/dev sentence, after each flip presentCellsAfterFlip (only the cells with post-layer
// change events are read again) equals presentCells of the whole chart, cell for cell, for every
// colour quantity and both label modes; and the explorer's heat map, whose flips use it, shows
// exactly presentCells' cells after flips, undo and redo.
#include "app/gui/window/MainWindow.h"
#include "support/ExplorerWindow.h"

#include "support/TestSuite.h"
#include <QUndoStack>

#include <cmath>
#include <random>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

// Cells equal as the heat map shows them: value (NaN equals NaN), label, markers.
bool sameCell(const widgets::HeatCell& a, const widgets::HeatCell& b) {
    const bool values = a.value == b.value || (std::isnan(a.value) && std::isnan(b.value));
    return values && a.label == b.label && a.kept == b.kept && a.gold == b.gold && a.best == b.best;
}

QString compare(const CellPresentation& got, const CellPresentation& want, int n) {
    if (got.cells.size() != want.cells.size()) return QStringLiteral("cell count differs");
    for (int i = 0; i < n; ++i)
        for (int k = i + 1; k <= n; ++k) {
            const std::size_t idx = static_cast<std::size_t>(i) * (n + 1) + k;
            if (!sameCell(got.cells[idx], want.cells[idx]))
                return QStringLiteral("cell (%1,%2): %3 %4 vs %5 %6")
                    .arg(i)
                    .arg(k)
                    .arg(got.cells[idx].value)
                    .arg(got.cells[idx].label)
                    .arg(want.cells[idx].value)
                    .arg(want.cells[idx].label);
        }
    if (got.lo != want.lo || got.hi != want.hi || got.title != want.title ||
        got.decimals != want.decimals)
        return QStringLiteral("scale differs");
    return {};
}

} // namespace

class TestExplorerPresent : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

  private slots:
    void initTestCase() {
        QString error;
        win_ = testgui::shownMainWindow(1400, 900, false, error);
        QVERIFY2(win_, qPrintable(error));
        error = testgui::openDevSentence(*win_, 40);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(ex()->session()->length(), 40);
    }

    // Directly on the session: before → flip → incremental vs full, every quantity, both label
    // modes.
    void incrementalEqualsFull() {
        SentenceSession* s = ex()->session();
        const int n = s->length();
        std::mt19937 rng(2018);
        int incremental = 0, eventsSeen = 0;
        for (bool binarized : {false, true})
            for (Quantity q : kAllQuantities)
                for (int f = 0; f < 12; ++f) {
                    const int w = std::uniform_int_distribution<int>(2, n - 1)(rng);
                    const int i = std::uniform_int_distribution<int>(0, n - w)(rng);
                    CellPresentation before = presentCells(*s, q, binarized);
                    s->flip(i, i + w);
                    eventsSeen += !s->lastEvents().empty();
                    const CellPresentation got =
                        presentCellsAfterFlip(*s, q, binarized, before.cells, i, i + w);
                    const CellPresentation want = presentCells(*s, q, binarized);
                    const QString diff = compare(got, want, n);
                    QVERIFY2(diff.isEmpty(),
                             qPrintable(QString("%1, binarized %2, flip %3 of (%4,%5): %6")
                                            .arg(quantityName(q))
                                            .arg(binarized)
                                            .arg(f)
                                            .arg(i)
                                            .arg(i + w)
                                            .arg(diff)));
                    incremental += presentsIncrementally(q);
                    if (f % 3 == 2) s->undoFlip(i, i + w); // also flips that undo an earlier state
                }
        QVERIFY(incremental >= 3 * 12 * 2);
        QVERIFY(eventsSeen > 0); // flips changed the chart (else the comparison proves little)
    }

    // Through the explorer (which keeps the last presentation): after flips, undo and redo, the
    // heat map holds presentCells' cells.
    void explorerShowsFullPresentation() {
        ex()->setAnimationMode(widgets::AnimationMode::Instant);
        ex()->setQuantity(Quantity::InsideScore);
        SentenceSession* s = ex()->session();
        const int n = s->length();
        std::mt19937 rng(2019);
        auto check = [&](const QString& what) {
            const CellPresentation want =
                presentCells(*s, Quantity::InsideScore, ex()->showBinarizedSymbols());
            for (int i = 0; i < n; ++i)
                for (int k = i + 1; k <= n; ++k)
                    QVERIFY2(sameCell(ex()->heatMap()->cell(i, k),
                                      want.cells[static_cast<std::size_t>(i) * (n + 1) + k]),
                             qPrintable(QString("%1: cell (%2,%3)").arg(what).arg(i).arg(k)));
        };
        for (int f = 0; f < 15; ++f) {
            const int w = std::uniform_int_distribution<int>(2, n - 1)(rng);
            const int i = std::uniform_int_distribution<int>(0, n - w)(rng);
            QVERIFY(ex()->requestFlip(i, i + w));
            check(QString("flip %1").arg(f));
            if (f % 4 == 3) {
                ex()->undoStack()->undo();
                check(QString("undo after flip %1").arg(f));
                ex()->undoStack()->redo();
                check(QString("redo after flip %1").arg(f));
            }
        }
        ex()->setQuantity(Quantity::KeepProbability);
    }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerPresent)
#include "test_explorer_present.moc"
