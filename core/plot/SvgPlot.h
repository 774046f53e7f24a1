#pragma once
// The plot frame every SVG figure of core draws on (frontier, dependency frontier, bias, filter and
// learning-curve plots): the document and its title, a plot rectangle with data-to-pixel mapping,
// round ticks inside the ranges with grid lines, axis titles, one colour-blind-safe palette with a
// dash pattern per series, and the marks (polylines, points, legend entries). Hand-written SVG
// text: core has no Qt, and the figures are a few dozen elements (docs/architecture.md says why no
// library).
#include <string>
#include <utility>
#include <vector>

namespace prunescope {

// The plot rectangle (SVG units, y down) and the data ranges it shows.
struct PlotArea {
    double left = 0, top = 0, right = 1, bottom = 1;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    bool logX = false; // x0 > 0 then
    bool logY = false; // y0 > 0 then
    double px(double x) const;
    double py(double y) const;
};

// Widens [lo, hi] by `fraction` of its length on each side (an empty range first to [lo-1, hi+1]).
void padRange(double& lo, double& hi, double fraction = 0.05);

struct AxesStyle {
    int xTicks = 6, yTicks = 6; // about this many round ticks (svgTicks)
    // Explicit x ticks (value, label), e.g. epochs 1, 2, 3; empty: round ticks.
    std::vector<std::pair<double, std::string>> xTickLabels;
    double yTitleX = 20;   // x of the rotated y-axis title
    double xTitleGap = 40; // the x-axis title's baseline below the rectangle
    int tickFontSize = 0;  // 0: the document's font size
    bool xGrid = false;    // also a grid line at each x tick
    bool decades = false;  // log axes: ticks at powers of ten only (1-2-5 otherwise)
};

// <svg ...> with a white background; `title` centred at the top unless empty.
std::string svgOpen(double width, double height, const std::string& title, int titleSize = 15,
                    const std::string& font = "DejaVu Sans, sans-serif", int fontSize = 12);
inline std::string svgClose() {
    return "</svg>\n";
}
// The rectangle, the ticks and their labels, a grid line at each y tick, the axis titles.
std::string svgAxes(const PlotArea& a, const std::string& xTitle, const std::string& yTitle,
                    const AxesStyle& style = {});

// The palette: Okabe-Ito colours (distinguishable in colour-blind vision) and a dash pattern per
// series, so print in grey still tells the lines apart. Index i wraps around.
const char* plotColor(std::size_t i);
const char* plotDash(std::size_t i); // "" = solid

// A polyline through data points (class attribute `cls` if not empty, stroke dashed if `dash`).
std::string svgPolyline(const PlotArea& a, const std::vector<std::pair<double, double>>& points,
                        const std::string& color, const std::string& cls = "curve",
                        const std::string& dash = "", double width = 2,
                        const std::string& extraAttributes = "");
// A point mark centred at pixel (x, y): shape "circle", "square", "triangle" or "diamond", class
// "point", white outline; `extraAttributes` (e.g. data-series="...") are added as given.
std::string svgMarker(const std::string& shape, double x, double y, const std::string& color,
                      const std::string& extraAttributes = "");
// A legend entry: a short line in the series' style and its label, at (x, y) (text baseline).
std::string svgLegendEntry(double x, double y, const std::string& label, const std::string& color,
                           const std::string& dash = "", int fontSize = 12);

} // namespace prunescope
