// Fuzz target: frontier.json -> FrontierData -> refit (Pareto frontier, sigmoid fit, lambdas) ->
// text.
#include "FuzzTarget.h"

#include "core/frontier/FrontierFile.h"
#include "core/util/Error.h"

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    FrontierData d;
    try {
        d = frontierFromJson(text, "fuzz.json");
    } catch (const InputError&) {
        return;
    }
    const std::string out = frontierToJson(d);
    if (d.points.size() <= 12)
        refitFrontier(d, d.runtimeMeasure); // the fit is iterative: keep it small
    (void)frontierToJson(d);
    (void)frontierFromJson(out, "again.json"); // what we write, we read
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
