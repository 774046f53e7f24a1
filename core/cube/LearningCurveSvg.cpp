// Learning curves as SVG (LearningCurveSvg.h).
#include "core/cube/LearningCurveSvg.h"
#include "core/util/SvgText.h"

#include "core/util/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace prunescope {

namespace {

std::string num(double v, const char* f = "%.2f") {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Okabe-Ito colours, distinguishable in colour-blind vision; a dash pattern per line as well.
const char* const kColors[] = {"#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"};
const char* const kDashes[] = {"", "6,3", "2,3", "8,3,2,3", "4,4", "1,2"};

} // namespace

std::string learningCurveSvg(const std::vector<LearningPanel>& panels,
                             const LearningCurveSvgOptions& opt) {
    const int cols = std::max(
        1, std::min(opt.columns, static_cast<int>(std::max<std::size_t>(panels.size(), 1))));
    const int rows = static_cast<int>((panels.size() + static_cast<std::size_t>(cols) - 1) /
                                      static_cast<std::size_t>(cols));
    const double PW = opt.panelWidth, PH = opt.panelHeight, top = 40, legendH = 34;
    const double W = cols * PW, H = top + legendH + std::max(rows, 1) * PH;
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(W, "%.0f") +
                    "\" height=\"" + num(H, "%.0f") + "\" viewBox=\"0 0 " + num(W, "%.0f") + " " +
                    num(H, "%.0f") + "\" font-family=\"sans-serif\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s += "<text x=\"" + num(W / 2) + "\" y=\"26\" text-anchor=\"middle\" font-size=\"17\">" +
         svgEscape(opt.title) + "</text>\n";
    // Legend: every label in panel order of first appearance, one colour per label across panels.
    std::vector<std::string> labels;
    for (const auto& p : panels)
        for (const auto& c : p.curves)
            if (std::find(labels.begin(), labels.end(), c.label) == labels.end())
                labels.push_back(c.label);
    auto styleOf = [&](const std::string& label) {
        const auto i = static_cast<std::size_t>(std::find(labels.begin(), labels.end(), label) -
                                                labels.begin()) %
                       6;
        return std::make_pair(std::string(kColors[i]), std::string(kDashes[i]));
    };
    double lx = 20;
    for (const auto& l : labels) {
        const auto [color, dash] = styleOf(l);
        s += "<line x1=\"" + num(lx) + "\" y1=\"" + num(top + 14) + "\" x2=\"" + num(lx + 28) +
             "\" y2=\"" + num(top + 14) + "\" stroke=\"" + color + "\" stroke-width=\"2.5\"" +
             (dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"") + "/>";
        s += "<text x=\"" + num(lx + 34) + "\" y=\"" + num(top + 19) + "\" font-size=\"13\">" +
             svgEscape(l) + "</text>\n";
        lx += 48 + 8.0 * static_cast<double>(l.size());
    }
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const LearningPanel& panel = panels[p];
        const double ox = static_cast<double>(static_cast<int>(p) % cols) * PW;
        const double oy = top + legendH + static_cast<double>(static_cast<int>(p) / cols) * PH;
        const double left = ox + 58, right = ox + PW - 16, ptop = oy + 28, bottom = oy + PH - 42;
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
        ymin -= pad;
        ymax += pad;
        const double step = [&] {
            const double raw = (ymax - ymin) / 5.0,
                         mag = std::pow(10.0, std::floor(std::log10(raw)));
            for (double m : {1.0, 2.0, 5.0})
                if (m * mag >= raw) return m * mag;
            return 10.0 * mag;
        }();
        auto X = [&](double e) {
            return epochs <= 1 ? (left + right) / 2
                               : left + (right - left) * (e - 1) / static_cast<double>(epochs - 1);
        };
        auto Y = [&](double v) { return bottom - (bottom - ptop) * (v - ymin) / (ymax - ymin); };
        s += "<g class=\"panel\">\n";
        s += "<text x=\"" + num((left + right) / 2) + "\" y=\"" + num(oy + 18) +
             "\" text-anchor=\"middle\" font-size=\"14\">" + svgEscape(panel.title) + "</text>\n";
        s += "<rect x=\"" + num(left) + "\" y=\"" + num(ptop) + "\" width=\"" + num(right - left) +
             "\" height=\"" + num(bottom - ptop) + "\" fill=\"none\" stroke=\"#444\"/>\n";
        for (double v = std::ceil(ymin / step) * step; v <= ymax + 1e-9; v += step) {
            s += "<line x1=\"" + num(left) + "\" y1=\"" + num(Y(v)) + "\" x2=\"" + num(right) +
                 "\" y2=\"" + num(Y(v)) + "\" stroke=\"#ddd\"/>";
            s += "<text x=\"" + num(left - 6) + "\" y=\"" + num(Y(v) + 4) +
                 "\" text-anchor=\"end\" font-size=\"11\">" +
                 num(v, step < 0.001  ? "%.4f"
                        : step < 0.01 ? "%.3f"
                        : step < 0.1  ? "%.2f"
                                      : "%.1f") +
                 "</text>\n";
        }
        for (std::size_t e = 1; e <= epochs; ++e)
            s += "<text x=\"" + num(X(static_cast<double>(e))) + "\" y=\"" + num(bottom + 16) +
                 "\" text-anchor=\"middle\" font-size=\"11\">" +
                 std::to_string(static_cast<long>(e) - 1 + opt.firstX) + "</text>";
        s += "\n<text x=\"" + num((left + right) / 2) + "\" y=\"" + num(bottom + 34) +
             "\" text-anchor=\"middle\" font-size=\"12\">" + svgEscape(opt.xLabel) + "</text>\n";
        s += "<text transform=\"translate(" + num(ox + 16) + "," + num((ptop + bottom) / 2) +
             ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">" + svgEscape(opt.yLabel) +
             "</text>\n";
        for (const auto& c : panel.curves) {
            const auto [color, dash] = styleOf(c.label);
            if (c.y.size() >= 2) {
                s += "<polyline class=\"curve\" data-label=\"" + svgEscape(c.label) +
                     "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" +
                     (dash.empty() ? "" : " stroke-dasharray=\"" + dash + "\"") + " points=\"";
                for (std::size_t e = 0; e < c.y.size(); ++e)
                    s += num(X(static_cast<double>(e + 1))) + "," + num(Y(c.y[e])) + " ";
                s += "\"/>\n";
            }
            for (std::size_t e = 0; e < c.y.size(); ++e) {
                s += "<circle class=\"point\" cx=\"" + num(X(static_cast<double>(e + 1))) +
                     "\" cy=\"" + num(Y(c.y[e])) + "\" r=\"3\" fill=\"" + color + "\"><title>" +
                     svgEscape(c.label) + ", " + svgEscape(opt.xLabel) + " = " +
                     std::to_string(static_cast<long>(e) + opt.firstX) + ": " +
                     num(c.y[e], "%.6g") + "</title></circle>";
                if (static_cast<int>(e) == c.best)
                    s += "<circle cx=\"" + num(X(static_cast<double>(e + 1))) + "\" cy=\"" +
                         num(Y(c.y[e])) + "\" r=\"6.5\" fill=\"none\" stroke=\"" + color +
                         "\" stroke-width=\"1.5\"/>";
            }
            s += "\n";
        }
        s += "</g>\n";
    }
    s += "</svg>\n";
    return s;
}

void writeLearningCurveSvg(const std::vector<LearningPanel>& panels, const std::string& path,
                           const LearningCurveSvgOptions& opt) {
    writeFileAtomically(path, learningCurveSvg(panels, opt));
}

} // namespace prunescope
