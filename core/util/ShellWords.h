// Shell words for the equivalent command lines the retrain dialogs and `frontier-retrain` print.
#pragma once

#include <string>

namespace prunescope {

// s as one POSIX shell word: unchanged when it holds no blank, quote or shell character, else in
// single quotes (a ' inside becomes '\'').
std::string shellWord(const std::string& s);

// x with 17 significant digits, so the command reproduces the recorded double exactly.
std::string exactNumber(double x);

} // namespace prunescope
