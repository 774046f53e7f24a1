#include "app/cli/CommandLine.h"

#include "PruneScopeVersion.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace prunescope::cli {

std::string CommandEntry::spelling() const {
    return group == "cky" ? name : group + " " + name;
}

const std::vector<CommandGroup>& commandGroups() {
    static const std::vector<CommandGroup> g = {{"cky", "CKY/LOLS"}, {"dep", "dep"},
                                                {"vine", "vine"},    {"filter", "filter"},
                                                {"cube", "cube"},    {"randomized", "randomized"},
                                                {"model", "model"}};
    return g;
}

const std::vector<CommandEntry>& commandTable() {
    // Summaries stay under 69 columns: the top-level help is one line of at most 100 per command.
    static const std::vector<CommandEntry> t = {
        {"cky", "grammar", "grammar", "Estimate a binarized PCFG from a treebank"},
        {"cky", "parse", "parse", "Parse sentences or a treebank's words; print PTB trees"},
        {"cky", "inspect-cell", "inspect-cell", "One chart cell: labels, scores, best subtree"},
        {"cky", "eval", "eval", "Parse a treebank; EVALB F1, pushes and speed"},
        {"cky", "compare-masks", "compare-masks", "Compare two pruning masks span by span"},
        {"cky", "bench-parse", "bench-parse", "Benchmark CKY: pushes/s and words/s by length"},
        {"cky", "bench-features", "bench-features", "Benchmark span features and policy masks"},
        {"cky", "baseline", "baseline", "Train the asymmetric-weighting baseline sweep"},
        {"cky", "frontier", "frontier", "Refit and replot a run directory's frontier"},
        {"cky", "frontier-best", "frontier-best",
         "The frontier point maximizing F1 - lambda*runtime"},
        {"cky", "frontier-retrain", "frontier-retrain",
         "Retrain a frontier point into a policy file"},
        {"cky", "lols", "lols", "Train a pruning policy with LOLS into a run directory"},
        {"cky", "regret", "regret", "Regret of the gold oracle vs the rollout oracle"},
        {"cky", "compare", "compare", "Compare two policies on held-out reward (permutation test)"},
        {"cky", "lols-plot", "lols-plot", "Learning curves of LOLS run directories (SVG)"},
        {"cky", "check-rollouts", "check-rollouts", "Check CP and DP rollouts against reparsing"},
        {"cky", "bench-rollouts", "bench-rollouts", "Time rollouts: naive vs rCP vs rDP"},
        {"dep", "train", "dep-train", "Train a first- or second-order dependency model"},
        {"dep", "eval", "dep-eval", "Parse a dependency treebank and score it (UAS)"},
        {"dep", "parse", "dep-parse", "Parse POS-tagged tokens with a dependency model"},
        {"dep", "bench", "dep-bench", "Dependency parsing speed, exhaustive vs pruned"},
        {"dep", "frontier", "dep-frontier", "One UAS vs tokens/s plot of dependency runs (SVG)"},
        {"vine", "train", "vine-train", "Train a vine-pruning cascade in front of a model"},
        {"vine", "frontier", "vine-frontier", "The alpha frontier of a vine cascade"},
        {"vine", "complexity", "vine-complexity", "CPU time vs sentence length, fitted on log-log"},
        {"filter", "train", "filter-train", "Train an arc filter (Cherry & Bergsma 2011)"},
        {"filter", "eval", "filter-eval", "Coverage and reduction of an arc filter"},
        {"filter", "compare", "filter-compare", "Permutation tests between arc filters"},
        {"filter", "plot", "filter-plot", "Coverage/reduction curves of filters (SVG)"},
        {"filter", "frontier", "filter-frontier", "UAS against tokens/s of filtered parsers (SVG)"},
        {"cube", "train", "cube-train", "Train the cube-pruned parser (violation-fixing)"},
        {"cube", "eval", "cube-eval", "Parse a dependency treebank at beam k and score it"},
        {"cube", "parse", "cube-parse", "Parse tagged text or a treebank with a cube model"},
        {"cube", "bench", "cube-bench", "Cube-pruning speed at several beam sizes"},
        {"cube", "compare", "cube-compare", "Permutation tests of UAS between cube evaluations"},
        {"cube", "plot", "cube-plot", "Dev UAS per epoch of cube-train models (SVG)"},
        {"randomized", "run", "randomized", "Randomized pruning (MCMC over span masks): bias"},
        {"randomized", "em", "randomized-em", "Stepwise EM with randomized-pruning expectations"},
        {"randomized", "bench", "bench-randomized", "Pushes and seconds per MCMC iteration"},
        {"model", "convert", "model-convert", "A model or policy with binary or JSON weights"},
    };
    return t;
}

