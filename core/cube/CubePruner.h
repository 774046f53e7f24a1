#pragma once
// Cube-pruned bottom-up dependency parsing (Zhang & McDonald 2012, as used by Zhang, Huang, Zhao &
// McDonald 2013, sec. 3): over Eisner's span hypergraph (CubeChart.h), narrowest spans first, each
// cell keeps the k best items; a cell's candidates are the grids of its hyperedges' child beams,
// explored lazily with one priority queue (Chiang 2007, sec. 5.3; Huang & Chiang 2005, Alg. 2):
// each hyperedge enters at its (0, 0) corner, and popping (i, j) offers (i, j + 1), plus (i + 1, 0)
// when j = 0 (every grid point has one predecessor, so none is offered twice). A candidate's score
// is its children's scores plus the parts scored at the combination (arc, sibling, grandparents;
// CubeScorer.h) — non-local features make the grid non-monotone, which is where search errors
// come from. After k pops the cell's items are sorted (stable: pop order breaks ties).
//
// Ties: among equal scores the candidate with the smaller split/modifier, then smaller (i, j), pops
// first — Eisner's rule (DepChart.h), so the results below are bit-identical, not merely equal.
// Contract: with first-order features only the grid is monotone and every beam holds its cell's
// exact k best derivations; hence the 1-best equals EisnerParser's for any k >= 1, and with k at
// least the number of projective trees the root beam is every tree, best first (k = infinity).
// Held by tests/cube/test_cube_pruner.cpp against Eisner and brute force.
#include "core/cube/CubeChart.h"

#include <cstddef>
#include <string>
#include <vector>

namespace prunescope {

inline constexpr int kCubeUnboundedBeam =
    1 << 30; // "k = infinity" (exponential: tiny sentences only)

struct CubeOptions {
    int beam = 16;                                   // k items per cell (>= 1)
    bool singleRoot = true;                          // the root takes exactly one modifier
    std::size_t memoryBudget = std::size_t(1) << 30; // item arena bytes allowed
};

struct CubeStats {
    long pushes = 0;      // candidates scored (offered to a cell's queue)
    long pops = 0;        // candidates popped into beams (= items built)
    long arcsKept = 0;    // arcs that exist (mask kept, finite score)
    bool success = false; // a tree exists under the mask
    double score = 0;     // the best root item's score
};

struct CubeParse {
    std::vector<int> heads; // size n + 1, [0] = -1; all -1 if no tree exists under the mask
    CubeStats stats;
};

class CubePruner {
  public:
    explicit CubePruner(CubeOptions options = {});

    // Parses one sentence (the mask is the scorer's: pruned arcs are -inf and never built).
    // Throws std::invalid_argument when the sentence cannot fit (fits()) or the arena outgrows the
    // memory budget.
    CubeParse parse(const CubeScorer& scorer);
    const CubeChart& chart() const { return chart_; }
    const CubeOptions& options() const { return options_; }
    // Whether n tokens fit: 1 <= n <= kMaxDepSentenceLength and, for a bounded beam, the largest
    // possible arena (2 (n+1)^2 k items) within the memory budget. why (optional) says what fails.
    bool fits(int n, std::string* why = nullptr) const;

    // The parts scored when `cell` is built by hyperedge `edge` from items left and right (ids),
    // summed in float in the order the search uses; and the item it makes, appended to the arena
    // outside any beam (gold items for training and the explorer). The chart must be the one the
    // last parse() filled, for the same scorer.
    float localScore(const CubeScorer& scorer, CubeCell cell, int left, int right) const;
    int buildItem(const CubeScorer& scorer, CubeCell cell, int edge, int left, int right);

  private:
    struct Candidate {
        float score;
        float local;
        std::int32_t edge, i, j;
    };
    void fillIncomplete(const CubeScorer& sc, int h, int m, CubeStats& st);
    void fillComplete(const CubeScorer& sc, int h, int e, CubeStats& st);
    // The cube over the hyperedges set up in edges_ (edge, left cell, right cell) for `cell`.
    void runCube(const CubeScorer& sc, CubeCell cell, CubeStats& st);
    void checkMemory() const;

    CubeOptions options_;
    CubeChart chart_;
    struct Edge {
        std::int32_t edge, leftCell, rightCell;
    };
    std::vector<Edge> edges_;
    std::vector<Candidate> heap_;
};

} // namespace prunescope
