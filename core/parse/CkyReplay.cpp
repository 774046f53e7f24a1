#include "core/parse/CkyReplay.h"

#include "core/parse/Parser.h"
#include "core/treebank/Binarize.h"

#include <stdexcept>

namespace prunescope {

int ReplayTrace::order(int i, int k) const {
    // Widths 1..w-1 hold n + (n-1) + ... + (n-w+2) cells.
    const int w = k - i;
    return (w - 1) * n - (w - 1) * (w - 2) / 2 + i;
}

namespace {
// Best post symbol of a cell (first among ties) and its count of built symbols.
void summarize(const Grammar& g, const DenseChart& c, ReplayCell& cell) {
    const float* post = c.postRow(cell.i, cell.k);
    for (int x = 0; x < c.numSymbols; ++x) {
        if (post[x] == kNegInf) continue;
        ++cell.constituents;
        if (cell.bestSymbol < 0 || post[x] > cell.bestScore) {
            cell.bestSymbol = x;
            cell.bestScore = post[x];
        }
    }
    if (cell.bestSymbol < 0) return;
    // Through at most one unary to the pre witness.
    std::uint32_t x = static_cast<std::uint32_t>(cell.bestSymbol);
    const ChartEntry e = c.entry(cell.i, cell.k, x);
    if (e.postWitness != 0 && e.postWitness != kNoWitness) x = g.unary[e.postWitness - 1].child;
    const std::uint32_t w = c.entry(cell.i, cell.k, x).preWitness;
    if (w != kNoWitness && w != kLexicalWitness) cell.bestSplit = cell.i + witnessSplitOffset(w);
}
} // namespace

ReplayTrace replayCky(const Grammar& g, std::span<const std::string> words,
                      const PruningMask* mask) {
    const int n = static_cast<int>(words.size());
    if (n == 0) throw std::invalid_argument("cannot replay an empty sentence");
    if (mask && mask->n != n)
        throw std::invalid_argument("mask is for " + std::to_string(mask->n) +
                                    " words, sentence has " + std::to_string(n));
    ReplayTrace t;
    t.n = n;
    DenseChart& c = t.chart;
    c.reset(n, g.numSymbols());
    const std::size_t N = static_cast<std::size_t>(g.numSymbols());
    for (int w = 1; w <= n; ++w)
        for (int i = 0; i + w <= n; ++i) {
            const int k = i + w;
            ReplayCell cell;
            cell.i = i;
            cell.k = k;
            cell.splitPoints = w - 1;
            const std::size_t base = static_cast<std::size_t>(c.cell(i, k)) * N;
            float* pre = c.pre.data() + base;
            std::uint32_t* preW = c.preWitness.data() + base;
            const bool kept = w == 1 || !mask || mask->keep(i, k);
            if (w > 1 && w < n && kept) ++t.spansKept;
            if (!kept) {
                cell.pruned = true;
                t.cells.push_back(std::move(cell));
                continue;
            }
            if (w == 1) {
                for (const LexicalEntry& e : g.lexicalEntries(words[i], i)) {
                    ++cell.lexicalPushes;
                    pre[e.tag] = e.logProb;
                    preW[e.tag] = kLexicalWitness;
                }
            } else {
                // Split points in ascending order, rules in index order (Grammar::binary is sorted
                // by left child, then right): strict '>' keeps the smallest (split, rule), as the
                // Parser.
                for (int j = i + 1; j < k; ++j) {
                    const float* L = c.postRow(i, j);
                    const float* R = c.postRow(j, k);
                    bool anyLeft = false, anyRight = false;
                    for (std::size_t x = 0; x < N && !(anyLeft && anyRight); ++x) {
                        anyLeft = anyLeft || L[x] != kNegInf;
                        anyRight = anyRight || R[x] != kNegInf;
                    }
                    if (!anyLeft || !anyRight) continue;
                    cell.splits.push_back(j);
                    for (std::uint32_t r = 0; r < g.binary.size(); ++r) {
                        const BinaryRule& br = g.binary[r];
                        if (L[br.left] == kNegInf || R[br.right] == kNegInf) continue;
                        ++cell.binaryPushes;
                        const float cand = binaryEdgeScore(L[br.left], R[br.right], br.logProb);
                        if (cand > pre[br.parent]) {
                            pre[br.parent] = cand;
                            preW[br.parent] = packBinaryWitness(j - i, r);
                        }
                    }
                }
            }
            cell.unaryPushes = Parser::applyUnaries(g, c, i, k);
            if (w == n) {
                const float* post = c.postRow(0, n);
                for (std::uint32_t r = 0; r < g.rootRules.size(); ++r) {
                    const float s = post[g.rootRules[r].child];
                    if (s == kNegInf) continue;
                    ++cell.rootPushes;
                    const float cand = s + g.rootRules[r].logProb;
                    if (cand > c.rootScore) {
                        c.rootScore = cand;
                        c.rootWitness = r;
                    }
                }
            }
            cell.pushes =
                cell.lexicalPushes + cell.binaryPushes + cell.unaryPushes + cell.rootPushes;
            summarize(g, c, cell);
            t.pushes += cell.pushes;
            t.constituents += cell.constituents;
            t.cells.push_back(std::move(cell));
        }
    t.success = c.rootScore != kNegInf;
    t.logProb = t.success ? c.rootScore : 0.0;
    return t;
}

nlohmann::json replayToJson(const Grammar& g, const ReplayTrace& t) {
    nlohmann::json cells = nlohmann::json::array();
    long soFar = 0;
    int step = 0;
    for (const ReplayCell& c : t.cells) {
        soFar += c.pushes;
        nlohmann::json j = {{"step", ++step},
                            {"span", {c.i, c.k}},
                            {"pruned", c.pruned},
                            {"splitPoints", c.splitPoints},
                            {"splits", c.splits},
                            {"lexicalPushes", c.lexicalPushes},
                            {"binaryPushes", c.binaryPushes},
                            {"unaryPushes", c.unaryPushes},
                            {"rootPushes", c.rootPushes},
                            {"pushes", c.pushes},
                            {"pushesSoFar", soFar},
                            {"constituents", c.constituents}};
        if (c.bestSymbol >= 0) {
            const std::string& sym = g.symbols[static_cast<std::size_t>(c.bestSymbol)];
            j["best"] = sym;
            j["bestLabel"] = unbinarizedLabel(sym);
            j["bestScore"] = c.bestScore;
            j["bestSplit"] =
                c.bestSplit >= 0 ? nlohmann::json(c.bestSplit) : nlohmann::json(nullptr);
        } else {
            j["best"] = nullptr;
            j["bestLabel"] = nullptr;
            j["bestScore"] = nullptr;
            j["bestSplit"] = nullptr;
        }
        cells.push_back(std::move(j));
    }
    return {{"length", t.n},
            {"pushes", t.pushes},
            {"constituents", t.constituents},
            {"spansKept", t.spansKept},
            {"success", t.success},
            {"logProb", t.logProb},
            {"cells", std::move(cells)}};
}

} // namespace prunescope
