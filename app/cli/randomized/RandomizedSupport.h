#pragma once
// What the randomized-pruning subcommands share: the default figure-of-merit policy (the bundled
// sample's), sentence loading with length filters and sampling, the family's registration.
#include "core/mcmc/RandomizedPruning.h"
#include "core/policy/Policy.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace prunescope::cli {

// Chosen on dev (docs/results.md, "Randomized pruning"): the support threshold of M' and the
// bundled policy whose keep probability is the figure of merit.
inline constexpr double kDefaultSupportThreshold = 0.7;
inline constexpr double kDefaultSelectionFraction = 2.0 / 3.0;
inline constexpr const char* kDefaultSelection = "independent";
inline constexpr const char* kDefaultFomPolicy = "policies/baseline-w256.json";

struct LoadedPolicy {
    Policy policy;
    std::string path;
};
// `path`, or the bundled default (PRUNESCOPE_SAMPLES env var, else the source tree's samples/).
// The policy's name defaults to its file name. Throws InputError when nothing can be loaded.
LoadedPolicy loadFomPolicy(const std::string& path);
Policy loadNamedPolicy(const std::string& path);

// The words of the treebank's sentences with minLen <= n <= maxLen; of those every `every`-th
// (starting with the first), at most `limit` (0 = all).
std::vector<std::vector<std::string>> loadSentenceWords(const std::string& treebank, int minLen,
                                                        int maxLen, int every = 1, int limit = 0);

std::string formatThreshold(double t); // "0.05", "prune all" for t > 1

// The chain's settings from the family's flags: --selection (a name selectionFromName knows),
// --support-threshold, --selection-fraction, --seed.
RandomizedOptions chainOptions(const std::string& selection, double supportThreshold,
                               double selectionFraction, std::uint64_t seed);

// The other subcommands of the family (addRandomizedCommand registers all three).
void addRandomizedEmCommand(CLI::App& app);
void addRandomizedBenchCommand(CLI::App& app);

} // namespace prunescope::cli
