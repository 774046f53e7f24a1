#pragma once
// A pruning policy: logistic regression over hashed span features (Vieira & Eisner 2017,
// sec. 2 and 6), and its versioned JSON file format (docs/policies.md).
#include "core/policy/SpanFeatures.h"
#include "core/util/BinarySection.h"

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <limits>
#include <span>
#include <string>

namespace prunescope {

struct PolicyMetadata {
    int featureSetVersion = kFeatureSetVersion;
    int hashBits = kFeatureHashBits;
    nlohmann::json training = nlohmann::json::object();       // how it was trained (free-form)
    double lambda = std::numeric_limits<double>::quiet_NaN(); // NaN = not determined (null in file)
    std::string lambdaUnit;                                   // e.g. "F1 per constituent built"
    nlohmann::json devMetrics = nlohmann::json::object();     // dev-set measurements (free-form)
    std::string grammar;                                      // grammar the policy was trained for
    std::string name;
    std::string kind;                               // "baseline" | "lols" | ...
    bool operator==(const PolicyMetadata& o) const; // NaN lambdas compare equal
};

struct Policy {
    PolicyMetadata meta;
    Eigen::VectorXf weights = Eigen::VectorXf::Zero(kFeatureDim);
    float threshold = 0.5f; // keep iff p(keep) >= threshold

    // theta . x: the sum of the weights of the given feature buckets.
    double score(std::span<const uint32_t> features) const {
        double s = 0;
        for (uint32_t f : features)
            s += weights[f];
        return s;
    }
    double keepProbability(std::span<const uint32_t> features) const; // sigmoid(score)
    bool keep(std::span<const uint32_t> features) const {
        return keepProbability(features) >= threshold;
    }
};

inline constexpr const char* kPolicyFormat = "prunescope-policy";
constexpr int kPolicyFormatVersion = 1;

// {"format":"prunescope-policy","version":1,"threshold":t,"meta":{...},
//  "weights":{"index":[...],"value":[...]}} with only the nonzero weights, indices ascending.
std::string policyToJson(const Policy& p);
// The file savePolicy writes: the same header, with "weights" a binary block
// {"encoding", "offset", "count"} after it (util/BinarySection.h), or policyToJson for Json.
std::string policyFileText(const Policy& p, WeightsForm form = WeightsForm::Binary);
// Parses and validates either form; errors are InputError naming `fileName` and the line:column
// of the bad value (a binary block's descriptor, naming the entry and byte).
Policy policyFromJson(std::string text, const std::string& fileName);

// Atomic (AtomicFile); binary weights unless form is WeightsForm::Json.
void savePolicy(const Policy& p, const std::string& path, WeightsForm form = WeightsForm::Binary);
Policy loadPolicy(const std::string& path); // InputError on any problem

} // namespace prunescope
