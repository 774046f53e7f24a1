// GUI test (offscreen) of issue 18's readability requirement: a 40-word dev sentence on a 1600×1000
// window with the presentation font, after Ctrl+0 (fit), is readable in the chart and in each tree.
// Readable, measured on what the views actually draw (every text item a render() paints, recorded
// by a paint engine): the smallest text is ≥ 12 px (9 pt at 96 dpi: the font's pixel size times the
// painter's scale), no two text items overlap, and the view's scroll area scrolls along at most one
// axis. Each view is measured in its own large view (View ▸ Explorer Layout), the layout for a
// class.
#include "app/gui/window/MainWindow.h"
#include "support/ExplorerWindow.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QScrollBar>
#include <QTextItem>

#include <cmath>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

// One text item as drawn: its pixel size and the quadrilateral of its advance × (ascent + descent).
struct DrawnText {
    QString text;
    double px = 0;
    QPolygonF box;
};

// A paint engine that records text items and ignores everything else.
class RecordingEngine : public QPaintEngine {
  public:
    RecordingEngine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {}
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawPath(const QPainterPath&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawTextItem(const QPointF& p, const QTextItem& item) override {
        const QString s = item.text();
        if (s.trimmed().isEmpty()) return;
        const QTransform t = painter()->combinedTransform();
        const QFont f = item.font();
        const double fontPx = f.pixelSize() > 0 ? f.pixelSize() : f.pointSizeF() * 96.0 / 72.0;
        const double scale = std::sqrt(std::abs(t.determinant()));
        const QRectF r(p.x(), p.y() - item.ascent(), item.width(), item.ascent() + item.descent());
        texts.push_back(DrawnText{s, fontPx * scale, t.map(QPolygonF(r))});
    }
    Type type() const override { return QPaintEngine::User; }
    std::vector<DrawnText> texts;
};

class RecordingDevice : public QPaintDevice {
  public:
    explicit RecordingDevice(QSize size) : size_(size) {}
    QPaintEngine* paintEngine() const override { return &engine_; }
    std::vector<DrawnText>& texts() { return engine_.texts; }

  protected:
    int metric(PaintDeviceMetric m) const override {
        switch (m) {
        case PdmWidth:
            return size_.width();
        case PdmHeight:
            return size_.height();
        case PdmWidthMM:
            return size_.width() * 254 / 960;
        case PdmHeightMM:
            return size_.height() * 254 / 960;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return static_cast<int>(QPaintDevice::devicePixelRatioFScale());
        default:
            return QPaintDevice::metric(m);
        }
    }

  private:
    QSize size_;
    mutable RecordingEngine engine_;
};

struct Readability {
    int texts = 0;
    double minPx = 1e9;
    QString smallest, overlap;
    bool scrollsH = false, scrollsV = false;
    QString describe() const {
        return QString("%1 texts, smallest %2 px (\"%3\"), overlap: %4, scrolls %5%6")
            .arg(texts)
            .arg(minPx, 0, 'f', 2)
            .arg(smallest, overlap.isEmpty() ? "none" : overlap)
            .arg(scrollsH ? "horizontally " : "", scrollsV ? "vertically" : "");
    }
};

// Two boxes overlap when their interiors do: each is shrunk by 1 px first (boxes that only touch at
// an edge, as neighbouring cells' labels or rotated words spaced exactly a line apart, do not
// count).
QPolygonF inset(const QPolygonF& q) {
    QPointF c;
    for (int i = 0; i < 4; ++i)
        c += q[i] / 4;
    QPolygonF out;
    for (int i = 0; i < 4; ++i) {
        const QPointF d = c - q[i];
        const double len = std::hypot(d.x(), d.y());
        out << (len > 1.5 ? q[i] + d / len * 1.5 : c);
    }
    return out;
}

Readability measure(widgets::ZoomArea* area) {
    Readability r;
    r.scrollsH = area->horizontalScrollBar()->maximum() > 0;
    r.scrollsV = area->verticalScrollBar()->maximum() > 0;
    QWidget* view = area->view();
    RecordingDevice dev(view->size());
    view->render(&dev, QPoint(), QRegion(), QWidget::DrawChildren);
    const auto& t = dev.texts();
    r.texts = static_cast<int>(t.size());
    std::vector<QPolygonF> boxes;
    for (const DrawnText& d : t) {
        if (d.px < r.minPx) r.minPx = d.px, r.smallest = d.text;
        boxes.push_back(inset(d.box));
    }
    for (std::size_t a = 0; a < t.size() && r.overlap.isEmpty(); ++a)
        for (std::size_t b = a + 1; b < t.size() && r.overlap.isEmpty(); ++b)
            if (boxes[a].boundingRect().intersects(boxes[b].boundingRect()) &&
                boxes[a].intersects(boxes[b]))
                r.overlap = QString("\"%1\" and \"%2\"").arg(t[a].text, t[b].text);
    return r;
}

} // namespace

