// The arc pruning mask.
#include "core/dep/ArcMask.h"

#include "core/util/JsonDocument.h"

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
    using ptr = nlohmann::json::json_pointer;
    if (!j.is_object() || !j.contains("n") || !j["n"].is_number_integer())
        throw ArcMaskError("arc mask JSON needs an integer field 'n'",
                           j.is_object() && j.contains("n") ? ptr("/n") : ptr());
    // As 64-bit values: 4294967299 is not 3 (get<int> used to wrap it).
    const std::int64_t n64 = j["n"].get<std::int64_t>();
    if (n64 < 1 || n64 > kMaxMaskLength)
        throw ArcMaskError("arc mask length 'n' = " + j["n"].dump() + " is outside [1, " +
                               std::to_string(kMaxMaskLength) + "]",
                           ptr("/n"));
    const int n = static_cast<int>(n64);
    const bool hasKept = j.contains("kept"), hasPruned = j.contains("pruned");
    if (hasKept && hasPruned)
        throw ArcMaskError("arc mask JSON has both 'kept' and 'pruned'", ptr("/pruned"));
    ArcMask m = hasKept ? none(n) : allKeep(n);
    if (!hasKept && !hasPruned) return m;
    const char* key = hasKept ? "kept" : "pruned";
    const auto& list = j[key];
    if (!list.is_array())
        throw ArcMaskError(std::string("arc mask field '") + key +
                               "' must be an array of [h,m] pairs",
                           ptr(std::string("/") + key));
    for (std::size_t x = 0; x < list.size(); ++x) {
        const auto& a = list[x];
        const ptr at(std::string("/") + key + "/" + std::to_string(x));
        if (!a.is_array() || a.size() != 2 || !a[0].is_number_integer() ||
            !a[1].is_number_integer())
            throw ArcMaskError(
                std::string("arc mask field '") + key + "' must hold [h,m] integer pairs", at);
        const std::int64_t h = a[0].get<std::int64_t>(), d = a[1].get<std::int64_t>();
        if (h < 0 || d < 0 || h > n || d > n || !valid(n, static_cast<int>(h), static_cast<int>(d)))
            throw ArcMaskError("arc " + a.dump() + " is not an arc for n=" + std::to_string(n), at);
        m.set(static_cast<int>(h), static_cast<int>(d), hasKept);
    }
    return m;
}

} // namespace prunescope
