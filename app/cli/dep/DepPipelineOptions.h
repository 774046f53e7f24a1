#pragma once
// The pruning-stage options shared by dep-eval, dep-parse and dep-bench: each pruner adds its flag
// here and its stages in addDepStages (arc filter first, then the vine cascade).
#include "core/dep/DepPipeline.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace prunescope::cli {

struct DepStageOptions {
    std::string cascade;        // --cascade FILE (vine-train): vine and first-order stages
    std::vector<double> alphas; // --alpha A1,A2: override the cascade's dev-chosen alphas
    int lengthVine = 0;         // --length-vine B: the length-only vine (no learning), 0 = off
    std::string filter;         // --filter FILE (filter-train): the arc filter stage, first
    // Objects the stages refer to, kept alive as long as the options.
    std::shared_ptr<void> keepAlive;
};

void addDepStageOptions(CLI::App& sub, DepStageOptions& o);
// Loads the pruners named by o and appends their stages; returns a JSON description of them.
nlohmann::json addDepStages(DepPipeline& pipeline, DepStageOptions& o);

} // namespace prunescope::cli
