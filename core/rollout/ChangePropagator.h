#pragma once
// Change propagation over the CKY chart (paper sec. 5.2, Alg. 3, footnote 5): flip one prune bit
// of a parsed chart, update exactly the values and witnesses that change (narrower spans first),
// and revert from an undo list. After every flip the chart is bit-for-bit the chart Parser::parse
// builds for the flipped mask (same float expressions, same smallest-key tie-breaking), so the best
// tree, F1, ||β||_0 and the push count equal a reparse. Hyperedges are followed implicitly through
// the grammar's rule indices; nothing is materialized. See docs/rollouts.md.
//
// The parts: UndoLog (footnote 5), ViterbiOutside (the rollout probe's bound), and this class, the
// propagation itself (ChangePropagator.cpp: Alg. 3; ...Reset.cpp: the roll-in parse; ...Probe.cpp
// and
// ...Lazy.cpp: the rollout fast path; ...Results.cpp: exact pushes, F1 and the FlipResult).
#include "core/grammar/Grammar.h"
#include "core/parse/DenseChart.h"
#include "core/parse/PruningMask.h"
#include "core/rollout/UndoLog.h"
#include "core/rollout/UninitializedBuffer.h"
#include "core/rollout/ViterbiOutside.h"
#include "core/treebank/Tree.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace prunescope {

class Parser;

enum class CellChange : std::uint8_t { Rose, Fell, Appeared, Vanished };

struct ChangeEvent {
    int i, k;
    std::uint32_t symbol; // the vertex's symbol (ROOT's id for the root layer)
    std::uint8_t layer;   // 0 pre, 1 post, 2 root
    CellChange kind;
    float before, after;
};

struct FlipResult {
    std::vector<ChangeEvent> events; // in agenda order
    bool success = false;            // after the flip
    double logProb = 0;
    Tree tree;             // n-ary best tree after the flip (Parser's bestTree fallback if failed)
    double f1 = 0;         // per-sentence F1 vs gold (if gold set, else NaN)
    long constituents = 0; // ||β||_0 after the flip
    long pushes = 0;       // what Parser::parse would report for the new mask (exact)
    int spansKept = 0;
};

class ChangePropagator {
  public:
    // Parses words under mask (the roll-in). Throws std::invalid_argument like Parser::parse.
    ChangePropagator(const Grammar& g, std::vector<std::string> words, PruningMask mask);
    void setGold(const Tree& normalizedGold);
    // Without a sentence; call reset() before anything else.
    explicit ChangePropagator(const Grammar& g);
    ~ChangePropagator();
    // Starts over with another roll-in (undoing any flips first), reusing all memory: only the
    // entries the previous sentence built are cleared. Clears the gold tree.
    void reset(std::vector<std::string> words, PruningMask mask);
    // false: reset() never shrinks the chart arrays (they may then be longer than
    // numCells() * numSymbols, the tail all empty), which saves refilling them for a sequence of
    // sentences of varying length. Default true (the arrays have the parser's exact sizes).
    void setExactChartSize(bool exact) { exactChartSize_ = exact; }

    // Flips the bit of prunable span (i,k), keeps the change and pushes an undo record.
    // Throws std::invalid_argument for a span that is not prunable.
    FlipResult flip(int i, int k);
    // Reverts the most recent flip from its undo list (bit-exact). Throws std::logic_error if none.
    void undo();
    bool canUndo() const { return log_.hasFrames(); }

    const DenseChart& chart() const { return chart_; }
    const PruningMask& mask() const { return mask_; }
    const std::vector<std::string>& words() const { return words_; }
    const Grammar& grammar() const { return *g_; }
    FlipResult current() const; // the same numbers for the current state, no events

