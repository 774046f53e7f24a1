#pragma once
// A runtime/accuracy frontier as a standalone SVG image, like the paper's Fig. 2 (Vieira & Eisner
// 2017, sec. 7): policies as points, the Pareto line, the fitted sigmoid of footnote 12, for each
// policy an arrow along the gradient of accuracy - lambda_i * runtime, and the cone of lambdas for
// which it is optimal among the set. Hand-written SVG text (core has no Qt; see docs/results.md).
#include "core/frontier/FrontierFile.h"

#include <string>

namespace prunescope {

struct FrontierSvgOptions {
    int width = 860, height = 580; // pixels
    bool logX = true;              // runtimes of a sweep span orders of magnitude
    bool showUnpruned = true;      // the unpruned parser as a separate square marker
    bool labels = true;            // point ids next to the points
    bool cones = true;             // optimal-lambda cones
    std::string title;             // default: "Pruning frontier (<split>)"
};

// Elements (for tools and tests): one <circle class="point"> per point, one <rect
// class="unpruned">, <polyline class="pareto">, <path class="fit">, <line class="lambda-arrow"> per
// point with a lambda, <path class="cone"> per point with a non-empty lambda range.
std::string frontierSvg(const FrontierData& d, const FrontierSvgOptions& opt = {});
void writeFrontierSvg(const FrontierData& d, const std::string& path,
                      const FrontierSvgOptions& opt = {}); // atomic

} // namespace prunescope