std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::vector<std::string> closestNames(const std::string& word,
                                      const std::vector<std::string>& candidates) {
    std::vector<std::string> best;
    std::size_t bestDistance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (const std::string& c : candidates) {
        const std::size_t d = editDistance(word, c);
        if (d < bestDistance) {
            bestDistance = d;
            best.clear();
        }
        if (d == bestDistance && std::find(best.begin(), best.end(), c) == best.end())
            best.push_back(c);
    }
    if (!best.empty() || word.size() < 2) return best;
    for (const std::string& c : candidates) { // "evaluate" -> "eval", "bench" -> "bench-parse"
        const bool prefix = c.size() >= 3 && (word.rfind(c, 0) == 0 || c.rfind(word, 0) == 0);
        if (prefix && std::find(best.begin(), best.end(), c) == best.end()) best.push_back(c);
    }
    if (best.size() > 3) best.resize(3);
    return best;
}

std::string quotedAlternatives(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) s += i + 1 == names.size() ? " or " : ", ";
        s += "'" + names[i] + "'";
    }
    return s;
}

namespace {

bool isGroup(const std::string& word) {
    const auto& g = commandGroups();
    return std::any_of(g.begin(), g.end(), [&](const CommandGroup& x) { return x.name == word; });
}

std::vector<std::string> groupCommandNames(const std::string& group) {
    std::vector<std::string> names;
    for (const CommandEntry& e : commandTable())
        if (e.group == group) names.push_back(e.name);
    return names;
}

// Every name a user may type first: CLI11's subcommands with their aliases, groups, completion.
std::vector<std::string> firstWords(const CLI::App& app) {
    std::vector<std::string> words;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        words.push_back(sub->get_name());
        for (const std::string& a : sub->get_aliases())
            words.push_back(a);
    }
    for (const CommandGroup& g : commandGroups())
        words.push_back(g.name);
    words.push_back("completion");
    return words;
}

const CLI::App* findSubcommand(const CLI::App& app, const std::string& name) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        if (sub->check_name(name)) return sub;
    return nullptr;
}

// Long names of a subcommand's options, visible ones first ("--max-len").
std::vector<std::string> longFlags(const CLI::App* sub, bool withHidden) {
    std::vector<std::string> flags;
    for (const CLI::Option* opt : sub->get_options()) {
        if (!withHidden && opt->get_group().empty()) continue;
        for (const std::string& n : opt->get_lnames())
            flags.push_back("--" + n);
    }
    return flags;
}

int refuse(const std::string& message) {
    std::cerr << "error: " << message << "\n";
    return 2;
}

int unknownSubcommand(const std::string& typed, const std::vector<std::string>& candidates) {
    const std::vector<std::string> close = closestNames(typed, candidates);
    return refuse("unknown subcommand '" + typed + "'" +
                  (close.empty() ? std::string(" (prunescope-cli --help lists them)")
                                 : " — did you mean " + quotedAlternatives(close) + "?"));
}

