// Fuzz target: the binary weight blocks (core/util/BinarySection.h) in every file that has them:
// policies, dependency and cube models, vine cascades and arc filters, chosen by the first byte.
// A file that loads must hold finite weights of the right length, and writing it again in the
// binary form and reading that back must give the same weights bit for bit.
#include "FuzzTarget.h"

#include "core/cube/CubeModel.h"
#include "core/dep/DepModel.h"
#include "core/filters/ArcFilterFile.h"
#include "core/policy/Policy.h"
#include "core/util/Error.h"
#include "core/vine/VineCascade.h"

#include <cmath>
#include <cstring>
#include <span>

namespace {

using namespace prunescope;

void check(std::span<const float> w, std::span<const float> back) {
    if (w.size() != back.size() || std::memcmp(w.data(), back.data(), 4 * w.size()) != 0)
        __builtin_trap();
    for (const float x : w)
        if (!std::isfinite(x)) __builtin_trap(); // the reader promised finite floats
}

// The weights of a reloaded copy written in the binary form.
template <class Write, class Read> auto reread(Write write, Read read) {
    BinarySectionWriter bin;
    return read(modelFileText(write(&bin), &bin));
}

void fuzzOne(const std::string& input) {
    if (input.empty()) return;
    const std::string text = input.substr(1);
    try {
        switch (static_cast<unsigned char>(input[0]) % 5) {
        case 0: {
            const Policy p = policyFromJson(text, "fuzz.json");
            const Policy q = policyFromJson(policyFileText(p), "back.json");
            check({p.weights.data(), kFeatureDim}, {q.weights.data(), kFeatureDim});
            break;
        }
        case 1: {
            const DepModel m = depModelFromText(text, "fuzz.json");
            const DepModel b = reread([&](BinarySectionWriter* w) { return depModelToJson(m, w); },
                                      [](const std::string& t) { return depModelFromText(t); });
            check(m.weights.w, b.weights.w);
            break;
        }
        case 2: {
            const CubeModel m = cubeModelFromText(text, "fuzz.json");
            const CubeModel b =
                reread([&](BinarySectionWriter* w) { return cubeModelToJson(m, w); },
                       [](const std::string& t) { return cubeModelFromText(t); });
            check(m.weights.w, b.weights.w);
            break;
        }
        case 3: {
            const VineCascade c = vineCascadeFromText(text, "fuzz.json");
            const VineCascade b =
                reread([&](BinarySectionWriter* w) { return vineCascadeToJson(c, w); },
                       [](const std::string& t) { return vineCascadeFromText(t, "back.json"); });
            if (b.stages.size() != c.stages.size()) __builtin_trap();
            for (std::size_t s = 0; s < c.stages.size(); ++s)
                check(c.stages[s].weights.w, b.stages[s].weights.w);
            break;
        }
        default: {
            const ArcFilter f = arcFilterFromText(text, "fuzz.json");
            const ArcFilter b =
                reread([&](BinarySectionWriter* w) { return arcFilterToJson(f, w); },
                       [](const std::string& t) { return arcFilterFromText(t); });
            check(f.weights, b.weights);
        }
        }
    } catch (const InputError&) {
    }
}

} // namespace

PRUNESCOPE_FUZZ_INPUT(input)
