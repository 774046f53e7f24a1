// Hashed linear weights and their running average.
#include "core/dep/HashedWeights.h"

#include "core/util/FeatureHash.h"
#include "core/util/JsonDocument.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace prunescope {

HashedWeights HashedWeights::zeros(int bits) {
    if (bits < 1 || bits > 26)
        throw std::invalid_argument("hashBits must be in [1, 26], got " + std::to_string(bits));
    HashedWeights h;
    h.bits = bits;
    h.w.assign(std::size_t(1) << bits, 0.0f);
    return h;
}

long HashedWeights::nonZero() const {
    return static_cast<long>(std::count_if(w.begin(), w.end(), [](float x) { return x != 0.0f; }));
}

nlohmann::json HashedWeights::toJson(BinarySectionWriter* bin) const {
    if (bin) {
        nlohmann::json j = bin->add(w);
        j["hashBits"] = bits;
        return j;
    }
    std::vector<std::uint32_t> index;
    std::vector<float> value;
    for (std::size_t i = 0; i < w.size(); ++i)
        if (w[i] != 0.0f) {
            index.push_back(static_cast<std::uint32_t>(i));
            value.push_back(w[i]);
        }
    return {{"hashBits", bits}, {"index", index}, {"value", value}};
}

HashedWeights HashedWeights::fromJson(const nlohmann::json& j) {
    using ptr = nlohmann::json::json_pointer;
    if (!j.is_object()) throw WeightsError("weights must be an object", ptr());
    for (const char* k : {"hashBits", "index", "value"})
        if (!j.contains(k))
            throw WeightsError(std::string("weights: missing field '") + k + "'", ptr());
    if (!j["hashBits"].is_number_integer())
        throw WeightsError("weights: 'hashBits' must be an integer", ptr("/hashBits"));
    HashedWeights h;
    try {
        h = zeros(j["hashBits"].get<int>());
    } catch (const std::invalid_argument& e) {
        throw WeightsError(e.what(), ptr("/hashBits"));
    }
    const auto& idx = j["index"];
    const auto& val = j["value"];
    if (!idx.is_array()) throw WeightsError("weights: 'index' must be an array", ptr("/index"));
    if (!val.is_array()) throw WeightsError("weights: 'value' must be an array", ptr("/value"));
    if (idx.size() != val.size())
        throw WeightsError("weights: 'index' has " + std::to_string(idx.size()) +
                               " entries, 'value' " + std::to_string(val.size()),
                           ptr("/value"));
    long prev = -1;
    for (std::size_t i = 0; i < idx.size(); ++i) {
        const ptr atIndex("/index/" + std::to_string(i)), atValue("/value/" + std::to_string(i));
        if (!idx[i].is_number_unsigned())
            throw WeightsError("weights: index entry " + std::to_string(i) +
                                   " is not a non-negative integer",
                               atIndex);
        const auto k = idx[i].get<std::uint64_t>();
        if (k >= h.w.size())
            throw WeightsError("weights: index " + std::to_string(k) + " >= 2^hashBits", atIndex);
        if (static_cast<long>(k) <= prev)
            throw WeightsError("weights: indices must be strictly ascending (entry " +
                                   std::to_string(i) + ")",
                               atIndex);
        prev = static_cast<long>(k);
        if (!val[i].is_number())
            throw WeightsError("weights: value entry " + std::to_string(i) + " is not a number",
                               atValue);
        const double v = val[i].get<double>();
        if (!std::isfinite(v))
            throw WeightsError("weights: value entry " + std::to_string(i) + " is not finite",
                               atValue);
        // Weights are floats: a value beyond FLT_MAX would become inf when stored.
        if (std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()))
            throw WeightsError("weights: value entry " + std::to_string(i) + " (" + val[i].dump() +
                                   ") overflows a float (|w| <= 3.4e38)",
                               atValue);
        h.w[k] = static_cast<float>(v);
    }
    return h;
}

SparseVector featureDifference(const HashedWeights& shape, std::span<const std::uint64_t> plus,
                               std::span<const std::uint64_t> minus) {
    SparseVector v;
    v.reserve(plus.size() + minus.size());
    for (auto k : plus)
        v.emplace_back(shape.featureIndex(k), 1.0);
    for (auto k : minus)
        v.emplace_back(shape.featureIndex(k), -1.0);
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    SparseVector out;
    for (const auto& [i, x] : v) {
        if (!out.empty() && out.back().first == i)
            out.back().second += x;
        else
            out.emplace_back(i, x);
    }
    out.erase(std::remove_if(out.begin(), out.end(), [](const auto& p) { return p.second == 0.0; }),
              out.end());
    return out;
}

double squaredNorm(const SparseVector& v) {
    double s = 0;
    for (const auto& p : v)
        s += p.second * p.second;
    return s;
}

AveragedWeights::AveragedWeights(int bits) : bits_(bits) {
    const HashedWeights probe = HashedWeights::zeros(bits); // validates bits
    w_.assign(probe.dim(), 0.0);
    u_.assign(probe.dim(), 0.0);
    current_ = probe;
}

void AveragedWeights::update(const SparseVector& v, double scale) {
    const double c = static_cast<double>(ticks_);
    for (const auto& [i, x] : v) {
        w_[i] += scale * x;
        u_[i] += c * scale * x;
        current_.w[i] = static_cast<float>(w_[i]);
    }
}

double AveragedWeights::dot(const SparseVector& v) const {
    double s = 0;
    for (const auto& [i, x] : v)
        s += w_[i] * x;
    return s;
}

HashedWeights AveragedWeights::averaged() const {
    HashedWeights h = HashedWeights::zeros(bits_);
    const double c = static_cast<double>(ticks_);
    for (std::size_t i = 0; i < w_.size(); ++i)
        h.w[i] = static_cast<float>(w_[i] - u_[i] / c);
    return h;
}

} // namespace prunescope
