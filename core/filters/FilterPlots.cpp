// SVG figures of the arc-filter results, drawn on core/plot's frame (SvgPlot.h).
#include "core/filters/FilterPlots.h"
#include "core/plot/SvgPlot.h"
#include "core/plot/SvgText.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace prunescope {

std::string coverageCurveSvg(const std::vector<PlotSeries>& series, const std::string& title) {
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const auto& s : series)
        for (const auto& p : s.points) {
            x0 = std::min(x0, p.first);
            x1 = std::max(x1, p.first);
            y0 = std::min(y0, p.second);
            y1 = std::max(y1, p.second);
        }
    if (!std::isfinite(x0)) x0 = 0, x1 = 100, y0 = 0, y1 = 100;
    padRange(x0, x1);
    padRange(y0, y1);
    const double W = 760, H = 520, legendX = W - 200 + 12;
    // Round tick values inside the (padded) ranges, so no axis shows an impossible -0.79 % or
    // 100.15 % (svgTicks).
    const PlotArea a{80, 50, W - 200, H - 60, x0, x1, y0, y1};
    AxesStyle style;
    style.xTitleGap = 40;
    std::string o = svgOpen(W, H, title) + svgAxes(a, "coverage (% of gold arcs kept)",
                                                   "reduction (% of all arcs filtered)", style);
    for (std::size_t i = 0; i < series.size(); ++i) {
        const std::string c = plotColor(i), dash = plotDash(i);
        o += svgPolyline(a, series[i].points, c, "curve", dash);
        for (const auto& p : series[i].points)
            o += "<circle cx=\"" + svgFixed(a.px(p.first), 1) + "\" cy=\"" +
                 svgFixed(a.py(p.second), 1) + "\" r=\"2.5\" fill=\"" + c + "\"/>\n";
        for (const auto& p : series[i].marks)
            o += "<circle class=\"operating-point\" cx=\"" + svgFixed(a.px(p.first), 1) +
                 "\" cy=\"" + svgFixed(a.py(p.second), 1) + "\" r=\"6\" fill=\"none\" stroke=\"" +
                 c + "\" stroke-width=\"2\"/>\n";
        o += svgLegendEntry(legendX, a.top + 16 + static_cast<double>(i) * 20, series[i].name, c,
                            dash);
    }
    o += "<text x=\"" + svgFixed(legendX, 1) + "\" y=\"" +
         svgFixed(a.top + 16 + static_cast<double>(series.size()) * 20, 1) +
         "\">o = operating point</text>\n";
    return o + svgClose();
}

} // namespace prunescope
