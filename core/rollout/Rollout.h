#pragma once
// Rollouts (paper sec. 4-5): for each span of a roll-in mask, the reward the parse would get
// if that one prune bit took each value. Three implementations answer the same question:
// naive reparsing, change propagation (sec. 5.2, Alg. 3) and inside-outside DP (sec. 5.3).
//
// Reward = accuracy − λ·runtime with the surrogate's measures (sec. 7):
//   rCP: accuracy = per-sentence EVALB F1 of the 1-best tree, in [0,1]; runtime = ||β||_0
//        (ParseStats::constituents).
//   rDP: accuracy = expected binarized recall r̄ = r̃/Z (footnote 11: gold = nodes of the
//        binarized gold tree except the root, width-1 nodes and children of unary rules;
//        a node counts when its labeled vertex (i,k,x) is in the derivation); runtime = ||m||_0.
#include "core/grammar/Grammar.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"

#include <atomic>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace prunescope {

enum class Surrogate { CP, DP };
const char* surrogateName(Surrogate s);               // "rcp" | "rdp"
Surrogate surrogateFromName(const std::string& name); // throws std::invalid_argument

// The reward vector r̂ of one roll-in state (one span), Alg. 2 line 10.
struct SpanRollout {
    int i = 0, k = 0;
    bool rollInKeep = true; // the roll-in's action at this span
    double accuracyKeep = 0, accuracyPrune = 0;
    double runtimeKeep = 0, runtimePrune = 0;
    double rewardKeep(double lambda) const { return accuracyKeep - lambda * runtimeKeep; }
    double rewardPrune(double lambda) const { return accuracyPrune - lambda * runtimePrune; }
};

struct RolloutRequest {
    const Grammar* grammar = nullptr;
    std::vector<std::string> words;
    Tree gold;          // normalized n-ary gold tree (same words)
    PruningMask rollIn; // the roll-in policy's mask
    // Spans to roll out; empty = all T prunable spans, in (width, i) order.
    std::vector<std::pair<int, int>> spans;
    // Cancel flag (core/util/Progress.h's cancelFlag()), or null. naiveRollouts polls it once per
    // span (a reparse each) and throws Cancelled; CP and DP finish a sentence well within the
    // 1 s cancel latency and are polled by their callers between sentences.
    const std::atomic<bool>* cancel = nullptr;
    // changePropagationRollouts only: ChangePropagator::setWorkBudget's multiple of a reparse
    // (unset: ChangePropagator::kDefaultRolloutWorkBudget). The rollouts are the same for every
    // value.
    std::optional<double> cpWorkBudget = std::nullopt;
};

// Reference implementation: reparse from scratch with each bit flipped (both surrogates).
std::vector<SpanRollout> naiveRollouts(const RolloutRequest& req, Surrogate s);

// The spans a request rolls out: req.spans (validated) or all T prunable spans in (width, i) order.
// Throws std::invalid_argument for a missing grammar, a mask of the wrong length or a bad span.
std::vector<std::pair<int, int>> rolloutSpans(const RolloutRequest& req);

// rCP by change propagation (sec. 5.2, Alg. 3): one parse, then flip + undo per span.
// Equal to naiveRollouts(req, Surrogate::CP) exactly.
std::vector<SpanRollout> changePropagationRollouts(const RolloutRequest& req);

// rDP by inside-outside (sec. 5.3, eq. 3): one inside and one outside pass for all spans.
// Equal to naiveRollouts(req, Surrogate::DP) to ~1e-12 relative (ill-conditioned keep→prune
// flips, see InsideOutside::kCancellation, are recomputed by an inside pass, or answered exactly
// (r̄ = 0) when the flipped mask admits no bracketing, SpanBracketing).
std::vector<SpanRollout> dpRollouts(const RolloutRequest& req);
struct DpRolloutStats {
    long recomputed = 0; // ill-conditioned keep→prune flips answered by an exact inside pass
    long noBracketing =
        0; // ill-conditioned keep→prune flips that leave no bracketing (r̄ = 0, no pass)
};
std::vector<SpanRollout> dpRollouts(const RolloutRequest& req, DpRolloutStats* stats);

} // namespace prunescope
