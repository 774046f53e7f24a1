// MurmurHash3 of feature atoms (libmurmurhash).
#include "core/util/FeatureHash.h"

#include <murmurhash.h>

namespace prunescope {

std::uint32_t murmurHash32(std::string_view s) {
    std::uint32_t out[1] = {0};
    lmmh_x86_32(s.data(), static_cast<unsigned int>(s.size()), kFeatureHashSeed, out);
    return out[0];
}

} // namespace prunescope
