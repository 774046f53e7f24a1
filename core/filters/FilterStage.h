#pragma once
// The arc filter as a DepPipeline stage (Cherry & Bergsma 2011, sec. 4: arcs are filtered before
// feature extraction and parsing): "filter", not exact, keeps the incoming arcs whose margin is
// <= the threshold (by default the filter's operating point).
#include "core/dep/DepPipeline.h"
#include "core/filters/ArcFilter.h"

#include <memory>

namespace prunescope {

// The stage shares ownership of the filter.
ArcPruningStage arcFilterStage(std::shared_ptr<const ArcFilter> filter);
ArcPruningStage arcFilterStage(std::shared_ptr<const ArcFilter> filter, double threshold);

} // namespace prunescope
