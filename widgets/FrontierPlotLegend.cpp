// Legend entries for the frontier plot's items (see FrontierPlotLegend.h).
#include "widgets/FrontierPlotLegend.h"

#include <QFontMetrics>

#include <cmath>

namespace prunescope::widgets {

QPen isoRewardLinePen() {
    return QPen(QColor(230, 140, 0), 2, Qt::DashLine);
}
QPen arrowPen(QColor c) {
    return QPen(c.darker(130), 1.4);
}
QPen conePen(QColor c) {
    return QPen(QColor(c.red(), c.green(), c.blue(), 150), 1);
}
QBrush coneBrush(QColor c) {
    return QColor(c.red(), c.green(), c.blue(), 70);
}

void drawGlyphArrow(QCPPainter* painter, QPointF from, QPointF n, double length, QColor kind) {
    const QPointF tip = from + length * n;
    painter->setPen(arrowPen(kind));
    painter->drawLine(from, tip);
    const QPointF side(-n.y(), n.x());
    const double head = std::min(7.0, length / 2);
    QPolygonF poly;
    poly << tip << tip - head * n + head / 2 * side << tip - head * n - head / 2 * side;
    painter->setBrush(kind.darker(130));
    painter->drawPolygon(poly);
}

GlyphLegendItem::GlyphLegendItem(QCPLegend* legend, Glyph glyph, QColor color, QString text)
    : QCPAbstractLegendItem(legend), glyph_(glyph), color_(color), text_(std::move(text)) {
    setSelectable(false);
}

void GlyphLegendItem::drawIcon(QCPPainter* painter, const QRectF& r) const {
    painter->save();
    painter->setClipRect(r, Qt::IntersectClip);
    switch (glyph_) {
    case Glyph::IsoRewardLine:
        painter->setPen(isoRewardLinePen());
        painter->drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
        break;
    case Glyph::Arrow:
        drawGlyphArrow(painter, QPointF(r.left() + 2, r.center().y()), QPointF(1, 0), r.width() - 4,
                       color_);
        break;
    case Glyph::Cone: {
        // A wedge like the plot's: a 60-degree sector opening to the upper right.
        const double rad = std::min(r.width() - 2, 2 * r.height() - 2);
        const QPointF apex(r.left() + 1, r.bottom() - 1);
        QPainterPath path(apex);
        path.arcTo(QRectF(apex.x() - rad, apex.y() - rad, 2 * rad, 2 * rad), 15, 60);
        path.closeSubpath();
        painter->setPen(conePen(color_));
        painter->setBrush(coneBrush(color_));
        painter->drawPath(path);
        break;
    }
    }
    painter->restore();
}

void GlyphLegendItem::draw(QCPPainter* painter) {
    painter->setFont(mFont);
    painter->setPen(QPen(mTextColor));
    const QSize icon = mParentLegend->iconSize();
    const QRect textRect =
        painter->fontMetrics().boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, text_);
    const int h = std::max(textRect.height(), icon.height());
    painter->drawText(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), mRect.y(),
                      textRect.width(), h, Qt::TextDontClip, text_);
    drawIcon(painter, QRectF(mRect.topLeft(), icon));
}

QSize GlyphLegendItem::minimumOuterSizeHint() const {
    const QSize icon = mParentLegend->iconSize();
    const QRect textRect =
        QFontMetrics(mFont).boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, text_);
    return {icon.width() + mParentLegend->iconTextPadding() + textRect.width() + mMargins.left() +
                mMargins.right(),
            std::max(textRect.height(), icon.height()) + mMargins.top() + mMargins.bottom()};
}

} // namespace prunescope::widgets
