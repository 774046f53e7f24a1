// Shared helpers of the randomized-pruning subcommands (see RandomizedSupport.h).
#include "app/cli/randomized/RandomizedSupport.h"

#include "core/mcmc/AuxiliaryVariables.h"
#include "core/treebank/Normalize.h"
#include "core/util/Error.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace prunescope::cli {

namespace {
std::string samplesDir() {
    if (const char* env = std::getenv("PRUNESCOPE_SAMPLES"); env && *env) return env;
#ifdef PRUNESCOPE_SAMPLES_DIR
    return PRUNESCOPE_SAMPLES_DIR;
#else
    return "samples";
#endif
}
} // namespace

Policy loadNamedPolicy(const std::string& path) {
    Policy p = loadPolicy(path);
    if (p.meta.name.empty()) p.meta.name = std::filesystem::path(path).stem().string();
    return p;
}

LoadedPolicy loadFomPolicy(const std::string& path) {
    LoadedPolicy out;
    out.path = path.empty() ? samplesDir() + "/" + kDefaultFomPolicy : path;
    if (path.empty() && !std::filesystem::exists(out.path))
        throw InputError(out.path, 0, 0,
                         "the bundled figure-of-merit policy is missing: pass --policy FILE (or "
                         "set PRUNESCOPE_SAMPLES)");
    out.policy = loadNamedPolicy(out.path);
    return out;
}

std::vector<std::vector<std::string>> loadSentenceWords(const std::string& treebank, int minLen,
                                                        int maxLen, int every, int limit) {
    if (every < 1) throw std::invalid_argument("--every must be at least 1");
    std::vector<std::vector<std::string>> out;
    int seen = 0;
    for (const Tree& t : readNormalizedTreebank(treebank)) {
        const int n = t.size();
        if (n < minLen || n > maxLen) continue;
        if (seen++ % every != 0) continue;
        out.push_back(t.words());
        if (limit > 0 && static_cast<int>(out.size()) == limit) break;
    }
    return out;
}

std::string formatThreshold(double t) {
    if (t > 1) return "prune all";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", t);
    return buf;
}

RandomizedOptions chainOptions(const std::string& selection, double supportThreshold,
                               double selectionFraction, std::uint64_t seed) {
    RandomizedOptions opt;
    opt.selection = selectionFromName(selection);
    opt.supportThreshold = supportThreshold;
    opt.selectionFraction = selectionFraction;
    opt.seed = seed;
    return opt;
}

} // namespace prunescope::cli
