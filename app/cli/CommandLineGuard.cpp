// The checks every subcommand's command line passes before its action runs (CommandLineGuard.h).
#include "app/cli/CommandLineGuard.h"

#include "app/cli/Commands.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace fs = std::filesystem;

namespace prunescope::cli {

const std::vector<std::string>& outputOptionNames() {
    static const std::vector<std::string> names = {"--out",        "--json",         "--out-json",
                                                   "--out-svg",    "--svg",          "--plot",
                                                   "--plot-rules", "--save-grammars"};
    return names;
}

namespace {

bool isFlag(const CLI::Option& opt) {
    return opt.get_expected_max() == 0 || opt.get_type_size_max() == 0;
}

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

// The option's first long name ("--json"); CLI11's get_name() is empty for hidden options, which
// the deprecated spellings are (app/cli/Options.h), so they are named here from their own names.
std::string optionName(const CLI::Option& opt) {
    if (!opt.get_lnames().empty()) return "--" + opt.get_lnames().front();
    if (!opt.get_snames().empty()) return "-" + opt.get_snames().front();
    return opt.get_name(true, false);
}

std::string displayName(const CLI::Option& opt) {
    const std::string name = optionName(opt);
    return opt.get_positional() && opt.get_lnames().empty() && opt.get_snames().empty()
               ? "the positional " + name
               : name;
}

// The absolute path with `.`/`..` and every symbolic link of its existing part resolved.
fs::path canonicalPath(const std::string& p) {
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    if (ec) return fs::path(p).lexically_normal();
    fs::path c = fs::weakly_canonical(abs, ec);
    return ec ? abs.lexically_normal() : c;
}

// Whether `inner` is `outer` or lies below it (both canonical).
bool isWithin(const fs::path& inner, const fs::path& outer) {
    auto o = outer.begin(), i = inner.begin();
    for (; o != outer.end(); ++o, ++i) {
        if (o->empty()) continue; // a trailing separator
        if (i == inner.end() || *i != *o) return false;
    }
    return true;
}

bool isTreebankFileName(const fs::path& p) {
    const std::string ext = p.extension().string();
    return ext == ".mrg" || ext == ".conllu" || ext == ".conll";
}

bool isRunDirectory(const fs::path& dir) {
    std::error_code ec;
    return fs::exists(dir / "config.json", ec) || fs::exists(dir / "frontier.json", ec) ||
           fs::exists(dir / "log.jsonl", ec);
}

// The files an input value names: the value itself, and for NAME=FILE values (filter-frontier's
// --eval, dep-frontier's --eval) the part after '='.
std::vector<std::string> inputPaths(const std::string& value) {
    std::vector<std::string> out;
    std::error_code ec;
    if (fs::exists(value, ec)) out.push_back(value);
    const std::size_t eq = value.find('=');
    if (eq != std::string::npos && eq + 1 < value.size()) {
        const std::string rest = value.substr(eq + 1);
        if (fs::exists(rest, ec)) out.push_back(rest);
    }
    return out;
}

// Why writing `out` would destroy the input `in` (empty: it would not).
std::string conflict(const std::string& out, const std::string& in) {
    std::error_code ec;
    const fs::path co = canonicalPath(out), ci = canonicalPath(in);
    if (co == ci) return "it is that input";
    if (fs::exists(out, ec) && fs::equivalent(out, in, ec)) return "it is that input (a link)";
    if (!fs::is_directory(in, ec) || !isWithin(co, ci)) return {};
    const bool outExists = fs::exists(out, ec) && !fs::is_directory(out, ec);
    if (isRunDirectory(ci)) {
        // A run directory's files are all read (config.json, log.jsonl, best.json, policies/,
        // state/); a plot written there before is not.
        if (outExists && co.extension() != ".svg") return "it is a file of that run directory";
        return {};
    }
    if (isTreebankFileName(co))
        return outExists ? "it is a file of that treebank directory"
                         : "it would become a file of that treebank directory";
    return {};
}

void guardOutputs(const CLI::App& sub) {
    std::vector<std::pair<const CLI::Option*, std::string>> outputs, inputs;
    for (const CLI::Option* opt : sub.get_options()) {
        if (opt->count() == 0) continue;
        const OptionKind kind = optionKind(*opt);
        for (const std::string& v : opt->results()) {
            if (v.empty() || v == "-") continue;
            if (kind == OptionKind::Output) outputs.emplace_back(opt, v);
            if (kind == OptionKind::Input) inputs.emplace_back(opt, v);
        }
    }
    for (const auto& [outOpt, out] : outputs) {
        for (const auto& [inOpt, value] : inputs)
            for (const std::string& in : inputPaths(value)) {
                const std::string why = conflict(out, in);
                if (why.empty()) continue;
                throw InputError(out, 0, 0,
                                 displayName(*outOpt) + " would overwrite an input read through " +
                                     displayName(*inOpt) + " " + value + " (" + why +
                                     "); refusing to overwrite it: choose another output");
            }
        // Two outputs naming one file: the second write would replace the first.
        for (const auto& [otherOpt, other] : outputs)
            if (otherOpt != outOpt && canonicalPath(other) == canonicalPath(out))
                throw InputError(out, 0, 0,
                                 displayName(*outOpt) + " and " + displayName(*otherOpt) +
                                     " name the same file; choose two outputs");
    }
}

void guardNumbers(const CLI::App& sub) {
    for (const CLI::Option* opt : sub.get_options()) {
        if (opt->count() == 0 || !startsWith(opt->get_type_name(), "FLOAT")) continue;
        for (const std::string& v : opt->results()) {
            char* end = nullptr;
            const double x = std::strtod(v.c_str(), &end);
            if (!std::isfinite(x))
                throw InputError(displayName(*opt), 0, 0,
                                 v + " is not a finite number (nan, inf and values beyond "
                                     "1.8e308 are refused)");
        }
    }
}

void listCommands(const CLI::App& app, std::vector<std::string> path) {
    for (const CLI::App* sub : app.get_subcommands({})) {
        if (sub->get_name() == "list-commands") continue;
        std::vector<std::string> here = path;
        here.push_back(sub->get_name());
        nlohmann::json options = nlohmann::json::array();
        for (const CLI::Option* opt : sub->get_options()) {
            const std::string name = optionName(*opt);
            if (name == "--help" || name == "-h") continue;
            const OptionKind k = optionKind(*opt);
            options.push_back({{"name", name},
                               {"kind", k == OptionKind::Output   ? "output"
                                        : k == OptionKind::Input  ? "input"
                                        : k == OptionKind::Number ? "number"
                                                                  : "other"},
                               {"required", opt->get_required()},
                               {"positional", opt->get_positional() && name.rfind("-", 0) != 0},
                               {"flag", isFlag(*opt)},
                               {"type", opt->get_type_name()},
                               {"description", opt->get_description()}});
        }
        std::cout << nlohmann::json{{"command", here}, {"options", options}}.dump() << "\n";
        listCommands(*sub, here);
    }
}

} // namespace

OptionKind optionKind(const CLI::Option& opt) {
    if (isFlag(opt)) return OptionKind::Other;
    const std::string type = opt.get_type_name();
    if (startsWith(type, "FLOAT") || startsWith(type, "INT") || startsWith(type, "UINT"))
        return OptionKind::Number;
    if (!startsWith(type, "TEXT")) return OptionKind::Other;
    const auto& outs = outputOptionNames();
    const std::string name = optionName(opt);
    return std::find(outs.begin(), outs.end(), name) != outs.end() ? OptionKind::Output
                                                                   : OptionKind::Input;
}

void guardCommandLine(const CLI::App& sub) {
    guardNumbers(sub);
    guardOutputs(sub);
    for (const CLI::App* below : sub.get_subcommands())
        guardCommandLine(*below);
}

std::string outOfMemoryMessage(const CLI::App& sub) {
    std::string name = sub.get_name(), files;
    const CLI::App* leaf = &sub;
    while (!leaf->get_subcommands().empty()) {
        leaf = leaf->get_subcommands().front();
        name += " " + leaf->get_name();
    }
    for (const CLI::Option* opt : leaf->get_options()) {
        if (opt->count() == 0 || optionKind(*opt) != OptionKind::Input) continue;
        for (const std::string& v : opt->results()) {
            if (inputPaths(v).empty()) continue;
            files += (files.empty() ? "" : ", ") + displayName(*opt) + " " + v;
        }
    }
    return name + (files.empty() ? std::string() : " (" + files + ")") +
           ": out of memory (an allocation failed); try a smaller --memory-budget, a shorter "
           "--max-len or fewer --threads where the command has them, or free memory";
}

bool printsJsonOnly(const std::string& jsonFile) {
    return jsonFile == "-";
}

void writeJsonOutput(const std::string& jsonFile, const std::string& text) {
    if (jsonFile.empty()) return;
    if (printsJsonOnly(jsonFile)) {
        std::cout << text;
        checkOutput();
        return;
    }
    writeFileAtomically(jsonFile, text);
}

void addListCommandsCommand(CLI::App& app) {
    auto* sub = app.add_subcommand("list-commands",
                                   "Print every subcommand and how the output guard sees its "
                                   "options, one JSON line each (for tests)");
    sub->group(""); // hidden from --help
    setAction(sub, [&app] {
        listCommands(app, {});
        return 0;
    });
}

} // namespace prunescope::cli
