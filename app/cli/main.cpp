// prunescope-cli: the headless twin of the PruneScope app.
#include "app/cli/Commands.h"
#include "core/util/Error.h"
#include "core/util/Progress.h"

#include <iostream>
#include <map>

namespace prunescope::cli {
namespace {
std::map<CLI::App*, Action>& actions() {
    static std::map<CLI::App*, Action> a;
    return a;
}
} // namespace
void setAction(CLI::App* sub, Action action) { actions()[sub] = std::move(action); }
} // namespace prunescope::cli

int main(int argc, char** argv) {
    using namespace prunescope::cli;
    CLI::App app{"prunescope-cli: pruned weighted CKY parsing, pruning policies and their training "
                 "(Vieira & Eisner 2017, Learning to Prune). Every subcommand has --help."};
    app.require_subcommand(1);
    addGrammarCommand(app);
    addParseCommand(app);
    addEvalCommand(app);
    addBenchParseCommand(app);
    addBaselineCommand(app);
    addLolsCommands(app);
    addRolloutCommands(app);
    addRandomizedCommand(app);
    addCubeCommands(app);
    addDepCommands(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    for (CLI::App* sub : app.get_subcommands()) {
        auto it = actions().find(sub);
        if (it == actions().end()) continue;
        try {
            return it->second();
        } catch (const prunescope::Cancelled&) {  // Ctrl-C (app/cli/ConsoleProgress.h): nothing half-written
            std::cerr << "cancelled\n";
            return 130;
        } catch (const prunescope::InputError& e) {
            std::cerr << "error: " << e.what() << "\n";
            return 2;
        } catch (const std::exception& e) {
            std::cerr << "error: " << e.what() << "\n";
            return 1;
        }
    }
    return 0;
}
