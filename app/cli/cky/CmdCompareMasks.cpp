// prunescope-cli compare-masks: two pruning masks of the same sentences side by side (issue 18,
// the explorer's mask comparison): the spans both keep, only A keeps, only B keeps, and each
// mask's F1 against gold, pushes and spans kept (core/policy/MaskComparison.h).
#include "app/cli/Commands.h"
#include "core/grammar/GrammarFile.h"
#include "core/policy/MaskComparison.h"
#include "core/policy/PolicyMask.h"
#include "core/treebank/Normalize.h"
#include "core/util/Error.h"

#include <iostream>
#include <optional>

namespace prunescope::cli {
namespace {

// A mask source: "policy:FILE", "gold", "all" or "mask:FILE" (a mask file: one mask, or one per
// sentence).
struct MaskSource {
    enum class Kind { Policy, Gold, All, File } kind = Kind::All;
    std::string spec;
    std::optional<Policy> policy;
    std::vector<PruningMask> masks;
};

MaskSource parseSource(const std::string& spec, const std::string& option) {
    MaskSource s;
    s.spec = spec;
    if (spec == "gold")
        s.kind = MaskSource::Kind::Gold;
    else if (spec == "all")
        s.kind = MaskSource::Kind::All;
    else if (spec.rfind("policy:", 0) == 0) {
        s.kind = MaskSource::Kind::Policy;
        s.policy = loadPolicy(spec.substr(7));
    } else if (spec.rfind("mask:", 0) == 0) {
        s.kind = MaskSource::Kind::File;
        s.masks = readMaskFile(spec.substr(5));
    } else {
        throw std::invalid_argument(option + " must be policy:FILE, gold, all or mask:FILE (got '" +
                                    spec + "')");
    }
    return s;
}

// The source's mask for sentence `index` (0-based) of `count`; errors name the mask file.
PruningMask maskFor(const MaskSource& s, const Grammar& g, const Tree& gold, int index, int count) {
    const std::vector<std::string> words = gold.words();
    const int n = static_cast<int>(words.size());
    switch (s.kind) {
    case MaskSource::Kind::All:
        return PruningMask::allKeep(n);
    case MaskSource::Kind::Gold:
        return goldSpanMask(g, gold);
    case MaskSource::Kind::Policy:
        return policyMask(*s.policy, SentenceFeatures(words));
    case MaskSource::Kind::File:
        break;
    }
    const std::string file = s.spec.substr(5);
    if (s.masks.size() != 1 && static_cast<int>(s.masks.size()) != count)
        throw InputError(file, 1, 0,
                         "holds " + std::to_string(s.masks.size()) + " masks for " +
                             std::to_string(count) +
                             " sentences (one mask, or one per sentence of the treebank)");
    const PruningMask& m =
        s.masks.size() == 1 ? s.masks[0] : s.masks[static_cast<std::size_t>(index)];
    if (m.n != n)
        throw InputError(file, 1, 0,
                         "the mask is for " + std::to_string(m.n) + " words but sentence " +
                             std::to_string(index + 1) + " has " + std::to_string(n));
    return m;
}

} // namespace

void addCompareMasksCommand(CLI::App& app) {
    auto* sub = app.add_subcommand("compare-masks",
                                   "Compare two pruning masks of a treebank's sentences: spans "
                                   "kept by both, only A, only B, and each mask's "
                                   "F1, pushes and spans kept (one JSON object per sentence)");
    struct Opts {
        std::string grammar, treebank, a, b;
        int sentence = 0;
    };
    auto o = std::make_shared<Opts>();
    sub->add_option("--grammar", o->grammar, "Grammar file")->required();
    sub->add_option("--treebank", o->treebank,
                    "Gold treebank file or directory (the sentences and their gold trees)")
        ->required();
    sub->add_option("--a", o->a, "Mask A: policy:FILE, gold, all or mask:FILE")->required();
    sub->add_option("--b", o->b, "Mask B: policy:FILE, gold, all or mask:FILE")->required();
    sub->add_option("--sentence", o->sentence,
                    "Only this sentence (1-based; default: every sentence)")
        ->check(CLI::PositiveNumber);
    setAction(sub, [o] {
        const Grammar g = loadGrammar(o->grammar);
        const MaskSource a = parseSource(o->a, "--a"), b = parseSource(o->b, "--b");
        const std::vector<Tree> gold = readNormalizedTreebank(o->treebank);
        const int count = static_cast<int>(gold.size());
        if (o->sentence > count)
            throw std::invalid_argument("--sentence " + std::to_string(o->sentence) +
                                        ": the treebank has " + std::to_string(count) +
                                        " sentences");
        const int first = o->sentence > 0 ? o->sentence - 1 : 0,
                  last = o->sentence > 0 ? o->sentence : count;
        for (int s = first; s < last; ++s) {
            const std::vector<std::string> words = gold[s].words();
            const PruningMask ma = maskFor(a, g, gold[s], s, count),
                              mb = maskFor(b, g, gold[s], s, count);
            nlohmann::json j = maskComparisonJson(compareMasks(g, words, &gold[s], ma, mb), ma.n);
            j["sentence"] = s + 1;
            j["length"] = words.size();
            j["a"]["source"] = o->a;
            j["b"]["source"] = o->b;
            std::cout << j.dump() << "\n";
            checkOutput();
        }
        return 0;
    });
}

} // namespace prunescope::cli
