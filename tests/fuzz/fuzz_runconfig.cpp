// Fuzz target: a LOLS run's config.json -> validated config -> LolsConfig (and back to JSON).
#include "FuzzTarget.h"

#include "core/lols/RunConfig.h"
#include "core/util/Error.h"

namespace {
void fuzzOne(const std::string& text) {
    using namespace prunescope;
    nlohmann::json config;
    try {
        config = runConfigFromText(text, "config.json");
    } catch (const InputError&) {
        return;
    }
    // What the reader accepted, the rest of the program can use without another check.
    const LolsConfig c = LolsConfig::fromJson(config.at("lols"));
    if (c.minibatch < 1 || !(c.lambda >= 0) || !(c.logreg.l2 >= 0) ||
        c.iterations > kMaxLolsIterations)
        __builtin_trap();
    (void)c.toJson().dump();
    (void)config.at("grammar").get<std::string>();
    (void)config.value("maxLength", 40);
    (void)runConfigLocation(text, "train");
}
} // namespace

PRUNESCOPE_FUZZ_INPUT(text)
