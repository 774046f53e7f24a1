#pragma once
// Eisner's O(n^3) projective dependency parser over an ArcMask (Eisner 1996; first order as in
// McDonald et al. 2005, second-order siblings as in McDonald & Pereira 2006 sec. 3.2), in log
// space (Viterbi), the dependency sibling of the CKY Parser:
//   - a pruned arc's incomplete item is never built, nor anything that needs it;
//   - pushes count every combination considered whose children are all built (one per hyperedge
//     visited, as the CKY parser counts rule evaluations);
//   - among equal scores the smallest split / modifier / sibling index wins (DepChart.h);
//   - the chart is allocated once per length (capacity reused) within a memory budget.
// Contract: the result equals the best projective tree under the mask found by brute force
// (bruteForceBest in BruteForce.h), held by tests/dep/test_eisner.cpp on every tree of <= 8 words.
#include "core/dep/ArcMask.h"
#include "core/dep/DepChart.h"
#include "core/dep/GrandSiblingChart.h"
#include "core/util/Progress.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <span>
#include <vector>

namespace prunescope {

// First-order arc scores s(h, m), dense (n + 1) x (n + 1), row = head. -inf = no such arc.
struct ArcScores {
    int n = 0;
    std::vector<float> s; // s[h * (n + 1) + m]

    void reset(int len, float value = kDepNegInf) {
        n = len;
        s.assign(static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 1), value);
    }
    float operator()(int h, int m) const {
        return s[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                 static_cast<std::size_t>(m)];
    }
    float& at(int h, int m) {
        return s[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                 static_cast<std::size_t>(m)];
    }
};

// Second-order sibling scores s(h, q, m): q is the modifier of h adjacent to m between h and m, or
// q == h when m is h's closest modifier on its side. Called once per candidate the parser
// considers (the caller may compute features lazily).
class SiblingScorer {
  public:
    virtual ~SiblingScorer() = default;
    virtual float sibling(int h, int q, int m) const = 0;
};

// Third-order scores (Koo & Collins 2010 Model 1), on top of the siblings: grandparent parts
// (g, h, m), g = head of h, and grand-sibling parts (g, h, q, m), q as in sibling(); neither exists
// for h = 0 (the root has no head).
class GrandSiblingScorer : public SiblingScorer {
  public:
    virtual float grandparent(int g, int h, int m) const = 0;
    virtual float grandSibling(int g, int h, int q, int m) const = 0;
    // The same scores for every g of gs at once, into out[i] (bit-identical to one call per g; a
    // scorer may overlap its weight lookups).
    virtual void grandparents(std::span<const int> gs, int h, int m, float* out) const {
        for (std::size_t i = 0; i < gs.size(); ++i)
            out[i] = grandparent(gs[i], h, m);
    }
    virtual void grandSiblings(std::span<const int> gs, int h, int q, int m, float* out) const {
        for (std::size_t i = 0; i < gs.size(); ++i)
            out[i] = grandSibling(gs[i], h, q, m);
    }
};

struct EisnerOptions {
    bool singleRoot = true; // the root takes exactly one modifier
    // Chart bytes allowed (DepChart::bytesFor; GrandSiblingChart::bytesFor at third order, where an
    // exhaustive 249-token sentence needs 353 MiB).
    std::size_t memoryBudget = std::size_t(1) << 30;
};

struct DepParseStats {
    long pushes = 0;      // combinations considered with all children built
    long items = 0;       // items built (finite C, I and S entries)
    long arcsKept = 0;    // arcs the mask keeps (n * n without a mask)
    bool success = false; // a tree exists under the mask
    double score = 0;     // best tree's score (chart value) if success
};

struct DepParse {
    std::vector<int> heads; // size n + 1, [0] = -1; every head -1 if the parse failed
    DepParseStats stats;
};

class EisnerParser {
  public:
    explicit EisnerParser(EisnerOptions options = {}) : options_(options) {}

    // First order. mask == nullptr keeps every arc; its n must equal scores.n.
    // Throws std::invalid_argument for n < 1, n > kMaxDepSentenceLength, a wrong mask, or a chart
    // over the memory budget (the message gives both sizes).
    DepParse parse(const ArcScores& scores, const ArcMask* mask = nullptr);
    // Second order (siblings) on the same chart.
    DepParse parse(const ArcScores& scores, const SiblingScorer& siblings,
                   const ArcMask* mask = nullptr);

    // Third order (grand-siblings, Koo & Collins 2010 Model 1, sec. 4.2) on GrandSiblingChart, in
    // O(n^4) time over the kept arcs: I^g(h, m) is built only when g -> h and h -> m are both kept.
    // Contract: the best projective tree under the mask by thirdOrderTreeScore (brute force, held
    // by tests/dep/test_grand_sibling.cpp). Defined in GrandSibling.cpp.
    DepParse parseGrandSiblings(const ArcScores& scores, const GrandSiblingScorer& parts,
                                const ArcMask* mask = nullptr);

    // The chart of the last first- or second-order parse; thirdOrderChart() that of the last
    // third-order one.
    const DepChart& chart() const { return chart_; }
    const GrandSiblingChart& thirdOrderChart() const { return third_; }
    const EisnerOptions& options() const { return options_; }
    // Cancel (core/util/Progress.h): every parse polls the flag once per span width and throws
    // Cancelled when it is set, so a long sentence stops within one width's work (a 250-word
    // exhaustive third-order parse takes seconds). nullptr (the default) never cancels.
    void setCancelFlag(const std::atomic<bool>* flag) { cancel_ = flag; }

  private:
    void prepare(const ArcScores& scores, const ArcMask* mask, int order, DepParseStats& st);
    void markAllowed(const ArcScores& scores, const ArcMask* mask, DepParseStats& st);
    float siblingSpan(int h, int a, int b, DepParseStats& st); // S^h(a, b), third order
    float siblingItem(int a, int b, DepParseStats& st);        // S(a, b), built on first request
    DepParse finish(DepParseStats& st) const;

    void pollCancel() const {
        if (cancel_ && cancel_->load(std::memory_order_relaxed)) throw Cancelled();
    }

    EisnerOptions options_;
    const std::atomic<bool>* cancel_ = nullptr;
    DepChart chart_;
    std::vector<std::uint8_t> allowed_; // [h * N + m]: arc kept and finite
    GrandSiblingChart third_;
    std::vector<float> best_; // per-head-slot scratch of the third-order items
    std::vector<std::int32_t> bestW_;
    std::vector<int> batchG_, batchSlot_; // the heads g scored together, and their slots
    std::vector<float> batchScore_;
};

// Heads of the best tree by the chart's witnesses (size n + 1, [0] = -1; all -1 if not parsed).
std::vector<int> bestHeads(const DepChart& chart);

// The sibling parts (h, q, m) of a tree, q == h for a closest modifier, in order of m.
std::vector<std::array<int, 3>> siblingParts(const std::vector<int>& heads);
// A tree's score summed in double: arcs, plus sibling parts if siblings != nullptr.
double treeScore(const ArcScores& scores, const std::vector<int>& heads,
                 const SiblingScorer* siblings = nullptr);
// The grand-sibling parts (g, h, q, m) of a tree: every sibling part whose head h is not the root,
// with g = h's head.
std::vector<std::array<int, 4>> grandSiblingParts(const std::vector<int>& heads);
// A tree's third-order score in double: arcs, siblings, grandparents and grand-siblings.
double thirdOrderTreeScore(const ArcScores& scores, const std::vector<int>& heads,
                           const GrandSiblingScorer& parts);

} // namespace prunescope
