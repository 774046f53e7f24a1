#pragma once
// LOLS's retraining data kept across iterations (Vieira & Eisner 2017, Alg. 2 line 13; issue 16,
// "retraining that stays cheap"). Every iteration retrains on the whole aggregate, whose states
// rarely change once Q0 holds every span of the training set: only their summed reward vectors do,
// so only the examples' labels and weights. This keeps the compact features of the last iteration's
// examples and the ParallelObjective's transposed copy, and rebuilds them only when the list of
// states with a nonzero reward difference changes (or, for the transpose, which weights are 0).
//
// Contract against AggregatedDataset::trainingData (the naive reference, rebuilt every time): after
// update(d, sentences), data() equals d.trainingData(sentences) field for field and bit for bit,
// so training on it gives the same weights (test_lols `retrainingDataEqualsRebuilding`). The
// sentences must be the same at every call (the trainer's training set): features are not re-read.
#include "core/lols/Lols.h"
#include "core/policy/ParallelObjective.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace prunescope {

class RetrainingData {
  public:
    // The examples of `d` (as trainingData). Polls the cancel flag per sentence when it rebuilds
    // (throws Cancelled); on any exception the cache is left empty, never half-updated.
    const CompactData& update(const AggregatedDataset& d, std::span<const LolsSentence> sentences,
                              const Progress& progress = {});
    // The objective over data() on `threads` threads; its transpose is reused while valid.
    ParallelObjective& objective(int threads);
    const CompactData& data() const { return data_; }
    // Whether the last update() kept the features (true) or rebuilt them (false); for tests.
    bool lastUpdateReused() const { return reused_; }

  private:
    void clear();
    std::vector<std::uint64_t> keys_; // RewardEntry::key() of each example, in order
    CompactData data_;
    std::unique_ptr<ParallelObjective> objective_;
    int objectiveThreads_ = 0;
    bool reused_ = false;
};

} // namespace prunescope
