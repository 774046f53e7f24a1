// Frontier plot as standalone SVG text (sec. 7, Fig. 2; footnote 12 fit and lambda arrows).
#include "core/frontier/FrontierSvg.h"
#include "core/plot/SvgText.h"

#include "core/util/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <vector>

namespace prunescope {

namespace {

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}
std::string px(double x) {
    return fmt("%.2f", x);
}

// Data -> pixel mapping of the plot area.
struct Frame {
    double left, right, top, bottom;
    double xa, xb, ya, yb;
    bool logX;
    double u(double x) const { return logX ? std::log(x) : x; }
    double X(double x) const { return left + (right - left) * (u(x) - u(xa)) / (u(xb) - u(xa)); }
    double Y(double y) const { return bottom - (bottom - top) * (y - ya) / (yb - ya); }
    double dXdx(double x) const { return (right - left) / (u(xb) - u(xa)) / (logX ? x : 1.0); }
    double dYdy() const { return (bottom - top) / (yb - ya); } // magnitude (screen y points down)
    // Screen angle of the direction of steepest increase of y - lambda*x, drawn perpendicular (on
    // screen) to the iso-reward line through x; lambda = inf points straight to lower runtime.
    double angle(double x, double lambda) const {
        if (std::isinf(lambda)) return -std::numbers::pi;
        return std::atan2(-dXdx(x), -dYdy() * lambda);
    }
};

std::string pointLabel(const FrontierEntry& e) {
    auto it = e.training.find("positiveWeight");
    if (it != e.training.end() && it->is_number()) return "w=" + fmt("%g", it->get<double>());
    return e.id;
}

// The unpruned parser's point, if shown.
struct Unpruned {
    bool shown = false;
    double x = 0, y = 0;
};

// The plot frame: the data ranges (x padded by 1.6× on a log axis, from 0 to a round value on a
// linear one; y in round steps around the points) and the y step.
Frame frontierFrame(const FrontierData& d, const FrontierSvgOptions& opt, const Unpruned& unpr,
                    double& ystep) {
    const double W = opt.width, H = opt.height;
    double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin, ymin = xmin, ymax = -xmin;
    auto extend = [&](double x, double y) {
        xmin = std::min(xmin, x);
        xmax = std::max(xmax, x);
        ymin = std::min(ymin, y);
        ymax = std::max(ymax, y);
    };
    for (const auto& e : d.points)
        extend(e.runtime, e.accuracy);
    if (unpr.shown) extend(unpr.x, unpr.y);
    if (!(xmin <= xmax)) {
        xmin = 1;
        xmax = 10;
        ymin = 0;
        ymax = 100;
    }
    const bool logX = opt.logX && xmin > 0;
    Frame f{78, W - 24, 62, H - 64, 0, 1, 0, 1, logX};
    if (logX) {
        f.xa = xmin / 1.6;
        f.xb = xmax * 1.6;
    } else {
        const double step = svgNiceStep(std::max(xmax, 1e-12), 6);
        f.xa = 0;
        f.xb = std::ceil(xmax * 1.05 / step) * step;
    }
    ystep = svgNiceStep(std::max(ymax - std::min(ymin, 0.0), 1.0), 8);
    f.ya = std::max(0.0, std::floor((ymin - 2) / ystep) * ystep);
    f.yb = std::ceil((ymax + 2) / ystep) * ystep;
    if (f.yb <= f.ya) f.yb = f.ya + ystep;
    return f;
}

// <svg>, the arrowhead and clip definitions, the title and the fitted h(x) as a subtitle.
std::string frontierHeader(const FrontierData& d, const FrontierSvgOptions& opt, const Frame& f) {
    const double W = opt.width, H = opt.height;
    std::string s;
    s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(W) + "\" height=\"" + px(H) +
         "\" viewBox=\"0 0 " + px(W) + " " + px(H) +
         "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"11\">\n";
    s += "<defs>\n<marker id=\"arrowhead\" markerWidth=\"8\" markerHeight=\"8\" refX=\"6\" "
         "refY=\"4\" orient=\"auto\">"
         "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#1b7f3b\"/></marker>\n";
    s += "<clipPath id=\"plotArea\"><rect x=\"" + px(f.left) + "\" y=\"" + px(f.top) +
         "\" width=\"" + px(f.right - f.left) + "\" height=\"" + px(f.bottom - f.top) +
         "\"/></clipPath>\n</defs>\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    const std::string title =
        opt.title.empty()
            ? "Pruning frontier (" + d.evaluation.value("split", std::string("dev")) + ")"
            : opt.title;
    s += "<text x=\"" + px(W / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" +
         svgEscape(title) + "</text>\n";
    if (d.fit)
        s += "<text x=\"" + px(W / 2) + "\" y=\"40\" text-anchor=\"middle\" fill=\"#555\">" +
             svgEscape("fit h(x) = " + fmt("%.4g", d.fit->ymax) + " · sigmoid(" +
                       fmt("%.4g", d.fit->a) + " · log(x " + (d.fit->c < 0 ? "− " : "+ ") +
                       fmt("%.4g", std::abs(d.fit->c)) + ") " + (d.fit->b < 0 ? "− " : "+ ") +
                       fmt("%.4g", std::abs(d.fit->b)) + "),  λ in " + d.lambdaUnit) +
             "</text>\n";

    return s;
}

// The frame, ticks (log axes: every 1..9 × 10^k, labels at decades, and at 2 and 5 when the
// axis spans few decades), grid lines and axis titles.
std::string frontierAxes(const FrontierData& d, const FrontierSvgOptions& opt, const Frame& f,
                         double ystep) {
    const double H = opt.height;
    const bool logX = f.logX;
    std::string s;
    s += "<g class=\"axes\" stroke=\"#333\" fill=\"none\">\n<rect x=\"" + px(f.left) + "\" y=\"" +
         px(f.top) + "\" width=\"" + px(f.right - f.left) + "\" height=\"" + px(f.bottom - f.top) +
         "\"/>\n</g>\n";
    s += "<g class=\"ticks\">\n";
    auto xtick = [&](double x, bool major, bool label) {
        const double X = f.X(x);
        s += "<line x1=\"" + px(X) + "\" y1=\"" + px(f.bottom) + "\" x2=\"" + px(X) + "\" y2=\"" +
             px(f.bottom + (major ? 6 : 3)) + "\" stroke=\"#333\"/>\n";
        if (major)
            s += "<line x1=\"" + px(X) + "\" y1=\"" + px(f.top) + "\" x2=\"" + px(X) + "\" y2=\"" +
                 px(f.bottom) + "\" stroke=\"#e4e4e4\"/>\n";
        if (label)
            s += "<text x=\"" + px(X) + "\" y=\"" + px(f.bottom + 18) +
                 "\" text-anchor=\"middle\">" + fmt("%g", x) + "</text>\n";
    };
    if (logX) {
        const bool fewDecades = std::log10(f.xb / f.xa) < 2.2;
        for (int e = static_cast<int>(std::floor(std::log10(f.xa)));
             e <= static_cast<int>(std::ceil(std::log10(f.xb))); ++e)
            for (int m = 1; m <= 9; ++m) {
                const double x = m * std::pow(10.0, e);
                if (x < f.xa || x > f.xb) continue;
                xtick(x, m == 1, m == 1 || (fewDecades && (m == 2 || m == 5)));
            }
    } else {
        const double step = svgNiceStep(f.xb - f.xa, 6);
        for (double x = f.xa; x <= f.xb + step * 1e-9; x += step)
            xtick(x, true, true);
    }
    for (double y = f.ya; y <= f.yb + ystep * 1e-9; y += ystep) {
        const double Y = f.Y(y);
        s += "<line x1=\"" + px(f.left - 6) + "\" y1=\"" + px(Y) + "\" x2=\"" + px(f.left) +
             "\" y2=\"" + px(Y) + "\" stroke=\"#333\"/>\n";
        s += "<line x1=\"" + px(f.left) + "\" y1=\"" + px(Y) + "\" x2=\"" + px(f.right) +
             "\" y2=\"" + px(Y) + "\" stroke=\"#e4e4e4\"/>\n";
        s += "<text x=\"" + px(f.left - 9) + "\" y=\"" + px(Y + 4) + "\" text-anchor=\"end\">" +
             fmt("%g", y) + "</text>\n";
    }
    s += "</g>\n";
    s += "<text x=\"" + px((f.left + f.right) / 2) + "\" y=\"" + px(H - 18) +
         "\" text-anchor=\"middle\">" +
         svgEscape(runtimeMeasureAxisLabel(d.runtimeMeasure) + (logX ? ", log scale" : "")) +
         "</text>\n";
    s += "<text transform=\"translate(20," + px((f.top + f.bottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">corpus F1 (%)</text>\n";

    return s;
}

// The fitted sigmoid (footnote 12), sampled along the x axis and clipped to the plot.
std::string frontierFit(const FrontierData& d, const Frame& f) {
    std::string s;
    const bool logX = f.logX;
    if (d.fit) {
        std::string path;
        const int samples = 240;
        for (int i = 0; i <= samples; ++i) {
            const double t = static_cast<double>(i) / samples;
            const double x = logX ? f.xa * std::pow(f.xb / f.xa, t) : f.xa + (f.xb - f.xa) * t;
            if (!(x + d.fit->c > 0)) continue;
            const double y = (*d.fit)(x);
            if (!std::isfinite(y)) continue;
            path += (path.empty() ? "M" : " L") + px(f.X(x)) + "," + px(f.Y(y));
        }
        if (!path.empty())
            s += "<path class=\"fit\" d=\"" + path +
                 "\" fill=\"none\" stroke=\"#7a7a7a\" stroke-width=\"1.5\" "
                 "stroke-dasharray=\"6,4\" clip-path=\"url(#plotArea)\"/>\n";
    }
    return s;
}

// Per point: the cone of λ where it is optimal in the set, and the arrow of its own λ.
std::string frontierCones(const FrontierData& d, const FrontierSvgOptions& opt, const Frame& f) {
    std::string s;
    const double coneR = 30, arrowLen = 40;
    for (const auto& e : d.points) {
        const double X = f.X(e.runtime), Y = f.Y(e.accuracy);
        if (opt.cones && !e.lambdaRange.empty) {
            const double a0 = f.angle(e.runtime, e.lambdaRange.lo),
                         a1 = f.angle(e.runtime, e.lambdaRange.hi);
            std::string path = "M" + px(X) + "," + px(Y);
            for (int i = 0; i <= 16; ++i) {
                const double a = a0 + (a1 - a0) * i / 16.0;
                path += " L" + px(X + coneR * std::cos(a)) + "," + px(Y + coneR * std::sin(a));
            }
            s += "<path class=\"cone\" d=\"" + path +
                 " Z\" fill=\"#2ca05a\" fill-opacity=\"0.18\" stroke=\"none\"/>\n";
        }
        if (std::isfinite(e.lambda)) {
            const double a = f.angle(e.runtime, e.lambda);
            s += "<line class=\"lambda-arrow\" x1=\"" + px(X) + "\" y1=\"" + px(Y) + "\" x2=\"" +
                 px(X + arrowLen * std::cos(a)) + "\" y2=\"" + px(Y + arrowLen * std::sin(a)) +
                 "\" stroke=\"#1b7f3b\" stroke-width=\"1.3\" marker-end=\"url(#arrowhead)\"/>\n";
        }
    }
    return s;
}

// Label offsets: labels of points crowded on screen alternate below/above the point.
std::vector<double> labelOffsets(const FrontierData& d, const Frame& f) {
    std::vector<double> labelDy(d.points.size(), 14);
    std::vector<size_t> order(d.points.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return d.points[a].runtime < d.points[b].runtime; });
    double lastX = -1e9, lastY = -1e9, lastDy = -8;
    for (size_t i : order) {
        const double X = f.X(d.points[i].runtime), Y = f.Y(d.points[i].accuracy);
        const bool crowded = X - lastX < 48 && std::abs(Y - lastY) < 16;
        labelDy[i] = crowded && lastDy > 0 ? -8 : 14;
        lastX = X;
        lastY = Y;
        lastDy = labelDy[i];
    }
    return labelDy;
}

// The Pareto polyline, the points with their tooltips and labels, and the unpruned point.
std::string frontierPoints(const FrontierData& d, const FrontierSvgOptions& opt, const Frame& f,
                           const Unpruned& unpr) {
    std::string s;
    if (!d.frontier.empty()) {
        std::string pts;
        for (int i : d.frontier) {
            const auto& e = d.points[static_cast<size_t>(i)];
            pts += (pts.empty() ? "" : " ") + px(f.X(e.runtime)) + "," + px(f.Y(e.accuracy));
        }
        s += "<polyline class=\"pareto\" points=\"" + pts +
             "\" fill=\"none\" stroke=\"#1b7f3b\" stroke-width=\"2\"/>\n";
    }
    const std::vector<double> labelDy = labelOffsets(d, f);
    for (size_t i = 0; i < d.points.size(); ++i) {
        const auto& e = d.points[i];
        const double X = f.X(e.runtime), Y = f.Y(e.accuracy);
        s += "<circle class=\"point\" cx=\"" + px(X) + "\" cy=\"" + px(Y) + "\" r=\"4.5\" fill=\"" +
             std::string(e.onFrontier ? "#1b7f3b" : "white") +
             "\" stroke=\"#1b7f3b\" stroke-width=\"1.5\"><title>" +
             svgEscape(e.id + ": " + fmt("%.2f", e.accuracy) + " F1, runtime " +
                       fmt("%.4g", e.runtime) +
                       (std::isfinite(e.lambda) ? ", λ = " + fmt("%.4g", e.lambda) : "")) +
             "</title></circle>\n";
        if (opt.labels)
            s += "<text class=\"label\" x=\"" + px(X + 7) + "\" y=\"" + px(Y + labelDy[i]) +
                 "\" fill=\"#333\" font-size=\"10\">" + svgEscape(pointLabel(e)) + "</text>\n";
    }
    if (unpr.shown) {
        const double X = f.X(unpr.x), Y = f.Y(unpr.y);
        s += "<rect class=\"unpruned\" x=\"" + px(X - 5) + "\" y=\"" + px(Y - 5) +
             "\" width=\"10\" height=\"10\" fill=\"#b03030\"><title>" +
             svgEscape("unpruned: " + fmt("%.2f", unpr.y) + " F1, runtime " + fmt("%.4g", unpr.x)) +
             "</title></rect>\n";
        s += "<text x=\"" + px(X) + "\" y=\"" + px(Y + 30) +
             "\" text-anchor=\"middle\" fill=\"#b03030\">unpruned</text>\n";
    }
    return s;
}

// The legend (lower right: a frontier leaves that corner empty).
std::string frontierLegend(const Frame& f) {
    std::string s;
    const double lx = f.right - 230, ly = f.bottom - 98;
    s += "<g class=\"legend\">\n<rect x=\"" + px(lx) + "\" y=\"" + px(ly) +
         "\" width=\"222\" height=\"90\" fill=\"white\" fill-opacity=\"0.9\" stroke=\"#bbb\"/>\n";
    auto entry = [&](int row, const std::string& mark, const std::string& label) {
        const double y = ly + 16 + 15 * row;
        s += mark;
        s += "<text x=\"" + px(lx + 34) + "\" y=\"" + px(y + 4) + "\">" + svgEscape(label) +
             "</text>\n";
    };
    entry(0,
          "<circle cx=\"" + px(lx + 16) + "\" cy=\"" + px(ly + 16) +
              "\" r=\"4\" fill=\"#1b7f3b\"/>\n",
          "policy (hollow: dominated)");
    entry(1,
          "<line x1=\"" + px(lx + 6) + "\" y1=\"" + px(ly + 31) + "\" x2=\"" + px(lx + 26) +
              "\" y2=\"" + px(ly + 31) + "\" stroke=\"#1b7f3b\" stroke-width=\"2\"/>\n",
          "Pareto frontier");
    entry(2,
          "<line x1=\"" + px(lx + 6) + "\" y1=\"" + px(ly + 46) + "\" x2=\"" + px(lx + 26) +
              "\" y2=\"" + px(ly + 46) +
              "\" stroke=\"#7a7a7a\" stroke-dasharray=\"6,4\" stroke-width=\"1.5\"/>\n",
          "fitted h(x) (footnote 12)");
    entry(3,
          "<line x1=\"" + px(lx + 8) + "\" y1=\"" + px(ly + 61) + "\" x2=\"" + px(lx + 24) +
              "\" y2=\"" + px(ly + 61) + "\" stroke=\"#1b7f3b\" marker-end=\"url(#arrowhead)\"/>\n",
          "direction of acc − λᵢ·runtime");
    entry(4,
          "<rect x=\"" + px(lx + 9) + "\" y=\"" + px(ly + 71) +
              "\" width=\"14\" height=\"10\" fill=\"#2ca05a\" fill-opacity=\"0.25\"/>\n",
          "λ range where optimal in the set");
    return s + "</g>\n";
}

} // namespace

std::string frontierSvg(const FrontierData& d, const FrontierSvgOptions& opt) {
    Unpruned unpr;
    unpr.shown = opt.showUnpruned && d.unpruned.is_object();
    if (unpr.shown) {
        unpr.x = runtimeFromMetrics(d.unpruned, d.runtimeMeasure);
        unpr.y = accuracyFromMetrics(d.unpruned);
    }
    double ystep = 1;
    const Frame f = frontierFrame(d, opt, unpr, ystep);
    return frontierHeader(d, opt, f) + frontierAxes(d, opt, f, ystep) + frontierFit(d, f) +
           frontierCones(d, opt, f) + frontierPoints(d, opt, f, unpr) + frontierLegend(f) +
           "</svg>\n";
}

void writeFrontierSvg(const FrontierData& d, const std::string& path,
                      const FrontierSvgOptions& opt) {
    writeFileAtomically(path, frontierSvg(d, opt));
}

} // namespace prunescope
