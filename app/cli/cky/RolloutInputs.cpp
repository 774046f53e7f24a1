// The helpers check-rollouts and bench-rollouts share (RolloutInputs.h).
#include "app/cli/cky/RolloutInputs.h"

#include "app/cli/Options.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/policy/GoldSpans.h"
#include "core/treebank/Normalize.h"

#include <stdexcept>

namespace prunescope::cli {

PruningMask makeMask(const std::string& kind, const Grammar& g, const Tree& gold, double pruneP,
                     std::mt19937& rng) {
    const int n = gold.size();
    if (kind == "keep") return PruningMask::allKeep(n);
    if (kind == "gold") return spanMask(binarizeLike(g, gold));
    if (kind != "random")
        throw std::invalid_argument("unknown mask kind '" + kind + "' (keep, random or gold)");
    PruningMask m = PruningMask::allKeep(n);
    std::bernoulli_distribution prune(pruneP);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            if (prune(rng)) m.set(i, i + w, false);
    return m;
}

std::vector<std::string> maskKinds(const std::string& list) {
    std::vector<std::string> kinds = splitFlagList(list);
    if (kinds.empty()) throw UsageError("--masks names no mask kind (keep, random or gold)");
    for (auto& k : kinds) {
        if (k == "all") k = "keep"; // bench-parse's name for the same mask
        if (k != "keep" && k != "random" && k != "gold")
            throw std::invalid_argument("unknown mask kind '" + k + "' (keep, random or gold)");
    }
    return kinds;
}

std::vector<Tree> loadSentences(const std::string& treebank, int minLen, int maxLen) {
    std::vector<Tree> out = readNormalizedTreebank(treebank);
    std::erase_if(out, [&](const Tree& t) { return t.size() < minLen || t.size() > maxLen; });
    return out;
}

} // namespace prunescope::cli
