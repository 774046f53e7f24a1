// Fuzz target: arc masks (dep parse --mask-file, cube parse --mask-file; core/dep/ArcMask.h) -> the
// mask -> its JSON form read back (the round trip must give the same mask).
#include "FuzzTarget.h"

#include "core/dep/ArcMask.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <stdexcept>

namespace {
void fuzzOne(const std::string& input) {
    using namespace prunescope;
    ArcMask m;
    try {
        m = ArcMask::fromJson(parseJsonDocument(input, "fuzz.json"));
    } catch (const InputError&) {
        return;
    } catch (const std::invalid_argument&) { // the CLI reports these with the file's name
        return;
    }
    if (m.n < 0) __builtin_trap();
    if (!(ArcMask::fromJson(m.toJson()) == m)) __builtin_trap();
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(input)
