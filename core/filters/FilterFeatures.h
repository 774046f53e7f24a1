#pragma once
// Hashed features of the filtering events (Cherry & Bergsma 2011, sec. 2-3; token features after
// Bergsma & Cherry 2010): a token role event NaH_t .. Root_t sees token t's word, POS, prefix,
// its neighbours' words and POS (+-2), tag n-grams, its position (distance to both sentence
// ends) and which coarse tags occur to its left / right; Vine_a and None_a see the sec. 3 pair
//   { Bias : 1,  HeadTag ModTag Dir(a) : Len(a) }.
// Every event kind owns its own copy of the weight space: a key is mixed with the kind before it
// is bucketed (util/FeatureHash.h), so one weight vector w-bar holds all subclassifiers.
// Templates: docs/filters.md.
#include "core/dep/ArcFeatures.h"
#include "core/filters/FilterEvents.h"
#include "core/util/FeatureHash.h"

#include <cstdint>
#include <vector>

namespace prunescope {

inline constexpr const char* kFilterFeatureSet = "filters-v1";

// Appends the (kind-independent) keys of token t (1 <= t <= n) to out.
void tokenFeatureKeys(const SentenceAtoms& a, int t, std::vector<std::uint64_t>& out);
// The key of a token key under an event kind (NaH .. Root).
inline std::uint64_t eventKey(std::uint64_t key, FilterEventKind kind) {
    return mixKey(key, 0xF117E5ull + static_cast<std::uint64_t>(kind));
}

// The two arc-level features of Vine_a / None_a: bias (value 1) and the tag pair with direction
// (value Len(a) = |h - m|).
struct ArcLengthFeatures {
    std::uint64_t biasKey = 0, pairKey = 0; // already mixed with the kind
    float length = 0;
};
ArcLengthFeatures arcLengthFeatures(const SentenceAtoms& a, int h, int m, FilterEventKind kind);

} // namespace prunescope
