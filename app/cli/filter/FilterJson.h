#pragma once
// How filter-train and filter-eval write a threshold and a coverage curve in JSON.
#include "core/filters/FilterEval.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace prunescope::cli {

// The threshold, or "inf" for an infinite one (JSON has no infinity).
nlohmann::json thresholdJson(double t);
// [{"threshold", "coverage", "reduction"}, ...]
nlohmann::json curveJson(const std::vector<CurvePoint>& c);

} // namespace prunescope::cli
