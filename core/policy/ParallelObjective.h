#pragma once
// The logistic-regression objective and gradient of LogisticRegression.h on several threads,
// bit for bit equal to objectiveAndGradient (Vieira & Eisner 2017, sec. 6 "Training"; issue 16).
//
// Contract against the serial objectiveAndGradient (the naive reference): for every thread count
// the returned objective and every gradient component are the same doubles. How: (1) each
// example's margin z, loss term w·(softplus(z) − y·z) and residual w·(p − y) depend only on that
// example, so blocks of examples are computed on any thread; (2) the objective adds the loss terms
// serially in example order, exactly as the reference does; (3) the gradient is gathered per
// feature over a transposed (CSC) copy of the data whose examples are listed in increasing order,
// so g[j] = l2·θ[j] + r_e1 + r_e2 + … adds the same residuals in the same order as the reference's
// scatter. Examples of weight 0 are left out of both, as the reference skips them. Tested by
// test_logreg `parallelObjectiveIsBitIdentical`.
#include "core/policy/LogisticRegression.h"

#include <Eigen/Core>

#include <atomic>
#include <vector>

namespace prunescope {

class ParallelObjective {
  public:
    // Builds the transpose once (O(nnz) memory); `data` must outlive the object.
    ParallelObjective(const CompactData& data, int threads);
    // Same meaning, arguments and cancel behaviour (throws Cancelled) as objectiveAndGradient.
    double operator()(double l2, const Eigen::VectorXd& theta, Eigen::VectorXd& grad,
                      const std::atomic<bool>* cancel = nullptr);
    int threads() const { return threads_; }
    const CompactData& data() const { return data_; }
    // Whether the transpose is still valid for `data()` after its targets and weights were changed
    // in place: the same examples have weight 0 as when it was built (the transpose leaves them
    // out).
    bool sameZeroWeights() const;

  private:
    const CompactData& data_;
    int threads_;
    std::vector<long> columnOffsets_; // size D+1, into columnExamples_
    std::vector<int>
        columnExamples_; // per feature, the examples (weight != 0) holding it, ascending
    std::vector<double> term_, residual_; // per example, reused across evaluations
    std::vector<bool> zeroWeight_;        // per example, weight == 0 when the transpose was built
};

// trainLogisticRegression (LogisticRegression.h) on `objective.data()` with this objective, so that
// a caller retraining on the same examples with new targets and weights keeps its transpose (LOLS:
// core/lols/RetrainingData.h). opt.threads is not used (the objective has its threads). Same
// result as trainLogisticRegression(objective.data(), opt, init, progress).
LogRegResult trainLogisticRegression(ParallelObjective& objective, const LogRegOptions& opt,
                                     const Eigen::VectorXf* init = nullptr,
                                     const Progress& progress = {});

} // namespace prunescope