// Refuses a `--flag` the command does not define, naming it and the closest flags it has.
std::optional<int> checkFlags(const CLI::App* sub, const std::vector<std::string>& args,
                              std::size_t from, const std::string& spelling) {
    for (std::size_t i = from; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") break; // the rest is positional
        if (a.size() < 3 || a.rfind("--", 0) != 0) continue;
        const std::string name = a.substr(0, a.find('='));
        if (name == "--help" || sub->get_option_no_throw(name) != nullptr) continue;
        const std::vector<std::string> flags = longFlags(sub, false);
        std::vector<std::string> close = closestNames(name, flags);
        // The same idea under another name in this command (grammar reads --train, not
        // --treebank).
        static const std::map<std::string, std::vector<std::string>> synonyms = {
            {"--treebank", {"--train", "--input"}},
            {"--train", {"--treebank"}},
            {"--input", {"--treebank"}},
            {"--mask", {"--mask-file"}},
            {"--mask-file", {"--mask"}},
            {"--out", {"--out-json", "--out-svg", "--svg"}},
            {"--svg", {"--out-svg", "--out"}},
            {"--out-svg", {"--svg", "--out"}},
            {"--plot", {"--svg", "--out-svg"}},
            {"--model", {"--filter"}},
            {"--max-trees", {"--max-sentences"}},
            {"--limit", {"--max-sentences"}}};
        if (close.empty())
            if (auto it = synonyms.find(name); it != synonyms.end())
                for (const std::string& other : it->second)
                    if (std::find(flags.begin(), flags.end(), other) != flags.end())
                        close.push_back(other);
        return refuse("unknown flag '" + name + "' for '" + spelling + "'" +
                      (close.empty()
                           ? std::string(" (prunescope-cli " + spelling + " --help lists them)")
                           : " — did you mean " + quotedAlternatives(close) + "?"));
    }
    return std::nullopt;
}

} // namespace

std::string topLevelHelp() {
    std::ostringstream s;
    // Within 40 lines (one screen) and 100 columns: the usage line says what the old footer did.
    s << "Usage: prunescope-cli <command> [flags]   (each has --help, docs/cli.md; old names work; "
         "--version)\n";
    for (const CommandGroup& g : commandGroups()) {
        bool first = true;
        for (const CommandEntry& e : commandTable()) {
            if (e.group != g.name) continue;
            std::string label = first ? g.heading : "";
            label.resize(12, ' ');
            std::string cmd = e.spelling();
            cmd.resize(std::max<std::size_t>(18, cmd.size() + 2), ' ');
            s << label << cmd << e.summary << "\n";
            first = false;
        }
    }
    return s.str();
}

std::string groupHelp(const std::string& group) {
    std::ostringstream s;
    s << "Usage: prunescope-cli " << (group == "cky" ? std::string() : group + " ")
      << "<command> [flags]   (each command has --help)\n";
    for (const CommandEntry& e : commandTable()) {
        if (e.group != group) continue;
        std::string cmd = "  " + e.spelling();
        cmd.resize(std::max<std::size_t>(24, cmd.size() + 2), ' ');
        s << cmd << e.summary
          << (e.command != e.spelling() ? " (also: " + e.command + ")" : std::string()) << "\n";
    }
    return wrapLines(s.str(), WrappingFormatter::kWidth);
}

