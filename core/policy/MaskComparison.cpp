// Mask comparison (see MaskComparison.h).
#include "core/policy/MaskComparison.h"

#include "core/eval/Evalb.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/policy/GoldSpans.h"

#include <cmath>
#include <stdexcept>

namespace prunescope {

MaskSpanSets compareMaskSpans(const PruningMask& a, const PruningMask& b) {
    if (a.n != b.n)
        throw std::invalid_argument("cannot compare a mask for " + std::to_string(a.n) +
                                    " words with one for " + std::to_string(b.n));
    MaskSpanSets s;
    const int n = a.n;
    for (int i = 0; i < n; ++i)
        for (int k = i + 2; k <= n; ++k) {
            if (!PruningMask::prunable(n, i, k)) continue;
            const bool ka = a.keep(i, k), kb = b.keep(i, k);
            if (ka && kb)
                s.intersection.emplace_back(i, k);
            else if (ka)
                s.onlyA.emplace_back(i, k);
            else if (kb)
                s.onlyB.emplace_back(i, k);
            else
                ++s.prunedByBoth;
        }
    return s;
}

MaskParse parseUnderMask(Parser& parser, std::span<const std::string> words,
                         const PruningMask& mask, const Tree* gold) {
    MaskParse r;
    r.stats = parser.parse(words, &mask);
    r.tree = bestTree(parser.grammar(), parser.chart(), words);
    r.f1 = std::nan("");
    if (gold) {
        try {
            r.f1 = sentenceF1(*gold, r.tree);
        } catch (const EvalbMismatch&) {
            // different words: F1 undefined (NaN), as the explorer shows "—"
        }
    }
    return r;
}

MaskComparison compareMasks(const Grammar& g, std::span<const std::string> words, const Tree* gold,
                            const PruningMask& a, const PruningMask& b) {
    MaskComparison c;
    c.spans = compareMaskSpans(a, b);
    Parser parser(g);
    c.a = parseUnderMask(parser, words, a, gold);
    c.b = parseUnderMask(parser, words, b, gold);
    return c;
}

PruningMask goldSpanMask(const Grammar& g, const Tree& gold) {
    return spanMask(binarizeLike(g, gold));
}

nlohmann::json maskComparisonJson(const MaskComparison& c, int n) {
    auto side = [](const MaskParse& p) {
        return nlohmann::json{
            {"f1", std::isnan(p.f1) ? nlohmann::json(nullptr) : nlohmann::json(p.f1)},
            {"pushes", p.stats.pushes},
            {"kept", p.stats.spansKept},
            {"constituents", p.stats.constituents},
            {"success", p.stats.success}};
    };
    auto spans = [](const std::vector<std::pair<int, int>>& v) {
        nlohmann::json j = nlohmann::json::array();
        for (auto [i, k] : v)
            j.push_back({i, k});
        return j;
    };
    const MaskSpanSets& s = c.spans;
    return {{"a", side(c.a)},
            {"b", side(c.b)},
            {"intersection", spans(s.intersection)},
            {"onlyA", spans(s.onlyA)},
            {"onlyB", spans(s.onlyB)},
            {"counts",
             {{"intersection", s.intersection.size()},
              {"onlyA", s.onlyA.size()},
              {"onlyB", s.onlyB.size()},
              {"prunedByBoth", s.prunedByBoth},
              {"prunable", PruningMask::prunableCount(n)}}}};
}

} // namespace prunescope
