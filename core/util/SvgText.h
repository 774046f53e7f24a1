#pragma once
// Text helpers for the SVG figures core writes without Qt (frontier, bias, learning-curve, vine
// and filter plots): XML escaping of labels and fixed-point numbers.
#include <string>

namespace prunescope {

// & < > " escaped for XML text and attribute values.
std::string svgEscape(const std::string& s);
// v with prec digits after the point ("%.*f"), as SVG coordinates and tick labels want.
std::string svgFixed(double v, int prec = 2);

} // namespace prunescope
