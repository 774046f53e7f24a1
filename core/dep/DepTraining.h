#pragma once
// Online training of dependency models: the averaged structured perceptron (Collins 2002) and
// 1-best MIRA with Hamming loss (Crammer & Singer 2003; McDonald et al. 2005 sec. 3, the final
// models of Rush & Petrov 2012), decoding with exact Eisner (first, second or third order) on every
// training sentence. The epoch with the best dev UAS (punctuation excluded) is kept.
#include "core/dep/DepModel.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace prunescope {

enum class DepLearner { Perceptron, Mira };
const char* depLearnerName(DepLearner l);
DepLearner parseDepLearner(const std::string& name); // "perceptron" | "mira"; std::invalid_argument

struct DepTrainOptions {
    int order = 1;
    DepLearner learner = DepLearner::Mira;
    int epochs = 10;  // at most this many passes
    int patience = 3; // stop after this many epochs without a better dev UAS (0 = never)
    int hashBits = 22;
    double miraC = 1.0;     // MIRA's step cap (PA-I aggressiveness)
    std::uint64_t seed = 1; // order of the training sentences in each epoch (SplitMix64)
    int maxLength = 0;      // skip training sentences longer than this (0 = none)
};

struct DepEpochReport {
    int epoch = 0;       // 1-based
    long updates = 0;    // sentences whose prediction differed from gold
    double trainUas = 0; // on-line UAS of the predictions made during the epoch (all tokens)
    double devUas = 0;   // averaged weights on dev, punctuation excluded
    double seconds = 0;  // thread CPU time of the epoch (training + dev)
};

struct DepTrainResult {
    DepModel model; // the averaged weights of the best dev epoch
    std::vector<DepEpochReport> epochs;
    int bestEpoch = 0;
    bool cancelled = false; // stopped early by a cancel; model = best finished epoch
};

// Trains on `train` (trees needed), choosing the epoch on `dev`. Progress: phase "training" per
// epoch (step = epoch), "evaluation" for dev. onEpoch is called after every finished epoch with the
// result so far (the CLI saves the best model there, so a killed run keeps finished epochs).
// Throws std::invalid_argument for empty train/dev or a bad option.
DepTrainResult trainDepModel(const std::vector<DepSentence>& train,
                             const std::vector<DepSentence>& dev, const DepTrainOptions& options,
                             const Progress& progress = {},
                             const std::function<void(const DepTrainResult&)>& onEpoch = {});

// UAS (punctuation excluded) of a model on sentences, exhaustive parsing.
double depModelUas(const DepModel& model, const std::vector<DepSentence>& sentences,
                   const Progress& progress = {});

} // namespace prunescope
