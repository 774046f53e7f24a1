#pragma once
// Dev accuracy per training epoch, one line per update strategy, as a standalone SVG — the shape
// of Zhang et al. 2013's Figure 2 ("UAS on Penn-YM dev" per epoch for s-max, p-max, skip,
// standard), one panel per beam size; and LOLS's learning curves (`lols-plot`, iteration 0 first).
// Drawn on core/plot's frame (SvgPlot.h).
#include <string>
#include <vector>

namespace prunescope {

struct LearningCurve {
    std::string label;     // e.g. "s-max"
    std::vector<double> y; // value after epoch 1, 2, ...
    int best = -1;         // index of the chosen epoch (drawn as a ring), -1 = none
};

struct LearningPanel {
    std::string title; // e.g. "beam k = 16"
    std::vector<LearningCurve> curves;
};

struct LearningCurveSvgOptions {
    std::string title = "UAS on dev per epoch";
    std::string yLabel = "UAS (%)";
    std::string xLabel = "epochs";
    int firstX =
        1; // the x value of each curve's first point (LOLS: iteration 0, the initial policy)
    int columns = 2;
    int panelWidth = 430, panelHeight = 300;
};

// Elements (for tests): one <g class="panel"> per panel, one <polyline class="curve"
// data-label="..."> per curve with >= 2 points, one <circle class="point"> per value.
std::string learningCurveSvg(const std::vector<LearningPanel>& panels,
                             const LearningCurveSvgOptions& opt = {});
void writeLearningCurveSvg(const std::vector<LearningPanel>& panels, const std::string& path,
                           const LearningCurveSvgOptions& opt = {}); // atomic

} // namespace prunescope
