// prunescope-cli parse: parse sentences (or a treebank's words) and print PTB trees.
#include "app/cli/Commands.h"
#include "app/cli/ConsoleProgress.h"
#include "app/cli/Options.h"
#include "core/grammar/GrammarFile.h"
#include "core/parse/CkyReplay.h"
#include "core/parse/MaxRuleDecoder.h"
#include "core/parse/Parser.h"
#include "core/policy/PolicyMask.h"
#include "core/treebank/Binarize.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

namespace prunescope::cli {
namespace {

// One input sentence and where it came from (for error messages).
struct InputSentence {
    std::vector<std::string> words;
    std::string file;
    int line = 0;
};

// JSON text of j; bytes that are not UTF-8 (from the input words) become U+FFFD, and the first
// time that happens a warning says so.
std::string dumpJsonLine(const nlohmann::json& j, std::size_t sentence, bool& warned) {
    try {
        return j.dump();
    } catch (const nlohmann::json::type_error&) {
        if (!warned) {
            std::cerr << "warning: sentence " << sentence
                      << " holds bytes that are not UTF-8; in the JSON output they are replaced by "
                         "U+FFFD "
                         "(reported once)\n";
            warned = true;
        }
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
}

struct ParseOptions {
    std::string grammar, input, treebank, maskFile, policy, decoder = "viterbi";
    std::size_t memoryBudgetMiB = kDefaultParserMemoryBudget >> 20;
    bool json = false, binarized = false, skipTooLarge = false, replay = false, quiet = false;
};

void declareParseOptions(CLI::App* sub, ParseOptions& o) {
    sub->add_option("--grammar", o.grammar, "Grammar file (from 'prunescope-cli grammar')")
        ->required();
    sub->add_option("--input", o.input,
                    "Text file, one tokenized sentence per line (default: standard input)");
    sub->add_option("--treebank", o.treebank,
                    "Parse the words of this treebank file/directory instead");
    sub->add_option("--mask-file", o.maskFile,
                    "Pruning mask JSON: {\"n\":N,\"pruned\":[[i,k],...]} or an array of them, one "
                    "per sentence");
    sub->add_option("--policy", o.policy,
                    "Prune with this policy file (its mask for each sentence)")
        ->excludes("--mask-file");
    sub->add_flag("--json", o.json, "One JSON object per sentence with the tree and the counters");
    sub->add_flag(
           "--replay", o.replay,
           "With --json: add \"replay\", the chart built cell by cell bottom-up (per cell: span, "
           "pruned, "
           "split points, pushes, best label; the explorer's Replay CKY, docs/file-formats.md)")
        ->needs("--json");
    sub->add_flag("--binarized", o.binarized, "Print the binarized tree as the grammar derives it");
    sub->add_option("--decoder", o.decoder,
                    "viterbi: the best derivation (projected to base symbols on a fine grammar); "
                    "max-rule: max-rule-product over base symbols (Petrov & Klein 2007)")
        ->check(CLI::IsMember({"viterbi", "max-rule"}))
        ->excludes("--replay")
        ->capture_default_str();
    addMemoryBudgetOption(sub, o.memoryBudgetMiB);
    addQuietOption(sub, o.quiet);
    sub->add_flag(
        "--skip-too-large", o.skipTooLarge,
        "Skip sentences over 4095 words or the memory budget (an empty line, or a JSON object with "
        "\"skipped\": true) instead of refusing the whole input");
}

// The sentences to parse: the words of --treebank, or the lines of --input (standard input).
std::vector<InputSentence> readInputSentences(const ParseOptions& o) {
    std::vector<InputSentence> sentences;
    if (!o.treebank.empty()) {
        std::vector<TreeSource> where;
        const auto trees = readNormalizedTreebank(o.treebank, 0, {}, &where);
        for (std::size_t x = 0; x < trees.size(); ++x)
            sentences.push_back({trees[x].words(), where[x].file, where[x].line});
        return sentences;
    }
    std::istream* in = &std::cin;
    std::ifstream file;
    const std::string name = o.input.empty() ? std::string("<stdin>") : o.input;
    if (!o.input.empty()) {
        readFile(o.input); // a missing or unreadable file is an InputError naming it
        file.open(o.input, std::ios::binary);
        in = &file;
    }
    std::string line;
    for (int lineNo = 1; std::getline(*in, line); ++lineNo) {
        std::istringstream ls(line);
        std::vector<std::string> w;
        for (std::string tok; ls >> tok;)
            w.push_back(tok);
        if (!w.empty()) sentences.push_back({std::move(w), name, lineNo});
    }
    if (in->bad()) throw InputError(name, 0, 0, "read error");
    return sentences;
}

// Per sentence, why the parser cannot take it ("" = it fits). Refuses before parsing anything (no
// half-written output), unless --skip-too-large.
std::vector<std::string> tooLargeSentences(const Parser& parser,
                                           const std::vector<InputSentence>& sentences,
                                           bool skipTooLarge) {
    std::vector<std::string> tooLarge(sentences.size());
    for (std::size_t s = 0; s < sentences.size(); ++s) {
        try {
            parser.checkFits(static_cast<int>(sentences[s].words.size()));
        } catch (const SentenceTooLarge& e) {
            if (!skipTooLarge)
                throw InputError(sentences[s].file, sentences[s].line, 0,
                                 std::string(e.what()) +
                                     " (--skip-too-large skips such sentences)");
            tooLarge[s] = e.what();
        }
    }
    return tooLarge;
}

// --mask-file: one mask per sentence, each for the sentence's length.
std::vector<PruningMask> readSentenceMasks(const std::string& maskFile,
                                           const std::vector<InputSentence>& sentences) {
    std::vector<PruningMask> masks = readMaskFile(maskFile);
    if (masks.size() != sentences.size())
        throw InputError(maskFile, 1, 0,
                         "has " + std::to_string(masks.size()) + " masks for " +
                             std::to_string(sentences.size()) + " sentences");
    for (std::size_t s = 0; s < sentences.size(); ++s)
        if (masks[s].n != static_cast<int>(sentences[s].words.size()))
            throw InputError(maskFile, 1, 0,
                             "mask " + std::to_string(s) + " is for " + std::to_string(masks[s].n) +
                                 " words but sentence " + std::to_string(s + 1) + " (" +
                                 sentences[s].file + ":" + std::to_string(sentences[s].line) +
                                 ") has " + std::to_string(sentences[s].words.size()));
    return masks;
}

// --json: the tree and the parse's counters, and with --replay the chart cell by cell.
nlohmann::json parsedSentenceJson(const Grammar& g, std::size_t s,
                                  const std::vector<std::string>& w, const Tree& t,
                                  const ParseStats& st, const PruningMask* mask, bool replay) {
    nlohmann::json j = {{"sentence", s + 1},
                        {"length", w.size()},
                        {"tree", t.toString()},
                        {"success", st.success},
                        {"logProb", st.logProb},
                        {"pushes", st.pushes},
                        {"constituents", st.constituents},
                        {"spansKept", st.spansKept}};
    if (replay) {
        const ReplayTrace trace = replayCky(g, w, mask);
        // The replay's contract (CkyReplay.h): its counters are the parser's.
        if (trace.pushes != st.pushes || trace.constituents != st.constituents)
            throw std::logic_error("replay disagrees with the parser on sentence " +
                                   std::to_string(s + 1));
        j["replay"] = replayToJson(g, trace);
    }
    return j;
}

int runParse(const ParseOptions& o) {
    Grammar g = loadGrammar(o.grammar);
    const std::vector<InputSentence> sentences = readInputSentences(o);
    Parser parser(g);
    parser.setMemoryBudget(o.memoryBudgetMiB << 20);
    const std::vector<std::string> tooLarge = tooLargeSentences(parser, sentences, o.skipTooLarge);
    std::vector<PruningMask> masks;
    if (!o.maskFile.empty()) masks = readSentenceMasks(o.maskFile, sentences);
    std::optional<Policy> policy;
    if (!o.policy.empty()) policy = loadPolicy(o.policy);
    std::optional<MaxRuleDecoder> maxRule;
    if (o.decoder == "max-rule") maxRule.emplace(g);
    int failures = 0, skipped = 0;
    bool warnedUtf8 = false;
    PruningMask policyMaskBuffer;
    ConsoleProgress console("parse", "sentence", o.quiet || ConsoleProgress::stdoutIsTerminal());
    const Progress& progress = console.progress();
    progress.begin("parsing", static_cast<long>(sentences.size()));
    for (std::size_t s = 0; s < sentences.size(); ++s, progress.advance()) {
        progress.throwIfCancelled(); // Ctrl-C: every printed line is a whole sentence
        const auto& w = sentences[s].words;
        if (!tooLarge[s].empty()) {
            ++skipped;
            if (o.json)
                std::cout << dumpJsonLine({{"sentence", s + 1},
                                           {"length", w.size()},
                                           {"skipped", true},
                                           {"reason", tooLarge[s]}},
                                          s + 1, warnedUtf8)
                          << "\n";
            else
                std::cout << "\n";
            checkOutput();
            continue;
        }
        const PruningMask* mask = nullptr;
        if (!masks.empty()) mask = &masks[s];
        if (policy) {
            const SentenceFeatures features(w);
            policyMaskInto(*policy, features, policyMaskBuffer);
            mask = &policyMaskBuffer;
        }
        ParseStats st;
        Tree t;
        if (maxRule) { // the flat fallback of a failed parse is the parser's
            const MaxRuleResult res = maxRule->decode(w, mask, progress);
            st = res.parseStats();
            if (res.success)
                t = o.binarized ? res.binarized : debinarize(res.binarized);
            else
                t = (parser.parse(w, mask), bestTree(g, parser.chart(), w));
        } else {
            st = parser.parse(w, mask);
            t = o.binarized && st.success ? bestBinarizedTree(g, parser.chart(), w)
                                          : bestTree(g, parser.chart(), w);
        }
        if (!st.success) ++failures;
        if (o.json) {
            nlohmann::json j = parsedSentenceJson(g, s, w, t, st, mask, o.replay);
            if (maxRule) j["decoder"] = "max-rule"; // logProb is then Σ log r(e)
            std::cout << dumpJsonLine(j, s + 1, warnedUtf8) << "\n";
        } else
            std::cout << t.toString() << "\n";
        checkOutput();
    }
    if (skipped > 0)
        std::cerr << skipped << " of " << sentences.size()
                  << " sentences skipped (too large for the parser)\n";
    if (failures > 0)
        std::cerr << failures << " of " << sentences.size()
                  << " sentences had no ROOT derivation (flat fallback tree printed)\n";
    return 0;
}

} // namespace

void addParseCommand(CLI::App& app) {
    addCommand<ParseOptions>(
        app, "parse",
        "Parse tokenized sentences (one per line) or a treebank's words; print PTB trees",
        declareParseOptions, runParse);
}

} // namespace prunescope::cli
