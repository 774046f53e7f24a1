// The best trees of a parsed chart (Parser.h: bestBinarizedTree, bestTree; PartialParse.h:
// binarizedSubtree): one witness walk (post layer -> unary witness -> pre layer -> binary witness)
// shared by the whole-sentence trees and the partial parse's fragments.
#include "core/parse/Parser.h"
#include "core/parse/PartialParse.h"

#include "core/treebank/Binarize.h"

#include <stdexcept>

namespace prunescope {

namespace {
template <class C>
Tree buildPre(const Grammar& g, const C& c, std::span<const std::string> words, int i, int k,
              std::uint32_t x);
template <class C>
Tree buildPost(const Grammar& g, const C& c, std::span<const std::string> words, int i, int k,
               std::uint32_t x) {
    const std::uint32_t w = c.entry(i, k, x).postWitness;
    if (w == kNoWitness) throw std::logic_error("witness chain broken at post layer");
    if (w == 0) return buildPre(g, c, words, i, k, x);
    const UnaryRule& u = g.unary[w - 1];
    return Tree{g.outputLabel(x), {buildPre(g, c, words, i, k, u.child)}};
}
template <class C>
Tree buildPre(const Grammar& g, const C& c, std::span<const std::string> words, int i, int k,
              std::uint32_t x) {
    const std::uint32_t w = c.entry(i, k, x).preWitness;
    if (w == kNoWitness) throw std::logic_error("witness chain broken at pre layer");
    if (w == kLexicalWitness) return Tree{g.outputLabel(x), {Tree{words[i], {}}}};
    const int j = i + witnessSplitOffset(w);
    const BinaryRule& r = g.binary[witnessRule(w)];
    return Tree{g.outputLabel(x),
                {buildPost(g, c, words, i, j, r.left), buildPost(g, c, words, j, k, r.right)}};
}
template <class C>
Tree binarizedTree(const Grammar& g, const C& c, std::span<const std::string> words) {
    if (!c.parsed()) return Tree{};
    const UnaryRule& r = g.rootRules[c.rootWitness];
    return Tree{g.outputLabel(g.root), {buildPost(g, c, words, 0, c.n, r.child)}};
}
// The fallback's tag of word i: the first symbol with the highest pre score, "X" if none.
std::string bestTag(const Grammar& g, const Chart& c, int i) {
    const ChartEntry* best = nullptr;
    for (const ChartEntry& e : c.entries(i, i + 1))
        if (e.pre != kNegInf && (!best || e.pre > best->pre)) best = &e;
    return best ? g.outputLabel(best->symbol) : std::string("X");
}
std::string bestTag(const Grammar& g, const DenseChart& c, int i) {
    const float* pre = c.preRow(i, i + 1);
    int best = -1;
    for (int x = 0; x < c.numSymbols; ++x)
        if (pre[x] != kNegInf && (best < 0 || pre[x] > pre[best])) best = x;
    return best < 0 ? std::string("X") : g.outputLabel(best);
}
template <class C> Tree naryTree(const Grammar& g, const C& c, std::span<const std::string> words) {
    if (c.parsed()) return debinarize(binarizedTree(g, c, words));
    Tree t{"ROOT", {}};
    for (int i = 0; i < c.n; ++i)
        t.children.push_back(Tree{bestTag(g, c, i), {Tree{words[i], {}}}});
    return t;
}
} // namespace

Tree bestBinarizedTree(const Grammar& g, const Chart& c, std::span<const std::string> words) {
    return binarizedTree(g, c, words);
}
Tree bestBinarizedTree(const Grammar& g, const DenseChart& c, std::span<const std::string> words) {
    return binarizedTree(g, c, words);
}
Tree binarizedSubtree(const Grammar& g, const DenseChart& c, std::span<const std::string> words,
                      int i, int k, std::uint32_t x) {
    return buildPost(g, c, words, i, k, x);
}
Tree bestTree(const Grammar& g, const Chart& c, std::span<const std::string> words) {
    return naryTree(g, c, words);
}
Tree bestTree(const Grammar& g, const DenseChart& c, std::span<const std::string> words) {
    return naryTree(g, c, words);
}

} // namespace prunescope
