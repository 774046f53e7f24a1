// prunescope-cli inspect-cell: one chart cell read without changing anything (the explorer's
// Inspect action): its labels with inside scores, the best derivation's label, the best subtree.
#include "app/cli/Commands.h"
#include "app/cli/Options.h"
#include "core/grammar/GrammarFile.h"
#include "core/parse/CellInspection.h"
#include "core/parse/PruningMask.h"
#include "core/rollout/ChangePropagator.h"
#include "core/treebank/Normalize.h"
#include "core/util/Error.h"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace prunescope::cli {
namespace {

struct InspectOptions {
    std::string grammar, words, treebank, maskFile, span;
    int sentence = 1; // with --treebank: 1-based, as --sentence everywhere
    int top = 10;
    bool json = false;
};

std::pair<int, int> parseSpan(const std::string& text) {
    std::istringstream in(text);
    int i = -1, k = -1;
    char comma = 0;
    if (!(in >> i >> comma >> k) || comma != ',' || !in.eof())
        throw UsageError("--span must be I,K (word boundaries, e.g. 0,2), not '" + text + "'");
    return {i, k};
}

std::vector<std::string> inputWords(const InspectOptions& o) {
    if (!o.words.empty()) {
        std::istringstream in(o.words);
        std::vector<std::string> w;
        for (std::string t; in >> t;)
            w.push_back(t);
        if (w.empty()) throw UsageError("--words holds no words");
        return w;
    }
    const auto index = static_cast<std::size_t>(o.sentence - 1);
    const auto trees = readNormalizedTreebank(o.treebank, index + 1);
    if (index >= trees.size())
        throw InputError(o.treebank, 0, 0,
                         "has " + std::to_string(trees.size()) + " trees; --sentence " +
                             std::to_string(o.sentence) + " is past the end (1-based)");
    return trees[index].words();
}

PruningMask inputMask(const InspectOptions& o, int n) {
    if (o.maskFile.empty()) return PruningMask::allKeep(n);
    const std::vector<PruningMask> masks = readMaskFile(o.maskFile);
    if (masks.size() != 1)
        throw InputError(o.maskFile, 1, 0,
                         "holds " + std::to_string(masks.size()) +
                             " masks; inspect-cell needs one");
    if (masks[0].n != n)
        throw InputError(o.maskFile, 1, 0,
                         "mask is for " + std::to_string(masks[0].n) + " words, the sentence has " +
                             std::to_string(n));
    return masks[0];
}

void printText(const CellInspection& c, const std::vector<std::string>& words,
               const PruningMask& mask, int top) {
    std::cout << "span        (" << c.i << "," << c.k << ")";
    for (int t = c.i; t < c.k; ++t)
        std::cout << " " << words[t];
    const bool prunable = PruningMask::prunable(static_cast<int>(words.size()), c.i, c.k);
    std::cout << "\nstatus      "
              << (!prunable             ? "always kept"
                  : mask.keep(c.i, c.k) ? "kept"
                                        : "pruned")
              << "\n"
              << "built       " << c.labels.size() << " labels"
              << (c.onBestParse() ? " (on the best parse)" : "") << "\n";
    std::cout << std::fixed << std::setprecision(3);
    for (std::size_t r = 0; r < c.labels.size() && static_cast<int>(r) < top; ++r) {
        const CellLabel& l = c.labels[r];
        std::cout << "  " << std::setw(10) << l.post << "  " << l.name;
        if (l.label != l.name) std::cout << "  (" << l.label << ")";
        if (l.onBest) std::cout << "  <- best parse";
        std::cout << "\n";
    }
    if (static_cast<int>(c.labels.size()) > top)
        std::cout << "  ... " << c.labels.size() - top << " more (--top)\n";
    if (!c.labels.empty()) std::cout << "best subtree " << c.bestSubtree.toString() << "\n";
}

} // namespace

void addInspectCellCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "inspect-cell", "One chart cell, read without changing anything: every built label with "
                        "its inside log score, the best parse's label and the best subtree");
    auto o = std::make_shared<InspectOptions>();
    sub->add_option("--grammar", o->grammar, "Grammar file (from 'prunescope-cli grammar')")
        ->required();
    auto* words =
        sub->add_option("--words", o->words, "The tokenized sentence, e.g. \"the cat sat\"");
    auto* treebank =
        sub->add_option("--treebank", o->treebank, "Take the words of a treebank's tree instead");
    words->excludes(treebank);
    sub->add_option("--sentence", o->sentence, "With --treebank: which tree (1-based)")
        ->capture_default_str()
        ->check(CLI::PositiveNumber)
        ->needs(treebank);
    sub->add_option("--mask-file", o->maskFile,
                    "Pruning mask JSON of this sentence (default: keep every span)");
    sub->add_option("--span", o->span, "The cell: word boundaries I,K with 0 <= I < K <= n")
        ->required();
    sub->add_option("--top", o->top, "Labels listed in the text output")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    sub->add_flag("--json", o->json, "Print JSON (every label)");
    setAction(sub, [o] {
        if (o->words.empty() && o->treebank.empty())
            throw UsageError("inspect-cell needs --words or --treebank");
        const auto [i, k] = parseSpan(o->span);
        const Grammar g = loadGrammar(o->grammar);
        const std::vector<std::string> words = inputWords(*o);
        const int n = static_cast<int>(words.size());
        if (i < 0 || k > n || i >= k)
            throw UsageError("--span " + o->span + " is not a span of this " + std::to_string(n) +
                             "-word sentence (0 <= I < K <= " + std::to_string(n) + ")");
        const PruningMask mask = inputMask(*o, n);
        const ChangePropagator parse(g, words, mask); // the explorer's chart (= Parser::parse)
        const CellInspection c = inspectCell(g, parse.chart(), words, i, k);
        if (o->json) {
            nlohmann::json j = c.toJson(words);
            j["kept"] = mask.keep(i, k);
            j["parsed"] = parse.chart().parsed();
            std::cout << j.dump(2) << "\n";
        } else {
            printText(c, words, mask, o->top);
        }
        return 0;
    });
}

} // namespace prunescope::cli
