#pragma once
// Where a text label goes on a plot without covering data (used for the frontier plot's λ label,
// Vieira & Eisner 2017, sec. 7 Fig. 2): the first candidate rectangle inside an area that touches
// no obstacle (points as disks, polyline segments, rectangles). Pixel geometry only; no Qt widgets.
#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <optional>
#include <vector>

namespace prunescope::widgets {

struct LabelObstacles {
    struct Disk {
        QPointF center;
        double radius = 0;
    };
    std::vector<Disk> disks;      // plotted points, arrow and cone glyphs (their bounding disk)
    std::vector<QLineF> segments; // curves as polylines
    std::vector<QRectF> rects;    // the legend and other boxes
};

bool intersects(const QRectF& r, const LabelObstacles::Disk& d);
bool intersects(const QRectF& r, const QLineF& s);
bool intersectsAny(const QRectF& r, const LabelObstacles& o);

// Candidates, in order: the four corners of `area` (inset by `inset`), then every position on a
// grid of `step` pixels, nearest the top-left corner first. Returns the first free rectangle of
// `size` (each obstacle grown by `gap`), or nothing if every candidate touches an obstacle.
std::optional<QRectF> findFreeLabelRect(QSizeF size, const QRectF& area, const LabelObstacles& o,
                                        double gap = 3, double inset = 4, double step = 8);

} // namespace prunescope::widgets
