#pragma once
// The violation-fixing structured perceptron on the cube-pruned parser (Zhang, Huang, Zhao &
// McDonald 2013, sec. 2; Huang, Fayong & Guo 2012), with averaging (Collins 2002) and the four
// update strategies of CubeUpdate.h. Each epoch visits the training sentences in a SplitMix64
// shuffle of (seed, epoch), parses with the current weights at beam k, builds the gold derivation
// in the chart, and updates at the nodes the strategy picks. The averaged weights are scored on dev
// after every epoch (UAS without punctuation, core/dep/DepEval.h); the best dev epoch is kept.
// Deterministic given the options (one thread).
#include "core/cube/CubeModel.h"
#include "core/cube/CubeUpdate.h"
#include "core/util/Progress.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace prunescope {

struct CubeTrainOptions {
    CubeUpdateStrategy update = CubeUpdateStrategy::PMax;
    int beam = 16;           // k, in training and for the dev scores
    int epochs = 8;          // passes over the training data (all run: the curve is the point)
    CubeFeatureSet features; // arcs + siblings + grandparents by default
    int hashBits = 22;
    std::uint64_t seed = 1; // order of the training sentences in each epoch
    int maxLength = 0;      // skip training sentences longer than this (0 = none)
    ArcMaskSource masks;    // optional arc restriction; the gold arcs are always added back
};

// What happened in one epoch (docs/results.md explains each counter).
struct CubeEpochReport {
    int epoch = 0;           // 1-based
    long sentences = 0;      // training sentences parsed
    long unreachable = 0;    // sentences whose gold tree is not in the hypergraph (no update)
    long lifted = 0;         // non-projective gold trees lifted to projective ones first
    long rootWrong = 0;      // predictions different from gold
    long nonViolations = 0;  // ... whose root is not a violation: v(root) < 0 (search lost gold)
    long updates = 0;        // non-empty updates made
    long invalidForced = 0;  // non-violations updated anyway (standard)
    long invalidAvoided = 0; // non-violations not updated at the root (skip, s-max, p-max)
    long wrongWithoutUpdate = 0;   // wrong predictions left without an update
    long goldFellOff = 0;          // sentences whose gold tree fell off the root beam
    long goldNodes = 0;            // gold nodes seen
    long goldNodesFellOff = 0;     // gold nodes whose gold item fell off the beam
    long updateNodes = 0;          // subtree pairs used, summed over updates
    long updateTokens = 0;         // tokens those pairs span, summed over updates
    double violationSum = 0;       // summed violation of the updates
    double trainUas = 0;           // on-line UAS of the training predictions (all tokens)
    double devUas = 0;             // averaged weights at beam k on dev, punctuation excluded
    double devTokensPerSecond = 0; // parsing speed on dev (thread CPU)
    double seconds = 0;            // thread CPU seconds of the epoch (training + dev)
    nlohmann::json toJson() const;
};

struct CubeTrainResult {
    CubeModel model; // averaged weights of the best dev epoch
    std::vector<CubeEpochReport> epochs;
    int bestEpoch = 0;
    bool cancelled = false; // stopped by a cancel; model = best finished epoch
};

// Trains on `train` (trees needed), scoring each epoch on `dev`. Progress: phase "training" per
// epoch (step = epoch), then "evaluation". onEpoch runs after every finished epoch (the CLI saves
// the model there, so a killed run keeps its finished epochs). Throws std::invalid_argument for
// empty data or bad options.
CubeTrainResult trainCubeModel(const std::vector<DepSentence>& train,
                               const std::vector<DepSentence>& dev, const CubeTrainOptions& options,
                               const Progress& progress = {},
                               const std::function<void(const CubeTrainResult&)>& onEpoch = {});

// w += phi(plus) - phi(minus), on plain weights (the explorer's "apply this update").
void applyCubeUpdate(HashedWeights& w, const CubeUpdatePairs& pairs);

} // namespace prunescope
