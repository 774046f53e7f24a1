// ChartHeatMap paint event and its static layer cache: on screen, the background, cells, words and
// legend come from an image in which only cells whose shown state changed are repainted; change
// marks, highlights and the focus frame are drawn above it in every paint (issue 18, latency).
// Contract: the pixels equal a direct paint of all layers (tests/gui/test_heatmap_layer_cache).
#include "widgets/ChartHeatMap.h"
#include "widgets/ChartHeatMapDraw.h"

#include <QPaintEngine>
#include <QPaintEvent>
#include <QPainter>

#include <cmath>

namespace prunescope::widgets {
using heatdraw::cellPixels;

namespace heatdraw {
bool sameShown(const HeatCell& a, const HeatCell& b) {
    const bool valuesEqual = a.value == b.value || (std::isnan(a.value) && std::isnan(b.value));
    return valuesEqual && a.kept == b.kept && a.gold == b.gold && a.best == b.best &&
           a.label == b.label;
}
} // namespace heatdraw

using heatdraw::sameShown;

// Off only bypasses the cache: it stays valid (cells are compared with it when it is used again,
// and every change that repaints all cells invalidates it whether on or off).
void ChartHeatMap::setLayerCacheEnabled(bool on) {
    layerCacheOn_ = on;
    update();
}

void ChartHeatMap::paintStatic(QPainter& p, const QRegion& dirty) const {
    p.fillRect(dirty.boundingRect(), palette().base());
    const int n = length();
    p.setRenderHint(QPainter::Antialiasing, lay_.cw > 8);
    for (int w = n; w >= 1; --w)
        for (int i = 0; i + w <= n; ++i)
            if (dirty.intersects(cellPixels(cellRect(i, i + w))))
                paintCell(p, i, i + w, shownCell(index(i, i + w)));
    if (dirty.boundingRect().bottom() >= lay_.baseY - 4) paintWords(p);
    if (legendVisible_ && dirty.boundingRect().top() <= lay_.top) paintLegend(p);
}

void ChartHeatMap::paintOverlays(QPainter& p, const QRect& dirty) const {
    const int n = length();
    p.setRenderHint(QPainter::Antialiasing, lay_.cw > 8);
    // Change marks above cells, newest last.
    for (int m = 0; m < revealed_ && m < totalChanges(); ++m) {
        const CellMark& mk = marks_[m];
        QRectF r = cellRect(mk.i, mk.k);
        if (dirty.intersects(cellPixels(r)))
            paintMark(p, r, mk, m == revealed_ - 1 && mode_ != AnimationMode::Instant);
    }
    for (const CellHighlight& h : highlights_)
        if (h.k <= n && h.i < h.k) paintHighlight(p, h);
    // Keyboard focus.
    if (hasFocus()) {
        QRectF r = cellRect(focus_.first, focus_.second).adjusted(-2, -2, 2, 2);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::white, 4));
        p.drawRect(r);
        p.setPen(QPen(palette().highlight().color(), 2, Qt::DashLine));
        p.drawRect(r);
    }
}

bool ChartHeatMap::refreshLayer(qreal dpr) {
    const QSize pixels = (QSizeF(size()) * dpr).toSize();
    const int n = length();
    if (!layerValid_ || layer_.size() != pixels || layer_.devicePixelRatio() != dpr ||
        layerCells_.size() != cells_.size()) {
        layer_ = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
        if (layer_.isNull()) return false;
        layer_.setDevicePixelRatio(dpr);
        layerCells_.resize(cells_.size());
        for (int w = n; w >= 1; --w)
            for (int i = 0; i + w <= n; ++i)
                layerCells_[index(i, i + w)] = shownCell(index(i, i + w));
        QPainter p(&layer_);
        paintStatic(p, QRegion(rect()));
        layerValid_ = true;
        lastLayerCells_ = n * (n + 1) / 2;
        return true;
    }
    // Changed cells, as runs of neighbours in a row: one rectangle each.
    std::vector<QRect> dirty;
    int changed = 0;
    for (int w = n; w >= 1; --w) {
        QRect run;
        for (int i = 0; i + w <= n; ++i) {
            const std::size_t idx = index(i, i + w);
            HeatCell shown = shownCell(idx);
            if (sameShown(shown, layerCells_[idx])) {
                if (!run.isNull()) dirty.push_back(run);
                run = QRect();
                continue;
            }
            layerCells_[idx] = std::move(shown);
            run = run.united(cellPixels(cellRect(i, i + w)));
            ++changed;
        }
        if (!run.isNull()) dirty.push_back(run);
    }
    if (changed == 0) return true;
    // Each rectangle is painted into a scratch image of the layer's size, then copied. Not under a
    // clip: Qt rasterizes a shape that a clip cuts another way than a whole one (±1 per channel on
    // an ellipse's edge); and not translated: an AA edge at a shifted fractional coordinate may
    // round differently. paintStatic paints every cell whose pixels reach the rectangle whole, at
    // its own coordinates, in the full paint's order, so each pixel of the rectangle is the full
    // paint's; the scratch image's pixels outside the rectangle are never read. It is kept between
    // paints (a new image of the layer's size per paint cost more than the cells).
    if (scratch_.size() != layer_.size() || scratch_.devicePixelRatio() != dpr) {
        scratch_ = QImage(layer_.size(), layer_.format());
        scratch_.setDevicePixelRatio(dpr);
    }
    QPainter out(&layer_);
    out.setCompositionMode(QPainter::CompositionMode_Source);
    for (const QRect& r : dirty) {
        const QRect clipped = r.intersected(rect());
        if (clipped.isEmpty()) continue;
        {
            QPainter p(&scratch_);
            paintStatic(p, QRegion(clipped));
        }
        const QRectF source(QPointF(clipped.topLeft()) * dpr, QSizeF(clipped.size()) * dpr);
        out.drawImage(QRectF(clipped), scratch_, source);
    }
    lastLayerCells_ = changed;
    return true;
}

void ChartHeatMap::paintEvent(QPaintEvent* ev) {
    QPainter p(this);
    if (length() == 0) {
        p.fillRect(rect(), palette().base());
        p.setPen(palette().text().color());
        p.drawText(rect(), Qt::AlignCenter, tr("No sentence"));
        return;
    }
    // The cache serves raster paints at the device's pixel ratio (the screen, grab()); figures
    // (SVG, PDF, scaled images) are painted directly, as vectors or at their own resolution.
    const qreal dpr = devicePixelRatioF();
    const QTransform t = p.deviceTransform();
    const bool cacheable = layerCacheOn_ && p.paintEngine() &&
                           p.paintEngine()->type() == QPaintEngine::Raster &&
                           t.type() <= QTransform::TxScale && std::abs(t.m11() - dpr) < 1e-9 &&
                           std::abs(t.m22() - dpr) < 1e-9;
    if (cacheable && refreshLayer(dpr)) {
        p.setCompositionMode(QPainter::CompositionMode_Source);
        p.drawImage(ev->rect(), layer_,
                    QRectF(QPointF(ev->rect().topLeft()) * dpr, QSizeF(ev->rect().size()) * dpr));
        p.setCompositionMode(QPainter::CompositionMode_SourceOver);
    } else {
        paintStatic(p, QRegion(rect()));
    }
    paintOverlays(p, ev->rect());
}

} // namespace prunescope::widgets
