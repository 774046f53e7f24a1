// ChartHeatMap legend: the colour bar and a swatch per marker and change kind, flowing in rows.
#include "widgets/ChartHeatMap.h"
#include "widgets/ChartHeatMapDraw.h"

#include <QPainter>

#include <algorithm>

namespace prunescope::widgets {

using heatdraw::blendWhite;
using heatdraw::kHeatMargin;
using heatdraw::kindGlyph;
using heatdraw::kLegendRowMin;

double ChartHeatMap::legendRow() const {
    return std::max(kLegendRowMin, QFontMetricsF(font()).height() + 6);
}

// The legend's items in paint order (widths as paintLegend lays them out).
std::vector<double> ChartHeatMap::legendItemWidths() const {
    QFontMetricsF fm(font());
    QString loS = QString::number(lo_, 'f', decimals_), hiS = QString::number(hi_, 'f', decimals_);
    std::vector<double> w{fm.horizontalAdvance(scaleTitle_) + 8 + fm.horizontalAdvance(loS) + 4 +
                          140 + 4 + fm.horizontalAdvance(hiS)};
    QStringList texts{tr("kept"), tr("pruned (hatched)"),
                      outlineName_.isEmpty() ? tr("gold span") : outlineName_,
                      dotName_.isEmpty() ? tr("best parse") : dotName_, tr("not prunable")};
    if (changeLegend_)
        for (ChangeKind k :
             {ChangeKind::Rose, ChangeKind::Fell, ChangeKind::Appeared, ChangeKind::Vanished})
            texts << changeKindName(k);
    for (const QString& t : texts)
        w.push_back(22 + fm.horizontalAdvance(t));
    return w;
}

int ChartHeatMap::legendRows(double right) const {
    double x = kHeatMargin;
    int rows = 1;
    for (double w : legendItemWidths()) {
        if (x + w > right && x > kHeatMargin) {
            x = kHeatMargin;
            ++rows;
        }
        x += w + 16;
    }
    return rows;
}

void ChartHeatMap::paintLegend(QPainter& p) const {
    QFontMetricsF fm(font());
    const double kLegendRow = legendRow();
    double x = kHeatMargin, y = kHeatMargin;
    double right = width() - kHeatMargin;
    p.setRenderHint(QPainter::Antialiasing, true);
    auto advance = [&](double w) {
        if (x + w > right && x > kHeatMargin) {
            x = kHeatMargin;
            y += kLegendRow;
        }
        double at = x;
        x += w + 16;
        return at;
    };
    // Colour bar.
    QString loS = QString::number(lo_, 'f', decimals_), hiS = QString::number(hi_, 'f', decimals_);
    double barW = 140;
    double itemW = fm.horizontalAdvance(scaleTitle_) + 8 + fm.horizontalAdvance(loS) + 4 + barW +
                   4 + fm.horizontalAdvance(hiS);
    double x0 = advance(itemW);
    QRectF box(0, y + 3, 0, kLegendRow - 8);
    p.setPen(palette().text().color());
    p.drawText(QRectF(x0, y, itemW, kLegendRow), Qt::AlignVCenter | Qt::AlignLeft, scaleTitle_);
    double bx = x0 + fm.horizontalAdvance(scaleTitle_) + 8;
    p.drawText(QRectF(bx, y, fm.horizontalAdvance(loS) + 1, kLegendRow), Qt::AlignVCenter, loS);
    bx += fm.horizontalAdvance(loS) + 4;
    QLinearGradient g(bx, 0, bx + barW, 0);
    for (int s = 0; s <= 10; ++s)
        g.setColorAt(s / 10.0, colorMapAt(colorMap_, s / 10.0));
    p.fillRect(QRectF(bx, box.top(), barW, box.height()), g);
    if (isDiverging(colorMap_) && lo_ < 0 && hi_ > 0) { // mark the neutral 0 of a signed scale
        const double zx = bx + barW * (-lo_ / (hi_ - lo_));
        p.setPen(QPen(Qt::black, 1));
        p.drawLine(QPointF(zx, box.top()), QPointF(zx, box.top() + 3));
        p.drawLine(QPointF(zx, box.bottom() - 3), QPointF(zx, box.bottom()));
        QFont small = font();
        small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
        p.setFont(small);
        p.drawText(QRectF(zx - 10, box.top(), 20, box.height()), Qt::AlignCenter, "0");
        p.setFont(font());
        p.setPen(palette().text().color());
    }
    p.drawText(QRectF(bx + barW + 4, y, fm.horizontalAdvance(hiS) + 1, kLegendRow),
               Qt::AlignVCenter, hiS);

    auto swatch = [&](const QString& text, auto&& draw) {
        double w = 22 + fm.horizontalAdvance(text);
        double at = advance(w);
        QRectF s(at, y + 3, 16, kLegendRow - 6);
        draw(s);
        p.setPen(palette().text().color());
        p.setBrush(Qt::NoBrush);
        p.drawText(QRectF(at + 20, y, w, kLegendRow), Qt::AlignVCenter | Qt::AlignLeft, text);
    };
    QColor mid = colorMapAt(colorMap_, 0.55);
    swatch(tr("kept"), [&](QRectF s) { p.fillRect(s, mid); });
    swatch(tr("pruned (hatched)"), [&](QRectF s) {
        p.fillRect(s, blendWhite(mid, 0.62));
        p.fillRect(s, QBrush(QColor(40, 40, 40, 170), Qt::BDiagPattern));
    });
    swatch(outlineName_.isEmpty() ? tr("gold span") : outlineName_, [&](QRectF s) {
        p.fillRect(s, mid);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 2.5));
        p.drawRect(s.adjusted(1, 1, -1, -1));
    });
    swatch(dotName_.isEmpty() ? tr("best parse") : dotName_, [&](QRectF s) {
        p.fillRect(s, mid);
        p.setPen(QPen(Qt::black, 1.2));
        p.setBrush(Qt::white);
        p.drawEllipse(s.center(), 4, 4);
    });
    swatch(tr("not prunable"), [&](QRectF s) {
        p.fillRect(s, mid);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
        p.drawRect(s.adjusted(2, 2, -2, -2));
    });
    if (!changeLegend_) return;
    for (ChangeKind k :
         {ChangeKind::Rose, ChangeKind::Fell, ChangeKind::Appeared, ChangeKind::Vanished}) {
        swatch(changeKindName(k), [&](QRectF s) {
            p.setPen(QPen(changeKindColor(k), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(s.adjusted(1, 1, -1, -1));
            p.setPen(QPen(Qt::white, 1));
            p.setBrush(changeKindColor(k));
            p.drawPath(kindGlyph(k, s.center(), 5));
        });
    }
}

} // namespace prunescope::widgets
