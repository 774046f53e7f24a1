// Label placement avoiding data (see LabelPlacement.h).
#include "widgets/LabelPlacement.h"

#include <algorithm>
#include <cmath>

namespace prunescope::widgets {

bool intersects(const QRectF& r, const LabelObstacles::Disk& d) {
    const double cx = std::clamp(d.center.x(), r.left(), r.right());
    const double cy = std::clamp(d.center.y(), r.top(), r.bottom());
    return std::hypot(d.center.x() - cx, d.center.y() - cy) <= d.radius;
}

bool intersects(const QRectF& r, const QLineF& s) {
    // Liang–Barsky clipping of the segment against the rectangle: it touches r iff a part survives.
    double t0 = 0, t1 = 1;
    const double dx = s.dx(), dy = s.dy();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {s.x1() - r.left(), r.right() - s.x1(), s.y1() - r.top(),
                         r.bottom() - s.y1()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) return false; // parallel to this edge and outside it
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1) return false;
    }
    return true;
}

bool intersectsAny(const QRectF& r, const LabelObstacles& o) {
    for (const auto& d : o.disks)
        if (intersects(r, d)) return true;
    for (const auto& s : o.segments)
        if (intersects(r, s)) return true;
    for (const auto& b : o.rects)
        if (r.intersects(b)) return true;
    return false;
}

std::optional<QRectF> findFreeLabelRect(QSizeF size, const QRectF& area, const LabelObstacles& o,
                                        double gap, double inset, double step) {
    const QRectF inner = area.adjusted(inset, inset, -inset, -inset);
    if (inner.width() < size.width() || inner.height() < size.height()) return std::nullopt;
    const double x0 = inner.left(), y0 = inner.top();
    const double x1 = inner.right() - size.width(), y1 = inner.bottom() - size.height();
    // Growing the label by `gap` is the same test as growing every obstacle by it.
    auto free = [&](double x, double y) {
        return !intersectsAny(QRectF(QPointF(x, y), size).adjusted(-gap, -gap, gap, gap), o);
    };
    for (const QPointF c : {QPointF(x0, y0), QPointF(x1, y0), QPointF(x0, y1), QPointF(x1, y1)})
        if (free(c.x(), c.y())) return QRectF(c, size);
    std::vector<QPointF> grid;
    for (double y = y0; y <= y1; y += step)
        for (double x = x0; x <= x1; x += step)
            grid.emplace_back(x, y);
    std::stable_sort(grid.begin(), grid.end(), [&](QPointF a, QPointF b) {
        return std::hypot(a.x() - x0, a.y() - y0) < std::hypot(b.x() - x0, b.y() - y0);
    });
    for (const QPointF c : grid)
        if (free(c.x(), c.y())) return QRectF(c, size);
    return std::nullopt;
}

} // namespace prunescope::widgets
