#pragma once
// The dependency speed/accuracy frontier (DepFrontier.h) as a standalone SVG: UAS against tokens/s
// (log), optionally a panel of UAS against the share of arcs reaching the first exact stage (Rush
// & Petrov 2012 sec. 6) and a zoom panel of UAS against tokens/s near the exhaustive parsers.
// Sweeps are polylines of circles, separate systems diamonds, exhaustive references squares in
// their series' colour; the dev-chosen point is ringed; the legend names each series and its final
// model. Used by vine-frontier, filter-frontier and dep-frontier. Hand-written SVG text (core has
// no Qt), like core/frontier/FrontierSvg.h.
#include "core/frontier/DepFrontier.h"

#include <string>

namespace prunescope {

// Elements (for tests): per panel <polyline class="series" data-name="..."> per sweep with >= 2
// points, <circle class="point">/<polygon class="point"> per non-reference point,
// <rect class="reference"> per reference point, <polyline class="pareto"> when f.paretoLine;
// <g class="legend-entry" data-name="..." data-model="..."> per series.
std::string depFrontierSvg(const DepFrontier& f);
void writeDepFrontierSvg(const DepFrontier& f, const std::string& path); // atomic

} // namespace prunescope
