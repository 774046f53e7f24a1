#pragma once
// Filtering events and Z_a (Cherry & Bergsma 2011, sec. 2-3, Figure 1): the eight token roles of
// Bergsma & Cherry 2010 (NaH, HtL1/5/*, HtR1/5/*, Root), the arc-level Vine event and the
// rejection event None_a. Z_a is the set of events that filter arc a = (h, m) when detected.
//
// Role semantics (positions as in DepSentence: 0 = root, tokens 1..n; docs/filters.md):
//   NaH_t      t heads no arc                  -> filters every arc (t, m)
//   HtL{1,5,*}_t t's head is a token to its left within 1 / 5 / any words
//                                                -> filters (h, t) unless 1 <= h, t - h in range
//   HtR{1,5,*}_t the same to the right
//   Root_t     t is the root's modifier         -> filters (h, t) for h >= 1, (0, m) for m != t,
//                                                  and every arc (h, m), h >= 1, spanning t
//                                                  (projectivity)
//   Vine_a     arc a is filtered by its length and tags (sec. 3)
//   None_a     the rejection event: a is kept (never in Z_a)
#include <cstdint>
#include <string>
#include <vector>

namespace prunescope {

enum class FilterEventKind : std::uint8_t {
    NaH = 0,
    HtL1,
    HtL5,
    HtLStar,
    HtR1,
    HtR5,
    HtRStar,
    Root,
    Vine,
    None
};
inline constexpr int kTokenRoleCount = 8; // NaH .. Root
inline constexpr int kFilterEventKinds = 10;

// "NaH", "HtL1", "HtL5", "HtL*", "HtR1", "HtR5", "HtR*", "Root", "Vine", "None".
const char* filterEventKindName(FilterEventKind k);

// One event: a token role of `token` (NaH .. Root), or an arc event (Vine, None) of (head, mod).
struct FilterEvent {
    FilterEventKind kind = FilterEventKind::None;
    int token = -1;          // role events
    int head = -1, mod = -1; // arc events
    bool operator==(const FilterEvent&) const = default;
    // "NaH3", "HtR*6", "Vine(3,6)", "None(3,6)".
    std::string name() const;
};

// Whether detecting token role `role` of token t filters arc (h, m) (h in [0,n], m in [1,n]).
bool roleFilters(FilterEventKind role, int t, int h, int m);

// Z_a for a = (h, m) in a sentence of n tokens (the naive definition; ArcFilterScorer's fast
// maximum is held to it by tests). withRoot / withVine add the Root and Vine events.
std::vector<FilterEvent> filteringEvents(int n, int h, int m, bool withRoot = true,
                                         bool withVine = true);

} // namespace prunescope
