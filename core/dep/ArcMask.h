#pragma once
// The arc pruning mask: one bit per possible dependency arc (h, m), h in [0, n] (0 = root),
// m in [1, n], h != m; 1 keeps the arc, 0 prunes it. The dependency sibling of PruningMask (a bit
// per span): every dependency pruner produces one (vine cascade, arc filters, cube pruning's
// restriction) and every dependency parser consumes one (pruned arcs are never built).
// There are n * n possible arcs (n heads for each of the n modifiers).
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct ArcMask {
    int n = 0;
    std::vector<std::uint8_t> bits; // bits[h * (n + 1) + m]; self arcs and m = 0 are always 0

    static ArcMask allKeep(int n);
    static ArcMask none(int n); // every arc pruned
    static bool valid(int n, int h, int m) {
        return h >= 0 && h <= n && m >= 1 && m <= n && h != m;
    }
    static long totalArcs(int n) { return static_cast<long>(n) * n; }

    bool keep(int h, int m) const {
        return bits[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                    static_cast<std::size_t>(m)] != 0;
    }
    // Throws std::invalid_argument for an arc that is not valid().
    void set(int h, int m, bool keep);
    void flip(int h, int m) { set(h, m, !keep(h, m)); }
    long keptCount() const;
    double keptFraction() const {
        return n > 0 ? static_cast<double>(keptCount()) / static_cast<double>(totalArcs(n)) : 1.0;
    }
    // Keeps only arcs both masks keep (same n; throws std::invalid_argument otherwise).
    void intersect(const ArcMask& other);
    // Whether every arc of heads (size n + 1, heads[0] = -1) is kept.
    bool keepsTree(const std::vector<int>& heads) const;
    bool operator==(const ArcMask&) const = default;

    // {"n": 5, "pruned": [[h,m], ...]} or {"n": 5, "kept": [[h,m], ...]}, whichever is shorter.
    nlohmann::json toJson() const;
    // Accepts either form (exactly one of "kept"/"pruned"; neither = keep all). Throws
    // ArcMaskError (a std::invalid_argument) naming the bad entry and where it is.
    static ArcMask fromJson(const nlohmann::json& j);
};

// A bad arc mask: `where` is the offending value's JSON pointer ("/pruned/3"), so a reader on
// JsonDocument can name its line:column (core/dep/ArcMaskFile).
struct ArcMaskError : std::invalid_argument {
    ArcMaskError(const std::string& what, nlohmann::json::json_pointer at)
        : std::invalid_argument(what), where(std::move(at)) {}
    nlohmann::json::json_pointer where;
};

} // namespace prunescope
