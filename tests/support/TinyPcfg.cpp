#include "support/TinyPcfg.h"

#include <cmath>

namespace prunescope::testdata {

const Grammar& tinyPcfg() {
    static const Grammar g = [] {
        Grammar t;
        // 0 ROOT 1 S 2 NP 3 VP 4 PP 5 D 6 N 7 V 8 P 9 X
        t.symbols = {"ROOT", "S", "NP", "VP", "PP", "D", "N", "V", "P", "X"};
        t.root = 0;
        auto lp = [](double p) { return static_cast<float>(std::log(p)); };
        t.binary = {{1, 2, 3, lp(0.7)}, {1, 9, 3, lp(0.2)},  {2, 5, 6, lp(0.4)},
                    {2, 2, 4, lp(0.2)}, {2, 6, 6, lp(0.1)},  {3, 7, 2, lp(0.45)},
                    {3, 3, 4, lp(0.3)}, {3, 7, 9, lp(0.15)}, {4, 8, 2, lp(1.0)},
                    {9, 2, 2, lp(0.6)}};
        t.unary = {{2, 6, lp(0.3)}, {1, 3, lp(0.1)}, {9, 2, lp(0.4)}, {3, 7, lp(0.1)}};
        t.rootRules = {{0, 1, lp(0.8)}, {0, 2, lp(0.15)}, {0, 9, lp(0.05)}};
        t.words = {"a", "cat", "dog", "fish", "saw", "with"};
        t.lexicon = {{{5, 0.f}},
                     {{6, lp(0.3)}, {7, lp(0.2)}},
                     {{6, lp(0.3)}, {7, lp(0.3)}},
                     {{6, lp(0.2)}, {7, lp(0.2)}},
                     {{7, lp(0.4)}, {6, lp(0.2)}},
                     {{8, 0.f}}};
        t.finalize();
        return t;
    }();
    return g;
}

namespace {
using Derivs = std::vector<EnumeratedDerivation>;

Derivs enumerateAt(const Grammar& g, const std::vector<std::string>& w, const PruningMask& m, int i,
                   int k, std::uint32_t x, bool post);

Derivs pre(const Grammar& g, const std::vector<std::string>& w, const PruningMask& m, int i, int k,
           std::uint32_t x) {
    Derivs out;
    const std::string spanKey = "s:" + std::to_string(i) + ":" + std::to_string(k);
    if (k - i == 1) {
        const auto entries = g.lexicalEntries(w[i], i);
        for (std::size_t e = 0; e < entries.size(); ++e)
            if (entries[e].tag == x) {
                EnumeratedDerivation d;
                d.p = std::exp(static_cast<double>(entries[e].logProb));
                d.tree = Tree{g.symbols[x], {Tree{w[i], {}}}};
                d.features["l:" + std::to_string(i) + ":" + std::to_string(e)] += 1;
                d.features[spanKey] += 1;
                out.push_back(d);
            }
        return out;
    }
    if (!m.keep(i, k)) return out;
    for (int j = i + 1; j < k; ++j)
        for (std::size_t r = 0; r < g.binary.size(); ++r) {
            const BinaryRule& br = g.binary[r];
            if (br.parent != x) continue;
            const Derivs L = enumerateAt(g, w, m, i, j, br.left, true);
            const Derivs R = enumerateAt(g, w, m, j, k, br.right, true);
            for (const auto& a : L)
                for (const auto& b : R) {
                    EnumeratedDerivation d;
                    d.p = a.p * b.p * std::exp(static_cast<double>(br.logProb));
                    d.tree = Tree{g.symbols[x], {a.tree, b.tree}};
                    d.features = a.features;
                    for (const auto& [key, c] : b.features)
                        d.features[key] += c;
                    d.features["b:" + std::to_string(r)] += 1;
                    d.features[spanKey] += 1;
                    out.push_back(std::move(d));
                }
        }
    return out;
}

Derivs enumerateAt(const Grammar& g, const std::vector<std::string>& w, const PruningMask& m, int i,
                   int k, std::uint32_t x, bool post) {
    if (!post) return pre(g, w, m, i, k, x);
    Derivs out = pre(g, w, m, i, k, x);
    for (std::size_t u = 0; u < g.unary.size(); ++u) {
        if (g.unary[u].parent != x) continue;
        for (auto d : pre(g, w, m, i, k, g.unary[u].child)) {
            d.p *= std::exp(static_cast<double>(g.unary[u].logProb));
            d.tree = Tree{g.symbols[x], {d.tree}};
            d.features["u:" + std::to_string(u)] += 1;
            out.push_back(std::move(d));
        }
    }
    return out;
}
} // namespace

std::vector<EnumeratedDerivation> enumerateDerivations(const Grammar& g,
                                                       const std::vector<std::string>& words,
                                                       const PruningMask& mask) {
    Derivs out;
    const int n = static_cast<int>(words.size());
    for (std::size_t r = 0; r < g.rootRules.size(); ++r)
        for (auto d : enumerateAt(g, words, mask, 0, n, g.rootRules[r].child, true)) {
            d.p *= std::exp(static_cast<double>(g.rootRules[r].logProb));
            d.tree = Tree{g.symbols[g.root], {d.tree}};
            d.features["r:" + std::to_string(r)] += 1;
            out.push_back(std::move(d));
        }
    return out;
}

} // namespace prunescope::testdata
