// The plot frame (SvgPlot.h).
#include "core/plot/SvgPlot.h"

#include "core/plot/SvgText.h"

#include <cmath>

namespace prunescope {

double PlotArea::px(double x) const {
    const double a = logX ? std::log10(x) : x, lo = logX ? std::log10(x0) : x0,
                 hi = logX ? std::log10(x1) : x1;
    return hi > lo ? left + (a - lo) / (hi - lo) * (right - left) : (left + right) / 2;
}

double PlotArea::py(double y) const {
    const double a = logY ? std::log10(y) : y, lo = logY ? std::log10(y0) : y0,
                 hi = logY ? std::log10(y1) : y1;
    return hi > lo ? bottom - (a - lo) / (hi - lo) * (bottom - top) : (top + bottom) / 2;
}

namespace {
// The ticks of one axis: round values, or on a log axis 1-2-5 or (decades) powers of ten.
std::vector<double> axisTicks(double lo, double hi, int target, bool log, bool decades) {
    std::vector<double> t = svgTicks(lo, hi, target, log);
    if (log && decades)
        std::erase_if(t, [](double v) {
            const double e = std::log10(v);
            return std::abs(e - std::round(e)) > 1e-9;
        });
    return t;
}
// A tick's label: enough digits for the step (linear) or for the value itself (log).
std::string tickLabel(double v, double step, bool log) {
    return svgFixed(v, log ? svgTickDecimals(v) : svgTickDecimals(step));
}
} // namespace

void padRange(double& lo, double& hi, double fraction) {
    if (!(hi > lo)) {
        lo -= 1;
        hi += 1;
    }
    const double p = (hi - lo) * fraction;
    lo -= p;
    hi += p;
}

std::string svgOpen(double width, double height, const std::string& title, int titleSize,
                    const std::string& font, int fontSize) {
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svgFixed(width, 0) +
                    "\" height=\"" + svgFixed(height, 0) + "\" viewBox=\"0 0 " +
                    svgFixed(width, 0) + " " + svgFixed(height, 0) + "\" font-family=\"" +
                    svgEscape(font) + "\" font-size=\"" + std::to_string(fontSize) + "\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    if (!title.empty())
        s += "<text x=\"" + svgFixed(width / 2, 1) + "\" y=\"24\" text-anchor=\"middle\" " +
             "font-size=\"" + std::to_string(titleSize) + "\">" + svgEscape(title) + "</text>\n";
    return s;
}

std::string svgAxes(const PlotArea& a, const std::string& xTitle, const std::string& yTitle,
                    const AxesStyle& st) {
    std::string s = "<rect x=\"" + svgFixed(a.left, 1) + "\" y=\"" + svgFixed(a.top, 1) +
                    "\" width=\"" + svgFixed(a.right - a.left, 1) + "\" height=\"" +
                    svgFixed(a.bottom - a.top, 1) + "\" fill=\"none\" stroke=\"black\"/>\n";
    const std::string fs =
        st.tickFontSize > 0 ? " font-size=\"" + std::to_string(st.tickFontSize) + "\"" : "";
    if (st.xTickLabels.empty()) {
        const double step = svgNiceStep(a.x1 - a.x0, st.xTicks);
        for (const double x : axisTicks(a.x0, a.x1, st.xTicks, a.logX, st.decades)) {
            const std::string px = svgFixed(a.px(x), 1);
            if (st.xGrid)
                s += "<line x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" + svgFixed(a.top, 1) +
                     "\" y2=\"" + svgFixed(a.bottom, 1) + "\" stroke=\"#ddd\"/>\n";
            s += "<text x=\"" + px + "\" y=\"" + svgFixed(a.bottom + 18, 1) +
                 "\" text-anchor=\"middle\"" + fs + ">" + tickLabel(x, step, a.logX) + "</text>\n";
        }
    } else {
        for (const auto& [x, label] : st.xTickLabels)
            s += "<text x=\"" + svgFixed(a.px(x), 1) + "\" y=\"" + svgFixed(a.bottom + 18, 1) +
                 "\" text-anchor=\"middle\"" + fs + ">" + svgEscape(label) + "</text>\n";
    }
    const double yStep = svgNiceStep(a.y1 - a.y0, st.yTicks);
    for (const double y : axisTicks(a.y0, a.y1, st.yTicks, a.logY, st.decades)) {
        const std::string py = svgFixed(a.py(y), 1);
        s += "<line x1=\"" + svgFixed(a.left, 1) + "\" x2=\"" + svgFixed(a.right, 1) + "\" y1=\"" +
             py + "\" y2=\"" + py + "\" stroke=\"#ddd\"/>\n";
        s += "<text x=\"" + svgFixed(a.left - 6, 1) + "\" y=\"" + svgFixed(a.py(y) + 4, 1) +
             "\" text-anchor=\"end\"" + fs + ">" + tickLabel(y, yStep, a.logY) + "</text>\n";
    }
    s += "<text x=\"" + svgFixed((a.left + a.right) / 2, 1) + "\" y=\"" +
         svgFixed(a.bottom + st.xTitleGap, 1) + "\" text-anchor=\"middle\">" + svgEscape(xTitle) +
         "</text>\n";
    s += "<text transform=\"translate(" + svgFixed(st.yTitleX, 1) + "," +
         svgFixed((a.top + a.bottom) / 2, 1) + ") rotate(-90)\" text-anchor=\"middle\">" +
         svgEscape(yTitle) + "</text>\n";
    return s;
}

const char* plotColor(std::size_t i) {
    static const char* const kColors[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                          "#e69f00", "#56b4e9", "#000000", "#f0e442"};
    return kColors[i % 8];
}

const char* plotDash(std::size_t i) {
    static const char* const kDashes[] = {"", "6,3", "2,3", "8,3,2,3", "4,4", "1,2", "10,4", "3,6"};
    return kDashes[i % 8];
}

std::string svgPolyline(const PlotArea& a, const std::vector<std::pair<double, double>>& points,
                        const std::string& color, const std::string& cls, const std::string& dash,
                        double width, const std::string& extra) {
    std::string s = "<polyline";
    if (!cls.empty()) s += " class=\"" + cls + "\"";
    if (!extra.empty()) s += " " + extra;
    s += " fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" + svgFixed(width, 1) + "\"";
    if (!dash.empty()) s += " stroke-dasharray=\"" + dash + "\"";
    s += " points=\"";
    for (const auto& [x, y] : points)
        s += svgFixed(a.px(x), 1) + "," + svgFixed(a.py(y), 1) + " ";
    s += "\"/>\n";
    return s;
}

std::string svgMarker(const std::string& shape, double x, double y, const std::string& color,
                      const std::string& extra) {
    const std::string attrs = " fill=\"" + color + "\" stroke=\"white\" stroke-width=\"0.8\"" +
                              (extra.empty() ? "" : " " + extra);
    auto at = [](double px, double py) { return svgFixed(px) + "," + svgFixed(py); };
    if (shape == "square")
        return "<rect class=\"point\" x=\"" + svgFixed(x - 4) + "\" y=\"" + svgFixed(y - 4) +
               "\" width=\"8\" height=\"8\"" + attrs + "/>\n";
    if (shape == "triangle")
        return "<path class=\"point\" d=\"M" + at(x, y - 5) + " L" + at(x + 5, y + 4) + " L" +
               at(x - 5, y + 4) + " Z\"" + attrs + "/>\n";
    if (shape == "diamond")
        return "<path class=\"point\" d=\"M" + at(x, y - 6) + " L" + at(x + 6, y) + " L" +
               at(x, y + 6) + " L" + at(x - 6, y) + " Z\"" + attrs + "/>\n";
    return "<circle class=\"point\" cx=\"" + svgFixed(x) + "\" cy=\"" + svgFixed(y) + "\" r=\"4\"" +
           attrs + "/>\n";
}

std::string svgLegendEntry(double x, double y, const std::string& label, const std::string& color,
                           const std::string& dash, int fontSize) {
    std::string s = "<line x1=\"" + svgFixed(x, 1) + "\" y1=\"" + svgFixed(y - 4, 1) + "\" x2=\"" +
                    svgFixed(x + 26, 1) + "\" y2=\"" + svgFixed(y - 4, 1) + "\" stroke=\"" + color +
                    "\" stroke-width=\"2.5\"";
    if (!dash.empty()) s += " stroke-dasharray=\"" + dash + "\"";
    s += "/><text x=\"" + svgFixed(x + 32, 1) + "\" y=\"" + svgFixed(y, 1) + "\" font-size=\"" +
         std::to_string(fontSize) + "\">" + svgEscape(label) + "</text>\n";
    return s;
}

} // namespace prunescope