class TestExplorerReadable : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

  private slots:
    void initTestCase() {
        QString error;
        win_ = testgui::shownMainWindow(1600, 1000, true, error);
        QVERIFY2(win_, qPrintable(error));
        error = testgui::openDevSentence(*win_, 40);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        win_->presentationFontAction()->setChecked(true);
        QCOMPARE(ex()->session()->length(), 40);
        QCOMPARE(win_->size(), QSize(1600, 1000));
        QVERIFY(ex()->predictedView()->hasTree() && ex()->goldView()->hasTree());
    }

    // The measurement itself can fail: a tiny font, overlapping text and scrolling both ways are
    // seen.
    void measurementSeesSmallTextAndOverlaps() {
        auto* tree = new widgets::TreeView; // owned by the area
        tree->setTree(ex()->goldView()->tree());
        widgets::ZoomArea area(tree);
        QObject::connect(&area, &widgets::ZoomArea::zoomChanged, tree, &widgets::TreeView::setZoom);
        area.resize(400, 200);
        area.show();
        QCoreApplication::processEvents();
        const Readability r = measure(&area);
        QVERIFY2(r.minPx < 12 && r.scrollsH && r.scrollsV, qPrintable(r.describe()));
        widgets::TreeView crowded;
        QFont big = crowded.font();
        big.setPixelSize(40);
        crowded.setFont(big);
        crowded.setTitle(QString(30, 'W'));
        crowded.setForest({}, QString(30, 'M')); // a note right-aligned on the title's line
        crowded.resize(300, 200);
        RecordingDevice dev(crowded.size());
        crowded.render(&dev);
        QCOMPARE(static_cast<int>(dev.texts().size()), 2);
        QVERIFY(inset(dev.texts()[0].box).intersects(inset(dev.texts()[1].box)));
        QCOMPARE(dev.texts()[0].px, 40.0);
    }

    void chartIsReadableAfterFit() { check(ex()->chartZoom(), ExplorerLayout::Chart); }
    void predictedTreeIsReadableAfterFit() {
        check(ex()->predictedZoom(), ExplorerLayout::PredictedTree);
    }
    void goldTreeIsReadableAfterFit() { check(ex()->goldZoom(), ExplorerLayout::GoldTree); }

  private:
    void check(widgets::ZoomArea* area, ExplorerLayout layout) {
        ex()->setExplorerLayout(layout);
        QCoreApplication::processEvents();
        QVERIFY(area->isVisible());
        win_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(win_.get()));
        area->setZoom(2); // zoomed in, then Ctrl+0 on the view
        area->view()->setFocus();
        QTest::keyClick(win_.get(), Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(area->zoom(), 1.0);
        QTest::qWait(100); // the layout settles as on screen
        const Readability r = measure(area);
        qInfo("%s in %d×%d: %s", qPrintable(area->view()->objectName()), area->viewport()->width(),
              area->viewport()->height(), qPrintable(r.describe()));
        QVERIFY(r.texts > 40); // at least the words
        QVERIFY2(r.minPx >= 12, qPrintable(r.describe()));
        QVERIFY2(r.overlap.isEmpty(), qPrintable(r.describe()));
        QVERIFY2(!(r.scrollsH && r.scrollsV), qPrintable(r.describe()));
    }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerReadable)
#include "test_explorer_readable.moc"
