// Pruning policy evaluation and its JSON file format (Vieira & Eisner 2017, sec. 2, 6).
#include "core/policy/Policy.h"

#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/FloatRange.h"
#include "core/util/JsonDocument.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace prunescope {

using nlohmann::json;

bool PolicyMetadata::operator==(const PolicyMetadata& o) const {
    const bool lambdaEq = (std::isnan(lambda) && std::isnan(o.lambda)) || lambda == o.lambda;
    return featureSetVersion == o.featureSetVersion && hashBits == o.hashBits &&
           training == o.training && lambdaEq && lambdaUnit == o.lambdaUnit &&
           devMetrics == o.devMetrics && grammar == o.grammar && name == o.name && kind == o.kind;
}

double Policy::keepProbability(std::span<const uint32_t> features) const {
    const double s = score(features);
    if (s >= 0) return 1.0 / (1.0 + std::exp(-s));
    const double e = std::exp(s);
    return e / (1.0 + e);
}

namespace {

// Shortest text that parses (strtod, then cast to float) back to exactly f.
std::string floatText(float f) {
    if (f == 0.0f && std::signbit(f)) return "-0.0"; // "-0" would parse as the integer 0
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, f);
    std::string s(buf, r.ptr);
    if (static_cast<float>(std::strtod(s.c_str(), nullptr)) == f) return s;
    r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(f));
    return std::string(buf, r.ptr);
}

std::string indentJson(const json& j) {
    std::string s = j.dump(2);
    std::string out;
    for (char c : s) {
        out += c;
        if (c == '\n') out += "  ";
    }
    return out;
}

// Every problem is reported at the offending value (or the object lacking a field).
[[noreturn]] void bad(const JsonDocument& doc, const json& at, const std::string& what) {
    doc.fail(at, what);
}

const json& field(const JsonDocument& doc, const json& obj, const char* key,
                  const std::string& where) {
    auto it = obj.find(key);
    if (it == obj.end()) bad(doc, obj, "missing field '" + where + key + "'");
    return *it;
}

int intField(const JsonDocument& doc, const json& obj, const char* key, const std::string& where) {
    const json& v = field(doc, obj, key, where);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > 1000000u) ||
        (!v.is_number_unsigned() &&
         (v.get<std::int64_t>() < -1000000 || v.get<std::int64_t>() > 1000000)))
        bad(doc, v, "field '" + where + key + "' must be an integer");
    return v.get<int>();
}

std::string stringField(const JsonDocument& doc, const json& obj, const char* key,
                        const std::string& where) {
    const json& v = field(doc, obj, key, where);
    if (!v.is_string()) bad(doc, v, "field '" + where + key + "' must be a string");
    return v.get<std::string>();
}

} // namespace

namespace {

void checkWritable(const Policy& p) {
    if (p.weights.size() != static_cast<Eigen::Index>(kFeatureDim))
        throw std::invalid_argument("policy: weight vector must have 2^22 entries");
    if (!(p.threshold >= 0.0f && p.threshold <= 1.0f))
        throw std::invalid_argument("policy: threshold must be in [0, 1]");
}

json metaToJson(const Policy& p) {
    json meta = json::object();
    meta["featureSetVersion"] = p.meta.featureSetVersion;
    meta["hashBits"] = p.meta.hashBits;
    meta["training"] = p.meta.training;
    meta["lambda"] = std::isnan(p.meta.lambda) ? json(nullptr) : json(p.meta.lambda);
    meta["lambdaUnit"] = p.meta.lambdaUnit;
    meta["devMetrics"] = p.meta.devMetrics;
    meta["grammar"] = p.meta.grammar;
    meta["name"] = p.meta.name;
    meta["kind"] = p.meta.kind;
    return meta;
}

} // namespace

std::string policyFileText(const Policy& p, WeightsForm form) {
    if (form == WeightsForm::Json) return policyToJson(p);
    checkWritable(p);
    BinarySectionWriter bin;
    json weights;
    try {
        weights = bin.add(std::span<const float>(p.weights.data(), kFeatureDim));
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("policy: ") + e.what());
    }
    return bin.file({{"format", kPolicyFormat},
                     {"version", kPolicyFormatVersion},
                     {"threshold", static_cast<double>(p.threshold)},
                     {"meta", metaToJson(p)},
                     {"weights", std::move(weights)}});
}

std::string policyToJson(const Policy& p) {
    checkWritable(p);
    const json meta = metaToJson(p);
    std::string index = "[", value = "[";
    bool first = true;
    for (Eigen::Index f = 0; f < p.weights.size(); ++f) {
        const float w = p.weights[f];
        if (w == 0.0f && !std::signbit(w)) continue;
        if (!std::isfinite(w))
            throw std::invalid_argument("policy: weight " + std::to_string(f) + " is not finite");
        if (!first) {
            index += ',';
            value += ',';
        }
        first = false;
        index += std::to_string(f);
        value += floatText(w);
    }
    index += ']';
    value += ']';

    std::string out = "{\n";
    out += "  \"format\": " + json(kPolicyFormat).dump() + ",\n";
    out += "  \"version\": " + std::to_string(kPolicyFormatVersion) + ",\n";
    out += "  \"threshold\": " + floatText(p.threshold) + ",\n";
    out += "  \"meta\": " + indentJson(meta) + ",\n";
    out +=
        "  \"weights\": {\n    \"index\": " + index + ",\n    \"value\": " + value + "\n  }\n}\n";
    return out;
}

