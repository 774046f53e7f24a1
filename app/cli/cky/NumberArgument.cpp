#include "app/cli/cky/NumberArgument.h"

#include <cmath>
#include <stdexcept>

namespace prunescope::cli {

double parseNumber(const std::string& s, const std::string& what) {
    try {
        if (auto caret = s.find('^'); caret != std::string::npos)
            return std::pow(std::stod(s.substr(0, caret)), std::stod(s.substr(caret + 1)));
        size_t used = 0;
        const double x = std::stod(s, &used);
        if (used != s.size()) throw std::invalid_argument(s);
        return x;
    } catch (const std::exception&) {
        throw std::invalid_argument(what + ": cannot read '" + s + "' as a number");
    }
}

} // namespace prunescope::cli
