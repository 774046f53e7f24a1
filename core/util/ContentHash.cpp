// Content digests (ContentHash.h).
#include "core/util/ContentHash.h"

#include <murmurhash.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace prunescope {

std::string contentHash(std::string_view bytes) {
    // lmmh_x64_128 takes an unsigned int length: hash 1 MiB chunks, each seeded by the digest so
    // far (the length of the whole enters through the last chunk's seed chain and the final mix).
    constexpr std::size_t kChunk = std::size_t{1} << 20;
    std::uint64_t h[2] = {0x5052554E45534350ull, static_cast<std::uint64_t>(bytes.size())};
    std::size_t pos = 0;
    do {
        const std::size_t len = std::min(kChunk, bytes.size() - pos);
        std::uint64_t out[2];
        const auto seed = static_cast<std::uint32_t>(h[0] ^ (h[0] >> 32) ^ h[1] ^ (h[1] >> 32));
        lmmh_x64_128(bytes.data() + pos, static_cast<unsigned int>(len), seed, out);
        h[0] ^= out[0];
        h[1] = h[1] * 0x9E3779B97F4A7C15ull ^ out[1];
        pos += len;
    } while (pos < bytes.size());
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h[0]),
                  static_cast<unsigned long long>(h[1]));
    return buf;
}

} // namespace prunescope
