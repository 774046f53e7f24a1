#pragma once
// Figures of the arc-filter results as standalone SVG (core has no Qt): the coverage/reduction
// curve over the threshold for several filters (Cherry & Bergsma 2011, sec. 4's two measures), and
// the dependency speed/accuracy frontier (UAS against tokens per second) placing exhaustive and
// filtered parsers, with the Pareto line from core/frontier.
#include <string>
#include <utility>
#include <vector>

namespace prunescope {

struct PlotSeries {
    std::string name;
    std::vector<std::pair<double, double>> points;  // (x, y)
    std::vector<std::pair<double, double>> marks;   // highlighted points (operating points)
};

// x = coverage (%), y = reduction (%); one polyline per series (class "curve"), marks as circles
// (class "operating-point").
std::string coverageCurveSvg(const std::vector<PlotSeries>& series, const std::string& title);

struct FrontierSystem {
    std::string name;
    double tokensPerSecond = 0, uas = 0;
};
// x = tokens/s (log scale), y = UAS; one circle per system (class "system"), the Pareto line of
// the systems (class "pareto": faster and at least as accurate is better).
std::string depFrontierSvg(const std::vector<FrontierSystem>& systems, const std::string& title);

} // namespace prunescope
