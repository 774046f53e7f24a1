// The arc pruning mask.
#include "core/dep/ArcMask.h"

#include <stdexcept>
#include <string>

namespace prunescope {

namespace {
constexpr int kMaxMaskLength = 4095;
}

ArcMask ArcMask::allKeep(int n) {
    ArcMask m = none(n);
    for (int h = 0; h <= n; ++h)
        for (int d = 1; d <= n; ++d)
            if (h != d)
                m.bits[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                       static_cast<std::size_t>(d)] = 1;
    return m;
}

ArcMask ArcMask::none(int n) {
    if (n < 0 || n > kMaxMaskLength)
        throw std::invalid_argument("arc mask: sentence length out of range");
    ArcMask m;
    m.n = n;
    m.bits.assign(static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(n + 1), 0);
    return m;
}

void ArcMask::set(int h, int m, bool keepIt) {
    if (!valid(n, h, m))
        throw std::invalid_argument("arc (" + std::to_string(h) + "," + std::to_string(m) +
                                    ") is not an arc of a " + std::to_string(n) +
                                    "-token sentence");
    bits[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
         static_cast<std::size_t>(m)] = keepIt ? 1 : 0;
}

long ArcMask::keptCount() const {
    long c = 0;
    for (auto b : bits)
        c += b;
    return c;
}

void ArcMask::intersect(const ArcMask& other) {
    if (other.n != n) throw std::invalid_argument("arc masks of different lengths");
    for (std::size_t i = 0; i < bits.size(); ++i)
        bits[i] = static_cast<std::uint8_t>(bits[i] & other.bits[i]);
}

bool ArcMask::keepsTree(const std::vector<int>& heads) const {
    if (static_cast<int>(heads.size()) != n + 1) return false;
    for (int m = 1; m <= n; ++m)
        if (!valid(n, heads[static_cast<std::size_t>(m)], m) ||
            !keep(heads[static_cast<std::size_t>(m)], m))
            return false;
    return true;
}

nlohmann::json ArcMask::toJson() const {
    const long kept = keptCount();
    const bool listKept = kept <= totalArcs(n) - kept;
    nlohmann::json list = nlohmann::json::array();
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            if (h != m && keep(h, m) == listKept) list.push_back({h, m});
    return {{"n", n}, {listKept ? "kept" : "pruned", list}};
}

ArcMask ArcMask::fromJson(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("n") || !j["n"].is_number_integer())
        throw std::invalid_argument("arc mask JSON needs an integer field 'n'");
    const int n = j["n"].get<int>();
    if (n < 1 || n > kMaxMaskLength)
        throw std::invalid_argument("arc mask length 'n' out of range");
    const bool hasKept = j.contains("kept"), hasPruned = j.contains("pruned");
    if (hasKept && hasPruned)
        throw std::invalid_argument("arc mask JSON has both 'kept' and 'pruned'");
    ArcMask m = hasKept ? none(n) : allKeep(n);
    if (!hasKept && !hasPruned) return m;
    const char* key = hasKept ? "kept" : "pruned";
    const auto& list = j[key];
    if (!list.is_array())
        throw std::invalid_argument(std::string("arc mask field '") + key +
                                    "' must be an array of [h,m] pairs");
    for (const auto& a : list) {
        if (!a.is_array() || a.size() != 2 || !a[0].is_number_integer() ||
            !a[1].is_number_integer())
            throw std::invalid_argument(std::string("arc mask field '") + key +
                                        "' must hold [h,m] integer pairs");
        const int h = a[0].get<int>(), d = a[1].get<int>();
        if (!valid(n, h, d))
            throw std::invalid_argument("arc [" + std::to_string(h) + "," + std::to_string(d) +
                                        "] is not an arc for n=" + std::to_string(n));
        m.set(h, d, hasKept);
    }
    return m;
}

} // namespace prunescope
