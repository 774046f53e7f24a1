#pragma once
// Linear weights over hashed features (util/FeatureHash.h) and the online learner's averaged copy
// (Collins 2002 averaging by the Daume III "c * w" trick), shared by the dependency models, the
// vine cascade stages and cube pruning's perceptron.
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "core/util/BinarySection.h"
#include "core/util/FeatureHash.h"
#include "core/util/HugePageAllocator.h"

namespace prunescope {

struct HashedWeights {
    int bits = 0;      // 2^bits weights
    HugeFloatVector w; // on huge pages when large (util/HugePageAllocator.h)

    static HashedWeights zeros(int bits); // 1 <= bits <= 26
    std::size_t dim() const { return w.size(); }
    // Sum of the keys' weights, in key order (float, so equal inputs give bit-identical scores).
    float score(std::span<const std::uint64_t> keys) const {
        float total = 0.0f;
        for (const std::uint64_t k : keys)
            total += w[featureIndex(k)];
        return total;
    }
    std::uint32_t featureIndex(std::uint64_t key) const { return featureBucket(key, bits); }
    // Asks the cache for the keys' weights ahead of a score() of the same keys (no effect on
    // results).
    void prefetch(std::span<const std::uint64_t> keys) const {
        for (const std::uint64_t k : keys)
            __builtin_prefetch(w.data() + featureIndex(k));
    }
    long nonZero() const;

    // {"hashBits": b, "index": [...ascending...], "value": [...]}: the non-zero weights. With bin,
    // the weights go to a binary block instead: {"hashBits": b, "encoding", "offset", "count"}
    // (util/BinarySection.h).
    nlohmann::json toJson(BinarySectionWriter* bin = nullptr) const;
    // Validates everything (bits range, equal lengths, indices ascending and < 2^bits, values
    // finite as floats: 1e39 overflows); throws WeightsError naming the problem and where.
    static HashedWeights fromJson(const nlohmann::json& j);
};

// A bad weights object: `where` is the offending value's JSON pointer inside it ("/value/3"), so
// a reader on JsonDocument can name its line:column (core/dep/ModelFile).
struct WeightsError : std::invalid_argument {
    WeightsError(const std::string& what, nlohmann::json::json_pointer at)
        : std::invalid_argument(what), where(std::move(at)) {}
    nlohmann::json::json_pointer where;
};

// A sparse feature-difference vector: (index, value) sorted by index, no zeros.
using SparseVector = std::vector<std::pair<std::uint32_t, double>>;

// Builds phi(plus) - phi(minus) over the weights' buckets.
SparseVector featureDifference(const HashedWeights& shape, std::span<const std::uint64_t> plus,
                               std::span<const std::uint64_t> minus);
double squaredNorm(const SparseVector& v);

// Weights during online training, with the running average: after `ticks` examples the average is
// w - u / ticks (u accumulates tick * update). Doubles, so long runs do not lose small updates.
class AveragedWeights {
  public:
    AveragedWeights() = default;
    explicit AveragedWeights(int bits);
    int bits() const { return bits_; }
    // w += scale * v (at the current tick).
    void update(const SparseVector& v, double scale);
    double dot(const SparseVector& v) const;
    // One example seen (call after its update).
    void tick() { ++ticks_; }
    long ticks() const { return ticks_; }
    // The current weights as floats (kept in sync by update(); what decoding reads while training).
    const HashedWeights& current() const { return current_; }
    HashedWeights averaged() const;

  private:
    int bits_ = 0;
    long ticks_ = 1;
    std::vector<double> w_, u_;
    HashedWeights current_;
};

} // namespace prunescope
