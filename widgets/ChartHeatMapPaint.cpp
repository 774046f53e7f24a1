// ChartHeatMap painting of one cell, its change mark, a highlight and the words along the base.
#include "widgets/ChartHeatMap.h"
#include "widgets/ChartHeatMapDraw.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace prunescope::widgets {

namespace heatdraw {

QColor blendWhite(const QColor& c, double f) {
    return QColor::fromRgbF(c.redF() + (1 - c.redF()) * f, c.greenF() + (1 - c.greenF()) * f,
                            c.blueF() + (1 - c.blueF()) * f);
}

QPainterPath kindGlyph(ChangeKind k, QPointF c, double r) {
    QPainterPath path;
    switch (k) {
    case ChangeKind::Rose:
        path.moveTo(c.x(), c.y() - r);
        path.lineTo(c.x() + r, c.y() + r * 0.8);
        path.lineTo(c.x() - r, c.y() + r * 0.8);
        path.closeSubpath();
        break;
    case ChangeKind::Fell:
        path.moveTo(c.x(), c.y() + r);
        path.lineTo(c.x() + r, c.y() - r * 0.8);
        path.lineTo(c.x() - r, c.y() - r * 0.8);
        path.closeSubpath();
        break;
    case ChangeKind::Appeared: {
        double t = r * 0.38;
        path.addRect(c.x() - t, c.y() - r, 2 * t, 2 * r);
        path.addRect(c.x() - r, c.y() - t, 2 * r, 2 * t);
        path.setFillRule(Qt::WindingFill);
        break;
    }
    case ChangeKind::Vanished: {
        double t = r * 0.32;
        path.addRect(c.x() - r, c.y() - t, 2 * r, 2 * t);
        break;
    }
    }
    return path;
}

} // namespace heatdraw

using heatdraw::blendWhite;
using heatdraw::kindGlyph;

QString changeKindName(ChangeKind k) {
    switch (k) {
    case ChangeKind::Rose:
        return QObject::tr("rose");
    case ChangeKind::Fell:
        return QObject::tr("fell");
    case ChangeKind::Appeared:
        return QObject::tr("appeared");
    case ChangeKind::Vanished:
        return QObject::tr("vanished");
    }
    return {};
}

QColor changeKindColor(ChangeKind k) {
    switch (k) {
    case ChangeKind::Rose:
        return okabeito::kBlue;
    case ChangeKind::Fell:
        return okabeito::kOrange;
    case ChangeKind::Appeared:
        return okabeito::kBluishGreen;
    case ChangeKind::Vanished:
        return okabeito::kVermillion;
    }
    return Qt::black;
}

HeatCell ChartHeatMap::shownCell(std::size_t idx) const {
    const bool pending = !markOrder_.empty() && markOrder_[idx] >= revealed_ && !before_.empty();
    if (!pending) return cells_[idx];
    HeatCell c = before_[idx];
    c.kept = cells_[idx].kept;
    c.gold = cells_[idx].gold;
    c.best = cells_[idx].best;
    return c;
}

QColor ChartHeatMap::cellFill(const HeatCell& c, bool kept) const {
    const QColor fill = colorMapAt(colorMap_, normalized(c.value));
    return kept || isDiverging(colorMap_) ? fill : blendWhite(fill, 0.62);
}

QColor ChartHeatMap::cellFill(int i, int k) const {
    const HeatCell c = shownCell(index(i, k));
    return cellFill(c, c.kept);
}

