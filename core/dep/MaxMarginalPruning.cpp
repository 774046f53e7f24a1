// Max-marginal pruning with the threshold t_alpha (MaxMarginalPruning.h).
#include "core/dep/MaxMarginalPruning.h"
#include "core/dep/Threshold.h"

#include <algorithm>
#include <cmath>

namespace prunescope {

double maxMarginalThreshold(const ArcMaxMarginals& mm, double alpha) {
    const CascadeThreshold t = cascadeThreshold(mm.value, alpha); // the one t_alpha (Threshold.h)
    return t.parts == 0 ? kHyperNegInf : t.value;
}

ArcMask pruneByMaxMarginals(const ArcMaxMarginals& mm, double alpha) {
    ArcMask out = ArcMask::none(mm.n);
    const double t = maxMarginalThreshold(mm, alpha);
    if (!std::isfinite(t)) return out;
    // Keep iff mm > t or mm reaches the best tree's score, so that no alpha prunes the stage's own
    // best tree (the rule of core/dep/Threshold.h); "reaches" allows rounding (1e-9 relative),
    // since inside-outside sums in another order than the chart.
    const double best = mm.best - 1e-9 * std::max(1.0, std::abs(mm.best));
    for (int h = 0; h <= mm.n; ++h)
        for (int m = 1; m <= mm.n; ++m)
            if (h != m && std::isfinite(mm(h, m)) && (mm(h, m) > t || mm(h, m) >= best))
                out.set(h, m, true);
    return out;
}

ArcPruningStage modelMaxMarginalStage(const DepModel& model, double alpha) {
    ArcPruningStage st;
    st.name = "max-marginal";
    st.exact = true;
    st.prune = [&model, alpha](const DepSentence&, const ArcMask& incoming,
                               DepSentenceFeatures& f) {
        ArcScores scores;
        f.arcScores(model.weights, &incoming, scores);
        const ArcMaxMarginals mm = arcMaxMarginals(scores, &incoming, model.singleRoot);
        StageResult r;
        r.mask = pruneByMaxMarginals(mm, alpha);
        r.pushes = mm.pushes;
        return r;
    };
    return st;
}

} // namespace prunescope