    // --- for fast rollouts ---
    // Flip without building a result (events are still recorded, see lastEvents()).
    void flipOnly(int i, int k);
    const std::vector<ChangeEvent>& lastEvents() const { return events_; }
    bool success() const { return chart_.rootScore != kNegInf; }
    long pushes() const { return trackPushes_ ? pushes_ : -1; }
    // Rollouts need no push counts: switching them off (until the next reset) skips their
    // accounting; pushes() then returns -1.
    void setTrackPushes(bool on) { trackPushes_ = trackPushes_ && on; }
    long constituents() const { return constituents_; }
    // F1 of the current best tree vs the gold set by setGold (NaN if none). Reuses the roll-in's
    // value when no flip since touched a vertex of the roll-in's best derivation (nor ROOT), else
    // the last value when the best derivation's witnesses are unchanged.
    double currentF1();
    // One rCP rollout (sec. 7): the F1 and ||β||_0 the parse would have with the bit of (i,k)
    // flipped; the state is left unchanged. Requires no pending flips and a gold tree. Exact
    // (equal to flip() + currentF1() + constituents() + undo()) but usually much cheaper: a
    // keep→prune flip of a span off the roll-in's best derivation, or a prune→keep flip whose
    // best new derivation (Viterbi outside + the new cell's inside) stays clearly below the best,
    // cannot change the best tree, so only which constituents are built is propagated.
    struct Probe {
        double f1;
        long constituents;
        bool full; // the flip could change the best tree, so it was computed exactly (else reused)
    };
    Probe probeFlip(int i, int k);
    // Work counters of the last flip: vertices popped from the agenda and recomputed.
    long lastPops() const { return lastPops_; }
    long lastRecomputes() const { return lastRecomputes_; }
    // RECOMPUTE of a cell's pending pre vertices (a value that may have fallen) runs per vertex, or
    // for all of them at once with the parser's loop over the cell when their incoming rules
    // together reach `rules` (default |binary| / 4; 0: always, SIZE_MAX: never). Same results
    // either way; only the speed differs. lastBatchedRecomputes(): those of the last flip done so.
    void setRecomputeBatchRules(std::size_t rules) { batchRules_ = rules; }
    long lastBatchedRecomputes() const { return lastBatched_; }

    // Work budget (issue 45). Work is counted in rule applications, the parser's push unit:
    // hyperedges relaxed or scanned by RECOMPUTE, rules a rebuilt cell pushes, and (probeFlip)
    // hyperedges and unaries the lazy exact best tree scans. A flip whose work passes budget × W,
    // W = the pushes of a parse under the current mask (pushes(); the roll-in's while pushes are
    // not tracked), abandons Alg. 3: it is undone from its undo list, Parser::parse parses the
    // sentence under the flipped mask, and the cells containing the flipped span (no other cell
    // can change) are diffed against that chart and installed with undo entries. A flip then costs
    // about a reparse plus its budget, and the result is bit for bit the same either way (chart,
    // witnesses, counters, FlipResult, undo). Events of a recomputed flip are the same set (every
    // vertex whose value changed, once, with the same before and after) in (width, layer, i,
    // symbol) order, ROOT last: the agenda's (width, layer) order, not its order within a layer
    // (the explorer only groups events by cell). 0: every flip is recomputed; inf: never.
    // Defaults chosen from measurements (docs/rollouts.md): an agenda rule application costs about
    // 7-20x a parser push, so 0.1 caps a flip near two reparses (flip(): the explorer's latency);
    // changePropagationRollouts uses 0.25, which leaves probeFlip's cheap finiteness-only flips
    // alone (throughput: lower budgets made rollouts slower).
    static constexpr double kDefaultWorkBudget = 0.1;
    static constexpr double kDefaultRolloutWorkBudget = 0.25;
    // Throws std::invalid_argument for a negative or NaN budget.
    void setWorkBudget(double budget);
    double workBudget() const { return workBudget_; }
    // Whether the last flip was recomputed (past the budget), and how many flips were since
    // reset().
    bool lastRecomputedFlip() const { return lastFellBack_; }
    long recomputedFlips() const { return fallbacks_; }
    // Work (rule applications) of the last flip's propagation, up to where it stopped.
    long lastWork() const { return work_; }

