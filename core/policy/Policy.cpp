// Pruning policy evaluation and its JSON file format (Vieira & Eisner 2017, sec. 2, 6).
#include "core/policy/Policy.h"

#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace prunescope {

using nlohmann::json;

bool PolicyMetadata::operator==(const PolicyMetadata& o) const {
    const bool lambdaEq = (std::isnan(lambda) && std::isnan(o.lambda)) || lambda == o.lambda;
    return featureSetVersion == o.featureSetVersion && hashBits == o.hashBits && training == o.training &&
           lambdaEq && lambdaUnit == o.lambdaUnit && devMetrics == o.devMetrics && grammar == o.grammar &&
           name == o.name && kind == o.kind;
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
    if (f == 0.0f && std::signbit(f)) return "-0.0";  // "-0" would parse as the integer 0
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

[[noreturn]] void bad(const std::string& file, const std::string& what) {
    throw InputError(file, 0, 0, "policy: " + what);
}

const json& field(const json& obj, const char* key, const std::string& where, const std::string& file) {
    auto it = obj.find(key);
    if (it == obj.end()) bad(file, "missing field '" + where + key + "'");
    return *it;
}

int intField(const json& obj, const char* key, const std::string& where, const std::string& file) {
    const json& v = field(obj, key, where, file);
    if (!v.is_number_integer()) bad(file, "field '" + where + key + "' must be an integer");
    return v.get<int>();
}

std::string stringField(const json& obj, const char* key, const std::string& where, const std::string& file) {
    const json& v = field(obj, key, where, file);
    if (!v.is_string()) bad(file, "field '" + where + key + "' must be a string");
    return v.get<std::string>();
}


} // namespace

std::string policyToJson(const Policy& p) {
    if (p.weights.size() != static_cast<Eigen::Index>(kFeatureDim))
        throw std::invalid_argument("policy: weight vector must have 2^22 entries");
    if (!(p.threshold >= 0.0f && p.threshold <= 1.0f))
        throw std::invalid_argument("policy: threshold must be in [0, 1]");
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
    out += "  \"weights\": {\n    \"index\": " + index + ",\n    \"value\": " + value + "\n  }\n}\n";
    return out;
}

Policy policyFromJson(const std::string& text, const std::string& file) {
    const json j = parseJsonDocument(text, file, "policy: ");
    if (!j.is_object()) bad(file, "top level must be a JSON object");
    const std::string format = stringField(j, "format", "", file);
    if (format != kPolicyFormat) bad(file, "format is '" + format + "', expected '" + kPolicyFormat + "'");
    const int version = intField(j, "version", "", file);
    if (version != kPolicyFormatVersion)
        bad(file, "unsupported version " + std::to_string(version) + " (this program reads version " +
                      std::to_string(kPolicyFormatVersion) + ")");

    Policy p;
    const json& th = field(j, "threshold", "", file);
    if (!th.is_number() || !(th.get<double>() >= 0.0 && th.get<double>() <= 1.0))
        bad(file, "field 'threshold' must be a number in [0, 1]");
    p.threshold = static_cast<float>(th.get<double>());

    const json& m = field(j, "meta", "", file);
    if (!m.is_object()) bad(file, "field 'meta' must be an object");
    const std::string w = "meta.";
    p.meta.featureSetVersion = intField(m, "featureSetVersion", w, file);
    if (p.meta.featureSetVersion != kFeatureSetVersion)
        bad(file, "meta.featureSetVersion is " + std::to_string(p.meta.featureSetVersion) +
                      ", this program computes feature set " + std::to_string(kFeatureSetVersion));
    p.meta.hashBits = intField(m, "hashBits", w, file);
    if (p.meta.hashBits != kFeatureHashBits)
        bad(file, "meta.hashBits is " + std::to_string(p.meta.hashBits) + ", expected " +
                      std::to_string(kFeatureHashBits));
    p.meta.training = field(m, "training", w, file);
    const json& lam = field(m, "lambda", w, file);
    if (lam.is_null())
        p.meta.lambda = std::numeric_limits<double>::quiet_NaN();
    else if (lam.is_number())
        p.meta.lambda = lam.get<double>();
    else
        bad(file, "field 'meta.lambda' must be a number or null");
    p.meta.lambdaUnit = stringField(m, "lambdaUnit", w, file);
    p.meta.devMetrics = field(m, "devMetrics", w, file);
    p.meta.grammar = stringField(m, "grammar", w, file);
    p.meta.name = stringField(m, "name", w, file);
    p.meta.kind = stringField(m, "kind", w, file);

    const json& ws = field(j, "weights", "", file);
    if (!ws.is_object()) bad(file, "field 'weights' must be an object");
    const json& idx = field(ws, "index", "weights.", file);
    const json& val = field(ws, "value", "weights.", file);
    if (!idx.is_array()) bad(file, "field 'weights.index' must be an array");
    if (!val.is_array()) bad(file, "field 'weights.value' must be an array");
    if (idx.size() != val.size())
        bad(file, "weights.index has " + std::to_string(idx.size()) + " entries but weights.value has " +
                      std::to_string(val.size()));
    p.weights = Eigen::VectorXf::Zero(kFeatureDim);
    std::vector<bool> seen(kFeatureDim, false);
    for (size_t e = 0; e < idx.size(); ++e) {
        const json& i = idx[e];
        const json& v = val[e];
        if (!i.is_number_integer() || i.get<int64_t>() < 0 || i.get<int64_t>() >= static_cast<int64_t>(kFeatureDim))
            bad(file, "weights.index[" + std::to_string(e) + "] = " + i.dump() + " is not in [0, 2^" +
                          std::to_string(kFeatureHashBits) + ")");
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            bad(file, "weights.value[" + std::to_string(e) + "] is not a finite number");
        const auto f = static_cast<uint32_t>(i.get<int64_t>());
        if (seen[f]) bad(file, "weights.index repeats feature " + std::to_string(f));
        seen[f] = true;
        p.weights[f] = static_cast<float>(v.get<double>());
    }
    return p;
}

void savePolicy(const Policy& p, const std::string& path) { writeFileAtomically(path, policyToJson(p)); }

Policy loadPolicy(const std::string& path) { return policyFromJson(readFile(path), path); }

} // namespace prunescope
