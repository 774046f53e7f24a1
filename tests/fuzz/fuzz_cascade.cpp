// Fuzz target: vine cascades (vine-train; core/vine/VineCascade.h) and arc filters (filter-train;
// core/filters/ArcFilterFile.h), chosen by the first byte -> every weight read must be finite,
// every stage's alpha a number, and the cascade's JSON form read back must give the same stages.
#include "FuzzTarget.h"

#include "core/filters/ArcFilterFile.h"
#include "core/util/Error.h"
#include "core/vine/VineCascade.h"

#include <cmath>

namespace {
void fuzzOne(const std::string& input) {
    using namespace prunescope;
    if (input.empty()) return;
    const bool filter = static_cast<unsigned char>(input[0]) % 2 == 1;
    const std::string text = input.substr(1);
    try {
        if (filter) {
            const ArcFilter f = arcFilterFromText(text, "fuzz.json");
            if (f.weights.size() != (std::size_t(1) << f.hashBits)) __builtin_trap();
            for (const float w : f.weights)
                if (!std::isfinite(w)) __builtin_trap();
            return;
        }
        const VineCascade c = vineCascadeFromText(text, "fuzz.json");
        if (c.alphas.size() != c.stages.size()) __builtin_trap();
        for (const double a : c.alphas)
            if (!std::isfinite(a)) __builtin_trap();
        for (const auto& s : c.stages)
            for (const float w : s.weights.w)
                if (!std::isfinite(w)) __builtin_trap();
        const VineCascade back = vineCascadeFromText(vineCascadeToJson(c).dump(), "back.json");
        if (back.stages.size() != c.stages.size() || back.alphas != c.alphas) __builtin_trap();
    } catch (const InputError&) {
    }
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(input)
