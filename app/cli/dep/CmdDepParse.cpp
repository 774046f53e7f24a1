// prunescope-cli dep-parse: parse tagged tokens (stdin or a file) with a dependency model, behind
// the pruning stages of DepPipelineOptions, optionally under a given arc mask; prints the heads,
// the per-arc first-order max-marginals and the stage that pruned each arc
// (core/dep/DepInspection.h, the same code the explorer's dependency view runs). Formats:
// docs/file-formats.md.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "app/cli/dep/DepPipelineOptions.h"
#include "app/cli/dep/LongSentenceWarning.h"
#include "core/dep/ArcMaskFile.h"
#include "core/dep/DepInspection.h"
#include "core/dep/DepParseInput.h"
#include "core/dep/DepReader.h"
#include "core/dep/DepWriter.h"
#include "core/util/Error.h"

#include <iomanip>
#include <iostream>
#include <iterator>
#include <optional>

namespace prunescope::cli {

namespace {

struct DepParseOptions {
    std::string model, input, mask;
    std::vector<std::string> out;
    DepStageOptions stages;
    bool json = false, quiet = false;
    int sentence = 0;
};

void declareDepParseOptions(CLI::App* sub, DepParseOptions& o) {
    sub->add_option("--model", o.model, "Dependency model (from dep-train): the final exact stage")
        ->required();
    sub->add_option("--input", o.input,
                    "A treebank (.dp/.conll/.conllx/.conllu file or directory; gold heads are "
                    "scored) or tagged text (.txt/.tag) "
                    "instead of standard input");
    addDepStageOptions(*sub, o.stages);
    addMaskFileOption(
        sub, o.mask,
        "JSON arc mask the final parse uses exactly (docs/file-formats.md \"Dependency "
        "arc mask\"; the dependency "
        "view's Export Arc Mask writes one); with several sentences, only sentence "
        "--sentence is parsed (default: the mask's \"sentence\" field, else 1)",
        {"--mask"});
    sub->add_option("--sentence", o.sentence,
                    "Parse only sentence N (1-based) of the input (0 = all; with --mask-file the "
                    "default is the mask's \"sentence\" field, else 1)");
    sub->add_flag("--json", o.json,
                  "Print one JSON object {model, stages, sentences: [...]} (heads, maxMarginals, "
                  "prunedBy, ...)");
    sub->add_option("--out", o.out,
                    "Also write the parses to FILE, atomically (repeatable): .conllu = CoNLL-U, "
                    "the input's lines with HEAD filled in and DEPREL/DEPS '_' (scorable by the "
                    "official UD evaluation script); .dp = word TAB POS TAB head");
    addQuietOption(sub, o.quiet);
}

// --mask-file FILE; it settles --sentence when that is 0: the sentence the explorer recorded the
// mask for, else 1.
ArcMask readParseMask(const std::string& maskFile, int& sentence, std::size_t sentences,
                      const std::string& inputName) {
    const ArcMaskFile file = loadArcMaskFile(maskFile);
    if (sentence == 0 && file.sentence > 0) {
        // The mask's own index: an error in it is the mask file's, at the value.
        if (file.sentence > static_cast<int>(sentences))
            throw InputError(maskFile, file.sentenceAt.first, file.sentenceAt.second,
                             "arc mask: 'sentence' " + std::to_string(file.sentence) +
                                 " is not a sentence of " + inputName + " (it has " +
                                 std::to_string(sentences) + ")");
        sentence = file.sentence;
    } else if (sentence == 0) {
        sentence = 1;
    }
    return file.mask;
}

// The sentences to parse: all, or only --sentence N; a mask must fit the one chosen.
std::vector<DepSentence> chooseSentences(std::vector<DepSentence> sentences, int sentence,
                                         const std::optional<ArcMask>& mask,
                                         const std::string& maskFile,
                                         const std::string& inputName) {
    if (sentence < 0 || sentence > static_cast<int>(sentences.size()))
        throw InputError(inputName, 0, 0,
                         "--sentence " + std::to_string(sentence) +
                             " is out of range (the input has " + std::to_string(sentences.size()) +
                             " sentences)");
    if (sentence > 0) sentences = {sentences[static_cast<std::size_t>(sentence - 1)]};
    if (mask && mask->n != sentences.front().size())
        throw InputError(maskFile, 0, 0,
                         "the arc mask is for " + std::to_string(mask->n) +
                             " tokens, but the sentence (" + sentences.front().file + ":" +
                             std::to_string(sentences.front().line) + ") has " +
                             std::to_string(sentences.front().size()));
    return sentences;
}

// Plain text: a CoNLL-like table per sentence (id, word, POS, head, the head's max-marginal minus
// the best tree's score), a blank line after each.
void printInspectionTable(const DepSentence& s, const DepInspection& r) {
    if (!r.success) std::cout << "# no tree under the mask\n";
    for (int m = 1; m <= s.size(); ++m) {
        const int h = r.heads[static_cast<std::size_t>(m)];
        std::cout << m << "\t" << s.words[static_cast<std::size_t>(m)] << "\t"
                  << s.tags[static_cast<std::size_t>(m)] << "\t" << h;
        if (h >= 0)
            std::cout << "\t" << std::fixed << std::setprecision(3)
                      << r.maxMarginals(h, m) - r.maxMarginals.best;
        std::cout << "\n";
    }
    std::cout << "\n";
}

// --out FILE...: every name's format is checked before any parsing starts (main's guard has
// already refused an output that is one of the inputs).
void checkOutputs(const DepParseOptions& o) {
    for (const std::string& path : o.out)
        depOutputFormatOf(path);
}

// The heads a file gets: the parse's, or, for a sentence with no tree under --mask, every token
// attached to the root (said on stderr; the JSON and the table say success false).
std::vector<int> headsToWrite(const DepSentence& s, const DepInspection& r, bool quiet) {
    if (r.success) return r.heads;
    if (!quiet)
        std::cerr << "dep parse: " << s.file << ":" << s.line
                  << ": no tree under the mask; --out writes every head as 0\n";
    std::vector<int> flat(static_cast<std::size_t>(s.size()) + 1, 0);
    flat[0] = -1;
    return flat;
}

int runDepParse(DepParseOptions& o) {
    checkOutputs(o);
    const DepModel model = loadDepModel(o.model);
    std::vector<DepSentence> sentences =
        o.input.empty()
            ? readDepParseText(std::string(std::istreambuf_iterator<char>(std::cin), {}), "<stdin>")
            : readDepInput(o.input);
    const std::string inputName = o.input.empty() ? "<stdin>" : o.input;
    if (sentences.empty()) throw InputError(inputName, 0, 0, "no sentences to parse");
    std::optional<ArcMask> mask;
    if (!o.mask.empty()) mask = readParseMask(o.mask, o.sentence, sentences.size(), inputName);
    sentences = chooseSentences(std::move(sentences), o.sentence, mask, o.mask, inputName);
    if (!o.quiet) warnLongSentences(sentences, kEisnerCost, "Ctrl-C twice stops it at once");
    DepPipeline pipeline(model);
    const nlohmann::json stageInfo = addDepStages(pipeline, o.stages);
    EisnerParser parser(model.eisnerOptions());
    nlohmann::json out{{"model", {{"path", o.model}, {"order", model.order}}},
                       {"stages", stageInfo}};
    nlohmann::json list = nlohmann::json::array();
    auto console = std::make_unique<ConsoleProgress>(
        "dep parse", "sentence", o.quiet || (!o.json && ConsoleProgress::stdoutIsTerminal()));
    const Progress& progress = console->progress();
    parser.setCancelFlag(progress.cancelFlag()); // Ctrl-C stops a long sentence mid-parse
    progress.begin("parsing", static_cast<long>(sentences.size()));
    std::vector<std::vector<int>> parsed;
    for (const DepSentence& s : sentences) {
        progress.throwIfCancelled();
        progress.advance(); // counts sentences started (the table is printed as each is parsed)
        const DepInspection r = inspectDepSentence(pipeline, s, parser, mask ? &*mask : nullptr);
        if (!o.out.empty()) parsed.push_back(headsToWrite(s, r, o.quiet));
        if (o.json) {
            list.push_back(depInspectionJson(s, r));
            continue;
        }
        printInspectionTable(s, r);
        checkOutput();
    }
    console.reset(); // clears the progress line before the JSON
    for (const std::string& path : o.out)
        writeDepParses(path, sentences, parsed);
    if (o.json) {
        out["sentences"] = list;
        std::cout << out.dump() << "\n";
    }
    return 0;
}

} // namespace

void addDepParseCommand(CLI::App& app) {
    addCommand<DepParseOptions>(app, "dep-parse",
                                "Parse POS-tagged tokens with a dependency model (from standard "
                                "input: `word/POS` tokens one sentence per line, or "
                                "`word<TAB>POS` one token per line with blank lines between "
                                "sentences; or --input FILE): heads and per-arc "
                                "max-marginals",
                                declareDepParseOptions, runDepParse);
}

} // namespace prunescope::cli
