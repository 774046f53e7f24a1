// A chart cell's labels, scores and best subtree, read-only (CellInspection.h).
#include "core/parse/CellInspection.h"

#include "core/parse/PartialParse.h"
#include "core/treebank/Binarize.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

std::optional<std::uint32_t> bestDerivationSymbol(const Grammar& g, const DenseChart& chart, int i,
                                                  int k) {
    if (!chart.parsed()) return std::nullopt;
    int a = 0, b = chart.n;
    std::uint32_t x = g.rootRules[chart.rootWitness].child; // post layer of (0, n)
    while (true) {
        if (a == i && b == k) return x; // the topmost vertex over the span
        const std::uint32_t uw = chart.entry(a, b, x).postWitness;
        if (uw != 0 && uw != kNoWitness) x = g.unary[uw - 1].child; // same span, pre layer
        const std::uint32_t w = chart.entry(a, b, x).preWitness;
        if (w == kNoWitness || w == kLexicalWitness) return std::nullopt;
        const int j = a + witnessSplitOffset(w);
        const BinaryRule& r = g.binary[witnessRule(w)];
        if (k <= j && i >= a)
            b = j, x = r.left;
        else if (i >= j && k <= b)
            a = j, x = r.right;
        else
            return std::nullopt; // the span crosses the best derivation's split
    }
}

CellInspection inspectCell(const Grammar& g, const DenseChart& chart,
                           std::span<const std::string> words, int i, int k) {
    if (i < 0 || k > chart.n || i >= k)
        throw std::invalid_argument("span (" + std::to_string(i) + "," + std::to_string(k) +
                                    ") is not inside a sentence of " + std::to_string(chart.n) +
                                    " words");
    CellInspection c;
    c.i = i, c.k = k;
    const float* post = chart.postRow(i, k);
    const float* pre = chart.preRow(i, k);
    const auto best = bestDerivationSymbol(g, chart, i, k);
    for (int x = 0; x < chart.numSymbols; ++x) {
        if (post[x] == kNegInf) continue;
        const auto s = static_cast<std::uint32_t>(x);
        c.labels.push_back({s, g.symbols[s], unbinarizedLabel(g.outputLabel(s)), post[x], pre[x],
                            best && *best == s});
    }
    std::stable_sort(c.labels.begin(), c.labels.end(),
                     [](const CellLabel& a, const CellLabel& b) { return a.post > b.post; });
    if (!c.labels.empty()) { // an intermediate at the top has no parent to splice into: relabel
        c.bestSubtree = debinarize(binarizedSubtree(g, chart, words, i, k, c.labels[0].symbol));
        c.bestSubtree.label = unbinarizedLabel(c.bestSubtree.label);
    }
    return c;
}

bool CellInspection::onBestParse() const {
    return std::any_of(labels.begin(), labels.end(), [](const CellLabel& l) { return l.onBest; });
}

nlohmann::json CellInspection::toJson(std::span<const std::string> words) const {
    nlohmann::json j;
    j["span"] = {i, k};
    j["words"] = std::vector<std::string>(words.begin() + i, words.begin() + k);
    j["onBestParse"] = onBestParse();
    nlohmann::json arr = nlohmann::json::array();
    for (const CellLabel& l : labels)
        arr.push_back({{"symbol", l.name},
                       {"label", l.label},
                       {"score", l.post},
                       {"preScore", l.pre == kNegInf ? nlohmann::json() : nlohmann::json(l.pre)},
                       {"onBest", l.onBest}});
    j["labels"] = arr;
    j["bestSubtree"] = labels.empty() ? nlohmann::json() : nlohmann::json(bestSubtree.toString());
    return j;
}

} // namespace prunescope
