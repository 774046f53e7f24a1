#pragma once
// Weighted L2-regularized logistic regression over hashed binary features, trained with
// L-BFGS (Vieira & Eisner 2017, sec. 6 "Training").
#include "core/policy/SpanFeatures.h"
#include "core/util/Progress.h"

#include <Eigen/Core>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace prunescope {

struct WeightedExample {
    std::vector<uint32_t> features; // bucket ids in [0, kFeatureDim); repeats count twice
    int label = 0;                  // 1 keep, 0 prune
    double weight = 1.0;            // >= 0
};

struct LogRegOptions {
    double l2 = std::ldexp(1.0, -13); // regularization coefficient (paper: 2^-13)
    int maxIterations = 200;
    double epsilon = 1e-6;      // stop when ||gradient|| <= epsilon
    bool rescaleWeights = true; // rescale example weights to sum to 1 (paper sec. 6)
    // Also stop when ||gradient|| <= gradientReduction * ||gradient at the start point|| (0 = off;
    // issue 16's stopping rule for warm-started retraining; changes the trained weights).
    double gradientReduction = 0;
    int threads = 1; // objective/gradient threads (ParallelObjective.h): never changes results
};

struct LogRegResult {
    Eigen::VectorXf weights; // size kFeatureDim; the bias is the weight of the bias feature
    double objective = 0;    // final objective value
    int iterations = 0;
    int activeFeatures = 0; // distinct features occurring in the data
    bool converged = false; // gradient test met (vs. iteration limit / stalled line search)
};

// Data in compact form: only the features that occur, renumbered 0..D-1; examples in CSR.
struct CompactData {
    std::vector<uint32_t> globalId; // compact index -> bucket id
    std::vector<int> offsets;       // size N+1
    std::vector<int> index;         // compact feature ids
    std::vector<double> target;     // label as 0/1
    std::vector<double> weight;     // (rescaled) example weights
    int numFeatures() const { return static_cast<int>(globalId.size()); }
    int numExamples() const { return static_cast<int>(target.size()); }
};

// Builds CompactData one example at a time, without a WeightedExample per example (LOLS's
// aggregate streams its examples in: issue 16). compactify() is this builder over a span, so both
// give the same data. add() throws std::invalid_argument on a bucket id >= kFeatureDim, a negative
// or non-finite weight, or a label other than 0/1 (`example` numbers it in the message).
class CompactDataBuilder {
  public:
    explicit CompactDataBuilder(std::size_t expectedExamples = 0, std::size_t expectedFeatures = 0);
    void add(std::span<const uint32_t> features, int label, double weight, std::size_t example);
    CompactData finish(bool rescaleWeights); // once

  private:
    CompactData c_;
    std::vector<int32_t> compactOf_; // dense bucket -> compact map
    double total_ = 0;
};

// Throws std::invalid_argument on a bucket id >= kFeatureDim, a negative or non-finite weight,
// or a label other than 0/1.
CompactData compactify(std::span<const WeightedExample> data, bool rescaleWeights);

// Objective = sum_e w_e * logloss(e) + l2/2 * ||theta||^2 over compact parameters theta;
// writes the gradient into grad (resized). Polls `cancel` (if given) every few thousand examples
// and throws Cancelled when it is set, so one evaluation over millions of examples stops at once.
double objectiveAndGradient(const CompactData& data, double l2, const Eigen::VectorXd& theta,
                            Eigen::VectorXd& grad, const std::atomic<bool>* cancel = nullptr);

// Trains from zero weights, or from `init` (size kFeatureDim) when given (warm start).
// Progress: phase "training" with one item per objective evaluation (total unknown: L-BFGS's line
// search decides); polled inside every evaluation, so a cancel acts within one block of examples
// and throws Cancelled (no weights are returned: a cut optimization is not a trained model).
LogRegResult trainLogisticRegression(std::span<const WeightedExample> data,
                                     const LogRegOptions& opt,
                                     const Eigen::VectorXf* init = nullptr,
                                     const Progress& progress = {});
// The same on data already in compact form (its weights as given: opt.rescaleWeights is not
// applied again). Same result as the overload above on the examples `c` was compactified from.
LogRegResult trainLogisticRegression(const CompactData& c, const LogRegOptions& opt,
                                     const Eigen::VectorXf* init = nullptr,
                                     const Progress& progress = {});

} // namespace prunescope
