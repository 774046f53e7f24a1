// A grammar as editable rule lines and back (GrammarEdit.h).
#include "core/grammar/GrammarEdit.h"

#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace prunescope {

namespace {
constexpr const char* kUnknown = "<unk>";

double prob(float logProb) {
    return std::exp(static_cast<double>(logProb));
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}
} // namespace

std::string RuleLine::text() const {
    std::string t = parent + " ->";
    if (kind == RuleKind::Lexical) return t + " '" + children.at(0) + "'";
    for (const std::string& c : children)
        t += " " + c;
    return t;
}

std::vector<RuleLine> grammarRuleLines(const Grammar& g) {
    std::vector<RuleLine> out;
    const auto& S = g.symbols;
    for (const BinaryRule& r : g.binary)
        out.push_back({RuleKind::Binary, S[r.parent], {S[r.left], S[r.right]}, prob(r.logProb)});
    for (const UnaryRule& r : g.unary)
        out.push_back({RuleKind::Unary, S[r.parent], {S[r.child]}, prob(r.logProb)});
    for (const UnaryRule& r : g.rootRules)
        out.push_back({RuleKind::Root, S[g.root], {S[r.child]}, prob(r.logProb)});
    for (std::size_t w = 0; w < g.words.size(); ++w)
        for (const LexicalEntry& e : g.lexicon[w])
            out.push_back({RuleKind::Lexical, S[e.tag], {g.words[w]}, prob(e.logProb)});
    for (const LexicalEntry& e : g.unknownFallback)
        out.push_back({RuleKind::Lexical, S[e.tag], {kUnknown}, prob(e.logProb)});
    return out;
}

RuleLine parseRuleLine(const std::string& text, double probability) {
    const auto arrow = text.find("->");
    if (arrow == std::string::npos)
        throw std::invalid_argument("a rule reads 'X -> Y Z', 'X -> Y' or 'TAG -> 'word''");
    RuleLine r;
    r.parent = trim(text.substr(0, arrow));
    const std::string rhs = trim(text.substr(arrow + 2));
    r.probability = probability;
    if (r.parent.empty() || r.parent.find_first_of(" \t") != std::string::npos)
        throw std::invalid_argument("the left side must be one symbol");
    // A quoted single token is a word ('the'); symbols may hold quotes too (PTB's '' and ``), so
    // a token of two quotes is the symbol ''.
    if (rhs.size() >= 3 && rhs.front() == '\'' && rhs.back() == '\'' &&
        rhs.find_first_of(" \t") == std::string::npos) {
        r.kind = RuleKind::Lexical;
        r.children = {rhs.substr(1, rhs.size() - 2)};
        return r;
    }
    std::istringstream in(rhs);
    for (std::string s; in >> s;)
        r.children.push_back(s);
    if (r.children.empty() || r.children.size() > 2)
        throw std::invalid_argument("a rule has one or two symbols on the right (the grammar is "
                                    "binarized); quote a word: TAG -> 'word'");
    r.kind = r.children.size() == 2 ? RuleKind::Binary : RuleKind::Unary;
    if (r.kind == RuleKind::Unary && r.parent == "ROOT") r.kind = RuleKind::Root;
    return r;
}

Grammar grammarFromRuleLines(const Grammar& base, std::span<const RuleLine> lines) {
    Grammar g;
    g.options = base.options;
    g.symbols = base.symbols;
    g.baseLabel = base.baseLabel;
    g.root = base.root;
    std::unordered_map<std::string, SymbolId> ids;
    for (SymbolId s = 0; s < g.symbols.size(); ++s)
        ids[g.symbols[s]] = s;
    const std::string& rootName = base.symbols[base.root];
    std::unordered_map<std::string, WordId> wordIds;
    std::set<std::tuple<int, std::string, std::string, std::string>> seen;
    for (std::size_t x = 0; x < lines.size(); ++x) {
        const RuleLine& r = lines[x];
        auto bad = [&](const std::string& why) {
            return std::invalid_argument("rule " + std::to_string(x + 1) + " (" + r.text() +
                                         "): " + why);
        };
        if (!(r.probability > 0 && r.probability <= 1))
            throw bad("the probability must be in (0, 1]");
        if (!seen.insert({static_cast<int>(r.kind), r.parent, r.children.at(0),
                          r.children.size() > 1 ? r.children[1] : std::string()})
                 .second)
            throw bad("listed twice");
        auto symbol = [&](const std::string& name) {
            if (name == rootName && r.kind != RuleKind::Root)
                throw bad(rootName + " may only be the left side of a root rule");
            auto [it, added] = ids.try_emplace(name, static_cast<SymbolId>(g.symbols.size()));
            if (added) {
                g.symbols.push_back(name);
                if (!g.baseLabel.empty()) g.baseLabel.push_back(name);
            }
            return it->second;
        };
        const float lp = static_cast<float>(std::log(r.probability));
        switch (r.kind) {
        case RuleKind::Binary:
            g.binary.push_back(
                {symbol(r.parent), symbol(r.children[0]), symbol(r.children[1]), lp});
            break;
        case RuleKind::Unary:
            g.unary.push_back({symbol(r.parent), symbol(r.children[0]), lp});
            break;
        case RuleKind::Root:
            g.rootRules.push_back({g.root, symbol(r.children[0]), lp});
            break;
        case RuleKind::Lexical: {
            const SymbolId tag = symbol(r.parent);
            if (r.children[0] == kUnknown) {
                g.unknownFallback.push_back({tag, lp});
                break;
            }
            auto [it, added] =
                wordIds.try_emplace(r.children[0], static_cast<WordId>(g.words.size()));
            if (added) {
                g.words.push_back(r.children[0]);
                g.lexicon.emplace_back();
            }
            g.lexicon[it->second].push_back({tag, lp});
            break;
        }
        }
    }
    g.finalize();
    return g;
}

} // namespace prunescope
