#include "app/cli/filter/FilterJson.h"

#include <cmath>

namespace prunescope::cli {

nlohmann::json thresholdJson(double t) {
    return std::isinf(t) ? nlohmann::json("inf") : nlohmann::json(t);
}

nlohmann::json curveJson(const std::vector<CurvePoint>& c) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& p : c)
        a.push_back({{"threshold", thresholdJson(p.threshold)},
                     {"coverage", p.coverage},
                     {"reduction", p.reduction}});
    return a;
}

} // namespace prunescope::cli
