#pragma once
// What the randomized-pruning window animates, without widgets: one sentence, its exact
// inside-outside expectations, the policy's fixed mask as a reference, and a RandomizedPruning
// chain (Bouchard-Côté, Petrov & Klein 2009). prepare() and step() run on a worker thread and
// return a Snapshot (plain values) that the GUI thread draws; the GUI never touches the chain
// while a worker owns it.
#include "core/grammar/Grammar.h"
#include "core/mcmc/RandomizedPruning.h"
#include "core/policy/Policy.h"
#include "core/util/Progress.h"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace prunescope::gui {

struct RandomizedSentence {
    std::shared_ptr<const Grammar> grammar;
    std::shared_ptr<const Policy> policy; // the figure of merit (null: every span is in M')
    std::vector<std::string> words;
};

struct ChainSnapshot {
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    int n = 0;
    int iteration = 0;
    long pushes = 0, initPushes = 0, iterationPushes = 0, exactPushes = 0;
    int spansKept = 0, prunable = 0, support = 0;
    SpanList selected;                  // s of the last iteration
    std::vector<std::uint8_t> maskTree; // a the last mask was built from ([i*(n+1)+k])
    std::vector<std::uint8_t> tree; // a after the iteration: the tree drawn from the pruned chart
    PruningMask mask;               // m(s, a) of the last iteration (all-keep before the first)
    std::vector<double> maskPosterior;   // E_m[span] of the last mask
    std::vector<double> estimate, exact; // running estimate, exact posteriors
    double spanL1 = kNaN, spanKL = kNaN, ruleL1 = kNaN, maskSpanL1 = kNaN;
    double fixedSpanL1 = kNaN; // the policy's own mask (reference)
    long fixedPushes = 0;
    bool noDerivation = false; // the grammar cannot parse the sentence
    bool cancelled = false;    // the work was cancelled (nothing to show)
    std::string error;         // the work failed (nothing to show)
    double at(const std::vector<double>& v, int i, int k) const {
        return v.empty() ? kNaN : v[static_cast<std::size_t>(i) * (n + 1) + k];
    }
};

class RandomizedChain {
  public:
    // Exact expectations, the fixed reference and the chain's start. Throws Cancelled.
    ChainSnapshot prepare(const RandomizedSentence& s, const RandomizedOptions& opt,
                          const Progress& progress);
    // `count` iterations. Requires a successful prepare().
    ChainSnapshot step(int count, const Progress& progress);
    bool ready() const { return chain_ != nullptr; }

  private:
    ChainSnapshot snapshot() const;
    RandomizedSentence sentence_;
    std::unique_ptr<RandomizedPruning> chain_;
    Expectations exact_;
    long exactPushes_ = 0, fixedPushes_ = 0, lastPushes_ = 0;
    double fixedL1_ = ChainSnapshot::kNaN;
    std::vector<std::uint8_t> maskTree_;
    int support_ = 0;
};

} // namespace prunescope::gui
