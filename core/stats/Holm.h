#pragma once
// Holm (1979) step-down correction for many tests; used by every results table that tests
// several rows (mcmc bias comparisons, cube UAS comparisons).
#include <vector>

namespace prunescope {

// Holm-adjusted p-values, in the input's order: sort ascending, multiply the i-th smallest
// (0-based) by (m - i), take the running maximum, cap at 1.
std::vector<double> holmAdjust(const std::vector<double>& p);

} // namespace prunescope
