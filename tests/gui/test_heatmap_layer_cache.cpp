// GUI test (offscreen) of the heat map's static layer cache (issue 18, latency): on a 40-word
// ptb-sample/dev sentence, after each flip, undo, redo, step of the change animation, colour
// quantity and colour map change, the widget painted from its incrementally updated cache equals
// a direct paint of every layer pixel for pixel; flips repaint only some cells into the cache.
#include "app/gui/window/MainWindow.h"
#include "support/ExplorerWindow.h"

#include "support/TestSuite.h"
#include <QUndoStack>

#include <random>

using namespace prunescope;
using namespace prunescope::gui;

class TestHeatmapLayerCache : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }
    widgets::ChartHeatMap* heat() { return ex()->heatMap(); }
    int incremental_ = 0; // comparisons after a refresh that repainted some but not all cells
    int compared_ = 0;

    // Paints from the cache (first: no events processed since the change, so this paint refreshes
    // the cache), then directly with the cache bypassed; the two images must be equal.
    void expectCacheEqualsDirect(const QString& what) {
        const QImage cached = heat()->grab().toImage();
        const int n = heat()->length();
        const int repainted = heat()->lastLayerRepaintCells();
        if (repainted > 0 && repainted < n * (n + 1) / 2) ++incremental_;
        heat()->setLayerCacheEnabled(false);
        const QImage direct = heat()->grab().toImage();
        heat()->setLayerCacheEnabled(true);
        QCOMPARE(cached.size(), direct.size());
        int differing = 0;
        if (cached != direct)
            for (int y = 0; y < cached.height(); ++y)
                for (int x = 0; x < cached.width(); ++x)
                    differing += cached.pixel(x, y) != direct.pixel(x, y);
        QVERIFY2(differing == 0,
                 qPrintable(QString("%1: %2 pixels differ (%3 cells repainted into the cache)")
                                .arg(what)
                                .arg(differing)
                                .arg(repainted)));
        ++compared_;
    }

    void flipSome(std::mt19937& rng, int count, const QString& what) {
        const int n = heat()->length();
        for (int f = 0; f < count; ++f) {
            const int w = std::uniform_int_distribution<int>(2, n - 1)(rng);
            const int i = std::uniform_int_distribution<int>(0, n - w)(rng);
            QVERIFY(ex()->requestFlip(i, i + w));
            expectCacheEqualsDirect(
                QString("%1, flip %2 of (%3,%4)").arg(what).arg(f).arg(i).arg(i + w));
        }
    }

  private slots:
    void initTestCase() {
        QString error;
        win_ = testgui::shownMainWindow(1400, 900, false, error);
        QVERIFY2(win_, qPrintable(error));
        error = testgui::openDevSentence(*win_, 40);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(ex()->session()->length(), 40);
        QVERIFY(heat()->layerCacheEnabled());
    }

    void cacheEqualsDirectPaintThroughEdits() {
        std::mt19937 rng(18);
        ex()->setAnimationMode(widgets::AnimationMode::Instant);
        expectCacheEqualsDirect("initial");
        flipSome(rng, 8, "instant");
        for (int u = 0; u < 3; ++u) {
            ex()->undoStack()->undo();
            expectCacheEqualsDirect(QString("undo %1").arg(u));
        }
        ex()->undoStack()->redo();
        expectCacheEqualsDirect("redo");
        // Step mode: cells not yet revealed show their value before the flip.
        ex()->setAnimationMode(widgets::AnimationMode::Step);
        flipSome(rng, 2, "step");
        for (int s = 0; s < 4; ++s) {
            heat()->stepChanges();
            expectCacheEqualsDirect(QString("step %1").arg(s));
        }
        heat()->finishChanges();
        expectCacheEqualsDirect("finished");
        ex()->setAnimationMode(widgets::AnimationMode::Instant);
        // Every colour quantity (new scale, labels and decimals), flips under each.
        for (Quantity q : kAllQuantities) {
            ex()->setQuantity(q);
            expectCacheEqualsDirect("quantity " + quantityName(q));
            flipSome(rng, 2, quantityName(q));
        }
        // The scale alone (same cells): every colour changes.
        heat()->setScale(-0.5, 2.0, "scale", 3);
        expectCacheEqualsDirect("scale");
        heat()->setScale(-1.0, 3.0, "scale", 3); // same legend text, no new layout
        expectCacheEqualsDirect("scale range");
        ex()->setColorMap(widgets::ColorMapKind::Cividis);
        expectCacheEqualsDirect("colour map");
        flipSome(rng, 2, "after colour map");
        // Screen paints between changes keep the cache in step too.
        QCoreApplication::processEvents();
        flipSome(rng, 2, "after a screen paint");
        QVERIFY2(
            incremental_ >= 5,
            qPrintable(
                QString("only %1 of %2 paints were incremental").arg(incremental_).arg(compared_)));
    }

    // A resize and a font change lay the chart out anew: the cache follows.
    void cacheFollowsResizeAndFont() {
        win_->resize(1200, 800);
        QCoreApplication::processEvents();
        expectCacheEqualsDirect("resized");
        QFont f = heat()->font();
        f.setPointSizeF(f.pointSizeF() + 3);
        heat()->setFont(f);
        expectCacheEqualsDirect("font");
    }

    // Zoomed in, cells are large enough for values and labels as text: a changed cell's rectangle
    // is repainted with only the cells that reach it, text included.
    void cacheEqualsDirectPaintZoomed() {
        ex()->setQuantity(Quantity::InsideScore);
        ex()->chartZoom()->setZoom(4);
        QCoreApplication::processEvents();
        expectCacheEqualsDirect("zoomed");
        std::mt19937 rng(19);
        const int before = incremental_;
        flipSome(rng, 6, "zoomed");
        QVERIFY(incremental_ > before);
        ex()->chartZoom()->setZoom(1);
        ex()->setQuantity(Quantity::KeepProbability);
    }
};

PRUNESCOPE_QTEST_MAIN(TestHeatmapLayerCache)
#include "test_heatmap_layer_cache.moc"
