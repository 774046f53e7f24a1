// Learning curves as SVG (LearningCurveSvg.h), drawn on the plot frame (SvgPlot.h).
#include "core/plot/LearningCurveSvg.h"

#include "core/plot/SvgPlot.h"
#include "core/plot/SvgText.h"
#include "core/util/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace prunescope {

namespace {

std::string sig(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

} // namespace

std::string learningCurveSvg(const std::vector<LearningPanel>& panels,
                             const LearningCurveSvgOptions& opt) {
    const int cols = std::max(
        1, std::min(opt.columns, static_cast<int>(std::max<std::size_t>(panels.size(), 1))));
    const int rows = static_cast<int>((panels.size() + static_cast<std::size_t>(cols) - 1) /
                                      static_cast<std::size_t>(cols));
    const double PW = opt.panelWidth, PH = opt.panelHeight, top = 40, legendH = 34;
    const double W = cols * PW, H = top + legendH + std::max(rows, 1) * PH;
    std::string s = svgOpen(W, H, opt.title, 17, "sans-serif");
    // Legend: every label in panel order of first appearance, one style per label across panels.
    std::vector<std::string> labels;
    for (const auto& p : panels)
        for (const auto& c : p.curves)
            if (std::find(labels.begin(), labels.end(), c.label) == labels.end())
                labels.push_back(c.label);
    auto indexOf = [&](const std::string& label) {
        return static_cast<std::size_t>(std::find(labels.begin(), labels.end(), label) -
                                        labels.begin());
    };
    double lx = 20;
    for (const auto& l : labels) {
        s += svgLegendEntry(lx, top + 19, l, plotColor(indexOf(l)), plotDash(indexOf(l)), 13);
        lx += 48 + 8.0 * static_cast<double>(l.size());
    }
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const LearningPanel& panel = panels[p];
        const double ox = static_cast<double>(static_cast<int>(p) % cols) * PW;
        const double oy = top + legendH + static_cast<double>(static_cast<int>(p) / cols) * PH;
        double ymin = std::numeric_limits<double>::infinity(), ymax = -ymin;
        std::size_t epochs = 1;
        for (const auto& c : panel.curves) {
            epochs = std::max(epochs, c.y.size());
            for (double v : c.y) {
                ymin = std::min(ymin, v);
                ymax = std::max(ymax, v);
            }
        }
        if (!std::isfinite(ymin)) ymin = 0, ymax = 1;
        const double pad = std::max(0.2, 0.08 * (ymax - ymin));
        // x: the point index 1..epochs (one point: the middle of the panel).
        const PlotArea a{ox + 58,      oy + 28,   ox + PW - 16,
                         oy + PH - 42, 1.0,       static_cast<double>(epochs),
                         ymin - pad,   ymax + pad};
        AxesStyle style;
        style.yTicks = 5;
        style.tickFontSize = 11;
        style.yTitleX = ox + 16;
        style.xTitleGap = 34;
        for (std::size_t e = 1; e <= epochs; ++e)
            style.xTickLabels.emplace_back(static_cast<double>(e),
                                           std::to_string(static_cast<long>(e) - 1 + opt.firstX));
        s += "<g class=\"panel\">\n";
        s += "<text x=\"" + svgFixed((a.left + a.right) / 2, 1) + "\" y=\"" + svgFixed(oy + 18, 1) +
             "\" text-anchor=\"middle\" font-size=\"14\">" + svgEscape(panel.title) + "</text>\n";
        s += svgAxes(a, opt.xLabel, opt.yLabel, style);
        for (const auto& c : panel.curves) {
            const std::string color = plotColor(indexOf(c.label));
            std::vector<std::pair<double, double>> pts;
            for (std::size_t e = 0; e < c.y.size(); ++e)
                pts.emplace_back(static_cast<double>(e + 1), c.y[e]);
            if (pts.size() >= 2)
                s += svgPolyline(a, pts, color, "curve", plotDash(indexOf(c.label)), 2,
                                 "data-label=\"" + svgEscape(c.label) + "\"");
            for (std::size_t e = 0; e < pts.size(); ++e) {
                const std::string cx = svgFixed(a.px(pts[e].first), 1),
                                  cy = svgFixed(a.py(pts[e].second), 1);
                s += "<circle class=\"point\" cx=\"" + cx + "\" cy=\"" + cy + "\" r=\"3\" fill=\"" +
                     color + "\"><title>" + svgEscape(c.label) + ", " + svgEscape(opt.xLabel) +
                     " = " + std::to_string(static_cast<long>(e) + opt.firstX) + ": " +
                     sig(c.y[e]) + "</title></circle>";
                if (static_cast<int>(e) == c.best)
                    s += "<circle cx=\"" + cx + "\" cy=\"" + cy +
                         "\" r=\"6.5\" fill=\"none\" stroke=\"" + color +
                         "\" stroke-width=\"1.5\"/>";
            }
            s += "\n";
        }
        s += "</g>\n";
    }
    return s + svgClose();
}

void writeLearningCurveSvg(const std::vector<LearningPanel>& panels, const std::string& path,
                           const LearningCurveSvgOptions& opt) {
    writeFileAtomically(path, learningCurveSvg(panels, opt));
}

} // namespace prunescope
