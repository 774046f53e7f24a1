// Arc filter files (docs/file-formats.md "Arc filter").
#include "core/filters/ArcFilterFile.h"

#include "core/dep/HashedWeights.h"
#include "core/dep/ModelFile.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"

#include <cmath>
#include <stdexcept>

namespace prunescope {

nlohmann::json arcFilterToJson(const ArcFilter& f, BinarySectionWriter* bin) {
    HashedWeights w;
    w.bits = f.hashBits;
    w.w = f.weights;
    nlohmann::json threshold =
        std::isinf(f.threshold) ? nlohmann::json("inf") : nlohmann::json(f.threshold);
    return {{"format", kArcFilterFormat},
            {"version", kArcFilterFormatVersion},
            {"kind", arcFilterKindName(f.kind)},
            {"featureSet", kFilterFeatureSet},
            {"events", {{"root", f.useRoot}, {"vine", f.useVine}, {"none", f.useNone}}},
            {"threshold", threshold},
            {"training", f.training},
            {"weights", w.toJson(bin)}};
}

ArcFilter arcFilterFromText(std::string text, const std::string& file) {
    const JsonDocument doc(std::move(text), file, "arc filter: ", 1, JsonDocument::Binary::Allowed);
    checkModelHeader(doc, kArcFilterFormat, kArcFilterFormatVersion, "featureSet",
                     kFilterFeatureSet);
    const nlohmann::json& root = doc.root();
    ArcFilter f;
    const auto& kind = doc.member(root, "kind");
    try {
        f.kind = arcFilterKindFromName(doc.string(kind));
    } catch (const std::invalid_argument& e) {
        doc.fail(kind, e.what());
    }
    const auto& events = doc.member(root, "events");
    f.useRoot = doc.boolean(doc.member(events, "root"));
    f.useVine = doc.boolean(doc.member(events, "vine"));
    f.useNone = doc.boolean(doc.member(events, "none"));
    const auto& th = doc.member(root, "threshold");
    if (th.is_string()) {
        if (th.get<std::string>() != "inf") doc.fail(th, "'threshold' must be a number or \"inf\"");
        f.threshold = std::numeric_limits<double>::infinity();
    } else {
        f.threshold = doc.number(th);
    }
    f.training = optionalTraining(doc, root);
    HashedWeights w = weightsMember(doc, root);
    if (w.bits < 10)
        doc.fail(doc.member(doc.member(root, "weights"), "hashBits"),
                 "weights: 'hashBits' must be in [10, 26]");
    f.hashBits = w.bits;
    f.weights = std::move(w.w);
    if (f.kind == ArcFilterKind::Independent && f.useNone)
        doc.fail(events, "an independent filter has no None event");
    return f;
}

void saveArcFilter(const ArcFilter& f, const std::string& path, WeightsForm form) {
    BinarySectionWriter bin;
    BinarySectionWriter* b = form == WeightsForm::Binary ? &bin : nullptr;
    writeFileAtomically(path, modelFileText(arcFilterToJson(f, b), b));
}

ArcFilter loadArcFilter(const std::string& path) {
    return arcFilterFromText(readFile(path), path);
}

} // namespace prunescope
