#pragma once
// Feature hashing shared by every learner (span policies, dependency arc models, arc filters,
// cube pruning): one string hash (MurmurHash3 x86_32, fixed seed) for the atoms (words, tags,
// template names), and one integer mixer to conjoin atoms into a feature without building strings.
// A feature is a 64-bit key; a model with 2^bits weights reads bucket featureBucket(key, bits).
// docs/policies.md (span templates) and docs/dependency.md (arc templates) list the templates.
#include <cstdint>
#include <string_view>

namespace prunescope {

constexpr std::uint32_t kFeatureHashSeed = 2017u; // MurmurHash3 x86_32 seed (fixed forever)

// MurmurHash3 (lmmh_x86_32, seed kFeatureHashSeed) of the bytes of s, all 32 bits.
std::uint32_t murmurHash32(std::string_view s);

// Conjoins one more atom into a feature key (MurmurHash3's fmix64 over a multiply-xor step):
// order-sensitive, platform independent, and cheap enough for the inner loops of feature
// extraction. featureKey(t, a, b) = mixKey(mixKey(mixKey(0, t), a), b).
inline std::uint64_t mixKey(std::uint64_t key, std::uint64_t atom) {
    std::uint64_t z =
        (key ^ (atom + 0x9E3779B97F4A7C15ull + (key << 6) + (key >> 2))) * 0xFF51AFD7ED558CCDull;
    z ^= z >> 33;
    z *= 0xC4CEB9FE1A85EC53ull;
    z ^= z >> 33;
    return z;
}
template <typename... Atoms>
inline std::uint64_t featureKey(std::uint64_t templateId, Atoms... atoms) {
    std::uint64_t k = mixKey(0, templateId);
    ((k = mixKey(k, static_cast<std::uint64_t>(atoms))), ...);
    return k;
}

// The weight index of a key in a table of 2^bits weights (1 <= bits <= 30).
inline std::uint32_t featureBucket(std::uint64_t key, int bits) {
    return static_cast<std::uint32_t>((key ^ (key >> 32)) & ((1ull << bits) - 1ull));
}

} // namespace prunescope