  private:
    float& value(std::uint32_t v) {
        return v < postBase_ ? chart_.pre[v] : chart_.post[v - postBase_];
    }
    std::uint32_t& witness(std::uint32_t v) {
        return v < postBase_ ? chart_.preWitness[v] : chart_.postWitness[v - postBase_];
    }
    std::uint32_t
    touch(std::uint32_t v); // returns the vertex's undo index (records it once per flip)
    struct ParentRule {
        std::uint32_t left, right;
        float logProb;
        std::uint32_t rule;
    };
    // Calls fn(j, rule, left, right) for every binary hyperedge into pre(i,k,x) whose children are
    // both built, in the CKY's key order (split j, then rule index); stops early if fn returns
    // true.
    template <class Fn> void forEachBinaryEdge(int i, int k, std::uint32_t x, Fn fn) const;
    void enqueue(std::uint32_t v, int width, int layer);
    void relax(std::uint32_t head, float s, std::uint32_t key, int width, int layer);
    void relaxRoot(float s, std::uint32_t key);
    void recompute(std::uint32_t v, int i, int k, int layer);
    long recomputeBatched(const std::vector<std::uint32_t>& bucket);
    void findSupport(std::uint32_t v, int i, int k, int layer);
    double bestThrough(int i, int k);
    // Lazy exact values after a finiteness-only keep→prune flip of (si, sk): the values in cells
    // containing it are upper bounds; branch and bound from ROOT makes exact only what the best
    // derivation needs (Alg. 3's RECOMPUTE on demand, with the CKY's tie-breaking).
    void exactRoot();
    float exactPre(int i, int k, std::uint32_t x);
    float exactPost(int i, int k, std::uint32_t x);
    bool stale(int i, int k) const { return i <= si_ && k >= sk_ && (i != si_ || k != sk_); }
    void propagatePre(int i, int k, std::uint32_t x);
    void propagatePost(int i, int k, std::uint32_t y, bool decreased);
    void setWitness(std::uint32_t v, std::uint32_t w);
    void linkUser(std::uint32_t v, std::uint32_t w, bool insert);
    void propagateRoot();
    void killCell(int i, int k);
    long buildCell(int i, int k);
    long fillCell(int i, int k, float* out, std::uint32_t* outW) const;
    template <bool Apply> long binaryPass(int i, int k, float* out, std::uint32_t* outW) const;
    void accountBinaryPushes(int fi, int fk, bool nowKept, long builtPushes);
    void addCellPushes(int c, long delta);
    void derivationSignature(std::vector<std::uint32_t>& out,
                             std::vector<std::uint32_t>* vertices = nullptr) const;
    void fillResult(FlipResult& r, bool withEvents) const;
    // The agenda loop of Alg. 3 from width `from`; false if the work passed the budget (the
    // remaining agenda is then dropped, with cellBuilt_ matched to the values for undo()).
    bool runAgenda(int from);
    void abandonAgenda(int w, int layer, std::size_t b);
    void finishRoot();
    // Past the budget: undo the partial flip, then flip (i,k) by recomputing the cells that
    // contain it (ChangePropagatorFallback.cpp).
    void recomputeFlip(int i, int k);
    void installCell(int i, int k, std::span<const ChartEntry> entries,
                     std::vector<ChangeEvent>& postEvents);
    // The binary pushes binaryPass counts, without applying the rules: for a cell whose count a
    // recomputed flip left unknown.
    long scanBinaryPushes(int i, int k) const;

    const Grammar* g_;
    std::vector<std::string> words_;
    PruningMask mask_;
    DenseChart chart_;
    int N_ = 0;
    std::uint32_t postBase_ = 0;
    std::vector<int> cellI_, cellK_;       // cell index -> span
    std::vector<std::uint32_t> rootBegin_; // per symbol: [begin, end) of its rules in rootRules
    std::vector<ParentRule> parentRules_;  // Grammar::binaryByParent, inlined for RECOMPUTE
    // Users of post vertices: [2*post + side] first pre vertex whose witness uses it as the left
    // (side 0) or right (side 1) child; [2*pre + side] that vertex's links in the list.
    static constexpr std::uint32_t kNil = 0xFFFFFFFFu;
    // Witness of a vertex whose value may have decreased: RECOMPUTE when popped (Alg. 3 line 16).
    static constexpr std::uint32_t kPending = 0xFFFFFFFDu;
    struct UserLinks {
        std::uint32_t prev, next;
    };
    std::vector<std::uint32_t> firstUser_;
    UninitializedBuffer<UserLinks> links_;
    std::vector<int> cellBuilt_; // per cell: built post symbols

