// Weighted L2 logistic regression trained with L-BFGS (Vieira & Eisner 2017, sec. 6 "Training").
#include "core/policy/LogisticRegression.h"

#include "core/policy/ParallelObjective.h"
#include "core/util/FloatRange.h"
#include "core/util/VectorState.h"

#include <LBFGS.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace prunescope {

CompactDataBuilder::CompactDataBuilder(std::size_t expectedExamples, std::size_t expectedFeatures)
    // Dense bucket -> compact map (16 MiB, cheaper than hashing 16 lookups per example).
    : compactOf_(kFeatureDim, -1) {
    c_.offsets.reserve(expectedExamples + 1);
    c_.target.reserve(expectedExamples);
    c_.weight.reserve(expectedExamples);
    c_.index.reserve(expectedFeatures);
    c_.offsets.push_back(0);
}

void CompactDataBuilder::add(std::span<const uint32_t> features, int label, double weight,
                             std::size_t e) {
    if (label != 0 && label != 1)
        throw std::invalid_argument("logistic regression: example " + std::to_string(e) +
                                    " has label " + std::to_string(label) + " (want 0 or 1)");
    if (!(weight >= 0) || !std::isfinite(weight))
        throw std::invalid_argument("logistic regression: example " + std::to_string(e) +
                                    " has invalid weight " + std::to_string(weight));
    for (uint32_t f : features) {
        if (f >= kFeatureDim)
            throw std::invalid_argument("logistic regression: example " + std::to_string(e) +
                                        " has feature id " + std::to_string(f) + " >= 2^22");
        int32_t& slot = compactOf_[f];
        if (slot < 0) {
            slot = static_cast<int32_t>(c_.globalId.size());
            c_.globalId.push_back(f);
        }
        c_.index.push_back(slot);
    }
    c_.offsets.push_back(static_cast<int>(c_.index.size()));
    c_.target.push_back(label);
    c_.weight.push_back(weight);
    total_ += weight;
}

CompactData CompactDataBuilder::finish(bool rescaleWeights) {
    if (rescaleWeights && total_ > 0)
        for (double& w : c_.weight)
            w /= total_;
    compactOf_ = {};
    return std::move(c_);
}

CompactData compactify(std::span<const WeightedExample> data, bool rescaleWeights) {
    size_t nnz = 0;
    for (const auto& e : data)
        nnz += e.features.size();
    CompactDataBuilder b(data.size(), nnz);
    for (size_t e = 0; e < data.size(); ++e)
        b.add(data[e].features, data[e].label, data[e].weight, e);
    return b.finish(rescaleWeights);
}

double objectiveAndGradient(const CompactData& data, double l2, const Eigen::VectorXd& theta,
                            Eigen::VectorXd& grad, const std::atomic<bool>* cancel) {
    constexpr int kPollEvery = 4096; // examples between two cancel polls (~0.1 ms of work)
    grad.noalias() = l2 * theta;
    double f = 0.5 * l2 * theta.squaredNorm();
    const int n = data.numExamples();
    const int* idx = data.index.data();
    const double* th = theta.data();
    double* g = grad.data();
    for (int block = 0; block < n; block += kPollEvery) {
        if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
        const int blockEnd = std::min(n, block + kPollEvery);
        for (int e = block; e < blockEnd; ++e) {
            const double w = data.weight[static_cast<size_t>(e)];
            if (w == 0) continue;
            const int b = data.offsets[static_cast<size_t>(e)],
                      end = data.offsets[static_cast<size_t>(e) + 1];
            double z = 0;
            for (int j = b; j < end; ++j)
                z += th[idx[j]];
            const double y = data.target[static_cast<size_t>(e)];
            // loss = log(1 + exp(z)) - y z, computed stably; p = sigmoid(z).
            const double t = std::exp(-std::abs(z));
            const double softplus = std::max(z, 0.0) + std::log1p(t);
            const double p = z >= 0 ? 1.0 / (1.0 + t) : t / (1.0 + t);
            f += w * (softplus - y * z);
            const double r = w * (p - y);
            for (int j = b; j < end; ++j)
                g[idx[j]] += r;
        }
    }
    return f;
}

namespace {

constexpr const char* kNotFinite = "logistic regression: the training objective is not finite "
                                   "(weights or example weights too large "
                                   "for double precision); training stopped";

// The objective as LBFGSpp wants it; remembers the best point seen so that a failed line
// search still returns the best weights found.
// Saves two evaluations per training (issue 16: a capped warm-started retraining runs only a few):
// LBFGSpp's first call is at the start point, whose objective and gradient were already computed
// for the finiteness check and the stopping rule (`start`), and the convergence test after the
// solver needs the gradient at the returned point, which is usually the last point evaluated
// (`last`). Both are reused only when the point is the same doubles, and the objective is a pure
// function of the point, so every result equals re-evaluating (test_logreg
// `trainingEqualsPlainLbfgs`).
struct Objective {
    ParallelObjective& objective;
    double l2;
    const Progress& progress;
    double bestF = std::numeric_limits<double>::infinity();
    Eigen::VectorXd best;
    const Eigen::VectorXd* startX = nullptr; // the start point and its objective and gradient
    const Eigen::VectorXd* startGrad = nullptr;
    double startF = 0;
    Eigen::VectorXd lastX, lastGrad; // the last point evaluated (buffers reused: no allocation)
    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
        double f = 0;
        if (startX && x.size() == startX->size() && x == *startX) {
            f = startF;
            grad = *startGrad;
        } else {
            f = objective(l2, x, grad, progress.cancelFlag());
        }
        startX = nullptr; // only the solver's first call can be at the start point for free
        progress.advance();
        if (f < bestF) {
            bestF = f;
            best = x;
        }
        lastX = x;
        lastGrad = grad;
        return f;
    }
    // ||gradient at x||, evaluated only when x is not the last point evaluated.
    double gradientNorm(const Eigen::VectorXd& x) {
        if (lastX.size() == x.size() && lastX == x) return lastGrad.norm();
        Eigen::VectorXd g;
        objective(l2, x, g);
        return g.norm();
    }
};

} // namespace

