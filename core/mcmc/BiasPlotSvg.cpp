// Bias vs pushes as SVG (see BiasPlotSvg.h).
#include "core/mcmc/BiasPlotSvg.h"

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

std::string marker(const std::string& kind, double x, double y, const std::string& color,
                   const std::string& series) {
    const std::string attrs = " fill=\"" + color +
                              "\" stroke=\"white\" stroke-width=\"0.8\" data-series=\"" + series +
                              "\"";
    if (kind == "square")
        return "<rect class=\"point\" x=\"" + num(x - 4) + "\" y=\"" + num(y - 4) +
               "\" width=\"8\" height=\"8\"" + attrs + "/>";
    if (kind == "triangle")
        return "<path class=\"point\" d=\"M" + num(x) + "," + num(y - 5) + " L" + num(x + 5) + "," +
               num(y + 4) + " L" + num(x - 5) + "," + num(y + 4) + " Z\"" + attrs + "/>";
    if (kind == "diamond")
        return "<path class=\"point\" d=\"M" + num(x) + "," + num(y - 6) + " L" + num(x + 6) + "," +
               num(y) + " L" + num(x) + "," + num(y + 6) + " L" + num(x - 6) + "," + num(y) +
               " Z\"" + attrs + "/>";
    return "<circle class=\"point\" cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"4\"" + attrs +
           "/>";
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
    const double exact = std::max(1.0, d.exactPushes);
    auto y = [&](const BiasSummary& s) { return opt.ruleCounts ? s.ruleL1 : s.spanL1; };
    std::vector<Series> series;
    Series rnd{"randomized pruning (" + d.selection + ", τ = " + num(d.supportThreshold, "%g") +
                   ")",
               "#d55e00",
               "",
               "circle",
               {}};
    for (const BiasSummary& s : d.randomized)
        rnd.pts.push_back({s.pushes / exact, y(s), opt.ruleCounts ? 0.0 : s.spanL1Sd});
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
    for (Series* s : {&rnd, &fom, &pol, &ora})
        if (!s->pts.empty()) series.push_back(*s);

    // Ranges (log-log). Zero bias (exact) is drawn at the floor.
    double xmin = 1, xmax = 1, ymin = std::numeric_limits<double>::infinity(), ymax = 0;
    for (auto& s : series)
        for (auto& p : s.pts) {
            xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
            if (p.y > 0) ymin = std::min(ymin, p.y);
            ymax = std::max(ymax, p.y);
        }
    if (!std::isfinite(ymin)) ymin = 1e-3;
    if (ymax <= 0) ymax = 1;
    // At most four decades below the largest bias: smaller values (and exact zeros) sit on the
    // floor.
    ymin = std::max(ymin, ymax * 1e-4);
    const double lx0 = std::floor(std::log10(xmin)), lx1 = std::ceil(std::log10(xmax) + 1e-9);
    const double ly0 = std::floor(std::log10(ymin)), ly1 = std::ceil(std::log10(ymax) + 1e-9);
    const double W = opt.width, H = opt.height, L = 78, R = W - 24, T = 46, B = H - 150;
    auto X = [&](double v) {
        return L + (R - L) * (std::log10(v) - lx0) / std::max(1e-9, lx1 - lx0);
    };
    auto Y = [&](double v) {
        const double lv = v > 0 ? std::max(std::log10(v), ly0) : ly0; // below the floor: on it
        return B - (B - T) * (lv - ly0) / std::max(1e-9, ly1 - ly0);
    };

    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(W, "%.0f") +
                    "\" height=\"" + num(H, "%.0f") + "\" viewBox=\"0 0 " + num(W, "%.0f") + " " +
                    num(H, "%.0f") + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    const std::string title = !opt.title.empty() ? opt.title
                              : opt.ruleCounts   ? "Bias of expected rule counts vs cost"
                                                 : "Bias of span posteriors vs cost";
    s += "<text x=\"" + num(W / 2) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" +
         title + " (" + std::to_string(d.sentences) + " sentences)</text>\n";
    // Grid and ticks at powers of ten.
    for (double e = lx0; e <= lx1 + 1e-9; ++e) {
        const double px = X(std::pow(10.0, e));
        s += "<line x1=\"" + num(px) + "\" y1=\"" + num(T) + "\" x2=\"" + num(px) + "\" y2=\"" +
             num(B) + "\" stroke=\"#e4e4e4\"/>\n";
        s += "<text x=\"" + num(px) + "\" y=\"" + num(B + 18) + "\" text-anchor=\"middle\">" +
             num(std::pow(10.0, e), "%g") + "</text>\n";
    }
    for (double e = ly0; e <= ly1 + 1e-9; ++e) {
        const double py = Y(std::pow(10.0, e));
        s += "<line x1=\"" + num(L) + "\" y1=\"" + num(py) + "\" x2=\"" + num(R) + "\" y2=\"" +
             num(py) + "\" stroke=\"#e4e4e4\"/>\n";
        s += "<text x=\"" + num(L - 6) + "\" y=\"" + num(py + 4) + "\" text-anchor=\"end\">" +
             num(std::pow(10.0, e), "%g") + "</text>\n";
    }
    s += "<rect x=\"" + num(L) + "\" y=\"" + num(T) + "\" width=\"" + num(R - L) + "\" height=\"" +
         num(B - T) + "\" fill=\"none\" stroke=\"#444\"/>\n";
    s += "<line class=\"exact\" x1=\"" + num(X(1)) + "\" y1=\"" + num(T) + "\" x2=\"" + num(X(1)) +
         "\" y2=\"" + num(B) + "\" stroke=\"#000\" stroke-dasharray=\"2,3\"/>\n";
    s +=
        "<text x=\"" + num(X(1) + 4) + "\" y=\"" + num(T + 14) + "\">exact inside-outside</text>\n";
    s += "<text x=\"" + num((L + R) / 2) + "\" y=\"" + num(B + 40) +
         "\" text-anchor=\"middle\">total pushes ÷ pushes of exact inside-outside (log)</text>\n";
    s += "<text transform=\"translate(20," + num((T + B) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">mean " +
         std::string(opt.ruleCounts ? "expected-rule-count" : "span-posterior") +
         " L1 per sentence (log)</text>\n";
    for (const Series& se : series) {
        if (se.line && se.pts.size() >= 2) {
            std::vector<Pt> sorted = se.pts;
            std::sort(sorted.begin(), sorted.end(),
                      [](const Pt& a, const Pt& b) { return a.x < b.x; });
            s += "<polyline class=\"series\" data-name=\"" + se.name +
                 "\" fill=\"none\" stroke=\"" + se.color + "\" stroke-width=\"1.6\"" +
                 (se.dash.empty() ? "" : " stroke-dasharray=\"" + se.dash + "\"") + " points=\"";
            for (const Pt& p : sorted)
                s += num(X(p.x)) + "," + num(Y(p.y)) + " ";
            s += "\"/>\n";
        }
        for (const Pt& p : se.pts) {
            if (p.sd > 0) {
                const double lo = std::max(p.y - p.sd, ymin * 0.5), hi = p.y + p.sd;
                s += "<line x1=\"" + num(X(p.x)) + "\" y1=\"" + num(Y(lo)) + "\" x2=\"" +
                     num(X(p.x)) + "\" y2=\"" + num(Y(hi)) + "\" stroke=\"" + se.color + "\"/>\n";
            }
            s += marker(se.marker, X(p.x), Y(p.y), se.color, se.name) + "\n";
        }
    }
    // Legend below the plot.
    double ly = B + 66;
    for (const Series& se : series) {
        s += marker(se.marker, L + 10, ly - 4, se.color, "legend") + "\n";
        s += "<text x=\"" + num(L + 24) + "\" y=\"" + num(ly) + "\">" + se.name + "</text>\n";
        ly += 18;
    }
    s += "</svg>\n";
    return s;
}

void writeBiasPlotSvg(const BiasPlotData& d, const std::string& path, const BiasPlotOptions& opt) {
    writeFileAtomically(path, biasPlotSvg(d, opt));
}

} // namespace prunescope
