// Bias vs pushes as SVG (see BiasPlotSvg.h).
#include "core/mcmc/BiasPlotSvg.h"

#include "core/plot/SvgPlot.h"
#include "core/plot/SvgText.h"
#include "core/util/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <vector>

namespace prunescope {

namespace {
struct Pt {
    double x, y, sd;
};
struct Series {
    std::string name, color, dash, marker; // marker: circle, square, triangle, diamond
    std::vector<Pt> pts;
    bool line = true;
};

std::string num(double v, const char* f = "%.2f") {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// The four series of Fig. 4(d), x relative to exact inside-outside; empty ones left out.
std::vector<Series> biasSeries(const BiasPlotData& d, bool ruleCounts) {
    const double exact = std::max(1.0, d.exactPushes);
    auto y = [&](const BiasSummary& s) { return ruleCounts ? s.ruleL1 : s.spanL1; };
    Series rnd{"randomized pruning (" + d.selection + ", τ = " + num(d.supportThreshold, "%g") +
                   ")",
               "#d55e00",
               "",
               "circle",
               {}};
    for (const BiasSummary& s : d.randomized)
        rnd.pts.push_back({s.pushes / exact, y(s), ruleCounts ? 0.0 : s.spanL1Sd});
    Series fom{"tic-tac-toe: policy keep-probability threshold", "#0072b2", "", "square", {}};
    Series pol{"learned policy masks", "#009e73", "", "diamond", {}};
    pol.line = false;
    for (const BiasSummary& s : d.fixed)
        (s.method == "policy-mask" ? pol : fom).pts.push_back({s.pushes / exact, y(s), 0});
    Series ora{"oracle: exact-posterior threshold (cost of the oracle not counted)",
               "#777777",
               "5,4",
               "triangle",
               {}};
    for (const BiasSummary& s : d.oracle)
        ora.pts.push_back({s.pushes / exact, y(s), 0});
    std::vector<Series> out;
    for (Series* s : {&rnd, &fom, &pol, &ora})
        if (!s->pts.empty()) out.push_back(std::move(*s));
    return out;
}

// Log-log ranges in whole decades around the points and x = 1 (exact). The y floor is at most
// four decades below the largest bias; smaller values and exact zeros are drawn on it.
PlotArea biasArea(const std::vector<Series>& series, double width, double height) {
    double xmin = 1, xmax = 1, ymin = std::numeric_limits<double>::infinity(), ymax = 0;
    for (const Series& s : series)
        for (const Pt& p : s.pts) {
            xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
            if (p.y > 0) ymin = std::min(ymin, p.y);
            ymax = std::max(ymax, p.y);
        }
    if (!std::isfinite(ymin)) ymin = 1e-3;
    if (ymax <= 0) ymax = 1;
    ymin = std::max(ymin, ymax * 1e-4);
    PlotArea a{78, 46, width - 24, height - 150};
    a.logX = a.logY = true;
    a.x0 = std::pow(10.0, std::floor(std::log10(xmin)));
    a.x1 = std::pow(10.0, std::ceil(std::log10(xmax) + 1e-9));
    a.y0 = std::pow(10.0, std::floor(std::log10(ymin)));
    a.y1 = std::pow(10.0, std::ceil(std::log10(ymax) + 1e-9));
    return a;
}

// A series: its line through the points sorted by cost (if it has one), ± sd bars, the marks.
std::string drawSeries(const PlotArea& a, const Series& se) {
    auto Y = [&](double v) { return a.py(std::max(v, a.y0)); }; // below the floor: on it
    std::string s;
    if (se.line && se.pts.size() >= 2) {
        std::vector<std::pair<double, double>> line;
        for (const Pt& p : se.pts)
            line.emplace_back(p.x, std::max(p.y, a.y0));
        std::sort(line.begin(), line.end(),
                  [](const auto& l, const auto& r) { return l.first < r.first; });
        s += svgPolyline(a, line, se.color, "series", se.dash, 1.6,
                         "data-name=\"" + svgEscape(se.name) + "\"");
    }
    for (const Pt& p : se.pts) {
        const std::string px = num(a.px(p.x));
        if (p.sd > 0)
            s += "<line x1=\"" + px + "\" y1=\"" + num(Y(std::max(p.y - p.sd, a.y0 * 0.5))) +
                 "\" x2=\"" + px + "\" y2=\"" + num(Y(p.y + p.sd)) + "\" stroke=\"" + se.color +
                 "\"/>\n";
        s += svgMarker(se.marker, a.px(p.x), Y(p.y), se.color,
                       "data-series=\"" + svgEscape(se.name) + "\"");
    }
    return s;
}
} // namespace

BiasPlotData BiasPlotData::from(const BiasExperimentResult& r) {
    BiasPlotData d;
    d.exactPushes = r.exactPushes();
    d.sentences = static_cast<int>(r.sentences.size());
    d.selection = selectionName(r.options.chain.selection);
    d.supportThreshold = r.options.chain.supportThreshold;
    for (std::size_t c = 0; c < r.options.checkpoints.size(); ++c)
        d.randomized.push_back(r.randomized(c));
    d.fixed = r.fixedMasks();
    d.oracle = r.oracleMasks();
    return d;
}

BiasPlotData BiasPlotData::fromJson(const nlohmann::json& j) {
    try {
        BiasPlotData d;
        d.exactPushes = j.at("exactPushes").get<double>();
        d.sentences = j.at("sentences").get<int>();
        d.selection = j.at("selection").get<std::string>();
        d.supportThreshold = j.at("supportThreshold").get<double>();
        auto read = [](const nlohmann::json& a) {
            std::vector<BiasSummary> out;
            for (const auto& e : a) {
                BiasSummary s;
                s.method = e.at("method").get<std::string>();
                s.pushes = e.at("pushes").get<double>();
                s.spanL1 = e.at("biasL1").get<double>();
                s.spanKL = e.at("biasKL").get<double>();
                s.ruleL1 = e.at("ruleL1").get<double>();
                s.ruleKL = e.at("ruleKL").get<double>();
                s.failures = e.at("failures").get<int>();
                if (e.contains("iterations")) s.setting = e["iterations"].get<double>();
                if (e.contains("threshold")) s.setting = e["threshold"].get<double>();
                if (e.contains("biasL1Sd")) s.spanL1Sd = e["biasL1Sd"].get<double>();
                if (e.contains("name")) s.name = e["name"].get<std::string>();
                out.push_back(s);
            }
            return out;
        };
        d.randomized = read(j.at("randomizedCurve"));
        d.fixed = read(j.at("fixedMasks"));
        d.oracle = read(j.at("oracleMasks"));
        return d;
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(std::string("not a randomized-pruning experiment: ") +
                                    e.what());
    }
}

std::string biasPlotSvg(const BiasPlotData& d, const BiasPlotOptions& opt) {
    const std::vector<Series> series = biasSeries(d, opt.ruleCounts);
    const PlotArea a = biasArea(series, opt.width, opt.height);
    const std::string title = !opt.title.empty() ? opt.title
                              : opt.ruleCounts   ? "Bias of expected rule counts vs cost"
                                                 : "Bias of span posteriors vs cost";
    std::string s =
        svgOpen(opt.width, opt.height, title + " (" + std::to_string(d.sentences) + " sentences)",
                15, "sans-serif");
    AxesStyle style;
    style.xGrid = style.decades = true;
    s += svgAxes(a, "total pushes ÷ pushes of exact inside-outside (log)",
                 "mean " + std::string(opt.ruleCounts ? "expected-rule-count" : "span-posterior") +
                     " L1 per sentence (log)",
                 style);
    const std::string x1 = num(a.px(1));
    s += "<line class=\"exact\" x1=\"" + x1 + "\" y1=\"" + num(a.top) + "\" x2=\"" + x1 +
         "\" y2=\"" + num(a.bottom) + "\" stroke=\"#000\" stroke-dasharray=\"2,3\"/>\n";
    s += "<text x=\"" + num(a.px(1) + 4) + "\" y=\"" + num(a.top + 14) +
         "\">exact inside-outside</text>\n";
    for (const Series& se : series)
        s += drawSeries(a, se);
    double ly = a.bottom + 66; // the legend, below the plot
    for (const Series& se : series) {
        s += svgMarker(se.marker, a.left + 10, ly - 4, se.color, "data-series=\"legend\"");
        s += "<text x=\"" + num(a.left + 24) + "\" y=\"" + num(ly) + "\">" + svgEscape(se.name) +
             "</text>\n";
        ly += 18;
    }
    return s + svgClose();
}

void writeBiasPlotSvg(const BiasPlotData& d, const std::string& path, const BiasPlotOptions& opt) {
    writeFileAtomically(path, biasPlotSvg(d, opt));
}

} // namespace prunescope
