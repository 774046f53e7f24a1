// Pruning stages from the command line.
#include "app/cli/DepPipelineOptions.h"

#include "core/filters/ArcFilterFile.h"
#include "core/filters/FilterStage.h"

#include <cmath>

namespace prunescope::cli {

namespace {
// --filter FILE: the arc filter (Cherry & Bergsma 2011) as the first stage, at its operating point.
void addFilterOption(CLI::App& sub, DepStageOptions& o) {
    sub.add_option("--filter", o.filter, "Arc filter (from filter-train) applied before any other stage, at its operating point");
}
void addFilterStage(DepPipeline& pipeline, const DepStageOptions& o, nlohmann::json& info) {
    if (o.filter.empty()) return;
    auto f = std::make_shared<const ArcFilter>(loadArcFilter(o.filter));
    info.push_back({{"stage", "filter"}, {"path", o.filter}, {"kind", arcFilterKindName(f->kind)},
                    {"threshold", std::isinf(f->threshold) ? nlohmann::json("inf") : nlohmann::json(f->threshold)}});
    pipeline.addStage(arcFilterStage(std::move(f)));
}
} // namespace

void addDepStageOptions(CLI::App& sub, DepStageOptions& o) { addFilterOption(sub, o); }

nlohmann::json addDepStages(DepPipeline& pipeline, DepStageOptions& o) {
    nlohmann::json info = nlohmann::json::array();
    addFilterStage(pipeline, o, info);
    return info;
}

} // namespace prunescope::cli