void ChartHeatMap::paintCell(QPainter& p, int i, int k, const HeatCell& c) const {
    int n = length();
    double gap = lay_.cw > 10 ? 1 : 0;
    QRectF r = cellRect(i, k).adjusted(gap, gap, -gap, -gap);
    const bool kept = c.kept;
    const QColor fill = cellFill(c, kept);
    p.setPen(Qt::NoPen);
    p.fillRect(r, fill);
    if (!kept) {
        // On a diverging map the colour is kept exact: the hatching takes the contrasting colour
        // instead.
        QColor hatch = isDiverging(colorMap_) ? contrastingText(fill) : QColor(40, 40, 40);
        hatch.setAlpha(170);
        p.fillRect(r, QBrush(hatch, lay_.cw > 14 ? Qt::BDiagPattern : Qt::Dense6Pattern));
    }
    bool prunable = k - i > 1 && k - i < n;
    if (!prunable && lay_.cw > 6) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
        p.drawRect(r.adjusted(2, 2, -2, -2));
    }
    if (c.gold) {
        double t = std::clamp(lay_.cw * 0.06, 1.5, 3.0);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, t + 1.5, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p.drawRect(r.adjusted(t / 2, t / 2, -t / 2, -t / 2));
        p.setPen(QPen(Qt::white, 1));
        p.drawRect(r.adjusted(t + 1.2, t + 1.2, -t - 1.2, -t - 1.2));
    }
    if (c.best) {
        double rad = std::clamp(std::min(r.width(), r.height()) * 0.13, 1.5, 6.0);
        QPointF ctr(r.right() - rad - std::min(5.0, r.width() * 0.12),
                    r.top() + rad + std::min(5.0, r.height() * 0.15));
        p.setPen(QPen(Qt::black, rad > 2.5 ? 1.2 : 0.6));
        p.setBrush(Qt::white);
        p.drawEllipse(ctr, rad, rad);
    }
    // Level of detail: value and label when both fit; else the label alone when it fits (what a
    // class reads first); else the value alone when it fits.
    const bool hasValue = !std::isnan(c.value);
    QFont f = font();
    f.setPointSizeF(std::clamp(r.height() * 0.33, 6.0, font().pointSizeF()));
    QString v = hasValue ? QString::number(c.value, 'f', decimals_) : QString();
    // No "-0.000" (a plain scan: a regular expression here was compiled once per cell and paint).
    if (v.startsWith('-') &&
        std::none_of(v.cbegin(), v.cend(), [](QChar ch) { return ch >= u'1' && ch <= u'9'; }))
        v.remove(0, 1);
    QFont labelFont = font();
    labelFont.setPointSizeF(std::clamp(r.height() * 0.5, 6.0, font().pointSizeF()));
    const bool labelFits = !c.label.isEmpty() && r.height() >= 12 &&
                           QFontMetricsF(labelFont).horizontalAdvance(c.label) + 4 <= r.width();
    p.setPen(kept || isDiverging(colorMap_) ? contrastingText(fill) : QColor(Qt::black));
    if (hasValue && !c.label.isEmpty() && r.height() >= 36 && r.width() >= 44) {
        p.setFont(f);
        QFontMetricsF fm(f);
        QRectF top = r.adjusted(3, 2, -3, -r.height() / 2);
        QRectF bottom = r.adjusted(3, r.height() / 2, -3, -2);
        p.drawText(top, Qt::AlignHCenter | Qt::AlignBottom, v);
        p.drawText(bottom, Qt::AlignHCenter | Qt::AlignTop,
                   fm.elidedText(c.label, Qt::ElideRight, bottom.width()));
    } else if (labelFits) {
        p.setFont(labelFont);
        p.drawText(r, Qt::AlignCenter, c.label);
    } else if (hasValue && r.width() >= 34 && r.height() >= 15) {
        p.setFont(f);
        p.drawText(r, Qt::AlignCenter, v);
    }
    p.setFont(font());
}

