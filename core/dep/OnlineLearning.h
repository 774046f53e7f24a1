#pragma once
// One online-learning driver for the averaged perceptron and MIRA trainers of every dependency
// paper (Collins 2002's averaging; McDonald et al.'s MIRA in dep-train; Zhang et al. 2013's
// violation-fixing perceptron in cube-train; Rush & Petrov 2012's cascade stages in vine-train):
// which sentences train, the epoch loop with its seeded shuffle, progress and cancel, weight
// averaging ticks, and the hand-over to the trainer's dev selection. The trainers keep only what
// differs: one sentence's decode-and-update and what an epoch reports.
#include "core/dep/DepTree.h"
#include "core/dep/HashedWeights.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace prunescope {

struct TrainingSentences {
    std::vector<int> indices; // into the training set, in its order
    bool singleRoot = true;   // every usable gold tree has exactly one root
    // Usable gold trees with crossing arcs (EWT has some; the WSJ sample none). They are trained
    // on as they are: each update moves toward the gold tree's features, although the projective
    // decoders can never output that tree exactly (no lifting, nothing skipped).
    long nonProjective = 0;
};

// The sentences to train on: all within maxLength (> 0; 0 = no limit). Throws
// std::invalid_argument "<what>: sentence at FILE:LINE has no tree" for a sentence without gold
// heads, "<what>: no training sentences" for an empty set and "<what>: every training sentence is
// longer than the length limit (N words)" if none is left.
TrainingSentences usableTrainingSentences(const std::vector<DepSentence>& train, int maxLength,
                                          const std::string& what);

struct OnlineEpochHooks {
    std::function<void(int epoch)> begin;                     // reset the epoch's report
    std::function<void(int sentence)> visit;                  // decode, update (a tick follows)
    std::function<bool(int epoch, double cpuStart)> endEpoch; // dev selection; false = stop now
};

// Epoch e = 1..epochs visits `sentences` in the order shuffleInPlace(SplitMix64(seed, e)) gives,
// calling hooks.visit and then w.tick() for each (progress: phase "training", step e of epochs,
// one advance per sentence; cancel polled before each sentence); after a complete epoch,
// hooks.endEpoch(e, thread CPU seconds at the epoch's start). Returns false iff cancelled during
// an epoch's sentences (the epoch is then not ended); endEpoch reports a cancel of its own.
bool runOnlineEpochs(const std::vector<int>& sentences, int epochs, std::uint64_t seed,
                     AveragedWeights& w, const Progress& progress, const OnlineEpochHooks& hooks);

} // namespace prunescope
