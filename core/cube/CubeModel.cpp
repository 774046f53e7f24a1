// Cube-pruning model file and decoding (CubeModel.h).
#include "core/cube/CubeModel.h"

#include "core/dep/ModelFile.h"
#include "core/util/AtomicFile.h"
#include "core/util/Clock.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <memory>
#include <stdexcept>

namespace prunescope {

nlohmann::json cubeModelToJson(const CubeModel& m, BinarySectionWriter* bin) {
    return {{"format", kCubeModelFormat},
            {"version", 1},
            {"featureTemplates", kCubeFeatureTemplates},
            {"parts", cubeFeatureSetName(m.features)},
            {"singleRoot", m.singleRoot},
            {"beam", m.beam},
            {"training", m.training},
            {"weights", m.weights.toJson(bin)}};
}

CubeModel cubeModelFromText(std::string text, const std::string& file) {
    const JsonDocument doc(std::move(text), file, "cube-pruning model: ", 1,
                           JsonDocument::Binary::Allowed);
    ModelFields f =
        readModelFields(doc, kCubeModelFormat, 1, "featureTemplates", kCubeFeatureTemplates);
    const auto& parts = doc.member(doc.root(), "parts");
    CubeFeatureSet features;
    try {
        features = parseCubeFeatureSet(doc.string(parts));
    } catch (const std::invalid_argument& e) {
        doc.fail(parts, std::string("'parts': ") + e.what());
    }
    return {.features = features,
            .singleRoot = f.singleRoot,
            .beam = doc.int32(doc.member(doc.root(), "beam"), 1, 1000000),
            .weights = std::move(f.weights),
            .training = std::move(f.training)};
}

void saveCubeModel(const CubeModel& m, const std::string& path, WeightsForm form) {
    BinarySectionWriter bin;
    BinarySectionWriter* b = form == WeightsForm::Binary ? &bin : nullptr;
    writeFileAtomically(path, modelFileText(cubeModelToJson(m, b), b));
}

CubeModel loadCubeModel(const std::string& path) {
    return cubeModelFromText(readFile(path), path);
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
