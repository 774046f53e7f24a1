// LOLS's retraining data kept across iterations (issue 16): labels and weights refreshed in place.
#include "core/lols/RetrainingData.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace prunescope {

void RetrainingData::clear() {
    objective_.reset(); // holds a reference to data_
    keys_.clear();
    data_ = CompactData{};
    reused_ = false;
}

const CompactData& RetrainingData::update(const AggregatedDataset& d,
                                          std::span<const LolsSentence> sentences,
                                          const Progress& progress) {
    // The examples trainingData would make: states with a nonzero reward difference, in order.
    std::size_t n = 0;
    bool same = !keys_.empty();
    for (const RewardEntry& e : d.entries()) {
        if (e.rewardKeep - e.rewardPrune == 0) continue;
        if (same && (n >= keys_.size() || keys_[n] != e.key())) same = false;
        ++n;
    }
    same = same && n == keys_.size();
    if (!same) {
        objective_.reset();
        try {
            data_ = d.trainingData(sentences, progress);
        } catch (...) {
            clear();
            throw;
        }
        keys_.clear();
        keys_.reserve(n);
        for (const RewardEntry& e : d.entries())
            if (e.rewardKeep - e.rewardPrune != 0) keys_.push_back(e.key());
        reused_ = false;
        return data_;
    }
    // Same examples: labels and weights as CompactDataBuilder::add and finish(true) compute them
    // (the same checks, the total summed in example order, then one division per weight).
    std::vector<double> target(n), weight(n);
    double total = 0;
    std::size_t x = 0;
    for (const RewardEntry& e : d.entries()) {
        const double diff = e.rewardKeep - e.rewardPrune;
        if (diff == 0) continue;
        const double w = std::abs(diff);
        if (!(w >= 0) || !std::isfinite(w)) {
            clear();
            throw std::invalid_argument("logistic regression: example " + std::to_string(x) +
                                        " has invalid weight " + std::to_string(w));
        }
        target[x] = diff > 0 ? 1 : 0;
        weight[x] = w;
        total += w;
        ++x;
    }
    if (total > 0)
        for (double& w : weight)
            w /= total;
    data_.target = std::move(target);
    data_.weight = std::move(weight);
    reused_ = true;
    return data_;
}

ParallelObjective& RetrainingData::objective(int threads) {
    if (!objective_ || objectiveThreads_ != threads || !objective_->sameZeroWeights()) {
        objective_.reset();
        objective_ = std::make_unique<ParallelObjective>(data_, threads);
        objectiveThreads_ = threads;
    }
    return *objective_;
}

} // namespace prunescope
