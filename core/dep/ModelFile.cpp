// The fields the hashed-weights model files share (ModelFile.h).
#include "core/dep/ModelFile.h"

#include "core/util/BinarySection.h"

#include <stdexcept>
#include <utility>

namespace prunescope {

void checkModelHeader(const JsonDocument& doc, const std::string& format, int version,
                      const std::string& featureKey, const std::string& features) {
    const nlohmann::json& root = doc.root();
    if (!root.is_object()) doc.fail(root, "not a JSON object");
    const auto& f = doc.member(root, "format");
    if (doc.string(f) != format) doc.fail(f, "'format' must be \"" + format + "\"");
    const auto& v = doc.member(root, "version");
    if (doc.int32(v) != version)
        doc.fail(v, "unsupported 'version' (this build reads version " + std::to_string(version) +
                        ")");
    const auto& fs = doc.member(root, featureKey);
    if (doc.string(fs) != features)
        doc.fail(fs, "'" + featureKey + "' must be \"" + features + "\"");
}

nlohmann::json optionalTraining(const JsonDocument& doc, const nlohmann::json& obj) {
    const nlohmann::json* t = doc.optionalMember(obj, "training");
    if (!t) return nlohmann::json::object();
    if (!t->is_object()) doc.fail(*t, "'training' must be an object");
    return *t;
}

HashedWeights weightsMember(const JsonDocument& doc, const nlohmann::json& obj,
                            const std::string& prefix) {
    const nlohmann::json& w = doc.member(obj, "weights");
    if (isBinaryBlock(w)) {
        HashedWeights h;
        const auto& bits = doc.member(w, "hashBits");
        h = HashedWeights::zeros(doc.int32(bits, 1, 26));
        readWeightBlock(doc, w, h.w, prefix + "weights: ");
        return h;
    }
    try {
        return HashedWeights::fromJson(w);
    } catch (const WeightsError& e) {
        // The offending entry's own place (issue 46): "/value/3" inside the weights.
        doc.fail(w.contains(e.where) ? w.at(e.where) : w, prefix + e.what());
    } catch (const std::invalid_argument& e) {
        doc.fail(w, prefix + e.what());
    }
}

ModelFields readModelFields(const JsonDocument& doc, const std::string& format, int version,
                            const std::string& featureKey, const std::string& features) {
    checkModelHeader(doc, format, version, featureKey, features);
    ModelFields f;
    f.singleRoot = doc.boolean(doc.member(doc.root(), "singleRoot"));
    f.training = optionalTraining(doc, doc.root());
    f.weights = weightsMember(doc, doc.root());
    return f;
}

} // namespace prunescope
