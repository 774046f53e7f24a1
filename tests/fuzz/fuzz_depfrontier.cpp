// Fuzz target: the combined dependency frontier (`prunescope-dep-frontier`, dep-frontier
// --frontier; core/frontier/DepFrontier.h) -> DepFrontier (every number finite) -> its SVG
// -> written and read back with the same series and points.
#include "FuzzTarget.h"

#include "core/frontier/DepFrontier.h"
#include "core/frontier/DepFrontierSvg.h"
#include "core/util/Error.h"

#include <cmath>

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    DepFrontier f;
    try {
        f = parseDepFrontierJson(text, "fuzz.json");
    } catch (const InputError&) {
        return;
    }
    std::size_t points = 0;
    for (const DepFrontierSeries& s : f.series)
        for (const DepFrontierPoint& p : s.points) {
            if (!std::isfinite(p.uas) || !std::isfinite(p.tokensPerSecond) ||
                !std::isfinite(p.arcsKept))
                __builtin_trap();
            ++points;
        }
    if (points <= 200) // the drawing is linear in the points: keep each input fast
        (void)depFrontierSvg(f);
    const DepFrontier back = parseDepFrontierJson(depFrontierJson(f), "back.json");
    if (back.series.size() != f.series.size()) __builtin_trap();
    for (std::size_t i = 0; i < f.series.size(); ++i)
        if (back.series[i].points.size() != f.series[i].points.size()) __builtin_trap();
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
