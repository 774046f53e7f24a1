#pragma once
// The max-marginal pruning threshold of the structured cascade (Weiss & Taskar 2010; Rush & Petrov
// 2012 sec. 4 "Max-marginal pruning"): t_alpha = alpha * max + (1 - alpha) * mean of the
// max-marginals of a stage's parts.
//
// The mean is over the parts with a finite max-marginal (parts some derivation under the incoming
// mask uses); max is the best derivation's score. Keep rule (ties documented): a part is kept iff
// its max-marginal is finite and (mm > t_alpha or mm >= max). The second clause keeps the best
// derivation's parts at every alpha (also alpha >= 1, and when every max-marginal is equal), so a
// stage never prunes its own Viterbi tree. alpha = -inf gives t = -inf: every part with a finite
// max-marginal is kept (the "keep all" setting).
#include <limits>
#include <span>

namespace prunescope {

struct CascadeThreshold {
    double max = -std::numeric_limits<double>::infinity();
    double mean = -std::numeric_limits<double>::infinity();
    double value = -std::numeric_limits<double>::infinity(); // t_alpha
    long parts = 0;                                          // finite max-marginals averaged
};

CascadeThreshold cascadeThreshold(std::span<const double> maxMarginals, double alpha);

inline bool keepPart(double mm, const CascadeThreshold& t) {
    return mm != -std::numeric_limits<double>::infinity() && (mm > t.value || mm >= t.max);
}

} // namespace prunescope
