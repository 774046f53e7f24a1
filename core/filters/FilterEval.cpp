// Coverage, reduction, the threshold curve and the paired permutation test (Cherry & Bergsma 2011,
// sec. 4).
#include "core/filters/FilterEval.h"

#include "core/stats/PairedPermutation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace prunescope {

FilterMargins collectMargins(const ArcFilter& f, const std::vector<DepSentence>& gold,
                             const Progress& progress) {
    FilterMargins out;
    progress.begin("filtering", static_cast<long>(gold.size()));
    for (const DepSentence& s : gold) {
        if (progress.cancelled()) {
            out.cancelled = true;
            break;
        }
        if (!s.hasTree())
            throw std::invalid_argument("collectMargins: a sentence without gold heads");
        const ArcFilterScorer scorer(f, s);
        FilterMargins::Sentence ms;
        const int n = s.size();
        for (int h = 0; h <= n; ++h)
            for (int m = 1; m <= n; ++m) {
                if (h == m) continue;
                (s.heads[static_cast<std::size_t>(m)] == h ? ms.gold : ms.other)
                    .push_back(scorer.margin(h, m));
            }
        out.sentences.push_back(std::move(ms));
        progress.advance();
    }
    return out;
}

FilterCounts& FilterCounts::operator+=(const FilterCounts& o) {
    goldKept += o.goldKept;
    gold += o.gold;
    filtered += o.filtered;
    total += o.total;
    return *this;
}

FilterCounts countsAt(const FilterMargins::Sentence& s, double threshold) {
    FilterCounts c;
    c.gold = static_cast<long>(s.gold.size());
    // n^2 arcs: n gold + (n^2 - n) others, self arcs excluded; matches ArcMask::totalArcs.
    c.total = static_cast<long>(s.gold.size() + s.other.size());
    for (const float v : s.gold)
        if (static_cast<double>(v) > threshold)
            ++c.filtered;
        else
            ++c.goldKept;
    for (const float v : s.other)
        if (static_cast<double>(v) > threshold) ++c.filtered;
    return c;
}

FilterCounts countsAt(const FilterMargins& m, double threshold) {
    FilterCounts c;
    for (const auto& s : m.sentences)
        c += countsAt(s, threshold);
    return c;
}

std::vector<FilterCounts> perSentenceCounts(const FilterMargins& m, double threshold) {
    std::vector<FilterCounts> out;
    out.reserve(m.sentences.size());
    for (const auto& s : m.sentences)
        out.push_back(countsAt(s, threshold));
    return out;
}

double thresholdForCoverage(const FilterMargins& m, double target) {
    if (!(target > 0 && target <= 1))
        throw std::invalid_argument("coverage target must be in (0, 1]");
    std::vector<float> g;
    for (const auto& s : m.sentences)
        g.insert(g.end(), s.gold.begin(), s.gold.end());
    if (g.empty()) return std::numeric_limits<double>::infinity();
    std::sort(g.begin(), g.end());
    const auto k =
        static_cast<std::size_t>(std::ceil(target * static_cast<double>(g.size()) - 1e-9));
    return static_cast<double>(g[std::clamp<std::size_t>(k, 1, g.size()) - 1]);
}

std::vector<CurvePoint> coverageCurve(const FilterMargins& m) {
    std::vector<CurvePoint> out;
    for (const double target :
         {0.90, 0.95, 0.97, 0.98, 0.99, 0.993, 0.995, 0.997, 0.998, 0.999, 1.0}) {
        const double th = thresholdForCoverage(m, target);
        const FilterCounts c = countsAt(m, th);
        out.push_back({th, c.coverage(), c.reduction()});
    }
    return out;
}

FilterComparison compareFilters(const std::vector<FilterCounts>& a,
                                const std::vector<FilterCounts>& b, int permutations,
                                std::uint64_t seed) {
    if (a.size() != b.size())
        throw std::invalid_argument("compareFilters: different numbers of sentences");
    FilterCounts ta, tb;
    for (std::size_t i = 0; i < a.size(); ++i) {
        ta += a[i];
        tb += b[i];
    }
    FilterComparison r;
    r.reductionA = ta.reduction();
    r.reductionB = tb.reduction();
    r.coverageA = ta.coverage();
    r.coverageB = tb.coverage();
    // One test per statistic, on the same draws (same seed): reduction, then coverage.
    const std::size_t n = a.size();
    auto difference = [&](double (FilterCounts::*stat)() const) {
        return [&a, &b, n, stat](const SwapSet& s) {
            FilterCounts pa, pb;
            for (std::size_t i = 0; i < n; ++i) {
                pa += s[i] ? b[i] : a[i];
                pb += s[i] ? a[i] : b[i];
            }
            return (pa.*stat)() - (pb.*stat)();
        };
    };
    const PairedTestResult red =
        pairedPermutationTest(n, permutations, seed, difference(&FilterCounts::reduction));
    const PairedTestResult cov =
        pairedPermutationTest(n, permutations, seed, difference(&FilterCounts::coverage));
    r.permutations = red.permutations;
    r.pReduction = red.pValue;
    r.pCoverage = cov.pValue;
    return r;
}

} // namespace prunescope
