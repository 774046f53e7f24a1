#pragma once
// A number given on the command line as a decimal, in exponent form or as a power ("2^-13").
#include <string>

namespace prunescope::cli {

// "0.0001220703125", "2^-13" or "2e-4"; throws std::invalid_argument "WHAT: cannot read 'S' as a
// number".
double parseNumber(const std::string& s, const std::string& what);

} // namespace prunescope::cli
