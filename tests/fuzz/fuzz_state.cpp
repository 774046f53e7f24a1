// Fuzz target: a LOLS state file (state/iter-NNN.bin) -> AggregatedDataset -> training examples
// over a fixed training set (every index read from disk must be checked).
#include "FuzzTarget.h"

#include "core/lols/Lols.h"
#include "core/util/Error.h"

#include <stdexcept>

namespace {
void fuzzOne(const std::string& bytes) {
    using namespace prunescope;
    AggregatedDataset d;
    try {
        d = AggregatedDataset::deserialize(bytes, "fuzz.bin");
    } catch (const InputError&) {
        return;
    }
    if (AggregatedDataset::deserialize(d.serialize(), "again.bin").serialize() != d.serialize())
        __builtin_trap();
    static const std::vector<LolsSentence> train = {
        {{"The", "cat", "sat", "on", "the", "mat", "."}, {}},
        {{"Stocks", "fell", "."}, {}},
        {{"He", "said", "it", "was", "n't", "so", "bad", "after", "all", "."}, {}},
    };
    try {
        (void)d.examples(train);
    } catch (const std::invalid_argument&) {
        // A dataset of another training set: refused with a message, never read out of bounds.
    }
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(bytes)
