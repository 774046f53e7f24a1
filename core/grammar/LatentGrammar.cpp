// The latent grammar's layout, its fine Grammar file and gold trees compiled against its base rules
// (Petrov et al. 2006, sec. 2); see SplitMerge.h.
#include "core/grammar/LatentInsideOutside.h"
#include "core/grammar/SplitMerge.h"
#include "core/treebank/Binarize.h"
#include "core/treebank/UnknownWords.h"

#include <map>
#include <stdexcept>
#include <tuple>

namespace prunescope {

using namespace latent;

std::string latent::refinedName(const std::string& base, int x) {
    return base + "^" + std::to_string(x);
}

void LatentGrammar::layout() {
    subOffset.assign(symbols.size() + 1, 0);
    for (std::size_t b = 0; b < symbols.size(); ++b)
        subOffset[b + 1] = subOffset[b] + static_cast<std::size_t>(subs[b]);
    std::size_t at = 0;
    for (auto& r : binary) {
        r.at = at;
        at += blockSize(*this, r);
    }
    for (auto& r : unary) {
        r.at = at;
        at += blockSize(*this, r);
    }
    for (auto& r : rootRules) {
        r.at = at;
        at += blockSize(*this, r);
    }
    for (auto& r : lexical) {
        r.at = at;
        at += static_cast<std::size_t>(subs[r.tag]);
    }
    prob.assign(at, 0.0);
    fallback.assign(refinedSymbols(), 0.0);
}

LatentGrammar latentFromBase(const Grammar& base) {
    if (!base.baseLabel.empty())
        throw std::invalid_argument("latentFromBase: the grammar is already refined");
    LatentGrammar g;
    g.symbols = base.symbols;
    g.root = base.root;
    g.subs.assign(base.symbols.size(), 1);
    for (const auto& r : base.binary)
        g.binary.push_back({r.parent, r.left, r.right, 0});
    for (const auto& r : base.unary)
        g.unary.push_back({r.parent, r.child, 0});
    for (const auto& r : base.rootRules)
        g.rootRules.push_back({r.parent, r.child, 0});
    g.words = base.words;
    for (std::size_t w = 0; w < base.lexicon.size(); ++w)
        for (const auto& e : base.lexicon[w])
            g.lexical.push_back({e.tag, static_cast<WordId>(w), 0});
    g.options = base.options;
    g.layout();
    for (std::size_t i = 0; i < base.binary.size(); ++i)
        g.prob[g.binary[i].at] = std::exp(static_cast<double>(base.binary[i].logProb));
    for (std::size_t i = 0; i < base.unary.size(); ++i)
        g.prob[g.unary[i].at] = std::exp(static_cast<double>(base.unary[i].logProb));
    for (std::size_t i = 0; i < base.rootRules.size(); ++i)
        g.prob[g.rootRules[i].at] = std::exp(static_cast<double>(base.rootRules[i].logProb));
    std::size_t l = 0;
    for (const auto& row : base.lexicon)
        for (const auto& e : row)
            g.prob[g.lexical[l++].at] = std::exp(static_cast<double>(e.logProb));
    for (const auto& e : base.unknownFallback)
        g.fallback[g.subOffset[e.tag]] = std::exp(static_cast<double>(e.logProb));
    return g;
}

Grammar fineGrammar(const LatentGrammar& g, const nlohmann::json& extraOptions) {
    Grammar f;
    // Refined ids: ROOT first, then every other base symbol's refinements in base order.
    std::vector<SymbolId> first(g.symbols.size());
    f.symbols.push_back(g.symbols[g.root]);
    f.baseLabel.push_back(g.symbols[g.root]);
    first[g.root] = 0;
    for (std::size_t b = 0; b < g.symbols.size(); ++b) {
        if (b == g.root) continue;
        first[b] = static_cast<SymbolId>(f.symbols.size());
        for (int x = 0; x < g.subs[b]; ++x) {
            f.symbols.push_back(refinedName(g.symbols[b], x));
            f.baseLabel.push_back(g.symbols[b]);
        }
    }
    f.root = 0;
    // Log probabilities as floats; a probability that underflows a float's log is left out, one
    // a rounding above 1 is written as 0.
    auto logp = [](double p) { return std::min(static_cast<float>(std::log(p)), 0.0f); };
    auto finite = [](float lp) { return lp != -std::numeric_limits<float>::infinity(); };
    auto id = [&](SymbolId b, int x) { return first[b] + static_cast<SymbolId>(x); };
    std::size_t binaryCount = 0;
    for (const auto& r : g.binary)
        for (std::size_t i = 0; i < blockSize(g, r); ++i)
            binaryCount += finite(logp(g.prob[r.at + i])) ? 1 : 0;
    if (binaryCount >= kMaxBinaryRules)
        throw std::invalid_argument("the fine grammar would have " + std::to_string(binaryCount) +
                                    " binary rules, more than a grammar holds (" +
                                    std::to_string(kMaxBinaryRules - 1) +
                                    "): train fewer split-merge cycles");
    f.binary.reserve(binaryCount);
    for (const auto& r : g.binary) {
        const int kp = g.subs[r.parent], kl = g.subs[r.left], kr = g.subs[r.right];
        for (int x = 0; x < kp; ++x)
            for (int y = 0; y < kl; ++y)
                for (int z = 0; z < kr; ++z) {
                    const float lp =
                        logp(g.prob[r.at + (static_cast<std::size_t>(x) * kl + y) * kr + z]);
                    if (finite(lp))
                        f.binary.push_back({id(r.parent, x), id(r.left, y), id(r.right, z), lp});
                }
    }
    for (const auto& r : g.unary)
        for (int x = 0; x < g.subs[r.parent]; ++x)
            for (int y = 0; y < g.subs[r.child]; ++y) {
                const float lp =
                    logp(g.prob[r.at + static_cast<std::size_t>(x) * g.subs[r.child] + y]);
                if (finite(lp)) f.unary.push_back({id(r.parent, x), id(r.child, y), lp});
            }
    for (const auto& r : g.rootRules)
        for (int y = 0; y < g.subs[r.child]; ++y) {
            const float lp = logp(g.prob[r.at + y]);
            if (finite(lp)) f.rootRules.push_back({f.root, id(r.child, y), lp});
        }
    f.words = g.words;
    f.lexicon.resize(g.words.size());
    for (const auto& r : g.lexical)
        for (int x = 0; x < g.subs[r.tag]; ++x) {
            const float lp = logp(g.prob[r.at + x]);
            if (finite(lp)) f.lexicon[r.word].push_back({id(r.tag, x), lp});
        }
    for (std::size_t b = 0; b < g.symbols.size(); ++b)
        for (int x = 0; x < g.subs[b]; ++x) {
            const double p = g.fallback[g.subOffset[b] + x];
            if (p > 0 && finite(logp(p)))
                f.unknownFallback.push_back({id(static_cast<SymbolId>(b), x), logp(p)});
        }
    f.options = g.options;
    if (extraOptions.is_object())
        for (auto it = extraOptions.begin(); it != extraOptions.end(); ++it)
            f.options[it.key()] = it.value();
    f.finalize();
    return f;
}

LatentGrammar latentFromFine(const LatentGrammar& base, const Grammar& fine) {
    if (fine.baseLabel.empty())
        throw std::invalid_argument("not a fine grammar (its symbols name no base symbols)");
    std::map<std::string, SymbolId> baseId;
    for (std::size_t b = 0; b < base.symbols.size(); ++b)
        baseId.emplace(base.symbols[b], static_cast<SymbolId>(b));
    LatentGrammar g = base;
    std::fill(g.subs.begin(), g.subs.end(), 0);
    std::vector<SymbolId> toBase(fine.symbols.size());
    std::vector<int> sub(fine.symbols.size());
    for (std::size_t s = 0; s < fine.symbols.size(); ++s) {
        auto it = baseId.find(fine.baseLabel[s]);
        if (it == baseId.end())
            throw std::invalid_argument("symbol '" + fine.symbols[s] + "' refines '" +
                                        fine.baseLabel[s] + "', which the base grammar lacks");
        const SymbolId b = it->second;
        const std::string expect =
            b == base.root ? base.symbols[b] : refinedName(base.symbols[b], g.subs[b]);
        if (fine.symbols[s] != expect)
            throw std::invalid_argument("symbol '" + fine.symbols[s] + "' is not '" + expect +
                                        "' (refinements must be listed in order)");
        toBase[s] = b;
        sub[s] = g.subs[b]++;
    }
    for (std::size_t b = 0; b < g.subs.size(); ++b)
        if (g.subs[b] == 0)
            throw std::invalid_argument("base symbol '" + base.symbols[b] + "' has no refinement");
    g.layout();
    std::map<std::tuple<SymbolId, SymbolId, SymbolId>, std::size_t> binaryAt;
    for (const auto& r : g.binary)
        binaryAt[{r.parent, r.left, r.right}] = r.at;
    std::map<std::pair<SymbolId, SymbolId>, std::size_t> unaryAt, lexAt;
    for (const auto& r : g.unary)
        unaryAt[{r.parent, r.child}] = r.at;
    for (const auto& r : g.rootRules)
        unaryAt[{r.parent, r.child}] = r.at;
    std::map<std::string, WordId> wordId;
    for (std::size_t w = 0; w < g.words.size(); ++w)
        wordId.emplace(g.words[w], static_cast<WordId>(w));
    for (const auto& r : g.lexical)
        lexAt[{r.tag, r.word}] = r.at;
    auto p = [](float lp) { return std::exp(static_cast<double>(lp)); };
    for (const auto& r : fine.binary) {
        auto it = binaryAt.find({toBase[r.parent], toBase[r.left], toBase[r.right]});
        if (it == binaryAt.end())
            throw std::invalid_argument("binary rule " + fine.symbols[r.parent] + " -> " +
                                        fine.symbols[r.left] + " " + fine.symbols[r.right] +
                                        " has no base rule");
        g.prob[it->second +
               (static_cast<std::size_t>(sub[r.parent]) * g.subs[toBase[r.left]] + sub[r.left]) *
                   g.subs[toBase[r.right]] +
               sub[r.right]] = p(r.logProb);
    }
    auto unaries = [&](const std::vector<UnaryRule>& rules) {
        for (const auto& r : rules) {
            auto it = unaryAt.find({toBase[r.parent], toBase[r.child]});
            if (it == unaryAt.end())
                throw std::invalid_argument("unary rule " + fine.symbols[r.parent] + " -> " +
                                            fine.symbols[r.child] + " has no base rule");
            g.prob[it->second + static_cast<std::size_t>(sub[r.parent]) * g.subs[toBase[r.child]] +
                   sub[r.child]] = p(r.logProb);
        }
    };
    unaries(fine.unary);
    unaries(fine.rootRules);
    for (std::size_t w = 0; w < fine.words.size(); ++w) {
        auto wi = wordId.find(fine.words[w]);
        for (const auto& e : fine.lexicon[w]) {
            auto it = wi == wordId.end() ? lexAt.end() : lexAt.find({toBase[e.tag], wi->second});
            if (it == lexAt.end())
                throw std::invalid_argument("lexical entry " + fine.symbols[e.tag] + " -> " +
                                            fine.words[w] + " has no base entry");
            g.prob[it->second + sub[e.tag]] = p(e.logProb);
        }
    }
    for (const auto& e : fine.unknownFallback)
        g.fallback[g.subOffset[toBase[e.tag]] + sub[e.tag]] = p(e.logProb);
    return g;
}

LatentTrees compileLatentTrees(const Grammar& base, const LatentGrammar& g,
                               const std::vector<Tree>& normalized) {
    std::map<std::tuple<SymbolId, SymbolId, SymbolId>, std::uint32_t> binaryIndex;
    for (std::size_t i = 0; i < g.binary.size(); ++i)
        binaryIndex[{g.binary[i].parent, g.binary[i].left, g.binary[i].right}] =
            static_cast<std::uint32_t>(i);
    std::map<std::pair<SymbolId, SymbolId>, std::uint32_t> unaryIndex, rootIndex, lexIndex;
    for (std::size_t i = 0; i < g.unary.size(); ++i)
        unaryIndex[{g.unary[i].parent, g.unary[i].child}] = static_cast<std::uint32_t>(i);
    for (std::size_t i = 0; i < g.rootRules.size(); ++i)
        rootIndex[{g.rootRules[i].parent, g.rootRules[i].child}] = static_cast<std::uint32_t>(i);
    for (std::size_t i = 0; i < g.lexical.size(); ++i)
        lexIndex[{g.lexical[i].tag, g.lexical[i].word}] = static_cast<std::uint32_t>(i);
    std::map<std::string, WordId> wordIndex;
    for (std::size_t w = 0; w < g.words.size(); ++w)
        wordIndex.emplace(g.words[w], static_cast<WordId>(w));
    std::vector<bool> hasFallback(g.symbols.size(), false);
    for (std::size_t b = 0; b < g.symbols.size(); ++b)
        hasFallback[b] = g.fallback[g.subOffset[b]] > 0;

    LatentTrees out;
    std::vector<LatentTrees::Node> nodes;
    for (const Tree& t : normalized) {
        const Tree bin = binarizeLike(base, t);
        nodes.clear();
        int pos = 0;
        bool ok = true;
        // Appends the nodes of n (postorder); returns n's index, -1 once the tree cannot be used.
        auto visit = [&](auto&& self, const Tree& n, bool top) -> std::int32_t {
            LatentTrees::Node node{};
            auto sym = base.symbolIndex.find(n.label);
            if (sym == base.symbolIndex.end()) return ok = false, -1;
            node.symbol = sym->second;
            if (n.isPreterminal()) {
                const std::string& w = n.children[0].label;
                auto wi = wordIndex.find(w);
                node.rare = wi == wordIndex.end();
                if (node.rare) wi = wordIndex.find(unknownSignature(w, pos));
                ++pos;
                if (wi != wordIndex.end()) {
                    auto li = lexIndex.find({node.symbol, wi->second});
                    if (li == lexIndex.end()) return ok = false, -1;
                    node.kind = LatentTrees::Node::Lexical;
                    node.rule = li->second;
                } else {
                    if (!hasFallback[node.symbol]) return ok = false, -1;
                    node.kind = LatentTrees::Node::Fallback;
                }
            } else if (n.children.size() == 1) {
                node.left = self(self, n.children[0], false);
                if (!ok) return -1;
                auto& index = top ? rootIndex : unaryIndex;
                auto it = index.find({node.symbol, nodes[node.left].symbol});
                if (it == index.end()) return ok = false, -1;
                node.kind = top ? LatentTrees::Node::Root : LatentTrees::Node::Unary;
                node.rule = it->second;
            } else if (n.children.size() == 2 && !top) {
                node.left = self(self, n.children[0], false);
                if (!ok) return -1;
                node.right = self(self, n.children[1], false);
                if (!ok) return -1;
                auto it = binaryIndex.find(
                    {node.symbol, nodes[node.left].symbol, nodes[node.right].symbol});
                if (it == binaryIndex.end()) return ok = false, -1;
                node.kind = LatentTrees::Node::Binary;
                node.rule = it->second;
            } else {
                return ok = false, -1;
            }
            nodes.push_back(node);
            return static_cast<std::int32_t>(nodes.size() - 1);
        };
        visit(visit, bin, true);
        if (ok && !nodes.empty() && nodes.back().symbol == g.root)
            out.trees.push_back(nodes);
        else
            ++out.skipped;
    }
    return out;
}

} // namespace prunescope