std::optional<int> preprocessCommandLine(const CLI::App& app, std::vector<std::string>& args) {
    if (args.size() < 2 || args[1] == "--help" || args[1] == "-h") {
        (args.size() < 2 ? std::cerr : std::cout) << topLevelHelp();
        return args.size() < 2 ? 2 : 0;
    }
    const std::string& first = args[1];
    if (first == "--version" || first == "-V") {
        std::cout << "prunescope-cli " << PRUNESCOPE_VERSION << "\n";
        return 0;
    }
    if (first == "completion") {
        const std::string shell = args.size() > 2 ? args[2] : "";
        if (shell != "bash" && shell != "zsh")
            return refuse("completion: name the shell: prunescope-cli completion bash|zsh");
        std::cout << completionScript(app, shell);
        return 0;
    }
    if (first.rfind("-", 0) == 0) return std::nullopt; // CLI11 names the unknown flag
    // A group word, unless a command of that name takes it (`randomized --grammar ...`).
    const bool groupWord = isGroup(first) && !(findSubcommand(app, first) != nullptr &&
                                               (args.size() < 3 || args[2].rfind("-", 0) == 0));
    if (groupWord) {
        if (args.size() < 3 || args[2] == "--help" || args[2] == "-h") {
            (args.size() < 3 ? std::cerr : std::cout) << groupHelp(first);
            return args.size() < 3 ? 2 : 0;
        }
        const std::string& second = args[2];
        const auto& table = commandTable();
        auto it = std::find_if(table.begin(), table.end(), [&](const CommandEntry& e) {
            return e.group == first && e.name == second;
        });
        if (it == table.end()) {
            std::vector<std::string> spelled;
            for (const std::string& n : groupCommandNames(first))
                spelled.push_back(n);
            const std::vector<std::string> close = closestNames(second, spelled);
            std::vector<std::string> quoted;
            for (const std::string& c : close)
                quoted.push_back(first + " " + c);
            return refuse("unknown subcommand '" + first + " " + second + "'" +
                          (quoted.empty() ? " (prunescope-cli " + first + " --help lists them)"
                                          : " — did you mean " + quotedAlternatives(quoted) + "?"));
        }
        args.erase(args.begin() + 1);
        args[1] = it->command;
        return checkFlags(findSubcommand(app, it->command), args, 2, it->spelling());
    }
    const CLI::App* sub = findSubcommand(app, first);
    if (sub == nullptr) {
        std::vector<std::string> candidates = firstWords(app);
        for (const CommandEntry& e : commandTable())
            candidates.push_back(e.spelling());
        return unknownSubcommand(first, candidates);
    }
    return checkFlags(sub, args, 2, first);
}

std::string completionScript(const CLI::App& app, const std::string& shell) {
    std::ostringstream s;
    std::vector<std::string> firsts;
    for (const CommandGroup& g : commandGroups())
        if (g.name != "cky") firsts.push_back(g.name);
    for (const CommandEntry& e : commandTable())
        if (e.group == "cky") firsts.push_back(e.name);
    firsts.insert(firsts.end(), {"completion", "--help", "--version"});
    auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (const std::string& x : v)
            out += (out.empty() ? "" : " ") + x;
        return out;
    };
    if (shell == "zsh")
        s << "#compdef prunescope-cli\n"
             "# zsh completion for prunescope-cli (generated by `prunescope-cli completion zsh`):\n"
             "# the bash completion through zsh's bashcompinit.\n"
             "autoload -U +X bashcompinit && bashcompinit\n";
    else
        s << "# bash completion for prunescope-cli (generated by `prunescope-cli completion "
             "bash`)\n";
    s << "_prunescope_cli_flags() {\n  case \"$1\" in\n";
    std::set<std::string> done;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (!done.insert(sub->get_name()).second) continue;
        s << "    " << sub->get_name() << ") echo \"" << join(longFlags(sub, false))
          << " --help\" ;;\n";
    }
    s << "  esac\n}\n"
         "_prunescope_cli() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} sub=${COMP_WORDS[2]}\n"
         "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
         "    COMPREPLY=($(compgen -W \""
      << join(firsts)
      << "\" -- \"$cur\")); return\n"
         "  fi\n"
         "  case \"$cmd\" in\n";
    for (const CommandGroup& g : commandGroups()) {
        if (g.name == "cky") continue;
        s << "    " << g.name << ")\n      if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
          << "        COMPREPLY=($(compgen -W \"" << join(groupCommandNames(g.name))
          << "\" -- \"$cur\")); return\n      fi\n      case \"$sub\" in\n";
        for (const CommandEntry& e : commandTable())
            if (e.group == g.name) s << "        " << e.name << ") cmd=" << e.command << " ;;\n";
        s << "      esac ;;\n";
    }
    s << "    completion) COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\")); return ;;\n"
         "  esac\n"
         "  if [[ \"$cur\" == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$(_prunescope_cli_flags \"$cmd\")\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _prunescope_cli prunescope-cli\n";
    return s.str();
}

