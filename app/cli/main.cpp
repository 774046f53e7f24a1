// prunescope-cli: the headless twin of the PruneScope app.
#include "app/cli/CommandLine.h"
#include "app/cli/CommandLineGuard.h"
#include "app/cli/Commands.h"
#include "app/cli/Options.h"
#include "core/treebank/Tree.h"
#include "core/util/Error.h"
#include "core/util/Progress.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <new>

namespace prunescope::cli {
namespace {
std::map<CLI::App*, Action>& actions() {
    static std::map<CLI::App*, Action> a;
    return a;
}
} // namespace
void setAction(CLI::App* sub, Action action) {
    actions()[sub] = std::move(action);
}

void checkOutput() {
    if (std::cout) return;
    const int err = errno;
    throw std::runtime_error(std::string("<stdout>: cannot write the output") +
                             (err != 0 ? std::string(": ") + std::strerror(err) : std::string()));
}

void addMemoryBudgetOption(CLI::App* sub, std::size_t& mib) {
    sub->add_option(
           "--memory-budget", mib,
           "Most memory (MiB) one parser may use; longer sentences are refused before allocating")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30))
        ->capture_default_str();
}

void requireSentencesToEvaluate(std::size_t count, const std::string& treebank, int maxLen) {
    if (count > 0) return;
    throw InputError(treebank, 0, 0,
                     maxLen > 0
                         ? "no sentence within --max-len " + std::to_string(maxLen) + " to evaluate"
                         : std::string("no sentences to evaluate"));
}

void requireTreesToEvaluate(const std::vector<Tree>& trees, const std::string& treebank,
                            int maxLen) {
    requireSentencesToEvaluate(static_cast<std::size_t>(std::count_if(trees.begin(), trees.end(),
                                                                      [&](const Tree& t) {
                                                                          return maxLen <= 0 ||
                                                                                 t.size() <= maxLen;
                                                                      })),
                               treebank, maxLen);
}

namespace {
// Flushes standard output; a failed write (full disk, /dev/full, closed pipe) is an error.
int flushOutput(int code) {
    errno = 0;
    std::cout.flush();
    if (std::cout) return code;
    const int err = errno;
    std::cerr << "error: <stdout>: cannot write the output"
              << (err != 0 ? std::string(": ") + std::strerror(err) : "") << "\n";
    return code != 0 ? code : 1;
}
} // namespace
} // namespace prunescope::cli

int main(int argc, char** argv) {
    using namespace prunescope::cli;
    CLI::App app{"prunescope-cli: pruned weighted CKY parsing, pruning policies and their training "
                 "(Vieira & Eisner 2017, Learning to Prune). Every subcommand has --help."};
    app.name("prunescope-cli"); // parse() below takes a vector, which names no program
    app.formatter(std::make_shared<WrappingFormatter>()); // subcommands inherit it
    app.require_subcommand(1);
    addGrammarCommand(app);
    addParseCommand(app);
    addInspectCellCommand(app);
    addEvalCommand(app);
    addCompareMasksCommand(app);
    addBenchParseCommand(app);
    addBaselineCommand(app);
    addFrontierBestCommand(app);
    addFrontierRetrainCommand(app);
    addLolsCommands(app);
    addLolsPlotCommand(app);
    addRolloutCommands(app);
    addRandomizedCommand(app);
    addCubeCommands(app);
    addDepCommands(app);
    addDepParseCommand(app);
    addVineCommands(app);
    addFilterCommands(app);
    addDepFrontierCommand(app);
    addModelConvertCommand(app);
    addListCommandsCommand(app);
    // Grouped spellings, --version, the grouped help, completion, unknown subcommands and flags
    // (app/cli/CommandLine.h); CLI11 then parses what is left.
    std::vector<std::string> args(argv, argv + argc);
    if (const std::optional<int> answered = preprocessCommandLine(app, args)) return *answered;
    try {
        std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        // --help prints and exits 0; a bad command line exits 2 (as bad input does) with one line.
        if (e.get_exit_code() == 0) return app.exit(e);
        std::string command;
        for (const CLI::App* sub : app.get_subcommands())
            command = sub->get_name();
        std::cerr << parseErrorLine(e.what(), command) << "\n";
        return 2;
    }
    for (CLI::App* sub : app.get_subcommands()) {
        auto it = actions().find(sub);
        if (it == actions().end()) continue;
        try {
            guardCommandLine(*sub); // outputs vs inputs, finite numbers: before any work
            return flushOutput(it->second());
        } catch (const prunescope::Cancelled&) { // Ctrl-C (app/cli/ConsoleProgress.h): nothing
                                                 // half-written
            std::cerr << "cancelled\n";
            return 130;
        } catch (const std::bad_alloc&) { // one line with the command's context (issue 46)
            std::cerr << "error: " << outOfMemoryMessage(*sub) << "\n";
            return flushOutput(1);
        } catch (const UsageError& e) { // a bad flag value or combination
            std::cerr << "error: " << e.what() << "\n";
            return flushOutput(2);
        } catch (const prunescope::InputError& e) {
            std::cerr << "error: " << e.what() << "\n";
            return flushOutput(2);
        } catch (const std::invalid_argument& e) {      // a value the command or core refused: bad
            std::cerr << "error: " << e.what() << "\n"; // input (2), not a run-time failure (1)
            return flushOutput(2);
        } catch (const std::exception& e) {
            std::cerr << "error: " << e.what() << "\n";
            return flushOutput(1);
        }
    }
    return 0;
}
