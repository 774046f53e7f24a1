// Pruning stages from the command line.
#include "app/cli/DepPipelineOptions.h"

namespace prunescope::cli {

void addDepStageOptions(CLI::App& /*sub*/, DepStageOptions& /*o*/) {}

nlohmann::json addDepStages(DepPipeline& /*pipeline*/, DepStageOptions& /*o*/) { return nlohmann::json::array(); }

} // namespace prunescope::cli
