// The vine cascade: file format and pipeline stages (Rush & Petrov 2012 sec. 3-5).
#include "core/vine/VineCascade.h"

#include "core/dep/DepModel.h"
#include "core/dep/ModelFile.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"
#include "core/vine/VineParser.h"

#include <filesystem>
#include <stdexcept>

namespace prunescope {

nlohmann::json vineCascadeToJson(const VineCascade& c, BinarySectionWriter* bin) {
    nlohmann::json stages = nlohmann::json::array();
    for (std::size_t k = 0; k < c.stages.size(); ++k) {
        const auto& s = c.stages[k];
        nlohmann::json j = {{"name", s.name}, {"kind", cascadeStageKindName(s.kind)}};
        if (s.kind == CascadeStageKind::Vine)
            j["band"] = s.band, j["structure"] = vineStructureName(s.structure);
        j["alpha"] = k < c.alphas.size() ? c.alphas[k] : 0.0;
        j["training"] = s.training;
        j["weights"] = s.weights.toJson(bin);
        stages.push_back(std::move(j));
    }
    return {{"format", kVineCascadeFormat},
            {"version", kVineCascadeVersion},
            {"featureSet", kDepFeatureSet},
            {"singleRoot", c.singleRoot},
            {"finalModel", c.finalModel},
            {"training", c.training},
            {"stages", stages}};
}

VineCascade vineCascadeFromText(std::string text, const std::string& file) {
    const JsonDocument doc(std::move(text), file, "vine cascade: ", 1,
                           JsonDocument::Binary::Allowed);
    const auto& root = doc.root();
    if (!root.is_object()) doc.fail(root, "expected a JSON object");
    const auto& format = doc.member(root, "format");
    if (doc.string(format) != kVineCascadeFormat)
        doc.fail(format,
                 std::string("not a vine cascade (format must be \"") + kVineCascadeFormat + "\")");
    const auto& version = doc.member(root, "version");
    const int fileVersion = doc.int32(version);
    if (fileVersion == 1)
        doc.fail(version, "version 1 cascade (one-sided vine, before outer-head parts): this build "
                          "reads version " +
                              std::to_string(kVineCascadeVersion) +
                              "; retrain it with prunescope-cli vine-train");
    if (fileVersion != kVineCascadeVersion && fileVersion != 2)
        doc.fail(version, "unsupported version " + std::to_string(fileVersion) +
                              " (this build reads 2 and " + std::to_string(kVineCascadeVersion) +
                              ")");
    const auto& fs = doc.member(root, "featureSet");
    if (doc.string(fs) != kDepFeatureSet)
        doc.fail(fs, std::string("feature set must be \"") + kDepFeatureSet + "\"");
    VineCascade c;
    c.singleRoot = doc.boolean(doc.member(root, "singleRoot"));
    const auto& fm = doc.member(root, "finalModel");
    c.finalModel = doc.string(fm);
    if (c.finalModel.empty()) doc.fail(fm, "finalModel must name the final model file");
    c.training = optionalTraining(doc, root);
    const auto& stages = doc.member(root, "stages");
    if (!stages.is_array() || stages.empty() || stages.size() > 3)
        doc.fail(stages, "stages must be an array of 1 to 3 stages (vine, then first-order, then "
                         "second-order)");
    for (std::size_t k = 0; k < stages.size(); ++k) {
        const auto& js = stages[k];
        if (!js.is_object()) doc.fail(js, "a stage must be an object");
        VineCascadeStage s;
        const auto& kind = doc.member(js, "kind");
        const std::string kindName = doc.string(kind);
        const CascadeStageKind expectedKind = k == 0   ? CascadeStageKind::Vine
                                              : k == 1 ? CascadeStageKind::FirstOrder
                                                       : CascadeStageKind::SecondOrder;
        const std::string expected = cascadeStageKindName(expectedKind);
        if (kindName != expected)
            doc.fail(kind, "stage " + std::to_string(k + 1) + " must be \"" + expected +
                               "\", not \"" + kindName + "\"");
        s.kind = expectedKind;
        s.name = doc.string(doc.member(js, "name"));
        if (s.name != expected)
            doc.fail(doc.member(js, "name"), "stage name must be \"" + expected + "\"");
        s.band = s.kind == CascadeStageKind::Vine ? doc.int32(doc.member(js, "band"), 1, 64) : 0;
        if (s.kind == CascadeStageKind::Vine && fileVersion >= 3) {
            const auto& st = doc.member(js, "structure");
            if (!vineStructureFromName(doc.string(st), s.structure))
                doc.fail(st, "structure must be \"token\" or \"tree\"");
        }
        c.alphas.push_back(doc.number(doc.member(js, "alpha"), -1e6, 1.0));
        if (const auto* t = doc.optionalMember(js, "training")) s.training = *t;
        s.weights = weightsMember(doc, js, "bad weights: ");
        c.stages.push_back(std::move(s));
    }
    const std::filesystem::path p(c.finalModel);
    c.finalModelResolved =
        p.is_absolute() || file.empty()
            ? c.finalModel
            : (std::filesystem::path(file).parent_path() / p).lexically_normal().string();
    return c;
}

VineCascade loadVineCascade(const std::string& path) {
    return vineCascadeFromText(readFile(path), path);
}

void saveVineCascade(const VineCascade& c, const std::string& path, WeightsForm form) {
    if (c.alphas.size() != c.stages.size())
        throw std::invalid_argument("vine cascade: one alpha per stage");
    BinarySectionWriter bin;
    BinarySectionWriter* b = form == WeightsForm::Binary ? &bin : nullptr;
    writeFileAtomically(path, modelFileText(vineCascadeToJson(c, b), b));
}

StageMarginals cascadeStageMarginals(const VineCascade& c, std::size_t stage, const DepSentence& s,
                                     const ArcMask& incoming) {
    if (stage >= c.stages.size()) throw std::invalid_argument("vine cascade: no such stage");
    const auto& st = c.stages[stage];
    return stageMarginals(st.kind, st.band, st.structure, c.singleRoot, st.weights,
                          SentenceAtoms(s), incoming);
}

void appendCascadeStages(DepPipeline& p, const VineCascade& c, std::span<const double> alphas) {
    if (alphas.size() != c.stages.size())
        throw std::invalid_argument("vine cascade: " + std::to_string(c.stages.size()) +
                                    " pruning stages need as many alphas, got " +
                                    std::to_string(alphas.size()));
    for (std::size_t k = 0; k < c.stages.size(); ++k) {
        const VineCascadeStage* st = &c.stages[k];
        const double alpha = alphas[k];
        const bool singleRoot = c.singleRoot;
        ArcPruningStage stage;
        stage.name = st->name;
        stage.exact = st->kind != CascadeStageKind::Vine;
        stage.prune = [st, alpha, singleRoot](const DepSentence&, const ArcMask& incoming,
                                              DepSentenceFeatures& f) {
            const StageMarginals sm =
                stageMarginals(st->kind, st->band, st->structure, singleRoot, st->weights, f,
                               incoming, StageDetail::MaxMarginals);
            return StageResult{stageMask(sm, alpha, incoming), sm.pushes};
        };
        p.addStage(std::move(stage));
    }
}

ArcPruningStage lengthVineStage(int band) {
    if (band < 1) throw std::invalid_argument("length-only vine: band must be >= 1");
    ArcPruningStage stage;
    stage.name = "length-vine";
    stage.prune = [band](const DepSentence& s, const ArcMask& incoming, DepSentenceFeatures&) {
        ArcMask out = incoming;
        for (int h = 1; h <= s.size(); ++h)
            for (int m = 1; m <= s.size(); ++m)
                if (h != m && !vineShortArc(band, h, m)) out.set(h, m, false);
        return StageResult{std::move(out), 0};
    };
    return stage;
}

} // namespace prunescope