std::string wrapLines(const std::string& text, std::size_t width) {
    auto columns = [](const std::string& s) {
        return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) {
            return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        }));
    };
    std::ostringstream out;
    std::istringstream in(text);
    std::string line;
    bool endsWithNewline = !text.empty() && text.back() == '\n';
    bool firstLine = true;
    while (std::getline(in, line)) {
        if (!firstLine) out << "\n";
        firstLine = false;
        if (columns(line) <= width) {
            out << line;
            continue;
        }
        // Continuation indent: the description column (after the first run of 2+ spaces that
        // follows text), else the line's own indent.
        const std::size_t lead = line.find_first_not_of(' ');
        std::size_t indent = lead == std::string::npos ? 0 : lead;
        const std::size_t gap = line.find("  ", indent);
        if (gap != std::string::npos) {
            const std::size_t desc = line.find_first_not_of(' ', gap);
            if (desc != std::string::npos && desc < width / 2) indent = desc;
        }
        std::string current = line.substr(0, indent);
        std::size_t pos = indent;
        bool atLineStart = true;
        while (pos < line.size()) {
            std::size_t end = line.find(' ', pos);
            if (end == std::string::npos) end = line.size();
            const std::string word = line.substr(pos, end - pos);
            pos = end + 1;
            if (word.empty()) {
                if (!atLineStart) current += ' ';
                continue;
            }
            const std::string sep = atLineStart || current.back() == ' ' ? "" : " ";
            if (!atLineStart && columns(current) + sep.size() + columns(word) > width) {
                while (!current.empty() && current.back() == ' ')
                    current.pop_back();
                out << current << "\n";
                current = std::string(indent, ' ');
                atLineStart = true;
            }
            current += (atLineStart ? "" : sep) + word;
            atLineStart = false;
        }
        while (!current.empty() && current.back() == ' ')
            current.pop_back();
        out << current;
    }
    if (endsWithNewline) out << "\n";
    return out.str();
}

namespace {

// A number of a CLI11 range message, short: "0.000000" -> "0", "4095" -> "4095".
std::string shortNumber(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0') return text;
    std::ostringstream out;
    out << std::setprecision(12) << v;
    return out.str();
}

} // namespace

std::string parseErrorLine(const std::string& what, const std::string& command) {
    std::string line; // the first line; a second one says "Run with --help ..."
    std::istringstream in(what);
    std::getline(in, line);
    // "Value X not in range LO to HI" (CLI::Range) -> "X is not in LO to HI", "at least LO".
    static const std::regex range("Value (.*) not in range (\\S+) to (\\S+)$");
    std::smatch m;
    if (std::regex_search(line, m, range)) {
        const std::string value = m[1], lo = m[2], hi = m[3];
        const double loV = std::strtod(lo.c_str(), nullptr), hiV = std::strtod(hi.c_str(), nullptr);
        std::string said;
        if (hiV >= 1e300)
            said = value + " is not allowed: it must be at least " + shortNumber(lo);
        else if (loV <= -1e300)
            said = value + " is not allowed: it must be at most " + shortNumber(hi);
        else
            said = value + " is not in " + shortNumber(lo) + " to " + shortNumber(hi);
        line = line.substr(0, static_cast<std::size_t>(m.position(0))) + said;
    }
    return "error: " + line +
           (command.empty() ? std::string(" (prunescope-cli --help)")
                            : " (prunescope-cli " + command + " --help)");
}

std::string WrappingFormatter::make_help(const CLI::App* app, std::string name,
                                         CLI::AppFormatMode mode) const {
    return wrapLines(CLI::Formatter::make_help(app, std::move(name), mode), kWidth);
}

} // namespace prunescope::cli
