// Fuzz target: a policy file -> Policy -> its masks on a fixed sentence.
#include "FuzzTarget.h"

#include "core/policy/Policy.h"
#include "core/policy/PolicyMask.h"
#include "core/util/Error.h"

#include <cmath>
#include <optional>

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    std::optional<Policy> loaded; // a Policy holds 2^22 weights: allocate only for accepted input
    try {
        loaded = policyFromJson(text, "fuzz.json");
    } catch (const InputError&) {
        return;
    }
    const Policy& p = *loaded;
    if (!p.weights.allFinite() || !(p.threshold >= 0 && p.threshold <= 1)) __builtin_trap();
    static const SentenceFeatures features(
        std::vector<std::string>{"Stocks", "fell", "sharply", "on", "Monday", "."});
    const PruningMask m = policyMask(p, features);
    if (m.n != features.length()) __builtin_trap();
    // (policyToJson walks all 2^22 weights; the round trip is covered by test_policy.)
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
