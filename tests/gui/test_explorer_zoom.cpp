// GUI test (offscreen) of zoom and fit (issue 18): the chart and both trees zoom with Ctrl + wheel
// and Ctrl+= / Ctrl+-, Ctrl+0 fits; the presentation font size enlarges chart and tree text; and a
// 40-word dev sentence fits a 1600×1000 window: the chart without any scrolling (also with the
// presentation font), each tree scrolling along at most one axis, cells big enough for a label.
#include "app/gui/window/MainWindow.h"
#include "support/ExplorerWindow.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QScrollBar>
#include <QWheelEvent>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

bool scrollsHorizontally(const widgets::ZoomArea* a) {
    return a->horizontalScrollBar()->maximum() > 0;
}
bool scrollsVertically(const widgets::ZoomArea* a) {
    return a->verticalScrollBar()->maximum() > 0;
}

void ctrlWheel(QWidget* target, QPoint at, int steps) {
    QWheelEvent e(QPointF(at), QPointF(target->mapToGlobal(at)), QPoint(), QPoint(0, 120 * steps),
                  Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &e);
}

} // namespace

class TestExplorerZoom : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

  private slots:
    void initTestCase() {
        QString error;
        win_ = testgui::shownMainWindow(1600, 1000, true, error);
        QVERIFY2(win_, qPrintable(error));
        win_->selectSentence(0);
        QCoreApplication::processEvents();
    }

    void chartFitsThenZoomsWithCtrlWheelAndKeys() {
        widgets::ZoomArea* area = ex()->chartZoom();
        QCOMPARE(area->zoom(), 1.0);
        QVERIFY(!scrollsHorizontally(area) && !scrollsVertically(area));
        const QSize fitted = ex()->heatMap()->size();
        // Ctrl + wheel over a cell (the event reaches the area through the view).
        ctrlWheel(ex()->heatMap(), ex()->heatMap()->cellRect(0, 2).center().toPoint(), 2);
        QVERIFY(area->zoom() > 1.5);
        QVERIFY(ex()->heatMap()->width() > fitted.width() * 1.5);
        QVERIFY(scrollsHorizontally(area) && scrollsVertically(area));
        // A wheel without Ctrl scrolls, it does not zoom.
        const double z = area->zoom();
        QWheelEvent plain(QPointF(50, 50), QPointF(ex()->heatMap()->mapToGlobal(QPoint(50, 50))),
                          QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(ex()->heatMap(), &plain);
        QCOMPARE(area->zoom(), z);
        // Ctrl+0 fits (the View menu's shortcut), Ctrl+= and Ctrl+- step.
        ex()->heatMap()->setFocus();
        QTest::keyClick(win_.get(), Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(area->zoom(), 1.0);
        QCOMPARE(ex()->heatMap()->size(), fitted);
        QTest::keyClick(win_.get(), Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(area->zoom(), widgets::ZoomArea::kStep);
        QTest::keyClick(win_.get(), Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(area->zoom(), 1.0);
    }

    void treesZoom() {
        widgets::TreeView* tree = ex()->predictedView();
        QVERIFY(tree->hasTree());
        const double before = tree->drawScale();
        ctrlWheel(tree, QPoint(tree->width() / 2, tree->height() / 2), 3);
        QVERIFY(ex()->predictedZoom()->zoom() > 1.9);
        QCoreApplication::processEvents();
        QVERIFY2(tree->drawScale() > before * 1.5,
                 qPrintable(QString("%1 -> %2").arg(before).arg(tree->drawScale())));
        // Keys act on the tree holding the focus; Ctrl+0 fits every view.
        tree->setFocusPolicy(Qt::StrongFocus);
        tree->setFocus();
        const double z = ex()->predictedZoom()->zoom();
        QTest::keyClick(win_.get(), Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(ex()->predictedZoom()->zoom(),
                 std::min(widgets::ZoomArea::kMaxZoom, z * widgets::ZoomArea::kStep));
        QCOMPARE(ex()->chartZoom()->zoom(), 1.0);
        QTest::keyClick(win_.get(), Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(ex()->predictedZoom()->zoom(), 1.0);
        QCoreApplication::processEvents();
        QCOMPARE(tree->drawScale(), before);
    }

    void presentationFontEnlargesText() {
        const double pt = ex()->heatMap()->font().pointSizeF();
        const int treeH = ex()->predictedView()->sizeHint().height();
        win_->presentationFontAction()->setChecked(true);
        QVERIFY(ex()->presentationFont());
        QCOMPARE(ex()->heatMap()->font().pointSizeF(), QApplication::font().pointSizeF() * 1.6);
        QVERIFY(ex()->heatMap()->font().pointSizeF() > pt * 1.5);
        QVERIFY(ex()->predictedView()->sizeHint().height() > treeH);
        win_->presentationFontAction()->setChecked(false);
        QCOMPARE(ex()->heatMap()->font().pointSizeF(), pt);
        QCOMPARE(ex()->predictedView()->sizeHint().height(), treeH);
    }

    // The acceptance check: a 40-word sentence of ptb-sample/dev on a 1600×1000 window.
    void fortyWordSentenceIsReadableWithoutScrollingBothAxes() {
        const QString error = testgui::openDevSentence(*win_, 40);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(ex()->session()->length(), 40);
        for (bool presentation : {false, true}) {
            win_->presentationFontAction()->setChecked(presentation);
            QCoreApplication::processEvents();
            widgets::ZoomArea* chart = ex()->chartZoom();
            QVERIFY(!scrollsHorizontally(chart) && !scrollsVertically(chart));
            const QRectF cell = ex()->heatMap()->cellRect(0, 1);
            QVERIFY2(cell.width() >= 22 && cell.height() >= 14,
                     qPrintable(QString("cell %1×%2").arg(cell.width()).arg(cell.height())));
            // The whole triangle is inside the visible chart.
            QVERIFY(
                ex()->heatMap()->rect().contains(ex()->heatMap()->cellRect(0, 40).toAlignedRect()));
            QVERIFY(ex()->heatMap()->rect().contains(
                ex()->heatMap()->cellRect(39, 40).toAlignedRect()));
            // With the presentation font a 40-word tree does not fit 1600×1000 along one axis (a
            // known limit, docs/user-guide.md): the trees are checked at the normal font.
            if (presentation) continue;
            for (widgets::ZoomArea* tree : {ex()->predictedZoom(), ex()->goldZoom()})
                QVERIFY2(!(scrollsHorizontally(tree) && scrollsVertically(tree)),
                         qPrintable(
                             QString("a tree scrolls along both axes (presentation font %1, view "
                                     "%2×%3 in %4×%5, scale %6)")
                                 .arg(presentation)
                                 .arg(tree->view()->width())
                                 .arg(tree->view()->height())
                                 .arg(tree->viewport()->width())
                                 .arg(tree->viewport()->height())
                                 .arg(static_cast<widgets::TreeView*>(tree->view())->drawScale())));
        }
        win_->presentationFontAction()->setChecked(false);
    }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerZoom)
#include "test_explorer_zoom.moc"
