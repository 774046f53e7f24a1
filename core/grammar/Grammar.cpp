#include "core/grammar/Grammar.h"

#include "core/treebank/UnknownWords.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace prunescope {
namespace {
// Stable index by key: result[begin[key] .. begin[key+1]) are the indices with that key, ascending.
void bucketIndex(std::size_t count, std::size_t keys, auto key, std::vector<std::uint32_t>& order,
                 std::vector<std::uint32_t>& begin) {
    begin.assign(keys + 1, 0);
    for (std::size_t r = 0; r < count; ++r)
        ++begin[key(r) + 1];
    for (std::size_t s = 0; s < keys; ++s)
        begin[s + 1] += begin[s];
    order.assign(count, 0);
    std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
    for (std::size_t r = 0; r < count; ++r)
        order[fill[key(r)]++] = static_cast<std::uint32_t>(r);
}
} // namespace

void Grammar::finalize() {
    const std::size_t n = symbols.size();
    if (n == 0) throw std::invalid_argument("grammar has no symbols");
    if (root >= n) throw std::invalid_argument("root symbol out of range");
    if (binary.size() >= (1u << 20))
        throw std::invalid_argument("too many binary rules (max 2^20)");
    auto check = [&](SymbolId s, const char* what) {
        if (s >= n) throw std::invalid_argument(std::string(what) + " symbol id out of range");
    };
    for (const auto& r : binary) {
        check(r.parent, "binary rule parent");
        check(r.left, "binary rule left");
        check(r.right, "binary rule right");
        if (r.parent == root || r.left == root || r.right == root)
            throw std::invalid_argument("ROOT may only appear as the parent of a root rule");
    }
    for (const auto& r : unary) {
        check(r.parent, "unary rule parent");
        check(r.child, "unary rule child");
        if (r.parent == root || r.child == root)
            throw std::invalid_argument("ROOT may only appear as the parent of a root rule");
    }
    for (const auto& r : rootRules) {
        check(r.child, "root rule child");
        if (r.parent != root) throw std::invalid_argument("root rule parent is not ROOT");
    }
    if (!baseLabel.empty() && baseLabel.size() != n)
        throw std::invalid_argument("base labels and symbols differ in size");
    if (lexicon.size() != words.size())
        throw std::invalid_argument("lexicon and word list differ in size");
    for (auto& entries : lexicon) {
        for (const auto& e : entries)
            check(e.tag, "lexical tag");
        std::sort(entries.begin(), entries.end(), [](auto& a, auto& b) { return a.tag < b.tag; });
    }
    std::sort(unknownFallback.begin(), unknownFallback.end(),
              [](auto& a, auto& b) { return a.tag < b.tag; });

    std::sort(binary.begin(), binary.end(), [](const BinaryRule& a, const BinaryRule& b) {
        return std::tie(a.left, a.right, a.parent) < std::tie(b.left, b.right, b.parent);
    });
    std::sort(unary.begin(), unary.end(), [](const UnaryRule& a, const UnaryRule& b) {
        return std::tie(a.child, a.parent) < std::tie(b.child, b.parent);
    });
    std::sort(rootRules.begin(), rootRules.end(),
              [](auto& a, auto& b) { return a.child < b.child; });
    for (std::size_t r = 1; r < binary.size(); ++r)
        if (std::tie(binary[r].left, binary[r].right, binary[r].parent) ==
            std::tie(binary[r - 1].left, binary[r - 1].right, binary[r - 1].parent))
            throw std::invalid_argument("duplicate binary rule");

    symbolIndex.clear();
    for (std::size_t s = 0; s < n; ++s) {
        if (!symbolIndex.emplace(symbols[s], static_cast<SymbolId>(s)).second)
            throw std::invalid_argument("duplicate symbol '" + symbols[s] + "'");
    }
    wordIndex.clear();
    for (std::size_t w = 0; w < words.size(); ++w) {
        if (!wordIndex.emplace(words[w], static_cast<WordId>(w)).second)
            throw std::invalid_argument("duplicate word '" + words[w] + "'");
    }

    // Groups of rules sharing (left, right), bucketed by left.
    groups.clear();
    groupsByLeftBegin.assign(n + 1, 0);
    for (std::size_t r = 0; r < binary.size();) {
        std::size_t e = r;
        while (e < binary.size() && binary[e].left == binary[r].left &&
               binary[e].right == binary[r].right)
            ++e;
        groups.push_back(
            {binary[r].right, static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(e)});
        ++groupsByLeftBegin[binary[r].left + 1];
        r = e;
    }
    for (std::size_t s = 0; s < n; ++s)
        groupsByLeftBegin[s + 1] += groupsByLeftBegin[s];

    std::vector<std::uint32_t> unused;
    bucketIndex(
        unary.size(), n, [&](std::size_t r) { return unary[r].child; }, unused, unaryByChildBegin);
    bucketIndex(
        binary.size(), n, [&](std::size_t r) { return binary[r].parent; }, binaryByParent,
        binaryByParentBegin);
    bucketIndex(
        binary.size(), n, [&](std::size_t r) { return binary[r].right; }, binaryByRight,
        binaryByRightBegin);
    bucketIndex(
        unary.size(), n, [&](std::size_t r) { return unary[r].parent; }, unaryByParent,
        unaryByParentBegin);

    rootLogProb.assign(n, -std::numeric_limits<float>::infinity());
    for (const auto& r : rootRules)
        rootLogProb[r.child] = r.logProb;
}

SymbolId Grammar::symbolId(const std::string& name) const {
    auto it = symbolIndex.find(name);
    if (it == symbolIndex.end()) throw std::out_of_range("unknown symbol '" + name + "'");
    return it->second;
}

std::span<const LexicalEntry> Grammar::lexicalEntries(const std::string& word, int pos,
                                                      std::string* how) const& {
    if (auto it = wordIndex.find(word); it != wordIndex.end() && !lexicon[it->second].empty()) {
        if (how) *how = "known";
        return lexicon[it->second];
    }
    if (auto it = wordIndex.find(unknownSignature(word, pos));
        it != wordIndex.end() && !lexicon[it->second].empty()) {
        if (how) *how = "signature";
        return lexicon[it->second];
    }
    if (how) *how = "fallback";
    return unknownFallback;
}

GrammarStats grammarStats(const Grammar& g) {
    int lex = 0;
    for (const auto& e : g.lexicon)
        lex += static_cast<int>(e.size());
    return {g.numSymbols(),
            static_cast<int>(g.binary.size()),
            static_cast<int>(g.unary.size()),
            static_cast<int>(g.rootRules.size()),
            static_cast<int>(g.words.size()),
            lex};
}

} // namespace prunescope
