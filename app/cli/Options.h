#pragma once
// One vocabulary for prunescope-cli's flags (docs/cli.md, "Flags"): one helper per idea, so the
// same idea has the same name, meaning, default and unit in every command. Old spellings stay as
// hidden aliases that set the same value and print a one-line deprecation note on stderr when it
// is a terminal; they are never removed where an earlier issue's acceptance checks use them.
#include <CLI/CLI.hpp>

#include <initializer_list>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace prunescope::cli {

// A bad flag value or combination found once parsing is done ("--alpha needs --cascade", "--mask
// must be all, gold or random:P"): main() prints "error: WHAT" and exits 2, as for CLI11's own
// parse errors (docs/cli.md, "Exit codes").
class UsageError : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

// Prints "note: OLD is deprecated; use NEW (it still works)" on stderr if stderr is a terminal.
void noteDeprecatedFlag(const std::string& oldName, const std::string& newName);

// Hidden aliases of newName that set target too (and note their deprecation when used).
template <class T>
void addDeprecatedAliases(CLI::App* sub, T& target, const std::string& newName,
                          std::initializer_list<const char*> oldNames) {
    for (const char* old : oldNames) {
        const std::string oldName = old;
        CLI::Option* opt = sub->add_option(oldName, target);
        if constexpr (requires { target.push_back(target.front()); }) opt->delimiter(',');
        opt->group("") // hidden from --help and completion
            ->each(
                [oldName, newName](const std::string&) { noteDeprecatedFlag(oldName, newName); });
    }
}

// --repeats N: passes or repetitions of a timed or sampled measurement.
template <class T>
CLI::Option* addRepeatsOption(CLI::App* sub, T& repeats, const std::string& what,
                              std::initializer_list<const char*> oldNames = {}) {
    addDeprecatedAliases(sub, repeats, "--repeats", oldNames);
    return sub->add_option("--repeats", repeats, what)->capture_default_str();
}

// --max-sentences N: use only the first N sentences (trees) of the input; 0 = all.
template <class T>
CLI::Option* addMaxSentencesOption(CLI::App* sub, T& n, const std::string& of,
                                   std::initializer_list<const char*> oldNames = {}) {
    addDeprecatedAliases(sub, n, "--max-sentences", oldNames);
    return sub->add_option("--max-sentences", n,
                           "Use only the first N sentences of " + of + " (0 = all)");
}

// --max-train-sentences N: the same for the training treebank of a command that also reads dev.
template <class T>
CLI::Option* addMaxTrainSentencesOption(CLI::App* sub, T& n,
                                        std::initializer_list<const char*> oldNames = {}) {
    addDeprecatedAliases(sub, n, "--max-train-sentences", oldNames);
    return sub->add_option("--max-train-sentences", n,
                           "Use only the first N training sentences (0 = all)");
}

// --max-train-len N: train on sentences of at most N words (words, like --max-len).
template <class T>
CLI::Option* addMaxTrainLenOption(CLI::App* sub, T& n, const std::string& what,
                                  std::initializer_list<const char*> oldNames = {}) {
    addDeprecatedAliases(sub, n, "--max-train-len", oldNames);
    return sub->add_option("--max-train-len", n, what)->capture_default_str();
}

// --max-dev-len N: evaluate on dev sentences of at most N words (words, like --max-len).
template <class T>
CLI::Option* addMaxDevLenOption(CLI::App* sub, T& n, const std::string& what,
                                std::initializer_list<const char*> oldNames = {"--dev-max-len"}) {
    addDeprecatedAliases(sub, n, "--max-dev-len", oldNames);
    return sub->add_option("--max-dev-len", n, what)->capture_default_str();
}

// --max-dev-sentences N: use only the first N dev sentences; 0 = all.
template <class T>
CLI::Option* addMaxDevSentencesOption(CLI::App* sub, T& n,
                                      std::initializer_list<const char*> oldNames = {}) {
    addDeprecatedAliases(sub, n, "--max-dev-sentences", oldNames);
    return sub->add_option("--max-dev-sentences", n, "Use only the first N dev sentences (0 = all)")
        ->capture_default_str();
}

// --lbfgs-max-iterations N: the iteration limit of one L-BFGS solve.
template <class T>
CLI::Option* addLbfgsMaxIterationsOption(CLI::App* sub, T& n, const std::string& what,
                                         std::initializer_list<const char*> oldNames = {}) {
    addDeprecatedAliases(sub, n, "--lbfgs-max-iterations", oldNames);
    return sub->add_option("--lbfgs-max-iterations", n, what)->capture_default_str();
}

// --mask-file FILE: a pruning or arc mask file (JSON) the command applies.
inline CLI::Option* addMaskFileOption(CLI::App* sub, std::string& file, const std::string& what,
                                      std::initializer_list<const char*> oldNames = {}) {
    addDeprecatedAliases(sub, file, "--mask-file", oldNames);
    return sub->add_option("--mask-file", file, what);
}

// --out-svg FILE: also write the command's figure to FILE (SVG); --out names what a command
// writes first (a file or a run directory).
inline CLI::Option* addOutSvgOption(CLI::App* sub, std::string& file, const std::string& what,
                                    std::initializer_list<const char*> oldNames = {}) {
    addDeprecatedAliases(sub, file, "--out-svg", oldNames);
    return sub->add_option("--out-svg", file, what);
}

// A flag renamed within one command (--tolerance meant three different things): the new name,
// with the old one as a hidden alias.
template <class T>
CLI::Option* addRenamedOption(CLI::App* sub, T& target, const std::string& newName,
                              const std::string& what,
                              std::initializer_list<const char*> oldNames) {
    addDeprecatedAliases(sub, target, newName, oldNames);
    return sub->add_option(newName, target, what);
}

// --cp-work-budget X: a change-propagation flip whose work passes X times a reparse's pushes is
// recomputed from scratch instead (ChangePropagator::setWorkBudget; the same results, only the
// speed differs). 0 recomputes every flip, inf never does. Unset: the defaults
// (ChangePropagator::kDefaultWorkBudget for single flips, kDefaultRolloutWorkBudget for rollouts).
inline CLI::Option* addCpWorkBudgetOption(CLI::App* sub, std::optional<double>& budget) {
    return sub
        ->add_option("--cp-work-budget", budget,
                     "Change propagation: recompute a flip from scratch once its work passes this "
                     "multiple of a reparse's pushes (same results; 0 = always, inf = never; "
                     "default 0.1 for single flips, 0.25 for rollouts)")
        ->check(CLI::NonNegativeNumber);
}

// --quiet: no progress lines on stderr (app/cli/ConsoleProgress.h); Ctrl-C still cancels.
inline CLI::Option* addQuietOption(CLI::App* sub, bool& quiet) {
    return sub->add_flag("--quiet", quiet, "No progress on stderr (Ctrl-C still cancels)");
}

// The non-empty items of a comma-separated flag value ("--masks keep,random", "--methods ...").
std::vector<std::string> splitFlagList(const std::string& value);

// --out-json FILE: also write the command's numbers to FILE as JSON. Where --json took a FILE
// (regret, compare), that form keeps working as a hidden alias.
CLI::Option* addOutJsonOption(CLI::App* sub, std::string& file, bool jsonTookAFile = false);

} // namespace prunescope::cli
