// The cascade's alpha frontier as SVG (Rush & Petrov 2012 sec. 6).
#include "core/vine/VineFrontierSvg.h"
#include "core/util/SvgText.h"

#include "core/util/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace prunescope {

namespace {

struct Axis {
    double lo, hi;
    bool log;
    double map(double v, double a, double b) const {
        const double x = log ? std::log10(std::max(v, 1e-12)) : v;
        const double l = log ? std::log10(lo) : lo, h = log ? std::log10(hi) : hi;
        return a + (b - a) * (h > l ? (x - l) / (h - l) : 0.5);
    }
};

} // namespace

std::string vineFrontierSvg(const VineFrontierPlot& p) {
    const int W = 980, H = 470, pw = 400, ph = 340, top = 60, left0 = 80, gap = 90;
    std::vector<const VineFrontierPoint*> all;
    for (const auto& s : p.series)
        for (const auto& pt : s.points) all.push_back(&pt);
    for (const auto& r : p.references) all.push_back(&r);
    double uLo = 100, uHi = 0, aLo = 1, aHi = 0, tLo = 1e18, tHi = 0;
    for (const auto* q : all) {
        uLo = std::min(uLo, q->uas), uHi = std::max(uHi, q->uas);
        aLo = std::min(aLo, q->arcsKept), aHi = std::max(aHi, q->arcsKept);
        tLo = std::min(tLo, q->tokensPerSecond), tHi = std::max(tHi, q->tokensPerSecond);
    }
    if (all.empty()) uLo = 0, uHi = 100, aLo = 0.01, aHi = 1, tLo = 1, tHi = 10;
    const double upad = std::max(0.5, 0.05 * (uHi - uLo));
    const Axis yU{std::floor(uLo - upad), std::ceil(uHi + upad), false};
    const Axis xA{std::max(1e-4, aLo / 1.3), std::min(1.0, aHi * 1.3) > aLo / 1.3 ? std::min(1.0, aHi * 1.3) : aLo * 2, true};
    const Axis xT{std::max(1e-3, tLo / 1.3), std::max(tHi * 1.3, tLo * 2), true};
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << W / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" << svgEscape(p.title) << "</text>\n";
    for (int panel = 0; panel < 2; ++panel) {
        const Axis& xa = panel == 0 ? xA : xT;
        const int x0 = left0 + panel * (pw + gap), x1 = x0 + pw, y0 = top + ph, y1 = top;
        auto X = [&](const VineFrontierPoint& q) { return xa.map(panel == 0 ? q.arcsKept : q.tokensPerSecond, x0, x1); };
        auto Y = [&](double u) { return yU.map(u, y0, y1); };
        o << "<g class=\"panel\">\n<rect x=\"" << x0 << "\" y=\"" << y1 << "\" width=\"" << pw << "\" height=\"" << ph
          << "\" fill=\"none\" stroke=\"#444\"/>\n";
        for (int k = 0; k <= 4; ++k) {  // y ticks
            const double u = yU.lo + (yU.hi - yU.lo) * k / 4.0;
            o << "<text x=\"" << x0 - 6 << "\" y=\"" << svgFixed(Y(u) + 4, 1) << "\" text-anchor=\"end\">" << svgFixed(u, 1) << "</text>\n"
              << "<line x1=\"" << x0 << "\" x2=\"" << x1 << "\" y1=\"" << svgFixed(Y(u), 1) << "\" y2=\"" << svgFixed(Y(u), 1) << "\" stroke=\"#eee\"/>\n";
        }
        for (int e = static_cast<int>(std::floor(std::log10(xa.lo))); e <= static_cast<int>(std::ceil(std::log10(xa.hi))); ++e)
            for (int m : {1, 2, 5}) {
                const double v = m * std::pow(10.0, e);
                if (v < xa.lo || v > xa.hi) continue;
                const double x = xa.map(v, x0, x1);
                o << "<line x1=\"" << svgFixed(x, 1) << "\" x2=\"" << svgFixed(x, 1) << "\" y1=\"" << y0 << "\" y2=\"" << y0 + 5 << "\" stroke=\"#444\"/>"
                  << "<text x=\"" << svgFixed(x, 1) << "\" y=\"" << y0 + 18 << "\" text-anchor=\"middle\">"
                  << (panel == 0 ? svgFixed(100 * v, v < 0.01 ? 1 : 0) + "%" : (v >= 1000 ? svgFixed(v / 1000, 0) + "k" : svgFixed(v, 0))) << "</text>\n";
            }
        o << "<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << y0 + 38 << "\" text-anchor=\"middle\">"
          << (panel == 0 ? "arcs reaching the first exact stage (share of n², log)" : "tokens per second (thread CPU, log)") << "</text>\n"
          << "<text transform=\"translate(" << x0 - 44 << "," << (y0 + y1) / 2 << ") rotate(-90)\" text-anchor=\"middle\">UAS (no punctuation)</text>\n";
        for (const auto& s : p.series) {
            if (s.points.size() >= 2) {
                o << "<polyline class=\"series\" data-name=\"" << svgEscape(s.name) << "\" fill=\"none\" stroke=\"" << s.colour << "\" stroke-width=\"1.5\" points=\"";
                std::vector<const VineFrontierPoint*> sorted;
                for (const auto& q : s.points) sorted.push_back(&q);
                std::sort(sorted.begin(), sorted.end(), [&](auto* a, auto* b) { return X(*a) < X(*b); });
                for (const auto* q : sorted) o << svgFixed(X(*q), 1) << "," << svgFixed(Y(q->uas), 1) << " ";
                o << "\"/>\n";
            }
            for (const auto& q : s.points) {
                o << "<circle class=\"point\" cx=\"" << svgFixed(X(q), 1) << "\" cy=\"" << svgFixed(Y(q.uas), 1) << "\" r=\"3.5\" fill=\"" << s.colour
                  << "\"><title>" << svgEscape(s.name + " " + q.label) << "</title></circle>\n";
                if (q.chosen)
                    o << "<circle cx=\"" << svgFixed(X(q), 1) << "\" cy=\"" << svgFixed(Y(q.uas), 1) << "\" r=\"8\" fill=\"none\" stroke=\"black\"/>\n";
                if (panel == 0)
                    o << "<text x=\"" << svgFixed(X(q) + 5, 1) << "\" y=\"" << svgFixed(Y(q.uas) - 5, 1) << "\" font-size=\"9\" fill=\"" << s.colour << "\">"
                      << svgEscape(q.label) << "</text>\n";
            }
        }
        for (const auto& r : p.references)
            o << "<rect class=\"reference\" x=\"" << svgFixed(X(r) - 4, 1) << "\" y=\"" << svgFixed(Y(r.uas) - 4, 1)
              << "\" width=\"8\" height=\"8\" fill=\"black\"><title>" << svgEscape(r.label) << "</title></rect>\n"
              << "<text x=\"" << svgFixed(X(r) - 6, 1) << "\" y=\"" << svgFixed(Y(r.uas) - 8, 1) << "\" text-anchor=\"end\" font-size=\"10\">" << svgEscape(r.label) << "</text>\n";
        o << "</g>\n";
    }
    int ly = top + ph + 60;
    int lx = left0;
    for (const auto& s : p.series) {
        o << "<circle cx=\"" << lx << "\" cy=\"" << ly - 4 << "\" r=\"4\" fill=\"" << s.colour << "\"/><text x=\"" << lx + 8 << "\" y=\"" << ly << "\">"
          << svgEscape(s.name) << "</text>\n";
        lx += 320;
    }
    o << "<text x=\"" << lx << "\" y=\"" << ly << "\">■ exhaustive · ○ dev-chosen</text>\n</svg>\n";
    return o.str();
}

void writeVineFrontierSvg(const VineFrontierPlot& plot, const std::string& path) { writeFileAtomically(path, vineFrontierSvg(plot)); }

} // namespace prunescope
