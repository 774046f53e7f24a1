#pragma once
// Figures of the arc-filter results as standalone SVG (core has no Qt): the coverage/reduction
// curve over the threshold for several filters (Cherry & Bergsma 2011, sec. 4's two measures).
// The speed/accuracy frontier of the filtered parsers is core/frontier/DepFrontierSvg.h.
#include <string>
#include <utility>
#include <vector>

namespace prunescope {

struct PlotSeries {
    std::string name;
    std::vector<std::pair<double, double>> points; // (x, y)
    std::vector<std::pair<double, double>> marks;  // highlighted points (operating points)
};

// x = coverage (%), y = reduction (%); one polyline per series (class "curve"), marks as circles
// (class "operating-point").
std::string coverageCurveSvg(const std::vector<PlotSeries>& series, const std::string& title);

} // namespace prunescope
