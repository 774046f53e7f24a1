// The arc filter stage of DepPipeline (Cherry & Bergsma 2011, sec. 4).
#include "core/filters/FilterStage.h"

namespace prunescope {

ArcPruningStage arcFilterStage(std::shared_ptr<const ArcFilter> filter) {
    const double th = filter->threshold;
    return arcFilterStage(std::move(filter), th);
}

ArcPruningStage arcFilterStage(std::shared_ptr<const ArcFilter> filter, double threshold) {
    ArcPruningStage st;
    st.name = "filter";
    st.exact = false;
    st.prune = [filter = std::move(filter),
                threshold](const DepSentence& s, const ArcMask& incoming, DepSentenceFeatures&) {
        StageResult r;
        r.mask = ArcFilterScorer(*filter, s).mask(threshold);
        r.mask.intersect(incoming);
        return r;
    };
    return st;
}

} // namespace prunescope
