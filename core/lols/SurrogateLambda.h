#pragma once
// The default λ of a surrogate reward (sec. 7: r = accuracy − λ·runtime in the surrogate's units).
// A policy's meta.lambda comes from the frontier fit (footnote 12) and is usually in "F1 percent
// per mpush": a different quantity, not convertible without the policy's measured runtimes. It is
// used as the default only when its unit is already the surrogate's; otherwise the caller must
// give λ (lols/regret --lambda, the GUI's training dialog, which converts from a frontier point).
#include "core/policy/Policy.h"
#include "core/rollout/Rollout.h"

#include <string>

namespace prunescope {

// "accuracy per constituent built" (rCP) | "expected recall per kept span" (rDP).
std::string surrogateLambdaUnit(Surrogate s);

// given if not NaN; else meta.lambda when meta.lambdaUnit == surrogateLambdaUnit(s); else throws
// std::invalid_argument naming the policy's unit and the flag to pass.
double surrogateLambda(double given, const PolicyMetadata& meta, Surrogate s);

} // namespace prunescope