Policy policyFromJson(std::string text, const std::string& file) {
    const JsonDocument doc(std::move(text), file, "policy: ", 1, JsonDocument::Binary::Allowed);
    const json& j = doc.root();
    if (!j.is_object()) bad(doc, j, "top level must be a JSON object");
    const std::string format = stringField(doc, j, "format", "");
    if (format != kPolicyFormat)
        bad(doc, j["format"], "format is '" + format + "', expected '" + kPolicyFormat + "'");
    const int version = intField(doc, j, "version", "");
    if (version != kPolicyFormatVersion)
        bad(doc, j["version"],
            "unsupported version " + std::to_string(version) + " (this program reads version " +
                std::to_string(kPolicyFormatVersion) + ")");

    // Everything is validated before the 16 MiB weight vector is allocated (Policy p below).
    struct {
        PolicyMetadata meta;
        float threshold = 0.5f;
    } p;
    const json& th = field(doc, j, "threshold", "");
    if (!th.is_number() || !(th.get<double>() >= 0.0 && th.get<double>() <= 1.0))
        bad(doc, th, "field 'threshold' must be a number in [0, 1]");
    p.threshold = static_cast<float>(th.get<double>());

    const json& m = field(doc, j, "meta", "");
    if (!m.is_object()) bad(doc, m, "field 'meta' must be an object");
    const std::string w = "meta.";
    p.meta.featureSetVersion = intField(doc, m, "featureSetVersion", w);
    if (p.meta.featureSetVersion != kFeatureSetVersion)
        bad(doc, m["featureSetVersion"],
            "meta.featureSetVersion is " + std::to_string(p.meta.featureSetVersion) +
                ", this program computes feature set " + std::to_string(kFeatureSetVersion));
    p.meta.hashBits = intField(doc, m, "hashBits", w);
    if (p.meta.hashBits != kFeatureHashBits)
        bad(doc, m["hashBits"],
            "meta.hashBits is " + std::to_string(p.meta.hashBits) + ", expected " +
                std::to_string(kFeatureHashBits));
    p.meta.training = field(doc, m, "training", w);
    const json& lam = field(doc, m, "lambda", w);
    if (lam.is_null())
        p.meta.lambda = std::numeric_limits<double>::quiet_NaN();
    else if (lam.is_number() && std::isfinite(lam.get<double>()))
        p.meta.lambda = lam.get<double>();
    else
        bad(doc, lam, "field 'meta.lambda' must be a number or null");
    p.meta.lambdaUnit = stringField(doc, m, "lambdaUnit", w);
    p.meta.devMetrics = field(doc, m, "devMetrics", w);
    p.meta.grammar = stringField(doc, m, "grammar", w);
    p.meta.name = stringField(doc, m, "name", w);
    p.meta.kind = stringField(doc, m, "kind", w);

    const json& ws = field(doc, j, "weights", "");
    if (!ws.is_object()) bad(doc, ws, "field 'weights' must be an object");
    if (isBinaryBlock(ws)) {
        Policy policy;
        policy.meta = std::move(p.meta);
        policy.threshold = p.threshold;
        readWeightBlock(doc, ws, std::span<float>(policy.weights.data(), kFeatureDim), "weights: ");
        return policy;
    }
    const json& idx = field(doc, ws, "index", "weights.");
    const json& val = field(doc, ws, "value", "weights.");
    if (!idx.is_array()) bad(doc, idx, "field 'weights.index' must be an array");
    if (!val.is_array()) bad(doc, val, "field 'weights.value' must be an array");
    if (idx.size() != val.size())
        bad(doc, val,
            "weights.index has " + std::to_string(idx.size()) + " entries but weights.value has " +
                std::to_string(val.size()));
    std::vector<std::pair<uint32_t, float>> entries;
    entries.reserve(idx.size());
    for (size_t e = 0; e < idx.size(); ++e) {
        const json& i = idx[e];
        const json& v = val[e];
        if (!i.is_number_integer() ||
            (i.is_number_unsigned() && i.get<std::uint64_t>() >= kFeatureDim) ||
            (!i.is_number_unsigned() &&
             (i.get<int64_t>() < 0 || i.get<int64_t>() >= static_cast<int64_t>(kFeatureDim))))
            bad(doc, i,
                "weights.index[" + std::to_string(e) + "] = " + i.dump() + " is not in [0, 2^" +
                    std::to_string(kFeatureHashBits) + ")");
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            bad(doc, v, "weights.value[" + std::to_string(e) + "] is not a finite number");
        // Weights are floats: a double such as 1e300 would become inf and poison every score.
        if (!roundsToFiniteFloat(v.get<double>()))
            bad(doc, v,
                "weights.value[" + std::to_string(e) + "] = " + v.dump() +
                    " is outside the float range (weights are 32-bit floats)");
        const float f32 = toFiniteFloat(v.get<double>());
        entries.emplace_back(static_cast<uint32_t>(i.get<int64_t>()), f32);
    }
    // Repeated indices (sorted copy: no 2^22-entry bitmap per load); report the later occurrence.
    std::vector<std::pair<uint32_t, size_t>> order(entries.size());
    for (size_t e = 0; e < entries.size(); ++e)
        order[e] = {entries[e].first, e};
    std::sort(order.begin(), order.end());
    for (size_t x = 1; x < order.size(); ++x)
        if (order[x].first == order[x - 1].first)
            bad(doc, idx[order[x].second],
                "weights.index repeats feature " + std::to_string(order[x].first));
    Policy policy;
    policy.meta = std::move(p.meta);
    policy.threshold = p.threshold;
    for (const auto& [f, w] : entries)
        policy.weights[f] = w;
    return policy;
}

void savePolicy(const Policy& p, const std::string& path, WeightsForm form) {
    writeFileAtomically(path, policyFileText(p, form));
}

Policy loadPolicy(const std::string& path) {
    return policyFromJson(readFile(path), path);
}

} // namespace prunescope
