#pragma once
// The pruning-stage options shared by dep-eval, dep-parse and dep-bench: each pruner adds its flag
// here and its stages in addDepStages (the vine cascade now; arc filters, ... next).
#include "core/dep/DepPipeline.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace prunescope::cli {

struct DepStageOptions {
    std::string cascade;  // --cascade FILE (vine-train)
    std::string filter;   // --filter FILE (filter-train): arc filter stage first
    // Objects the stages refer to, kept alive as long as the options.
    std::shared_ptr<void> keepAlive;
};

void addDepStageOptions(CLI::App& sub, DepStageOptions& o);
// Loads the pruners named by o and appends their stages; returns a JSON description of them.
nlohmann::json addDepStages(DepPipeline& pipeline, DepStageOptions& o);

} // namespace prunescope::cli
