// Shell words for printed command lines (see ShellWords.h).
#include "core/util/ShellWords.h"

#include <cstdio>

namespace prunescope {

std::string shellWord(const std::string& s) {
    if (s.find_first_of(" \t'\"\\$`") == std::string::npos && !s.empty()) return s;
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string exactNumber(double x) {
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", x);
    return b;
}

} // namespace prunescope
