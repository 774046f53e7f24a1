// prunescope-cli parse: parse sentences (or a treebank's words) and print PTB trees.
#include "app/cli/Commands.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/grammar/GrammarFile.h"
#include "core/treebank/Normalize.h"
#include "core/parse/Parser.h"
#include "core/policy/PolicyMask.h"
#include "core/treebank/TreebankReader.h"

#include <iostream>
#include <sstream>

namespace prunescope::cli {
namespace {

std::vector<PruningMask> readMasks(const std::string& path) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(readFile(path));
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(path, 0, 0, std::string("invalid JSON: ") + e.what());
    }
    std::vector<PruningMask> masks;
    auto one = [&](const nlohmann::json& m, std::size_t idx) {
        try {
            masks.push_back(PruningMask::fromJson(m));
        } catch (const std::exception& e) {
            throw InputError(path, 0, 0, "mask " + std::to_string(idx) + ": " + e.what());
        }
    };
    if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i) one(j[i], i);
    } else {
        one(j, 0);
    }
    return masks;
}

} // namespace

void addParseCommand(CLI::App& app) {
    auto* sub = app.add_subcommand("parse", "Parse tokenized sentences (one per line) or a treebank's words; print PTB trees");
    struct Opts {
        std::string grammar, input, treebank, maskFile, policy;
        bool json = false, binarized = false;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file (from 'prunescope-cli grammar')")->required();
    sub->add_option("--input", o->input, "Text file, one tokenized sentence per line (default: standard input)");
    sub->add_option("--treebank", o->treebank, "Parse the words of this treebank file/directory instead");
    sub->add_option("--mask-file", o->maskFile,
                    "Pruning mask JSON: {\"n\":N,\"pruned\":[[i,k],...]} or an array of them, one per sentence");
    sub->add_option("--policy", o->policy, "Prune with this policy file (its mask for each sentence)")->excludes("--mask-file");
    sub->add_flag("--json", o->json, "One JSON object per sentence with the tree and the counters");
    sub->add_flag("--binarized", o->binarized, "Print the binarized tree as the grammar derives it");
    setAction(sub, [o] {
        Grammar g = loadGrammar(o->grammar);
        std::vector<std::vector<std::string>> sentences;
        if (!o->treebank.empty()) {
            for (const Tree& t : readNormalizedTreebank(o->treebank)) sentences.push_back(t.words());
        } else if (!o->input.empty()) {
            sentences = readSentencesFile(o->input);
        } else {
            std::string line;
            while (std::getline(std::cin, line)) {
                std::istringstream ls(line);
                std::vector<std::string> w;
                for (std::string tok; ls >> tok;) w.push_back(tok);
                if (!w.empty()) sentences.push_back(std::move(w));
            }
        }
        std::vector<PruningMask> masks;
        if (!o->maskFile.empty()) {
            masks = readMasks(o->maskFile);
            if (masks.size() != sentences.size())
                throw InputError(o->maskFile, 0, 0, "has " + std::to_string(masks.size()) + " masks for " +
                                                        std::to_string(sentences.size()) + " sentences");
        }
        if (!o->policy.empty()) {
            const Policy policy = loadPolicy(o->policy);
            for (const auto& w : sentences) masks.push_back(policyMask(policy, SentenceFeatures(w)));
        }
        Parser parser(g);
        int failures = 0;
        for (std::size_t s = 0; s < sentences.size(); ++s) {
            const auto& w = sentences[s];
            if (!masks.empty() && masks[s].n != static_cast<int>(w.size()))
                throw InputError(o->maskFile, 0, 0, "mask " + std::to_string(s) + " is for " + std::to_string(masks[s].n) +
                                                        " words but sentence " + std::to_string(s + 1) + " has " + std::to_string(w.size()));
            ParseStats st = parser.parse(w, masks.empty() ? nullptr : &masks[s]);
            if (!st.success) ++failures;
            Tree t = o->binarized && st.success ? bestBinarizedTree(g, parser.chart(), w) : bestTree(g, parser.chart(), w);
            if (o->json) {
                nlohmann::json j = {{"sentence", s + 1}, {"length", w.size()}, {"tree", t.toString()},
                                    {"success", st.success}, {"logProb", st.logProb}, {"pushes", st.pushes},
                                    {"constituents", st.constituents}, {"spansKept", st.spansKept}};
                std::cout << j.dump() << "\n";
            } else {
                std::cout << t.toString() << "\n";
            }
        }
        if (failures > 0) std::cerr << failures << " of " << sentences.size() << " sentences had no ROOT derivation (flat fallback tree printed)\n";
        return 0;
    });
}

} // namespace prunescope::cli
