#pragma once
// Subcommands of prunescope-cli; each file registers one (or a few related) subcommands.
#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace prunescope {
struct Tree;
}

namespace prunescope::cli {

// A subcommand's action runs after parsing; it returns the process exit code.
using Action = std::function<int()>;
void setAction(CLI::App* sub, Action action);
// Registers subcommand `name` in the shape most commands share: one Options value that lives as
// long as the app, declare(sub, options) adds the flags that fill it, run(options) is the action.
template <class Options, class Declare, class Run>
CLI::App* addCommand(CLI::App& app, const std::string& name, const std::string& description,
                     Declare declare, Run run) {
    auto* sub = app.add_subcommand(name, description);
    auto o = std::make_shared<Options>();
    declare(sub, *o);
    setAction(sub, [o, run] { return run(*o); });
    return sub;
}
// Throws if standard output has failed (a full disk, /dev/full): commands that print a lot call it
// as they go, and main() checks the final flush, so a lost write never exits 0.
void checkOutput();
// --memory-budget MiB (default: the parser's, 2048): the most one parser may allocate; sentences
// that need more are refused before allocating (docs/user-guide.md).
void addMemoryBudgetOption(CLI::App* sub, std::size_t& mib);
// Refuses to evaluate zero sentences, which would print F1 or UAS 0.00 as if it were a result:
// throws InputError "TREEBANK: no sentences to evaluate", or "... no sentence within --max-len N
// ..." when maxLen > 0.
void requireSentencesToEvaluate(std::size_t count, const std::string& treebank, int maxLen);
// The same for trees, counting those within maxLen (0 = all).
void requireTreesToEvaluate(const std::vector<Tree>& trees, const std::string& treebank,
                            int maxLen);

void addCubeCommands(CLI::App& app); // cube-train, cube-eval, cube-parse (CmdCube.cpp) and
void addCubeReportCommands(
    CLI::App& app); // cube-bench, cube-compare, cube-plot (CmdCubeReport.cpp)

void addGrammarCommand(CLI::App& app);
void addParseCommand(CLI::App& app);
void addInspectCellCommand(CLI::App& app); // inspect-cell (CmdInspectCell.cpp)
void addEvalCommand(CLI::App& app);
void addCompareMasksCommand(CLI::App& app); // compare-masks (CmdCompareMasks.cpp)
void addBenchParseCommand(CLI::App& app);
void addBaselineCommand(CLI::App& app);      // baseline, frontier (CmdBaseline.cpp), bench-features
void addBenchFeaturesCommand(CLI::App& app); // bench-features (CmdBenchFeatures.cpp)
void addFrontierBestCommand(CLI::App& app);  // frontier-best (CmdFrontierBest.cpp)
void addLolsCommands(CLI::App& app);         // lols, regret, compare
void addLolsPlotCommand(CLI::App& app);      // lols-plot (CmdLolsPlot.cpp)
void addRolloutCommands(CLI::App& app);      // check-rollouts (CmdRollouts.cpp), bench-rollouts
void addBenchRolloutsCommand(CLI::App& app); // bench-rollouts (CmdBenchRollouts.cpp)
void addRandomizedCommand(CLI::App& app);    // randomized, randomized-em, bench-randomized
void addDepCommands(CLI::App& app);          // dep-train, dep-eval (CmdDep.cpp)
void addDepParseCommand(CLI::App& app);
void addVineCommands(CLI::App& app);          // vine-train (CmdVine.cpp), dep-bench, vine-frontier
void addDepBenchCommand(CLI::App& app);       // dep-bench (CmdDepBench.cpp)
void addVineFrontierCommand(CLI::App& app);   // vine-frontier (CmdVineFrontier.cpp)
void addVineComplexityCommand(CLI::App& app); // vine-complexity (CmdVineComplexity.cpp)
void addFilterCommands(
    CLI::App& app); // filter-train, filter-eval, filter-compare, filter-plot, filter-frontier
void addFilterTrainCommand(CLI::App& app);     // filter-train (CmdFilterTrain.cpp)
void addDepFrontierCommand(CLI::App& app);     // dep-frontier (CmdDepFrontier.cpp)
void addModelConvertCommand(CLI::App& app);    // model-convert (model/CmdModelConvert.cpp)
void addFrontierRetrainCommand(CLI::App& app); // frontier-retrain (CmdFrontierRetrain.cpp)
// frontier-retrain of a LOLS point (CmdFrontierRetrainLols.cpp): whether --frontier/--point name
// one (a run directory: config.json and no frontier.json, or a missing config.json and an
// iter-NNN point), and the command's action for it.
bool isLolsRunArgument(const std::string& frontier, const std::string& point);
int retrainLolsRunPoint(const std::string& runDir, const std::string& point, const std::string& out,
                        int threads, bool quiet);

} // namespace prunescope::cli
