#pragma once
// Doubles stored as floats (policy weights, log probabilities): which doubles round to a finite
// float, and that float. |x| < 2^128 - 2^103 rounds to at most FLT_MAX; anything larger becomes
// inf.
#include <cmath>
#include <limits>

namespace prunescope {

inline bool roundsToFiniteFloat(double x) {
    return std::isfinite(x) && std::abs(x) < 0x1.ffffffp127;
}

// The float nearest to x, for x with roundsToFiniteFloat(x) (the top half-ulp is clamped explicitly
// rather than left to the conversion).
inline float toFiniteFloat(double x) {
    constexpr float kMax = std::numeric_limits<float>::max();
    return std::abs(x) > static_cast<double>(kMax)
               ? std::copysign(kMax, static_cast<float>(x > 0 ? 1 : -1))
               : static_cast<float>(x);
}

} // namespace prunescope
