// Cube-pruning model file and decoding (CubeModel.h).
#include "core/cube/CubeModel.h"

#include "core/util/AtomicFile.h"
#include "core/util/Clock.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <memory>
#include <stdexcept>

namespace prunescope {

nlohmann::json cubeModelToJson(const CubeModel& m) {
    return {{"format", kCubeModelFormat},
            {"version", 1},
            {"featureTemplates", kCubeFeatureTemplates},
            {"parts", cubeFeatureSetName(m.features)},
            {"singleRoot", m.singleRoot},
            {"beam", m.beam},
            {"training", m.training},
            {"weights", m.weights.toJson()}};
}

CubeModel cubeModelFromJson(const nlohmann::json& j, const std::string& file,
                            const std::string& text) {
    auto bad = [&](const std::string& why) {
        return InputError(file, 0, 0, "cube-pruning model: " + why);
    };
    if (!j.is_object()) throw bad("not a JSON object");
    if (!j.contains("format") || j["format"] != kCubeModelFormat)
        throw bad(std::string("field 'format' must be \"") + kCubeModelFormat + "\"");
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
        throw bad("unsupported 'version' (this build reads version 1)");
    if (!j.contains("featureTemplates") || j["featureTemplates"] != kCubeFeatureTemplates)
        throw bad(std::string("field 'featureTemplates' must be \"") + kCubeFeatureTemplates +
                  "\"");
    CubeModel m;
    if (!j.contains("parts") || !j["parts"].is_string()) throw bad("missing string field 'parts'");
    try {
        m.features = parseCubeFeatureSet(j["parts"].get<std::string>());
    } catch (const std::invalid_argument& e) {
        throw bad(std::string("'parts': ") + e.what());
    }
    if (!j.contains("singleRoot") || !j["singleRoot"].is_boolean())
        throw bad("missing boolean field 'singleRoot'");
    m.singleRoot = j["singleRoot"].get<bool>();
    if (!j.contains("beam") || !j["beam"].is_number_integer() || j["beam"].get<long>() < 1 ||
        j["beam"].get<long>() > 1000000)
        throw bad("'beam' must be an integer in [1, 1000000]");
    m.beam = j["beam"].get<int>();
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
        throw InputError(file, line, column, "cube-pruning model: " + std::string(e.what()));
    }
    return m;
}

void saveCubeModel(const CubeModel& m, const std::string& path) {
    writeFileAtomically(path, cubeModelToJson(m).dump() + "\n");
}

CubeModel loadCubeModel(const std::string& path) {
    const std::string text = readFile(path);
    return cubeModelFromJson(parseJsonDocument(text, path, "cube-pruning model: "), path, text);
}

CubeParse cubeParse(const CubeModel& model, const DepSentence& s, const ArcMask* mask,
                    CubePruner& pruner) {
    if (std::string why; !pruner.fits(s.size(), &why))
        throw InputError(s.file.empty() ? "<input>" : s.file, s.line, 0, why);
    const CubeScorer scorer(model.weights, s, model.features, mask);
    return pruner.parse(scorer);
}

DepDecoder cubeDecoder(const CubeModel& model, int beam, ArcMaskSource masks) {
    CubeOptions o;
    o.beam = beam;
    o.singleRoot = model.singleRoot;
    auto pruner = std::make_shared<CubePruner>(o);
    auto shared = std::make_shared<const CubeModel>(model);
    return [shared, pruner, masks](const DepSentence& s) {
        const CubeModel& model = *shared;
        const double t0 = threadCpuSeconds();
        DepSentenceResult r;
        const long all = static_cast<long>(s.size()) * s.size();
        CubeParse p;
        if (masks) {
            const ArcMask mask = masks(s);
            p = cubeParse(model, s, &mask, *pruner);
            r.arcsAtFirstExact = r.arcsFinal = p.stats.arcsKept;
            r.pushes += p.stats.pushes;
            if (!p.stats.success) ++r.fallbacks;
        }
        if (!masks || !p.stats.success) {
            p = cubeParse(model, s, nullptr, *pruner);
            r.pushes += p.stats.pushes;
            if (!masks) r.arcsAtFirstExact = r.arcsFinal = all;
        }
        r.heads = std::move(p.heads);
        r.success = p.stats.success;
        r.cpuSeconds = threadCpuSeconds() - t0;
        return r;
    };
}

} // namespace prunescope
