// Dependency model file and scores.
#include "core/dep/DepModel.h"

#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <stdexcept>

namespace prunescope {

nlohmann::json depModelToJson(const DepModel& m) {
    return {{"format", kDepModelFormat},    {"version", 1},
            {"featureSet", kDepFeatureSet}, {"order", m.order},
            {"singleRoot", m.singleRoot},   {"training", m.training},
            {"weights", m.weights.toJson()}};
}

DepModel depModelFromJson(const nlohmann::json& j, const std::string& file,
                          const std::string& text) {
    auto bad = [&](const std::string& why) {
        return InputError(file, 0, 0, "dependency model: " + why);
    };
    if (!j.is_object()) throw bad("not a JSON object");
    if (!j.contains("format") || j["format"] != kDepModelFormat)
        throw bad(std::string("field 'format' must be \"") + kDepModelFormat + "\"");
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
        throw bad("unsupported 'version' (this build reads version 1)");
    if (!j.contains("featureSet") || j["featureSet"] != kDepFeatureSet)
        throw bad(std::string("field 'featureSet' must be \"") + kDepFeatureSet + "\"");
    DepModel m;
    if (!j.contains("order") || !j["order"].is_number_integer())
        throw bad("missing integer field 'order'");
    m.order = j["order"].get<int>();
    if (m.order != 1 && m.order != 2) throw bad("'order' must be 1 or 2");
    if (!j.contains("singleRoot") || !j["singleRoot"].is_boolean())
        throw bad("missing boolean field 'singleRoot'");
    m.singleRoot = j["singleRoot"].get<bool>();
    if (j.contains("training")) {
        if (!j["training"].is_object()) throw bad("'training' must be an object");
        m.training = j["training"];
    }
    if (!j.contains("weights")) throw bad("missing field 'weights'");
    try {
        m.weights = HashedWeights::fromJson(j["weights"]);
    } catch (const WeightsError& e) {
        // With the file's text, the offending value's line:column (issue 46).
        const auto [line, column] =
            text.empty() ? std::pair{0, 0}
                         : weightsErrorLocation(text, nlohmann::json::json_pointer("/weights"), e);
        throw InputError(file, line, column, "dependency model: " + std::string(e.what()));
    }
    return m;
}

void saveDepModel(const DepModel& m, const std::string& path) {
    writeFileAtomically(path, depModelToJson(m).dump() + "\n");
}

DepModel loadDepModel(const std::string& path) {
    const std::string text = readFile(path);
    return depModelFromJson(parseJsonDocument(text, path, "dependency model: "), path, text);
}

float DepScorer::arc(int h, int m) const {
    buf_.clear();
    arcFeatureKeys(*atoms_, h, m, buf_);
    return w_->score(buf_);
}

void DepScorer::arcScores(ArcScores& out, const ArcMask* mask) const {
    const int n = atoms_->size();
    if (mask && mask->n != n)
        throw std::invalid_argument("DepScorer: mask length differs from the sentence");
    out.reset(n);
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            if (h != m && (!mask || mask->keep(h, m))) out.at(h, m) = arc(h, m);
}

float DepScorer::sibling(int h, int q, int m) const {
    buf_.clear();
    siblingFeatureKeys(*atoms_, h, q, m, buf_);
    return w_->score(buf_);
}

float DepScorer::grandparent(int g, int h, int m) const {
    buf_.clear();
    grandparentFeatureKeys(*atoms_, g, h, m, buf_);
    return w_->score(buf_);
}

DepParse parseWithModel(const DepModel& model, const DepSentence& s, const ArcMask* mask,
                        EisnerParser& parser) {
    const DepScorer scorer(model, s);
    const ArcScores arcs = scorer.arcScores(mask);
    return model.order >= 2 ? parser.parse(arcs, scorer, mask) : parser.parse(arcs, mask);
}

DepParse parseWithModel(const DepModel& model, DepSentenceFeatures& features, const ArcMask* mask,
                        EisnerParser& parser) {
    ArcScores arcs;
    features.arcScores(model.weights, mask, arcs, /*cache=*/false);
    if (model.order < 2) return parser.parse(arcs, mask);
    return parser.parse(arcs, DepScorer(model.weights, features.atoms()), mask);
}

void treeFeatureKeys(const SentenceAtoms& a, const std::vector<int>& heads, int order,
                     std::vector<std::uint64_t>& out) {
    for (int m = 1; m < static_cast<int>(heads.size()); ++m)
        arcFeatureKeys(a, heads[static_cast<std::size_t>(m)], m, out);
    if (order >= 2)
        for (const auto& p : siblingParts(heads))
            siblingFeatureKeys(a, p[0], p[1], p[2], out);
}

} // namespace prunescope