    // Exact counters (equal to Parser::parse's ParseStats for the current mask).
    long pushes_ = 0, constituents_ = 0;
    int spansKept_ = 0;
    std::vector<long> binaryPushes_; // per cell (0 for pruned cells; kUnknownPushes: not known)
    static constexpr long kUnknownPushes = -1; // a kept cell's count after a recomputed flip

    // Gold for F1.
    bool hasGold_ = false;
    Tree gold_;
    double f1_ = 0, baseF1_ = 0;
    bool f1Valid_ = false, baseValid_ = false;
    std::vector<std::uint8_t> onBest_; // per vertex id: on the roll-in's best derivation
    std::vector<std::uint32_t> bestVertices_;
    bool trackPushes_ = true;
    bool exactChartSize_ = true;
    // probeFlip: finiteness-only propagation, the roll-in's best spans and Viterbi outside scores.
    bool boolMode_ = false;
    std::vector<std::uint8_t> bestSpan_; // [i*(n+1)+k]
    ViterbiOutside outside_;             // of the roll-in chart, computed on first need
    struct Candidate {
        float ub;
        std::uint32_t key;
        std::uint32_t a, b;
    };
    std::vector<Candidate> cands_;          // a stack of candidate hyperedges (exactPre/Post)
    std::vector<std::uint32_t> exactStamp_; // per vertex id: probe that made it exact
    std::uint32_t probeId_ = 0;
    int si_ = -1, sk_ = -1;
    // prune→keep that may change the best tree: Alg. 3, but a rise is not propagated from a vertex
    // whose best whole derivation (value + outside) stays below the roll-in's best by the margin.
    bool filterRises_ = false;
    double margin_ = 0;
    std::vector<std::uint32_t> f1Signature_,
        signature_; // witnesses of the derivation f1_ belongs to

    // Undo list (footnote 5) and the agenda.
    UndoLog log_;
    std::vector<std::vector<std::uint32_t>> buckets_; // [2*width + layer]: narrower spans first
    bool rootQueued_ = false, rootPending_ = false;
    std::vector<ChangeEvent> events_;
    std::vector<std::uint32_t> changedPost_; // post vertices whose finiteness changed this flip
    std::vector<float> scratch_;
    std::vector<std::uint32_t> scratchW_;
    std::vector<std::uint32_t> dirty_; // cell*N + x of every entry the roll-in built
    // recomputeBatched: per cell, the incoming rules of its pending pre vertices (0 between calls).
    std::size_t batchRules_ = 0;
    long lastBatched_ = 0;
    std::vector<std::size_t> pendingRules_;
    std::vector<std::uint32_t> pendingCells_;
    long lastPops_ = 0, lastRecomputes_ = 0;
    // Work budget (see setWorkBudget).
    double workBudget_ = kDefaultWorkBudget;
    long work_ = 0, workLimit_ = 0, rollInPushes_ = 0, fallbacks_ = 0;
    bool lastFellBack_ = false, lazyOverBudget_ = false;
    std::vector<ChangeEvent> postEvents_;
    std::unique_ptr<Parser> parser_; // the recomputed flips' parser, made on first need
};

template <class Fn>
void ChangePropagator::forEachBinaryEdge(int i, int k, std::uint32_t x, Fn fn) const {
    const ParentRule* rb = parentRules_.data() + g_->binaryByParentBegin[x];
    const ParentRule* re = parentRules_.data() + g_->binaryByParentBegin[x + 1];
    for (int j = i + 1; j < k; ++j) {
        if (cellBuilt_[chart_.cell(i, j)] == 0 || cellBuilt_[chart_.cell(j, k)] == 0) continue;
        const float* L = chart_.postRow(i, j);
        const float* R = chart_.postRow(j, k);
        for (const ParentRule* pr = rb; pr != re; ++pr) {
            const float l = L[pr->left];
            if (l == kNegInf) continue;
            const float r = R[pr->right];
            if (r == kNegInf) continue;
            if (fn(j, *pr, l, r)) return;
        }
    }
}

} // namespace prunescope
