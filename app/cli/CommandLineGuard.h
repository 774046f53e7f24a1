#pragma once
// Checks that main() runs on the invoked subcommand after CLI11 has parsed and before its action
// does any work (docs/reliability.md "Inputs are never overwritten", "Numbers"):
//  - no output path (the options named in outputOptionNames: --out, --json FILE, --out-json, ...)
//    may resolve to an input the command reads (any other path-valued option or positional),
//    compared by canonical path (symbolic links and `..` resolved) and by file identity (hard
//    links); a file inside an input run directory or a treebank file inside an input treebank
//    directory counts as read;
//  - every floating-point option holds a finite number (no nan, inf, 1e999).
// A refusal is an InputError naming both flags; main() prints it as one line and exits 2.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace prunescope::cli {

// The option names whose values are written, in one place. An option with one of these names
// that is a flag (`--json` of cube-compare, bench-randomized: print JSON) writes stdout only.
const std::vector<std::string>& outputOptionNames();

// How the guard sees one option of a subcommand.
enum class OptionKind { Output, Input, Number, Other };
OptionKind optionKind(const CLI::Option& opt);

// Throws InputError if `sub` (or a subcommand invoked below it) was given an output that is also
// one of its inputs, or a non-finite floating-point value. "-" (standard output) is never a file.
void guardCommandLine(const CLI::App& sub);

// `--json FILE` of regret, compare, randomized and randomized-em: FILE "-" means standard output
// (the JSON alone: the command prints no text report then, see printsJsonOnly); any other FILE is
// written atomically (docs/reliability.md, "The contract").
bool printsJsonOnly(const std::string& jsonFile);
void writeJsonOutput(const std::string& jsonFile, const std::string& text);

// The one line main() prints when an allocation fails (std::bad_alloc): the command and the files
// it was given, e.g. "dep-train (--train a.conllu, --dev b.conllu): out of memory ...".
std::string outOfMemoryMessage(const CLI::App& sub);

// Adds the hidden subcommand `list-commands` (in no help group) that prints one JSON line per
// subcommand: {"command", "options": [{"name", "kind": output|input|number|other, "required",
// "positional", "flag"}]}; tests/cli/test_output_guard.cpp enumerates the commands from it.
void addListCommandsCommand(CLI::App& app);

} // namespace prunescope::cli
