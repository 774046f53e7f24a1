#pragma once
// Structured cascade training (Weiss & Taskar 2010/2011; Rush & Petrov 2012 sec. 4 "Training"):
// for each stage, minimise over the training trees the hinge loss
//     [1 - w . phi(y) + t_alpha(w)]_+ ,   t_alpha(w) = alpha * max(w) + (1 - alpha) * mean(w),
// the gold tree's score should clear the stage's pruning threshold by a margin of 1. The
// subgradient of a sentence with positive loss is
//     phi(y) - alpha * phi(best) - (1 - alpha) * (1/|L|) sum_l phi(witness of l),
// (the mean's subgradient by witnessLabelCounts, core/dep/Hypergraph.h). We take the
// perceptron-style variant of the slides: step eta = 1 per violating sentence, no regulariser,
// averaged weights (Collins 2002 averaging). Each stage is trained on the arcs the previous stage
// keeps (`incoming`); the gold tree is scored as its parts (for the vine, its vine projection).
#include "core/dep/DepTree.h"
#include "core/util/Progress.h"
#include "core/vine/CascadeStage.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace prunescope {

struct CascadeTrainOptions {
    CascadeStageKind kind = CascadeStageKind::Vine;
    int band = 3;                                      // vine band b (vine stage only)
    VineStructure structure = VineStructure::PerToken; // which vine (vine stage only)
    double alpha = 0.5;                                // the threshold's alpha inside the loss
    int epochs = 5;
    int hashBits = 20;
    bool singleRoot = true;
    int maxLength = 0;      // skip training sentences longer than this (0 = none)
    std::uint64_t seed = 1; // sentence order per epoch (SplitMix64(seed, epoch) shuffle)
};

struct CascadeEpochReport {
    int epoch = 0;       // 1-based
    double loss = 0;     // mean on-line hinge loss over the epoch's sentences
    long violations = 0; // sentences with positive loss (updates)
    double seconds = 0;  // thread CPU time
};

struct CascadeTrainResult {
    HashedWeights weights; // averaged weights after the last finished epoch
    std::vector<CascadeEpochReport> epochs;
    bool cancelled = false; // stopped by a cancel; weights = last finished epoch (zeros if none)
};

// The loss and subgradient pieces of one sentence under weights w (exposed for the tests).
struct CascadeSentenceLoss {
    double loss = 0; // [1 - gold + t]_+
    double gold = 0, threshold = 0;
};
CascadeSentenceLoss cascadeSentenceLoss(const CascadeTrainOptions& o, const HashedWeights& w,
                                        const DepSentence& s, const ArcMask& incoming);

// `incoming(s)` is the mask the previous stage passes for s (empty function = every arc).
// Progress: phase "training" per epoch (step = epoch); a cancel stops within one sentence and keeps
// the finished epochs. onEpoch is called after every finished epoch.
CascadeTrainResult
trainCascadeStage(const std::vector<DepSentence>& train, const CascadeTrainOptions& options,
                  const std::function<ArcMask(const DepSentence&)>& incoming = {},
                  const Progress& progress = {},
                  const std::function<void(const CascadeTrainResult&)>& onEpoch = {});

} // namespace prunescope
