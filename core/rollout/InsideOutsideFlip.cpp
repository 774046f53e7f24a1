// Eq. 3 (paper sec. 5.3): r̄ of the current mask and of every single-bit flip, from Z, r̃ and their
// derivatives with respect to the mask bits.
#include "core/rollout/InsideOutside.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace prunescope {

ExpectedRecall InsideOutside::current() const {
    ExpectedRecall e;
    if (zMant_ <= 0) return e;
    e.success = true;
    e.logZ = S(cell(0, n_)) * std::numbers::ln2 + std::log(zMant_);
    e.recall = gold_->count == 0 ? 1.0 : rMant_ / (gold_->count * zMant_);
    return e;
}

SpanGradient InsideOutside::gradient(int i, int k) const {
    if (!outsideDone_) throw std::logic_error("InsideOutside::gradient before run()");
    if (!PruningMask::prunable(n_, i, k)) throw std::invalid_argument("span is not prunable");
    SpanGradient sg;
    const int c = cell(i, k);
    if (dZ_[c] == 0.0) return sg;
    const int scale = S(c) + T_[c]; // both set where a derivative is nonzero (run())
    sg.logDZ = scale * std::numbers::ln2 + std::log(dZ_[c]);
    if (dR_[c] > 0) sg.logDR = scale * std::numbers::ln2 + std::log(dR_[c]);
    if (in_.mask().keep(i, k) && zMant_ > 0) { // Z = 0 leaves the top scale at the kEmpty sentinel
        const int top = S(cell(0, n_));
        const double zLeft = 1.0 - std::ldexp(dZ_[c] / zMant_, scale - top);
        const double rLeft = rMant_ > 0 ? 1.0 - std::ldexp(dR_[c] / rMant_, scale - top) : 1.0;
        sg.illConditioned = zLeft < kCancellation || rLeft < kCancellation;
    }
    return sg;
}

ExpectedRecall InsideOutside::flipped(int i, int k) const {
    if (!outsideDone_) throw std::logic_error("InsideOutside::flipped before run()");
    if (!PruningMask::prunable(n_, i, k)) throw std::invalid_argument("span is not prunable");
    const int c = cell(i, k);
    const int top = S(cell(0, n_));
    const int G = gold_->count;
    ExpectedRecall e;
    double z, r;
    int zScale;
    if (in_.mask().keep(i, k)) { // eq. 3 with Δ = -1
        if (zMant_ == 0.0) return e;
        z = zMant_, r = rMant_, zScale = top;
        // A span without outside or inside value (scale kEmpty = INT_MIN) has zero derivatives:
        // pruning it changes nothing, and its scale must not enter the (overflowing) sum.
        if (dZ_[c] != 0.0 || dR_[c] != 0.0) {
            const int scale = S(c) + T_[c];
            z -= std::ldexp(dZ_[c], scale - top);
            r -= std::ldexp(dR_[c], scale - top);
        }
    } else { // Δ = +1; the roll-in's Z may be 0 (then top is kEmpty)
        if (dZ_[c] == 0.0) return current();
        const int scale = S(c) + T_[c];
        if (zMant_ == 0.0) {
            z = dZ_[c], r = dR_[c], zScale = scale;
        } else {
            zScale = std::max(top, scale);
            z = std::ldexp(zMant_, top - zScale) + std::ldexp(dZ_[c], scale - zScale);
            r = std::ldexp(rMant_, top - zScale) + std::ldexp(dR_[c], scale - zScale);
        }
    }
    if (!(z > 0)) return e;
    e.success = true;
    e.logZ = zScale * std::numbers::ln2 + std::log(z);
    e.recall = G == 0 ? 1.0 : std::max(0.0, r) / (G * z);
    return e;
}

} // namespace prunescope
