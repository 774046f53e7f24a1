// GUI test (offscreen) of what --benchmark-latency measures (issue 18): after a click on a cell
// and the frame that follows it (the posted layout and update requests only, as the benchmark
// does), the window on screen equals a fresh paint of the whole window pixel for pixel — the
// regions the click invalidated cover everything that changed (heat map, statistics, trees),
// after flips, undo and redo, under an incrementally presented quantity and a fully presented one,
// and while changes are revealed step by step.
#include "app/gui/window/MainWindow.h"
#include "support/ExplorerWindow.h"

#include "support/TestSuite.h"
#include <QMouseEvent>
#include <QScreen>
#include <QUndoStack>

#include <random>

using namespace prunescope;
using namespace prunescope::gui;

class TestExplorerFrame : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }
    int compared_ = 0;

    void click(int i, int k) {
        widgets::ChartHeatMap* h = ex()->heatMap();
        const QPointF pos = h->cellRect(i, k).center();
        const QPointF global = h->mapToGlobal(pos);
        QMouseEvent press(QEvent::MouseButtonPress, pos, global, Qt::LeftButton, Qt::LeftButton,
                          Qt::NoModifier);
        QApplication::sendEvent(h, &press);
        QMouseEvent release(QEvent::MouseButtonRelease, pos, global, Qt::LeftButton, Qt::NoButton,
                            Qt::NoModifier);
        QApplication::sendEvent(h, &release);
    }

    // The frame on screen (the offscreen platform's backing store) against a fresh whole-window
    // paint.
    void expectFrameComplete(const QString& what) {
        QCoreApplication::sendPostedEvents(); // the frame, as the benchmark measures it
        const QImage onScreen = win_->screen()
                                    ->grabWindow(win_->winId())
                                    .toImage()
                                    .convertToFormat(QImage::Format_RGB32);
        const QImage fresh = win_->grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(onScreen.size(), fresh.size());
        int differing = 0;
        QRect where;
        if (onScreen != fresh)
            for (int y = 0; y < fresh.height(); ++y)
                for (int x = 0; x < fresh.width(); ++x)
                    if (onScreen.pixel(x, y) != fresh.pixel(x, y))
                        ++differing, where |= QRect(x, y, 1, 1);
        QVERIFY2(differing == 0, qPrintable(QString("%1: %2 pixels differ in %3,%4 %5x%6")
                                                .arg(what)
                                                .arg(differing)
                                                .arg(where.x())
                                                .arg(where.y())
                                                .arg(where.width())
                                                .arg(where.height())));
        ++compared_;
    }

  private slots:
    void initTestCase() {
        QString error;
        win_ = testgui::shownMainWindow(1400, 900, false, error);
        QVERIFY2(win_, qPrintable(error));
        error = testgui::openDevSentence(*win_, 40);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        ex()->setAnimationMode(widgets::AnimationMode::Instant);
        QTest::qWait(50);
        QCOMPARE(ex()->session()->length(), 40);
    }

    void frameAfterClicksEqualsFullPaint() {
        const int n = ex()->session()->length();
        std::mt19937 rng(2017);
        expectFrameComplete("initial");
        for (Quantity q :
             {Quantity::KeepProbability, Quantity::InsideScore, Quantity::RecallContribution}) {
            ex()->setQuantity(q);
            expectFrameComplete(QString("quantity %1").arg(quantityName(q)));
            for (int f = 0; f < 6; ++f) {
                const int w = std::uniform_int_distribution<int>(2, n - 1)(rng);
                const int i = std::uniform_int_distribution<int>(0, n - w)(rng);
                click(i, i + w);
                expectFrameComplete(QString("%1, click %2 on (%3,%4)")
                                        .arg(quantityName(q))
                                        .arg(f)
                                        .arg(i)
                                        .arg(i + w));
                if (f % 3 == 2) {
                    ex()->undoStack()->undo();
                    expectFrameComplete(
                        QString("%1, undo after click %2").arg(quantityName(q)).arg(f));
                    ex()->undoStack()->redo();
                    expectFrameComplete(
                        QString("%1, redo after click %2").arg(quantityName(q)).arg(f));
                }
            }
        }
        QVERIFY(compared_ >= 3 * 11);
    }

    // The heat map repaints only changed cells and old and new change marks after a click: also
    // right while the changes are revealed step by step (unrevealed cells show their old values),
    // and for a run of short-span clicks, whose marks cover much of the chart.
    void frameAfterStepsAndShortSpans() {
        const int n = ex()->session()->length();
        ex()->setQuantity(Quantity::KeepProbability);
        ex()->setAnimationMode(widgets::AnimationMode::Step);
        expectFrameComplete("step mode");
        click(10, 13);
        expectFrameComplete("step mode, click on (10,13)");
        for (int s = 0; s < 3; ++s) {
            ex()->heatMap()->stepChanges();
            expectFrameComplete(QString("step %1").arg(s));
        }
        ex()->setAnimationMode(widgets::AnimationMode::Instant);
        expectFrameComplete("instant");
        for (int i = 0; i + 2 <= n && i < 12; i += 3) {
            click(i, i + 2);
            expectFrameComplete(QString("short span (%1,%2)").arg(i).arg(i + 2));
        }
    }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerFrame)
#include "test_explorer_frame.moc"
