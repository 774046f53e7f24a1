// The long-sentence warning of the dependency commands (LongSentenceWarning.h).
#include "app/cli/dep/LongSentenceWarning.h"

#include <cmath>
#include <iostream>

namespace prunescope::cli {

double CubicCost::at(int n) const {
    const double r = static_cast<double>(n) / tokens;
    return seconds * r * r * r;
}

std::string longSentenceWarning(const std::vector<DepSentence>& sentences, const CubicCost& cost,
                                const std::string& hint) {
    constexpr double kWarnSeconds = 10;
    const DepSentence* longest = nullptr;
    int over = 0;
    for (const DepSentence& s : sentences) {
        if (cost.at(s.size()) > kWarnSeconds) ++over;
        if (!longest || s.size() > longest->size()) longest = &s;
    }
    if (over == 0) return {};
    const std::string where = longest->file.empty()
                                  ? std::string("<stdin>")
                                  : longest->file + ":" + std::to_string(longest->line);
    return "warning: " + where + ": a sentence of " + std::to_string(longest->size()) +
           " tokens; " + cost.decoder + " grows as n^3 and may take about " +
           std::to_string(static_cast<long>(std::lround(cost.at(longest->size())))) +
           " s on it alone" +
           (over > 1 ? " (" + std::to_string(over) + " sentences are estimated over 10 s each)"
                     : std::string()) +
           "; " + hint;
}

void warnLongSentences(const std::vector<DepSentence>& sentences, const CubicCost& cost,
                       const std::string& hint) {
    if (const std::string w = longSentenceWarning(sentences, cost, hint); !w.empty())
        std::cerr << w << "\n";
}

} // namespace prunescope::cli
