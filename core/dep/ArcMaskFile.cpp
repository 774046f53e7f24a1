// Arc mask files (ArcMaskFile.h).
#include "core/dep/ArcMaskFile.h"

#include "core/util/AtomicFile.h"
#include "core/util/JsonDocument.h"

#include <limits>

namespace prunescope {

ArcMaskFile loadArcMaskFile(const std::string& path) {
    const JsonDocument doc(readFile(path), path, "arc mask: ");
    const nlohmann::json& root = doc.root();
    ArcMaskFile f;
    try {
        f.mask = ArcMask::fromJson(root);
    } catch (const ArcMaskError& e) {
        doc.fail(root.contains(e.where) ? root.at(e.where) : root, e.what());
    }
    if (const nlohmann::json* s = doc.optionalMember(root, "sentence")) {
        f.sentence = doc.int32(*s, 1, std::numeric_limits<int>::max());
        f.sentenceAt = doc.location(*s);
    }
    return f;
}

} // namespace prunescope
