#pragma once
// The fields the hashed-weights model files share (dependency model, cube-pruning model, vine
// cascade, arc filter; docs/file-formats.md), read through a JsonDocument so that every error
// names the file:line:column of the offending value.
#include "core/dep/HashedWeights.h"
#include "core/util/JsonDocument.h"

#include <nlohmann/json.hpp>

#include <string>

namespace prunescope {

// The root is an object whose `format` is format, `version` is version and featureKey (e.g.
// "featureSet") is features; otherwise fails at the offending value.
void checkModelHeader(const JsonDocument& doc, const std::string& format, int version,
                      const std::string& featureKey, const std::string& features);

// obj's optional `training` (provenance) object; an empty object when absent.
nlohmann::json optionalTraining(const JsonDocument& doc, const nlohmann::json& obj);

// obj's `weights`: JSON arrays (HashedWeights::fromJson) or a binary block (util/BinarySection.h;
// doc opened with JsonDocument::Binary::Allowed). A bad entry fails at its own line:column (a
// block's at its descriptor, naming the entry and byte), its message after prefix.
HashedWeights weightsMember(const JsonDocument& doc, const nlohmann::json& obj,
                            const std::string& prefix = "");

// What the dependency and cube-pruning model files have in common beyond the header.
struct ModelFields {
    bool singleRoot = true;
    nlohmann::json training = nlohmann::json::object();
    HashedWeights weights;
};
// checkModelHeader, then `singleRoot`, the optional `training` and `weights`.
ModelFields readModelFields(const JsonDocument& doc, const std::string& format, int version,
                            const std::string& featureKey, const std::string& features);

} // namespace prunescope
