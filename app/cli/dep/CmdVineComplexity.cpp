// prunescope-cli vine-complexity: the empirical complexity of dependency parsing (Rush & Petrov
// 2012, sec. 6): thread CPU time per sentence against length, exhaustively and behind the pruning
// stages, with the exponent fitted on log–log (core/vine/EmpiricalComplexity.h); a table, JSON and
// the log–log figure, to which earlier runs (other orders) can be added with --also.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/dep/DepPipelineOptions.h"
#include "core/dep/DepReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/Spread.h"
#include "core/vine/EmpiricalComplexity.h"

#include <iomanip>
#include <iostream>

namespace prunescope::cli {

namespace {

struct VineComplexityOptions {
    std::string model, treebank, outJson, outSvg, label;
    std::string title = "Empirical complexity: CPU time per sentence vs length";
    std::vector<std::string> also;
    DepStageOptions stages;
    int minLen = 10, maxLen = 50, repeats = 3, maxSentences = 0;
    bool json = false, quiet = false;
};

void declareVineComplexityOptions(CLI::App* sub, VineComplexityOptions& o) {
    sub->add_option("--model", o.model,
                    "Dependency model: parsed exhaustively, and after the "
                    "stages if any are given")
        ->required();
    sub->add_option("--treebank", o.treebank, "Treebank (directory or file)")->required();
    addDepStageOptions(*sub, o.stages);
    sub->add_option("--min-len", o.minLen, "Shortest sentence measured (tokens)")
        ->check(CLI::Range(1, 4095))
        ->capture_default_str();
    sub->add_option("--max-len", o.maxLen, "Longest sentence measured (tokens)")
        ->check(CLI::Range(1, 4095))
        ->capture_default_str();
    sub->add_option("--max-sentences", o.maxSentences,
                    "At most this many sentences, evenly spaced over the treebank (0 = all)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--repeats", o.repeats,
                    "Interleaved passes; a sentence's time is its minimum over them")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    sub->add_option("--label", o.label,
                    "Name of this run's series (default: the model's order, e.g. \"2nd order\")");
    sub->add_option("--also", o.also,
                    "Add the series of an earlier --out-json run (repeatable; another order)");
    addOutJsonOption(sub, o.outJson);
    sub->add_option("--out-svg", o.outSvg, "Write the log-log figure here (SVG)");
    sub->add_option("--title", o.title, "Figure title")->capture_default_str();
    sub->add_flag("--json", o.json, "Print the JSON instead of the table");
    addQuietOption(sub, o.quiet);
}

std::string ordinal(int order) {
    return order == 1 ? "1st order" : order == 2 ? "2nd order" : std::to_string(order) + "rd order";
}

// Every k-th sentence so that at most `cap` remain (cap 0: all).
std::vector<DepSentence> evenlySpaced(std::vector<DepSentence> s, int cap) {
    if (cap <= 0 || static_cast<int>(s.size()) <= cap) return s;
    std::vector<DepSentence> out;
    for (int i = 0; i < cap; ++i)
        out.push_back(std::move(s[static_cast<std::size_t>(i) * s.size() / cap]));
    return out;
}

void printComplexityTable(const std::vector<ComplexitySeries>& series) {
    std::cout << std::left << std::setw(34) << "series" << std::right << std::setw(10)
              << "sentences" << std::setw(16) << "time exponent" << std::setw(8) << "R2"
              << std::setw(16) << "push exponent" << std::setw(8) << "UAS" << std::setw(11)
              << "arcs kept" << std::setw(13) << "median ms"
              << "\n";
    for (const ComplexitySeries& s : series) {
        std::cout << std::left << std::setw(34) << s.label.substr(0, 33) << std::right
                  << std::setw(10) << s.lengths.size() << std::fixed << std::setprecision(2)
                  << std::setw(9) << s.timeFit.exponent << " ± " << std::setw(4)
                  << s.timeFit.exponentStdErr << std::setw(8) << s.timeFit.r2 << std::setw(9)
                  << s.pushFit.exponent << " ± " << std::setw(4) << s.pushFit.exponentStdErr
                  << std::setw(8) << s.uas << std::setw(11) << std::setprecision(4)
                  << s.arcsKeptFraction << std::setw(13) << std::setprecision(3)
                  << 1000 * spreadOf(s.seconds).median << "\n";
    }
}

int runVineComplexity(VineComplexityOptions& o) {
    if (o.minLen > o.maxLen) throw InputError("--min-len", 0, 0, "--min-len is above --max-len");
    std::vector<ComplexitySeries> earlier;
    for (const std::string& f : o.also)
        for (auto& s : loadComplexityFile(f))
            earlier.push_back(std::move(s));
    const DepModel model = loadDepModel(o.model);
    const std::vector<DepSentence> sentences = evenlySpaced(
        sentencesOfLength(readDepTreebank(o.treebank), o.minLen, o.maxLen), o.maxSentences);
    if (sentences.empty())
        throw InputError(o.treebank, 0, 0,
                         "no sentence of " + std::to_string(o.minLen) + " to " +
                             std::to_string(o.maxLen) + " tokens");
    const std::string name = o.label.empty() ? ordinal(model.order) : o.label;
    DepPipeline exhaustive(model), pruned(model);
    const nlohmann::json stageInfo = addDepStages(pruned, o.stages);
    auto console = std::make_unique<ConsoleProgress>("vine complexity", "sentence", o.quiet);
    const std::atomic<bool>* cancel = console->progress().cancelFlag();
    std::vector<ComplexityDecoder> decoders{{"exhaustive, " + name, exhaustive.decoder(cancel)}};
    if (!pruned.stages().empty()) {
        std::string stageNames;
        for (const auto& st : pruned.stages())
            stageNames += (stageNames.empty() ? "" : " + ") + st.name;
        decoders.push_back({stageNames + ", " + name, pruned.decoder(cancel)});
    }
    std::vector<ComplexitySeries> series =
        measureComplexity(sentences, decoders, o.repeats, console->progress());
    console.reset();
    series.insert(series.begin(), earlier.begin(), earlier.end());
    nlohmann::json out{{"format", kComplexityFormat},
                       {"treebank", o.treebank},
                       {"model", o.model},
                       {"minLen", o.minLen},
                       {"maxLen", o.maxLen},
                       {"repeats", o.repeats},
                       {"stages", stageInfo},
                       {"series", nlohmann::json::array()}};
    for (const ComplexitySeries& s : series)
        out["series"].push_back(complexitySeriesJson(s));
    if (!o.outJson.empty()) writeFileAtomically(o.outJson, out.dump(1) + "\n");
    if (!o.outSvg.empty()) {
        ComplexitySvgOptions svg;
        svg.title = o.title;
        writeFileAtomically(o.outSvg, complexitySvg(series, svg));
    }
    if (o.json)
        std::cout << out.dump() << "\n";
    else
        printComplexityTable(series);
    return 0;
}

} // namespace

void addVineComplexityCommand(CLI::App& app) {
    addCommand<VineComplexityOptions>(
        app, "vine-complexity",
        "Empirical complexity: thread CPU time per sentence vs length, exhaustive and behind the "
        "pruning stages, the exponent fitted on log-log; a table, JSON and an SVG figure",
        declareVineComplexityOptions, runVineComplexity);
}

} // namespace prunescope::cli
