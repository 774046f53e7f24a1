#pragma once
// The bias experiment as a standalone SVG plot, like Bouchard-Côté et al. (2009) Fig. 4(d): mean
// bias (span-posterior L1, or expected-rule-count L1) per sentence against the total pushes spent,
// relative to exact inside-outside, both axes logarithmic. Series: randomized pruning (one point
// per iteration count, ± one standard deviation over repeats), tic-tac-toe figure-of-merit
// thresholds, learned policies' masks, and the exact-posterior thresholds (an oracle whose own
// cost is not counted). Drawn through core/plot (SvgPlot), as every SVG figure of core.
#include "core/mcmc/BiasExperiment.h"

#include <string>

namespace prunescope {

struct BiasPlotOptions {
    bool ruleCounts = false; // plot expected-rule-count L1 instead of span-posterior L1
    std::string title;       // default: derived from the metric
    int width = 820, height = 540;
};

// What the plot shows: the summaries of an experiment, from the result or from its JSON
// (BiasExperimentResult::toJson, the "experiment" key of `prunescope-cli randomized --json`), so a
// plot can be redrawn without recomputing (`prunescope-cli randomized --replot FILE.json`).
struct BiasPlotData {
    double exactPushes = 0;
    int sentences = 0;
    std::string selection;
    double supportThreshold = 0;
    std::vector<BiasSummary> randomized, fixed, oracle;
    static BiasPlotData from(const BiasExperimentResult& r);
    static BiasPlotData fromJson(const nlohmann::json& experiment); // throws std::invalid_argument
};

// Elements (for tests): <polyline class="series" data-name="..."> per series with ≥ 2 points, one
// element of class "point" (circle, rect or path) with data-series="..." per point.
std::string biasPlotSvg(const BiasPlotData& d, const BiasPlotOptions& opt = {});
void writeBiasPlotSvg(const BiasPlotData& d, const std::string& path,
                      const BiasPlotOptions& opt = {}); // atomic

} // namespace prunescope
