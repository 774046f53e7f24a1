// Fuzz target: a mask file (one mask or an array of them) -> PruningMask -> its JSON and back.
#include "FuzzTarget.h"

#include "core/parse/PruningMask.h"
#include "core/util/Error.h"

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    std::vector<PruningMask> masks;
    try {
        masks = masksFromJsonText(text, "fuzz.json");
    } catch (const InputError&) {
        return;
    }
    for (const PruningMask& m : masks) {
        if (m.bits.size() != static_cast<std::size_t>(m.n + 1) * (m.n + 1)) __builtin_trap();
        if (m.n <= 200 && !(PruningMask::fromJson(m.toJson()) == m)) __builtin_trap();
    }
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
