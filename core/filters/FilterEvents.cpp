// Filtering events and Z_a (Cherry & Bergsma 2011, sec. 2-3).
#include "core/filters/FilterEvents.h"

#include <algorithm>

namespace prunescope {

const char* filterEventKindName(FilterEventKind k) {
    switch (k) {
    case FilterEventKind::NaH:
        return "NaH";
    case FilterEventKind::HtL1:
        return "HtL1";
    case FilterEventKind::HtL5:
        return "HtL5";
    case FilterEventKind::HtLStar:
        return "HtL*";
    case FilterEventKind::HtR1:
        return "HtR1";
    case FilterEventKind::HtR5:
        return "HtR5";
    case FilterEventKind::HtRStar:
        return "HtR*";
    case FilterEventKind::Root:
        return "Root";
    case FilterEventKind::Vine:
        return "Vine";
    case FilterEventKind::None:
        return "None";
    }
    return "?";
}

std::string FilterEvent::name() const {
    if (kind == FilterEventKind::Vine || kind == FilterEventKind::None)
        return std::string(filterEventKindName(kind)) + "(" + std::to_string(head) + "," +
               std::to_string(mod) + ")";
    return std::string(filterEventKindName(kind)) + std::to_string(token);
}

namespace {
// Whether "t's head is the token h" agrees with the role (h >= 1 is a token, 0 is the root).
bool headAgrees(FilterEventKind role, int t, int h) {
    if (h < 1) return false; // the root is not a token on either side
    const int d = t - h;     // > 0: head on the left
    switch (role) {
    case FilterEventKind::HtL1:
        return d == 1;
    case FilterEventKind::HtL5:
        return d >= 1 && d <= 5;
    case FilterEventKind::HtLStar:
        return d >= 1;
    case FilterEventKind::HtR1:
        return d == -1;
    case FilterEventKind::HtR5:
        return d <= -1 && d >= -5;
    case FilterEventKind::HtRStar:
        return d <= -1;
    default:
        return true;
    }
}
} // namespace

bool roleFilters(FilterEventKind role, int t, int h, int m) {
    switch (role) {
    case FilterEventKind::NaH:
        return h == t;
    case FilterEventKind::HtL1:
    case FilterEventKind::HtL5:
    case FilterEventKind::HtLStar:
    case FilterEventKind::HtR1:
    case FilterEventKind::HtR5:
    case FilterEventKind::HtRStar:
        return m == t && !headAgrees(role, t, h);
    case FilterEventKind::Root:
        if (h == 0) return m != t;
        if (m == t) return true;
        return std::min(h, m) < t && t < std::max(h, m);
    default:
        return false;
    }
}

std::vector<FilterEvent> filteringEvents(int n, int h, int m, bool withRoot, bool withVine) {
    std::vector<FilterEvent> z;
    const int last = withRoot ? kTokenRoleCount : kTokenRoleCount - 1;
    for (int r = 0; r < last; ++r)
        for (int t = 1; t <= n; ++t)
            if (roleFilters(static_cast<FilterEventKind>(r), t, h, m))
                z.push_back({static_cast<FilterEventKind>(r), t, -1, -1});
    if (withVine) z.push_back({FilterEventKind::Vine, -1, h, m});
    return z;
}

} // namespace prunescope
