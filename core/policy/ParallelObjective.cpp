// Exact multi-threaded logistic-regression objective and gradient (issue 16, "threads in the
// gradient").
#include "core/policy/ParallelObjective.h"

#include "core/util/Parallel.h"
#include "core/util/Progress.h"

#include <algorithm>
#include <cmath>

namespace prunescope {

namespace {
constexpr int kExampleBlock = 4096; // examples per work item (and per cancel poll)
constexpr int kFeatureBlock = 8192; // features per work item of the gather
} // namespace

ParallelObjective::ParallelObjective(const CompactData& data, int threads)
    : data_(data), threads_(std::max(1, defaultThreads(threads))) {
    const int n = data.numExamples(), d = data.numFeatures();
    columnOffsets_.assign(static_cast<std::size_t>(d) + 1, 0);
    for (int e = 0; e < n; ++e) {
        if (data.weight[static_cast<std::size_t>(e)] == 0) continue;
        for (int j = data.offsets[static_cast<std::size_t>(e)];
             j < data.offsets[static_cast<std::size_t>(e) + 1]; ++j)
            ++columnOffsets_[static_cast<std::size_t>(data.index[static_cast<std::size_t>(j)]) + 1];
    }
    for (int j = 0; j < d; ++j)
        columnOffsets_[static_cast<std::size_t>(j) + 1] +=
            columnOffsets_[static_cast<std::size_t>(j)];
    columnExamples_.resize(static_cast<std::size_t>(columnOffsets_.back()));
    std::vector<long> fill(columnOffsets_.begin(), columnOffsets_.end() - 1);
    for (int e = 0; e < n; ++e) { // ascending e: each column lists its examples in order
        if (data.weight[static_cast<std::size_t>(e)] == 0) continue;
        for (int j = data.offsets[static_cast<std::size_t>(e)];
             j < data.offsets[static_cast<std::size_t>(e) + 1]; ++j)
            columnExamples_[static_cast<std::size_t>(
                fill[static_cast<std::size_t>(data.index[static_cast<std::size_t>(j)])]++)] = e;
    }
    term_.assign(static_cast<std::size_t>(n), 0.0);
    residual_.assign(static_cast<std::size_t>(n), 0.0);
    zeroWeight_.resize(static_cast<std::size_t>(n));
    for (int e = 0; e < n; ++e)
        zeroWeight_[static_cast<std::size_t>(e)] = data.weight[static_cast<std::size_t>(e)] == 0;
}

bool ParallelObjective::sameZeroWeights() const {
    const std::size_t n = data_.weight.size();
    if (n != zeroWeight_.size() || n != term_.size()) return false;
    for (std::size_t e = 0; e < n; ++e)
        if ((data_.weight[e] == 0) != zeroWeight_[e]) return false;
    return true;
}

double ParallelObjective::operator()(double l2, const Eigen::VectorXd& theta, Eigen::VectorXd& grad,
                                     const std::atomic<bool>* cancel) {
    const int n = data_.numExamples(), d = data_.numFeatures();
    const int* idx = data_.index.data();
    const double* th = theta.data();
    // (1) per-example margins, loss terms and residuals, in blocks on any thread.
    const int exampleBlocks = (n + kExampleBlock - 1) / kExampleBlock;
    parallelFor(
        exampleBlocks, threads_,
        [&](int block, int) {
            const int begin = block * kExampleBlock, end = std::min(n, begin + kExampleBlock);
            for (int e = begin; e < end; ++e) {
                const double w = data_.weight[static_cast<std::size_t>(e)];
                if (w == 0) continue;
                const int b = data_.offsets[static_cast<std::size_t>(e)],
                          stop = data_.offsets[static_cast<std::size_t>(e) + 1];
                double z = 0;
                for (int j = b; j < stop; ++j)
                    z += th[idx[j]];
                const double y = data_.target[static_cast<std::size_t>(e)];
                const double t = std::exp(-std::abs(z));
                const double softplus = std::max(z, 0.0) + std::log1p(t);
                const double p = z >= 0 ? 1.0 / (1.0 + t) : t / (1.0 + t);
                term_[static_cast<std::size_t>(e)] = w * (softplus - y * z);
                residual_[static_cast<std::size_t>(e)] = w * (p - y);
            }
        },
        cancel);
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    // (2) the objective, summed in example order as the reference does.
    double f = 0.5 * l2 * theta.squaredNorm();
    for (int e = 0; e < n; ++e)
        if (data_.weight[static_cast<std::size_t>(e)] != 0) f += term_[static_cast<std::size_t>(e)];
    // (3) the gradient, gathered per feature in example order.
    grad.resize(d);
    double* g = grad.data();
    const int featureBlocks = (d + kFeatureBlock - 1) / kFeatureBlock;
    parallelFor(
        featureBlocks, threads_,
        [&](int block, int) {
            const int begin = block * kFeatureBlock, end = std::min(d, begin + kFeatureBlock);
            for (int j = begin; j < end; ++j) {
                double s = l2 * th[j];
                for (long x = columnOffsets_[static_cast<std::size_t>(j)];
                     x < columnOffsets_[static_cast<std::size_t>(j) + 1]; ++x)
                    s += residual_[static_cast<std::size_t>(
                        columnExamples_[static_cast<std::size_t>(x)])];
                g[j] = s;
            }
        },
        cancel);
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    return f;
}

} // namespace prunescope
