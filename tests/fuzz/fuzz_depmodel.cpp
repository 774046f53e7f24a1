// Fuzz target: dependency models (dep-train) and cube-pruning models (cube-train), chosen by the
// first byte -> the model -> its weights scoring a feature (every weight read must be finite).
#include "FuzzTarget.h"

#include "core/cube/CubeModel.h"
#include "core/dep/DepModel.h"
#include "core/util/Error.h"

#include <cmath>

namespace {
void fuzzOne(const std::string& input) {
    using namespace prunescope;
    if (input.empty()) return;
    const bool cube = static_cast<unsigned char>(input[0]) % 2 == 1;
    const std::string text = input.substr(1);
    try {
        const HashedWeights w = cube ? cubeModelFromText(text, "fuzz.json").weights
                                     : depModelFromText(text, "fuzz.json").weights;
        if (w.w.size() != (std::size_t(1) << w.bits)) __builtin_trap();
        for (const float x : w.w)
            if (!std::isfinite(x)) __builtin_trap(); // the reader promised finite floats
    } catch (const InputError&) {
    }
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(input)
