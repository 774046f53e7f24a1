// SVG figures of the arc-filter results (hand-written SVG text, like core/frontier/FrontierSvg).
#include "core/filters/FilterPlots.h"
#include "core/util/SvgText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace prunescope {

namespace {

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                         "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

struct Axes {
    double x0, x1, y0, y1;
    bool logX = false;
    int W = 760, H = 520, L = 80, R = 200, T = 50, B = 60;
    double px(double x) const {
        const double a = logX ? std::log10(x) : x, lo = logX ? std::log10(x0) : x0,
                     hi = logX ? std::log10(x1) : x1;
        return L + (a - lo) / (hi - lo) * (W - L - R);
    }
    double py(double y) const { return H - B - (y - y0) / (y1 - y0) * (H - T - B); }
};

void frame(std::ostringstream& o, const Axes& a, const std::string& title, const std::string& xl,
           const std::string& yl) {
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << a.W << "\" height=\"" << a.H
      << "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << a.W / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
      << svgEscape(title) << "</text>\n"
      << "<rect x=\"" << a.L << "\" y=\"" << a.T << "\" width=\"" << a.W - a.L - a.R
      << "\" height=\"" << a.H - a.T - a.B << "\" fill=\"none\" stroke=\"black\"/>\n";
    // Round tick values inside the (padded) ranges, so no axis shows an impossible -0.79 % or
    // 100.15 %.
    const double xStep = svgNiceStep(a.x1 - a.x0, 6), yStep = svgNiceStep(a.y1 - a.y0, 6);
    for (const double fx : svgTicks(a.x0, a.x1, 6, a.logX))
        o << "<text x=\"" << svgFixed(a.px(fx), 1) << "\" y=\"" << a.H - a.B + 18
          << "\" text-anchor=\"middle\">"
          << svgFixed(fx, a.logX ? svgTickDecimals(fx) : svgTickDecimals(xStep)) << "</text>\n";
    for (const double fy : svgTicks(a.y0, a.y1, 6)) {
        o << "<text x=\"" << a.L - 6 << "\" y=\"" << svgFixed(a.py(fy) + 4, 1)
          << "\" text-anchor=\"end\">" << svgFixed(fy, svgTickDecimals(yStep)) << "</text>\n";
        o << "<line x1=\"" << a.L << "\" x2=\"" << a.W - a.R << "\" y1=\"" << svgFixed(a.py(fy), 1)
          << "\" y2=\"" << svgFixed(a.py(fy), 1) << "\" stroke=\"#ddd\"/>\n";
    }
    o << "<text x=\"" << (a.L + a.W - a.R) / 2 << "\" y=\"" << a.H - 20
      << "\" text-anchor=\"middle\">" << svgEscape(xl) << "</text>\n"
      << "<text transform=\"translate(20," << (a.T + a.H - a.B) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << svgEscape(yl) << "</text>\n";
}

void padRange(double& lo, double& hi) {
    if (!(hi > lo)) {
        lo -= 1;
        hi += 1;
    }
    const double p = (hi - lo) * 0.05;
    lo -= p;
    hi += p;
}

} // namespace

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
    Axes a{x0, x1, y0, y1};
    std::ostringstream o;
    frame(o, a, title, "coverage (% of gold arcs kept)", "reduction (% of all arcs filtered)");
    for (std::size_t i = 0; i < series.size(); ++i) {
        const char* c = kColors[i % 8];
        o << "<polyline class=\"curve\" fill=\"none\" stroke=\"" << c
          << "\" stroke-width=\"2\" points=\"";
        for (const auto& p : series[i].points)
            o << svgFixed(a.px(p.first), 1) << "," << svgFixed(a.py(p.second), 1) << " ";
        o << "\"/>\n";
        for (const auto& p : series[i].points)
            o << "<circle cx=\"" << svgFixed(a.px(p.first), 1) << "\" cy=\""
              << svgFixed(a.py(p.second), 1) << "\" r=\"2.5\" fill=\"" << c << "\"/>\n";
        for (const auto& p : series[i].marks)
            o << "<circle class=\"operating-point\" cx=\"" << svgFixed(a.px(p.first), 1)
              << "\" cy=\"" << svgFixed(a.py(p.second), 1) << "\" r=\"6\" fill=\"none\" stroke=\""
              << c << "\" stroke-width=\"2\"/>\n";
        const int ly = a.T + 16 + static_cast<int>(i) * 20;
        o << "<line x1=\"" << a.W - a.R + 12 << "\" x2=\"" << a.W - a.R + 36 << "\" y1=\"" << ly - 4
          << "\" y2=\"" << ly - 4 << "\" stroke=\"" << c << "\" stroke-width=\"2\"/><text x=\""
          << a.W - a.R + 42 << "\" y=\"" << ly << "\">" << svgEscape(series[i].name) << "</text>\n";
    }
    o << "<text x=\"" << a.W - a.R + 12 << "\" y=\""
      << a.T + 16 + static_cast<int>(series.size()) * 20
      << "\">o = operating point</text>\n</svg>\n";
    return o.str();
}

} // namespace prunescope
