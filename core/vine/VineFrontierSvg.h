#pragma once
// The alpha frontier of the vine cascade (Rush & Petrov 2012 sec. 6, their speed/accuracy plot) as a
// standalone SVG: two panels, UAS against the share of arcs reaching the first exact stage and UAS
// against tokens/s; one polyline per series (the learned cascade's alpha sweep, the length-only
// vine's band sweep), the exhaustive parser as a square, the dev-chosen point ringed.
// Hand-written SVG text (core has no Qt), like core/frontier/FrontierSvg.h.
#include <string>
#include <vector>

namespace prunescope {

struct VineFrontierPoint {
    std::string label;          // "α=0.6", "b=3"
    double uas = 0, arcsKept = 0, tokensPerSecond = 0;
    bool chosen = false;
};

struct VineFrontierSeries {
    std::string name;
    std::string colour;         // "#1f77b4"
    std::vector<VineFrontierPoint> points;
};

struct VineFrontierPlot {
    std::string title;
    std::vector<VineFrontierSeries> series;
    std::vector<VineFrontierPoint> references;  // exhaustive parsers (squares)
};

// Elements (for tests): <polyline class="series" data-name="..."> per series with >= 2 points and
// panel, <circle class="point"> per point and panel, <rect class="reference"> per reference and panel.
std::string vineFrontierSvg(const VineFrontierPlot& plot);
void writeVineFrontierSvg(const VineFrontierPlot& plot, const std::string& path);  // atomic

} // namespace prunescope
