#pragma once
// The hover behaviour the point plots share (dependency frontier, empirical complexity): the point
// nearest to the mouse within a radius, and its description as a tooltip (hidden off any point).
#include <QMouseEvent>
#include <QPointF>
#include <QString>
#include <QToolTip>

#include <cmath>
#include <utility>

namespace prunescope::widgets {

// {series, point} of the point nearest to pos within radius pixels, or {-1, -1}. count(s) is the
// number of points of series s (of `series`), pixel(s, p) a point's widget position, and
// shown(s, p) whether it is drawn.
template <class Count, class Pixel, class Shown>
std::pair<int, int> nearestPoint(QPointF pos, double radius, int series, Count count, Pixel pixel,
                                 Shown shown) {
    std::pair<int, int> best{-1, -1};
    double bestD = radius;
    for (int s = 0; s < series; ++s)
        for (int p = 0; p < count(s); ++p) {
            if (!shown(s, p)) continue;
            const QPointF d = pixel(s, p) - pos;
            const double dist = std::hypot(d.x(), d.y());
            if (dist <= bestD) bestD = dist, best = {s, p};
        }
    return best;
}

// The tooltip of the hit point (describe(s, p)), or none when hit is {-1, -1}.
template <class Describe>
void showPointTooltip(QWidget* w, const QMouseEvent* e, std::pair<int, int> hit,
                      Describe describe) {
    if (hit.first >= 0)
        QToolTip::showText(e->globalPosition().toPoint(), describe(hit.first, hit.second), w);
    else
        QToolTip::hideText();
}

} // namespace prunescope::widgets
