// Fuzz target: a sentences file (one tokenized sentence per line) -> words -> span features.
#include "FuzzTarget.h"

#include "core/policy/SpanFeatures.h"
#include "core/treebank/TreebankReader.h"

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    const auto sentences = readSentencesString(text);
    for (const auto& words : sentences) {
        if (words.empty()) __builtin_trap(); // blank lines are skipped
        if (words.size() > 64) continue;     // features are O(n^2): keep executions fast
        const SentenceFeatures f(words);
        const int n = f.length();
        for (int i = 0; i < n; ++i)
            for (int k = i + 1; k <= n; ++k)
                for (std::uint32_t id : f.features(i, k))
                    if (id >= kFeatureDim) __builtin_trap();
    }
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
