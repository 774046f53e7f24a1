#pragma once
// The shape of prunescope-cli's command line (docs/cli.md): commands grouped as the code is
// (the CKY/LOLS family, dep, vine, filter, cube, randomized), each with a grouped spelling
// (`dep train`) beside its historical name (`dep-train`), which stays an alias for good; the
// grouped top-level help; "unknown subcommand X — did you mean Y?" and unknown flags named before
// CLI11 parses; help text wrapped to 100 columns; bash and zsh completion generated from the same
// definitions.
#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace prunescope::cli {

// One command: its group ("cky", "dep", ...), its name within the group ("train"), the CLI11
// subcommand that runs it (the historical name, "dep-train") and a one-line summary.
struct CommandEntry {
    std::string group, name, command, summary;
    // How a user types it: "dep train"; the CKY/LOLS family needs no group word ("eval").
    std::string spelling() const;
};
const std::vector<CommandEntry>& commandTable();

// The groups in help order, with their headings ("cky" -> "CKY/LOLS").
struct CommandGroup {
    std::string name, heading;
};
const std::vector<CommandGroup>& commandGroups();

// Levenshtein distance (insertions, deletions, substitutions all cost 1).
std::size_t editDistance(const std::string& a, const std::string& b);
// The candidates closest to word: those at the least edit distance if it is small for the word's
// length, else those with word as a prefix or a prefix of word; empty if none is close.
std::vector<std::string> closestNames(const std::string& word,
                                      const std::vector<std::string>& candidates);
// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
std::string quotedAlternatives(const std::vector<std::string>& names);

// What main() does before CLI11 parses: rewrites a grouped spelling to the command's CLI11 name
// (`dep train --x` -> `dep-train --x`), answers --version, the top-level and group help and
// `completion`, and refuses unknown subcommands and unknown flags (exit 2, one line on stderr).
// Returns the exit code when it answered or refused, nullopt when CLI11 should parse args.
std::optional<int> preprocessCommandLine(const CLI::App& app, std::vector<std::string>& args);

// CLI11's parse error as the one line every refusal prints (docs/cli.md, "Exit codes"):
// "error: --max-len: 5000 is not in 1 to 4095 (prunescope-cli lols --help)". CLI11 writes two
// lines and prints a non-negative range's upper end as 1.8e308 in full; this says "at least 0".
// command: the subcommand's spelling, or empty.
std::string parseErrorLine(const std::string& what, const std::string& command);

// The top-level help (grouped, one line per command, <= 40 lines) and one group's help.
std::string topLevelHelp();
std::string groupHelp(const std::string& group);

// Completion scripts for bash and zsh, from the command table and each command's options.
std::string completionScript(const CLI::App& app, const std::string& shell);

// CLI11's formatter with every line wrapped to at most 100 columns; continuation lines are
// indented to the description column.
class WrappingFormatter : public CLI::Formatter {
  public:
    static constexpr std::size_t kWidth = 100;
    std::string make_help(const CLI::App* app, std::string name,
                          CLI::AppFormatMode mode) const override;
};
// Wraps every line of text to at most width columns (UTF-8 characters count as one column).
std::string wrapLines(const std::string& text, std::size_t width);

} // namespace prunescope::cli
