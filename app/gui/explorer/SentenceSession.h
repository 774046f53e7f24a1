#pragma once
// One sentence under inspection: the grammar, the policy's mask and probabilities, the gold tree
// and a ChangePropagator (sec. 5.2) holding the current chart for the current mask.
#include "core/grammar/Grammar.h"
#include "core/parse/PruningMask.h"
#include "core/policy/Policy.h"
#include "core/policy/SpanFeatures.h"
#include "core/rollout/ChangePropagator.h"
#include "core/treebank/Tree.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace prunescope::gui {

struct SentenceItem {
    std::vector<std::string> words;
    std::optional<Tree> gold; // normalized (normalizeTree)
};

class SentenceSession {
  public:
    // policy may be null: the policy mask is then all-keep and keep probabilities are NaN.
    SentenceSession(std::shared_ptr<const Grammar> g, std::shared_ptr<const Policy> policy,
                    SentenceItem item);

    int length() const { return static_cast<int>(item_.words.size()); }
    const std::vector<std::string>& words() const { return item_.words; }
    const Grammar& grammar() const { return *g_; }
    const std::shared_ptr<const Grammar>& grammarPtr() const { return g_; }
    bool hasGold() const { return item_.gold.has_value(); }
    const Tree* gold() const { return item_.gold ? &*item_.gold : nullptr; }
    bool hasPolicy() const { return policy_ != nullptr; }
    const Policy* policy() const { return policy_.get(); }
    const std::shared_ptr<const Policy>& policyPtr() const { return policy_; }

    const PruningMask& policyMask() const { return policyMask_; }
    PruningMask goldMask() const; // keeps exactly the gold spans (all-keep without gold)
    const PruningMask& mask() const { return prop_->mask(); }
    const DenseChart& chart() const { return prop_->chart(); }

    // Current parse: tree (n-ary, the CLI's bestTree), counters, F1 (NaN without gold).
    const FlipResult& result() const { return result_; }
    double f1() const { return f1_; }
    // Events of the last flip, in agenda order (empty after undo or setMask).
    const std::vector<ChangeEvent>& lastEvents() const { return lastEvents_; }

    void flip(int i, int k);
    // Reverts a flip of (i,k): ChangePropagator::undo when it is the propagator's last flip,
    // otherwise the flip again (both give the same chart: it is a function of the mask).
    void undoFlip(int i, int k);
    void setMask(const PruningMask& m); // new roll-in

    double keepProbability(int i, int k) const; // NaN without policy
    bool isGoldSpan(int i, int k) const { return !goldInd_.empty() && goldInd_[idx(i, k)]; }
    bool isBestSpan(int i, int k) const { return !bestInd_.empty() && bestInd_[idx(i, k)]; }
    float bestScore(int i, int k) const;  // max post value, -inf if nothing built
    int constituents(int i, int k) const; // finite post values
    std::vector<std::pair<std::string, float>> topLabels(int i, int k, int count) const;
    std::vector<std::string> featureStrings(int i, int k) const;
    // Sec. 5.3 / fn. 11: per prunable span, how much expected binarized recall r̄ depends on it:
    // r̄(span kept) − r̄(span pruned), other bits as now (inside-outside, eq. 3). NaN without gold
    // and for unprunable spans. Computed on first use for the current mask.
    double recallContribution(int i, int k) const;
    double expectedRecall() const; // r̄ of the current mask (NaN without gold)
    // Scored brackets (non-preterminal, non-ROOT labeled spans) for tree matching.
    std::vector<LabeledSpan> predictedBrackets() const;
    std::vector<LabeledSpan> goldBrackets() const;

  private:
    std::size_t idx(int i, int k) const { return static_cast<std::size_t>(i) * (length() + 1) + k; }
    void refresh();
    void afterChange(FlipResult r);

    std::shared_ptr<const Grammar> g_;
    std::shared_ptr<const Policy> policy_;
    SentenceItem item_;
    SentenceFeatures features_;
    PruningMask policyMask_;
    std::unique_ptr<ChangePropagator> prop_;
    std::vector<std::pair<int, int>> propFlips_; // flips the propagator can undo, in order
    FlipResult result_;
    double f1_ = 0;
    std::vector<ChangeEvent> lastEvents_;
    std::vector<std::uint8_t> goldInd_, bestInd_;
    std::optional<Tree> binarizedGold_;
    void computeRecall() const;
    mutable std::vector<double> recallDelta_;
    mutable double expectedRecall_ = 0;
};

// The explorer's memory budget (issue 46): the CLI's parser budget (kDefaultParserMemoryBudget,
// 2 GiB) applied to what a session allocates for n words: the roll-in parser's chart and scratch
// (Parser::denseBytes) plus the change propagator's dense per-(cell, symbol) arrays. Without it a
// typed 600-word sentence grew past 14 GB. sessionBytes is the estimate; checkSessionFits throws
// SentenceTooLarge (core/parse/Parser.h), before anything is allocated, with the words and MiB
// needed, the budget and the longest sentence that fits; SentenceSession's constructor calls it.
std::size_t sessionBytes(const Grammar& g, int n);
void checkSessionFits(const Grammar& g, int n, std::size_t budget);

// Brackets EVALB-style matching uses in the tree views: non-leaf, non-preterminal, non-ROOT nodes.
std::vector<LabeledSpan> scoredBrackets(const Tree& t);

} // namespace prunescope::gui
