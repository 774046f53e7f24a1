#include "core/grammar/PcfgEstimator.h"

#include "core/treebank/Normalize.h"
#include "core/treebank/UnknownWords.h"

#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace prunescope {
namespace {

struct Counts {
    std::map<std::string, SymbolId> symbolIds;
    std::vector<std::string> symbols;
    std::map<std::tuple<SymbolId, SymbolId, SymbolId>, double> binary; // parent, left, right
    std::map<std::pair<SymbolId, SymbolId>, double> unary;             // parent, child
    std::map<std::pair<std::string, SymbolId>, double> lexical;        // word/signature, tag
    std::map<SymbolId, double> fallback;                               // tag -> hapax count
    std::vector<double> parentTotal;                                   // per symbol: all expansions
    const std::unordered_map<std::string, int>* wordCounts = nullptr;
    int rareThreshold = 1;

    SymbolId id(const std::string& s) {
        auto [it, added] = symbolIds.emplace(s, static_cast<SymbolId>(symbols.size()));
        if (added) {
            symbols.push_back(s);
            parentTotal.push_back(0);
        }
        return it->second;
    }
    // Returns the symbol of node t; `pos` is the index of t's first word.
    SymbolId visit(const Tree& t, int& pos) {
        SymbolId x = id(t.label);
        if (t.isPreterminal()) {
            const std::string& w = t.children[0].label;
            auto it = wordCounts->find(w);
            int c = it == wordCounts->end() ? 0 : it->second;
            if (c <= rareThreshold) {
                lexical[{unknownSignature(w, pos), x}] += 1;
                fallback[x] += 1;
            } else {
                lexical[{w, x}] += 1;
            }
            parentTotal[x] += 1;
            ++pos;
            return x;
        }
        if (t.children.size() == 1) {
            SymbolId c = visit(t.children[0], pos);
            unary[{x, c}] += 1;
        } else if (t.children.size() == 2) {
            SymbolId l = visit(t.children[0], pos);
            SymbolId r = visit(t.children[1], pos);
            binary[{x, l, r}] += 1;
        } else {
            throw std::invalid_argument("tree is not binarized at '" + t.label + "'");
        }
        parentTotal[x] += 1;
        return x;
    }
};

} // namespace

BinarizeOptions binarizeOptionsOf(const Grammar& g) {
    if (g.options.is_object() && g.options.contains("binarize"))
        return binarizeOptionsFromJson(g.options["binarize"]);
    return BinarizeOptions{};
}

Tree binarizeLike(const Grammar& g, const Tree& normalized) {
    return binarize(normalized, binarizeOptionsOf(g));
}

Grammar estimatePcfg(const std::vector<Tree>& trees, const GrammarOptions& opt) {
    std::vector<Tree> normalized;
    normalized.reserve(trees.size());
    for (const auto& t : trees)
        normalized.push_back(normalizeTree(t));
    return estimatePcfgFromNormalized(normalized, opt);
}

Grammar estimatePcfgFromNormalized(const std::vector<Tree>& trees, const GrammarOptions& opt) {
    if (trees.empty())
        throw std::invalid_argument(
            "no training trees: cannot estimate a grammar from an empty treebank");
    std::vector<Tree> binarized;
    binarized.reserve(trees.size());
    std::unordered_map<std::string, int> wordCounts;
    for (const auto& t : trees) {
        Tree b = binarize(t, opt.binarize);
        for (const auto& w : b.words())
            ++wordCounts[w];
        binarized.push_back(std::move(b));
    }
    Counts c;
    c.wordCounts = &wordCounts;
    c.rareThreshold = opt.rareWordThreshold;
    c.id("ROOT");
    for (const auto& b : binarized) {
        int pos = 0;
        c.visit(b, pos);
    }

    Grammar g;
    g.symbols = c.symbols;
    g.root = 0;
    auto lp = [&](double count, SymbolId parent) {
        return static_cast<float>(std::log(count / c.parentTotal[parent]));
    };
    for (const auto& [k, n] : c.binary) {
        auto [p, l, r] = k;
        g.binary.push_back({p, l, r, lp(n, p)});
    }
    for (const auto& [k, n] : c.unary) {
        auto [p, ch] = k;
        if (p == g.root)
            g.rootRules.push_back({p, ch, lp(n, p)});
        else
            g.unary.push_back({p, ch, lp(n, p)});
    }
    std::map<std::string, WordId> wordIds;
    for (const auto& [k, n] : c.lexical) {
        const auto& [w, tag] = k;
        auto [it, added] = wordIds.emplace(w, static_cast<WordId>(g.words.size()));
        if (added) {
            g.words.push_back(w);
            g.lexicon.emplace_back();
        }
        g.lexicon[it->second].push_back({tag, lp(n, tag)});
    }
    for (const auto& [tag, n] : c.fallback)
        g.unknownFallback.push_back({tag, lp(n, tag)});
    g.options = {{"binarize", toJson(opt.binarize)},
                 {"rareWordThreshold", opt.rareWordThreshold},
                 {"trainingTrees", trees.size()}};
    g.finalize();
    return g;
}

} // namespace prunescope