LogRegResult trainLogisticRegression(std::span<const WeightedExample> data,
                                     const LogRegOptions& opt, const Eigen::VectorXf* init,
                                     const Progress& progress) {
    if (!(opt.l2 >= 0)) throw std::invalid_argument("logistic regression: l2 must be >= 0");
    progress.begin("training", 0);
    progress.throwIfCancelled();
    const CompactData c = compactify(data, opt.rescaleWeights);
    return trainLogisticRegression(c, opt, init, progress);
}

LogRegResult trainLogisticRegression(const CompactData& c, const LogRegOptions& opt,
                                     const Eigen::VectorXf* init, const Progress& progress) {
    ParallelObjective parallel(c, opt.threads);
    return trainLogisticRegression(parallel, opt, init, progress);
}

LogRegResult trainLogisticRegression(ParallelObjective& parallel, const LogRegOptions& opt,
                                     const Eigen::VectorXf* init, const Progress& progress) {
    const CompactData& c = parallel.data();
    clearUpperVectorState(); // the serial objective runs on the caller's thread
                             // (core/util/VectorState.h)
    if (!(opt.l2 >= 0)) throw std::invalid_argument("logistic regression: l2 must be >= 0");
    if (!(opt.gradientReduction >= 0 && opt.gradientReduction < 1))
        throw std::invalid_argument("logistic regression: gradientReduction must be in [0, 1)");
    progress.begin("training", 0);
    progress.throwIfCancelled();
    const int d = c.numFeatures();

    Eigen::VectorXd x = Eigen::VectorXd::Zero(d);
    if (init) {
        if (init->size() != static_cast<Eigen::Index>(kFeatureDim))
            throw std::invalid_argument("logistic regression: initial weights must have size 2^22");
        for (int j = 0; j < d; ++j)
            x[j] = (*init)[c.globalId[static_cast<size_t>(j)]];
    }

    LBFGSpp::LBFGSParam<double> param;
    param.epsilon = opt.epsilon;
    param.epsilon_rel = 0;
    param.past = 3; // also stop when the objective stalls (relative change < delta over 3 its)
    param.delta = 1e-12;
    param.max_iterations = std::max(opt.maxIterations, 1);
    param.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_STRONG_WOLFE;
    param.max_linesearch = 40;

    Objective obj{parallel, opt.l2,  progress, std::numeric_limits<double>::infinity(),
                  {},       nullptr, nullptr,  0,
                  {},       {}};
    LogRegResult r;
    r.activeFeatures = d;
    double fx = 0;
    if (d == 0) {
        Eigen::VectorXd g;
        fx = objectiveAndGradient(c, opt.l2, x, g);
        r.converged = true;
    } else {
        // A non-finite objective (e.g. warm-started from weights near the float limit) would leave
        // L-BFGS without any best point: refuse with a clear error instead.
        Eigen::VectorXd g0;
        const double f0 = parallel(opt.l2, x, g0, progress.cancelFlag());
        if (!std::isfinite(f0) || !g0.allFinite()) throw std::runtime_error(kNotFinite);
        const double tolerance = std::max(opt.epsilon, opt.gradientReduction * g0.norm());
        param.epsilon = tolerance;
        const Eigen::VectorXd x0 = x;
        obj.startX = &x0;
        obj.startGrad = &g0;
        obj.startF = f0;
        LBFGSpp::LBFGSSolver<double, LBFGSpp::LineSearchNocedalWright> solver(param);
        try {
            r.iterations = solver.minimize(obj, x, fx);
            r.converged = obj.gradientNorm(x) <= tolerance;
        } catch (const Cancelled&) {
            throw; // not "no progress": the caller asked to stop
        } catch (const std::exception&) {
            // Line search could not make progress (at numerical precision): keep the best point.
            if (obj.best.size() != d) throw std::runtime_error(kNotFinite);
            x = obj.best;
            fx = obj.bestF;
            r.iterations = param.max_iterations;
        }
        if (obj.bestF < fx) {
            x = obj.best;
            fx = obj.bestF;
        }
    }
    if (!std::isfinite(fx) || !x.allFinite()) throw std::runtime_error(kNotFinite);
    r.objective = fx;
    // Features absent from the data feel only the L2 term: their optimum is 0.
    r.weights = Eigen::VectorXf::Zero(kFeatureDim);
    for (int j = 0; j < d; ++j) {
        if (!roundsToFiniteFloat(x[j]))
            throw std::runtime_error("logistic regression: a trained weight (" +
                                     std::to_string(x[j]) +
                                     ") is outside the float range; training stopped");
        r.weights[c.globalId[static_cast<size_t>(j)]] = toFiniteFloat(x[j]);
    }
    return r;
}

} // namespace prunescope
