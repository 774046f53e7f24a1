#pragma once
// Drawing helpers shared by the ChartHeatMap's cell, legend and layer painting (internal to widgets/).
#include "widgets/ChartHeatMap.h"

#include <QColor>
#include <QPainterPath>
#include <QPointF>

namespace prunescope::widgets::heatdraw {

inline constexpr double kHeatMargin = 8;
inline constexpr double kLegendRowMin = 22;

// c blended towards white by f in [0, 1] (pruned cells).
QColor blendWhite(const QColor& c, double f);
// A glyph per change kind, so kinds are told apart by shape as well as colour.
QPainterPath kindGlyph(ChangeKind k, QPointF c, double r);

} // namespace prunescope::widgets::heatdraw
