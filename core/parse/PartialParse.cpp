#include "core/parse/PartialParse.h"

#include "core/parse/Parser.h"
#include "core/treebank/Binarize.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

namespace {
// A cell's offer: its best post symbol and score, -1 if it offers none (not built, pruned, empty).
struct CellOffer {
    int symbol = -1;
    double score = 0;
};

std::vector<CellOffer> cellOffers(const DenseChart& c, std::span<const std::uint8_t> built) {
    if (built.size() != static_cast<std::size_t>(c.numCells()))
        throw std::invalid_argument("partial parse: built has " + std::to_string(built.size()) +
                                    " cells, chart has " + std::to_string(c.numCells()));
    std::vector<CellOffer> offers(static_cast<std::size_t>(c.numCells()));
    for (int w = 1; w <= c.n; ++w)
        for (int i = 0; i + w <= c.n; ++i) {
            const int cell = c.cell(i, i + w);
            if (!built[static_cast<std::size_t>(cell)]) continue;
            const float* post = c.postRow(i, i + w);
            CellOffer& o = offers[static_cast<std::size_t>(cell)];
            for (int x = 0; x < c.numSymbols; ++x)
                if (post[x] != kNegInf && (o.symbol < 0 || post[x] > post[o.symbol])) o.symbol = x;
            if (o.symbol >= 0) o.score = post[o.symbol];
        }
    return offers;
}

// (i,k) as a fragment, if it can be one: a built cell's best symbol, or a bare word.
bool fragmentOf(const DenseChart& c, const std::vector<CellOffer>& offers, int i, int k,
                PartialFragment& f) {
    const CellOffer& o = offers[static_cast<std::size_t>(c.cell(i, k))];
    if (o.symbol < 0 && k - i > 1) return false;
    f = PartialFragment{i, k, o.symbol, o.symbol < 0 ? 0.0 : o.score};
    return true;
}

// Fewer fragments first, then the higher score.
bool better(int count, double score, int bestCount, double bestScore) {
    return count < bestCount || (count == bestCount && score > bestScore);
}
} // namespace

std::vector<std::uint8_t> builtAfter(const ReplayTrace& t, const DenseChart& chart, int step) {
    if (step < 0 || step > static_cast<int>(t.cells.size()))
        throw std::invalid_argument("partial parse: step " + std::to_string(step) + " of " +
                                    std::to_string(t.cells.size()));
    if (chart.n != t.n || chart.cellOffsetByWidth.size() <= static_cast<std::size_t>(t.n))
        throw std::invalid_argument("partial parse: the chart is for " + std::to_string(chart.n) +
                                    " words, the replay for " + std::to_string(t.n));
    std::vector<std::uint8_t> built(static_cast<std::size_t>(chart.numCells()), 0);
    for (int s = 0; s < step; ++s) {
        const ReplayCell& c = t.cells[static_cast<std::size_t>(s)];
        built[static_cast<std::size_t>(chart.cell(c.i, c.k))] = c.pruned ? 0 : 1;
    }
    return built;
}

PartialParse bestPartialParse(const DenseChart& c, std::span<const std::uint8_t> built) {
    const std::vector<CellOffer> offers = cellOffers(c, built);
    const int n = c.n;
    std::vector<int> count(static_cast<std::size_t>(n) + 1, 0),
        from(static_cast<std::size_t>(n) + 1, -1);
    std::vector<double> score(static_cast<std::size_t>(n) + 1, 0);
    for (int k = 1; k <= n; ++k) {
        int bestCount = 0;
        double bestScore = 0;
        for (int i = 0; i < k; ++i) {
            PartialFragment f;
            if (!fragmentOf(c, offers, i, k, f)) continue;
            const int cnt = count[static_cast<std::size_t>(i)] + 1;
            const double sc = score[static_cast<std::size_t>(i)] + f.score;
            if (from[static_cast<std::size_t>(k)] < 0 || better(cnt, sc, bestCount, bestScore)) {
                bestCount = cnt;
                bestScore = sc;
                from[static_cast<std::size_t>(k)] = i;
            }
        }
        count[static_cast<std::size_t>(k)] = bestCount;
        score[static_cast<std::size_t>(k)] = bestScore;
    }
    PartialParse p;
    p.score = score[static_cast<std::size_t>(n)];
    for (int k = n; k > 0; k = from[static_cast<std::size_t>(k)]) {
        PartialFragment f;
        fragmentOf(c, offers, from[static_cast<std::size_t>(k)], k, f);
        p.fragments.push_back(f);
    }
    std::reverse(p.fragments.begin(), p.fragments.end());
    return p;
}

PartialParse naivePartialParse(const DenseChart& c, std::span<const std::uint8_t> built) {
    const std::vector<CellOffer> offers = cellOffers(c, built);
    const int n = c.n;
    if (n > 24)
        throw std::invalid_argument("naivePartialParse: " + std::to_string(n) +
                                    " words (at most 24)");
    PartialParse best;
    bool found = false;
    // Bit b of `cuts` set: a fragment boundary after word b + 1.
    for (std::uint32_t cuts = 0; cuts < (1u << (n - 1)); ++cuts) {
        PartialParse p;
        int start = 0;
        bool ok = true;
        for (int e = 1; e <= n && ok; ++e) {
            if (e < n && !(cuts >> (e - 1) & 1u)) continue;
            PartialFragment f;
            ok = fragmentOf(c, offers, start, e, f);
            p.fragments.push_back(f);
            p.score += f.score;
            start = e;
        }
        if (!ok) continue;
        if (!found || better(p.size(), p.score, best.size(), best.score)) best = std::move(p);
        found = true;
    }
    return best;
}

std::vector<Tree> fragmentTrees(const Grammar& g, const DenseChart& c,
                                std::span<const std::string> words, const PartialParse& p) {
    std::vector<Tree> out;
    for (const PartialFragment& f : p.fragments) {
        if (f.symbol < 0) {
            out.push_back(Tree{words[static_cast<std::size_t>(f.i)], {}});
            continue;
        }
        const Tree bin =
            binarizedSubtree(g, c, words, f.i, f.k, static_cast<std::uint32_t>(f.symbol));
        // Under a scratch root: debinarize splices an intermediate into its parent and expands
        // chains.
        Tree spliced = debinarize(Tree{"FRAGMENT", {bin}});
        if (spliced.children.size() == 1)
            out.push_back(std::move(spliced.children.front()));
        else
            out.push_back(Tree{unbinarizedLabel(bin.label), std::move(spliced.children)});
    }
    return out;
}

} // namespace prunescope
