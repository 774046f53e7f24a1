#pragma once
// Drawing helpers shared by the ChartHeatMap's cell, legend and layer painting (internal to
// widgets/).
#include "widgets/ChartHeatMap.h"

#include <QColor>
#include <QPainterPath>
#include <QPointF>
#include <QRect>

namespace prunescope::widgets::heatdraw {

inline constexpr double kHeatMargin = 8;
inline constexpr double kLegendRowMin = 22;

// Cells drawn the same: same value (NaN equals NaN), label and markers.
bool sameShown(const HeatCell& a, const HeatCell& b);
// Pixels a cell's paint or change mark may reach: its rectangle, widened by the 4 px that strokes
// may reach.
inline QRect cellPixels(const QRectF& r) {
    return r.adjusted(-4, -4, 4, 4).toAlignedRect();
}

// c blended towards white by f in [0, 1] (pruned cells).
QColor blendWhite(const QColor& c, double f);
// A glyph per change kind, so kinds are told apart by shape as well as colour.
QPainterPath kindGlyph(ChangeKind k, QPointF c, double r);

} // namespace prunescope::widgets::heatdraw
