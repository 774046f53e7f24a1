// The dependency frontier as SVG (Rush & Petrov 2012 sec. 6; Cherry & Bergsma 2011 sec. 5).
#include "core/frontier/DepFrontierSvg.h"

#include "core/frontier/Frontier.h"
#include "core/plot/SvgText.h"
#include "core/util/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace prunescope {

namespace {

struct DepAxis {
    double lo, hi;
    bool log;
    double map(double v, double a, double b) const {
        const double x = log ? std::log10(std::max(v, 1e-12)) : v;
        const double l = log ? std::log10(lo) : lo, h = log ? std::log10(hi) : hi;
        return a + (b - a) * (h > l ? (x - l) / (h - l) : 0.5);
    }
};

std::string depTick(double v, bool share) {
    if (share) return svgFixed(100 * v, v < 0.01 ? 1 : 0) + "%";
    return v >= 1000 ? svgFixed(v / 1000, 0) + "k" : svgFixed(v, 0);
}

// One marker: circle (sweep), diamond (points) or square (reference).
void depMarker(std::ostringstream& o, DepFrontierStyle style, double x, double y,
               const std::string& colour, const std::string& title, const char* cls) {
    if (style == DepFrontierStyle::Reference)
        o << "<rect class=\"" << cls << "\" x=\"" << svgFixed(x - 4.5, 1) << "\" y=\""
          << svgFixed(y - 4.5, 1) << "\" width=\"9\" height=\"9\" fill=\"" << colour
          << "\" stroke=\"black\">";
    else if (style == DepFrontierStyle::Points)
        o << "<polygon class=\"" << cls << "\" points=\"" << svgFixed(x, 1) << ","
          << svgFixed(y - 6, 1) << " " << svgFixed(x + 6, 1) << "," << svgFixed(y, 1) << " "
          << svgFixed(x, 1) << "," << svgFixed(y + 6, 1) << " " << svgFixed(x - 6, 1) << ","
          << svgFixed(y, 1) << "\" fill=\"" << colour << "\">";
    else
        o << "<circle class=\"" << cls << "\" cx=\"" << svgFixed(x, 1) << "\" cy=\""
          << svgFixed(y, 1) << "\" r=\"3.5\" fill=\"" << colour << "\">";
    o << "<title>" << svgEscape(title) << "</title>"
      << (style == DepFrontierStyle::Reference ? "</rect>"
          : style == DepFrontierStyle::Points  ? "</polygon>"
                                               : "</circle>")
      << "\n";
}

enum PanelKind { Speed, Arcs, Zoom };

// The figure's layout and the four axes its panels use: UAS (all, and the zoom from the lowest
// exhaustive reference - 1.5 up), tokens per second and arcs kept (both log).
struct DepLayout {
    std::vector<PanelKind> kinds{Speed};
    int panels = 1, pw = 440, ph = 360, top = 60, left0 = 80, gap = 90, W = 0, H = 0;
    DepAxis yU{0, 1, false}, yZ{0, 1, false}, xT{1, 10, true}, xA{0.01, 1, true};
};

DepLayout depLayout(const DepFrontier& f) {
    DepLayout L;
    if (f.arcsPanel) L.kinds.push_back(Arcs);
    if (f.zoomPanel) L.kinds.push_back(Zoom);
    L.panels = static_cast<int>(L.kinds.size());
    const int rows = static_cast<int>(f.series.size());
    L.W = std::max(980, L.left0 + L.panels * L.pw + (L.panels - 1) * L.gap + 40);
    L.H = L.top + L.ph + 60 + 18 * rows + 30;
    double uLo = 100, uHi = 0, aLo = 1, aHi = 0, tLo = 1e18, tHi = 0;
    bool any = false;
    double refLo = 100;
    for (const auto& s : f.series)
        for (const auto& q : s.points) {
            any = true;
            uLo = std::min(uLo, q.uas), uHi = std::max(uHi, q.uas);
            tLo = std::min(tLo, std::max(q.tokensPerSecond, 1e-3)),
            tHi = std::max(tHi, q.tokensPerSecond);
            if (s.style == DepFrontierStyle::Reference) refLo = std::min(refLo, q.uas);
            if (q.arcsKept >= 0)
                aLo = std::min(aLo, std::max(q.arcsKept, 1e-4)), aHi = std::max(aHi, q.arcsKept);
        }
    if (!any) uLo = 0, uHi = 100, tLo = 1, tHi = 10;
    if (aHi < aLo) aLo = 0.01, aHi = 1;
    const double upad = std::max(0.5, 0.05 * (uHi - uLo));
    L.yU = {std::floor(uLo - upad), std::ceil(uHi + upad), false};
    L.yZ = {std::floor(std::min(refLo, uHi) - 1.5), std::ceil(uHi + 0.3), false};
    L.xT = {tLo / 1.3, std::max(tHi * 1.3, tLo * 2), true};
    L.xA = {std::max(1e-4, aLo / 1.3),
            std::min(1.0, aHi * 1.3) > aLo / 1.3 ? std::min(1.0, aHi * 1.3) : aLo * 2, true};
    return L;
}

// One panel's pixel box and axes.
struct DepPanel {
    PanelKind kind;
    const DepAxis& xa;
    const DepAxis& ya;
    int x0, x1, y0, y1;
    bool share() const { return kind == Arcs; }
    bool zoom() const { return kind == Zoom; }
    double X(const DepFrontierPoint& q) const {
        return xa.map(share() ? q.arcsKept : q.tokensPerSecond, x0, x1);
    }
    double Y(double u) const { return ya.map(u, y0, y1); }
};

// The panel's frame, UAS ticks with grid lines, 1-2-5 log ticks of x, and the axis titles.
void depPanelAxes(std::ostringstream& o, const DepPanel& p) {
    const int x0 = p.x0, x1 = p.x1, y0 = p.y0, y1 = p.y1, pw = x1 - x0, ph = y0 - y1;
    o << "<g class=\"panel\">\n<rect x=\"" << x0 << "\" y=\"" << y1 << "\" width=\"" << pw
      << "\" height=\"" << ph << "\" fill=\"none\" stroke=\"#444\"/>\n";
    const int yDecimals = svgTickDecimals(svgNiceStep(p.ya.hi - p.ya.lo, 5));
    for (const double u : svgTicks(p.ya.lo, p.ya.hi, 5)) {
        o << "<text x=\"" << x0 - 6 << "\" y=\"" << svgFixed(p.Y(u) + 4, 1)
          << "\" text-anchor=\"end\">" << svgFixed(u, yDecimals) << "</text>\n"
          << "<line x1=\"" << x0 << "\" x2=\"" << x1 << "\" y1=\"" << svgFixed(p.Y(u), 1)
          << "\" y2=\"" << svgFixed(p.Y(u), 1) << "\" stroke=\"#eee\"/>\n";
    }
    for (int e = static_cast<int>(std::floor(std::log10(p.xa.lo)));
         e <= static_cast<int>(std::ceil(std::log10(p.xa.hi))); ++e)
        for (int m : {1, 2, 5}) {
            const double v = m * std::pow(10.0, e);
            if (v < p.xa.lo || v > p.xa.hi) continue;
            const double x = p.xa.map(v, x0, x1);
            o << "<line x1=\"" << svgFixed(x, 1) << "\" x2=\"" << svgFixed(x, 1) << "\" y1=\"" << y0
              << "\" y2=\"" << y0 + 5 << "\" stroke=\"#444\"/>"
              << "<text x=\"" << svgFixed(x, 1) << "\" y=\"" << y0 + 18
              << "\" text-anchor=\"middle\">" << depTick(v, p.share()) << "</text>\n";
        }
    o << "<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << y0 + 38 << "\" text-anchor=\"middle\">"
      << (p.share() ? "arcs reaching the first exact stage (share of n², log)"
                    : "tokens per second (CPU, log)")
      << "</text>\n"
      << (p.zoom()
              ? "<text x=\"" + std::to_string((x0 + x1) / 2) + "\" y=\"" + std::to_string(y1 - 6) +
                    "\" text-anchor=\"middle\" font-size=\"11\">zoom: UAS ≥ " +
                    svgFixed(p.ya.lo, 0) + " (lower points omitted)</text>\n"
              : std::string())
      << "<text transform=\"translate(" << x0 - 44 << "," << (y0 + y1) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">UAS (%, no punctuation)</text>\n";
}

// The Pareto line over every point (faster and at least as accurate is better).
void depPareto(std::ostringstream& o, const DepFrontier& f, const DepPanel& p) {
    std::vector<const DepFrontierPoint*> all;
    std::vector<FrontierPoint> pts;
    for (const auto& s : f.series)
        for (const auto& q : s.points)
            all.push_back(&q),
                pts.push_back({1.0 / std::max(q.tokensPerSecond, 1e-12), q.uas, q.label});
    o << "<polyline class=\"pareto\" fill=\"none\" stroke=\"#888\" "
         "stroke-dasharray=\"5,4\" points=\"";
    for (const int i : paretoFrontier(pts))
        o << svgFixed(p.X(*all[static_cast<std::size_t>(i)]), 1) << ","
          << svgFixed(p.Y(all[static_cast<std::size_t>(i)]->uas), 1) << " ";
    o << "\"/>\n";
}

// A series in a panel: its line (sweeps), markers with tooltips, the dev-chosen ring, labels.
void depSeries(std::ostringstream& o, const DepFrontierSeries& s, const DepPanel& p) {
    std::vector<const DepFrontierPoint*> pts;
    for (const auto& q : s.points)
        if ((!p.share() || q.arcsKept >= 0) && (!p.zoom() || q.uas >= p.ya.lo)) pts.push_back(&q);
    if (s.style == DepFrontierStyle::Sweep && pts.size() >= 2) {
        std::sort(pts.begin(), pts.end(), [&](auto* a, auto* b) { return p.X(*a) < p.X(*b); });
        o << "<polyline class=\"series\" data-name=\"" << svgEscape(s.name)
          << "\" fill=\"none\" stroke=\"" << s.colour << "\" stroke-width=\"1.5\" points=\"";
        for (const auto* q : pts)
            o << svgFixed(p.X(*q), 1) << "," << svgFixed(p.Y(q->uas), 1) << " ";
        o << "\"/>\n";
    }
    for (const auto* q : pts) {
        const double x = p.X(*q), y = p.Y(q->uas);
        depMarker(o, s.style, x, y, s.colour,
                  s.name + " " + q->label + " [" + s.model + "]: UAS " + svgFixed(q->uas, 2) +
                      ", " + svgFixed(q->tokensPerSecond, 0) + " tokens/s",
                  s.style == DepFrontierStyle::Reference ? "reference" : "point");
        if (q->chosen)
            o << "<circle cx=\"" << svgFixed(x, 1) << "\" cy=\"" << svgFixed(y, 1)
              << "\" r=\"8\" fill=\"none\" stroke=\"black\"/>\n";
        o << "<text x=\"" << svgFixed(x + 6, 1) << "\" y=\"" << svgFixed(y - 6, 1)
          << "\" font-size=\"9\" fill=\"" << s.colour << "\">" << svgEscape(q->label)
          << "</text>\n";
    }
}

// One entry per series below the panels, then the key of the marker shapes.
void depLegend(std::ostringstream& o, const DepFrontier& f, const DepLayout& L) {
    int ly = L.top + L.ph + 66;
    for (const auto& s : f.series) {
        o << "<g class=\"legend-entry\" data-name=\"" << svgEscape(s.name) << "\" data-model=\""
          << svgEscape(s.model) << "\">";
        depMarker(o, s.style, L.left0 + 4, ly - 4, s.colour, s.name, "legend-marker");
        o << "<text x=\"" << L.left0 + 16 << "\" y=\"" << ly << "\">" << svgEscape(s.name)
          << " — model " << svgEscape(s.model) << "</text></g>\n";
        ly += 18;
    }
    o << "<text x=\"" << L.left0 << "\" y=\"" << ly + 4
      << "\" font-size=\"11\">■ exhaustive · ◆ separate systems · ● sweep · ○ "
         "dev-chosen</text>\n";
}

} // namespace

std::string depFrontierSvg(const DepFrontier& f) {
    const DepLayout L = depLayout(f);
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << L.W << "\" height=\"" << L.H
      << "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << L.W / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">"
      << svgEscape(f.title) << "</text>\n";
    for (int panel = 0; panel < L.panels; ++panel) {
        const PanelKind kind = L.kinds[static_cast<std::size_t>(panel)];
        const int x0 = L.left0 + panel * (L.pw + L.gap);
        const DepPanel p{kind,
                         kind == Arcs ? L.xA : L.xT,
                         kind == Zoom ? L.yZ : L.yU,
                         x0,
                         x0 + L.pw,
                         L.top + L.ph,
                         L.top};
        depPanelAxes(o, p);
        if (f.paretoLine && kind == Speed) depPareto(o, f, p);
        for (const auto& s : f.series)
            depSeries(o, s, p);
        o << "</g>\n";
    }
    depLegend(o, f, L);
    o << "</svg>\n";
    return o.str();
}

void writeDepFrontierSvg(const DepFrontier& f, const std::string& path) {
    writeFileAtomically(path, depFrontierSvg(f));
}

} // namespace prunescope
