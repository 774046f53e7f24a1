#pragma once
// Dependency decoders grow as n³ in the sentence length (Eisner 1996; cube pruning's items per
// span times its split points, Zhang et al. 2012 sec. 3): one warning line on stderr before the
// work when the longest sentence alone would take more than about 10 s, with the estimate and the
// flag that skips it (issue 46: a 600-token sentence took 130 s in cube-eval with no word of it).
// The scales were measured on 2-core machines: cube pruning 130 s at 600 tokens (the audit), 8.4 s
// at 300 (the bundled cube model, 2026-12-02); `dep parse` with the bundled first-order model 0.59
// s at 400 tokens, i.e. about 10 s at 1,000 (docs/reliability.md). An order of magnitude, not a
// promise.
#include "core/dep/DepTree.h"

#include <string>
#include <vector>

namespace prunescope::cli {

struct CubicCost {
    const char* decoder; // "cube pruning"
    double seconds;      // measured at `tokens` tokens
    int tokens;
    double at(int n) const; // seconds * (n / tokens)^3
};
inline constexpr CubicCost kCubePruningCost{"cube pruning", 130, 600};
inline constexpr CubicCost kEisnerCost{"Eisner's algorithm", 10, 1000};

// The warning for these sentences, or "" when every one is estimated under 10 s.
// hint: what the user can do ("--max-len N skips longer sentences").
std::string longSentenceWarning(const std::vector<DepSentence>& sentences, const CubicCost& cost,
                                const std::string& hint);
// Prints it (if any) on stderr.
void warnLongSentences(const std::vector<DepSentence>& sentences, const CubicCost& cost,
                       const std::string& hint);

} // namespace prunescope::cli