void ChartHeatMap::paintMark(QPainter& p, const QRectF& r, const CellMark& m, bool newest) const {
    QColor col = changeKindColor(m.kind);
    double t = std::clamp(lay_.cw * 0.05, 1.5, 3.0) + (newest ? 1.5 : 0);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(col, t, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r.adjusted(t / 2 + 1, t / 2 + 1, -t / 2 - 1, -t / 2 - 1));
    if (newest) {
        p.setPen(QPen(Qt::black, 1, Qt::DashLine));
        p.drawRect(r.adjusted(-2, -2, 2, 2));
    }
    double rad = std::clamp(std::min(r.width(), r.height()) * 0.16, 2.5, 7.0);
    QPointF c(r.left() + rad + std::min(4.0, r.width() * 0.1),
              r.bottom() - rad - std::min(4.0, r.height() * 0.1));
    p.setPen(QPen(Qt::white, rad > 3 ? 1.5 : 0.8));
    p.setBrush(col);
    p.drawPath(kindGlyph(m.kind, c, rad));
}

void ChartHeatMap::paintHighlight(QPainter& p, const CellHighlight& h) const {
    const QRectF r = cellRect(h.i, h.k);
    const double t = std::clamp(lay_.cw * 0.07, 2.0, 4.0);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(Qt::white, t + 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r.adjusted(t / 2, t / 2, -t / 2, -t / 2));
    p.setPen(QPen(h.color, t, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(r.adjusted(t / 2, t / 2, -t / 2, -t / 2));
    if (h.tag.isEmpty() || r.height() < 16) return;
    QFont f = font();
    f.setPointSizeF(std::clamp(r.height() * 0.22, 6.0, font().pointSizeF() * 0.9));
    f.setBold(true);
    const QFontMetricsF fm(f);
    const QRectF box(r.left() + t, r.top() + t,
                     std::min(fm.horizontalAdvance(h.tag) + 6, r.width() - 2 * t), fm.height());
    p.fillRect(box, h.color);
    p.setFont(f);
    p.setPen(contrastingText(h.color));
    p.drawText(box, Qt::AlignCenter, fm.elidedText(h.tag, Qt::ElideRight, box.width() - 2));
    p.setFont(font());
}

void ChartHeatMap::paintWords(QPainter& p) const {
    int n = length();
    QFontMetricsF fm(font());
    p.setPen(palette().text().color());
    double y = lay_.baseY + 2;
    // Fence-post indices at the cell boundaries, so spans (i,k) can be read off.
    bool indices = lay_.cw >= 16;
    if (indices) {
        QFont f = font();
        f.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
        p.setFont(f);
        p.setPen(palette().placeholderText().color());
        for (int i = 0; i <= n; ++i) {
            if (lay_.cw < 26 && i % 5 != 0 && i != n) continue;
            double x = lay_.left + i * lay_.cw;
            p.drawText(QRectF(x - 20, y, 40, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                       QString::number(i));
        }
        p.setFont(font());
        p.setPen(palette().text().color());
    }
    y += fm.height() * (indices ? 0.9 : 0.2);
    for (int i = 0; i < n; ++i) {
        QString w = words_[i].length() > 16 ? words_[i].left(15) + QChar(0x2026) : words_[i];
        double cx = lay_.left + (i + 0.5) * lay_.cw;
        if (!lay_.rotateWords) {
            p.drawText(QRectF(cx - lay_.cw / 2, y, lay_.cw, fm.height() + 2),
                       Qt::AlignHCenter | Qt::AlignTop, w);
        } else {
            p.save();
            // At 45° the start sits right of the column centre; steeper, the glyphs' middle line
            // meets it.
            const double a = lay_.wordAngle;
            // Down by the glyphs' rise above the baseline (ascent · cos a), so no word reaches into
            // the fence-post indices above it (test_explorer_readable measures the boxes).
            p.translate(a <= 45 ? cx + fm.ascent() * 0.3
                                : cx - fm.ascent() * 0.4 * std::sin(a * M_PI / 180) + 2,
                        y + 2 + (indices ? fm.ascent() * std::cos(a * M_PI / 180) : 0.0));
            p.rotate(a);
            p.drawText(QPointF(0, 0), w);
            p.restore();
        }
    }
}

} // namespace prunescope::widgets
