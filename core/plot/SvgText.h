#pragma once
// Text helpers for the SVG figures core writes without Qt (frontier, bias, learning-curve, vine
// and filter plots): XML escaping of labels, fixed-point numbers and round tick values.
#include <string>
#include <vector>

namespace prunescope {

// & < > " escaped for XML text and attribute values.
std::string svgEscape(const std::string& s);
// v with prec digits after the point ("%.*f"), as SVG coordinates and tick labels want.
std::string svgFixed(double v, int prec = 2);
// A round step (1, 2 or 5 x 10^k) that cuts range (> 0) into at most about target intervals.
double svgNiceStep(double range, int target);
// Tick values inside [lo, hi]: the multiples of svgNiceStep(hi - lo, target) on a linear axis, or
// 1, 2 and 5 x 10^k on a log axis (lo > 0). Empty if the range is empty or not finite.
std::vector<double> svgTicks(double lo, double hi, int target, bool log = false);
// Digits after the point that labels of ticks this far apart need (0 for steps of 1 or more).
int svgTickDecimals(double step);

} // namespace prunescope
