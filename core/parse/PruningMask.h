#pragma once
// The span pruning mask m of Alg. 1: m[i,k] = 1 keeps span (i,k), 0 prunes it.
// Only spans with 1 < k-i < n are prunable; width-1 spans and the whole sentence are always kept.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct PruningMask {
    int n = 0;
    std::vector<std::uint8_t> bits; // bits[i*(n+1)+k]

    static PruningMask allKeep(int n);
    static bool prunable(int n, int i, int k) { return k - i > 1 && k - i < n && i >= 0 && k <= n; }
    bool keep(int i, int k) const { return bits[static_cast<std::size_t>(i) * (n + 1) + k] != 0; }
    // Throws std::invalid_argument for a span that is not prunable (unless keep == true).
    void set(int i, int k, bool keep);
    void flip(int i, int k) { set(i, k, !keep(i, k)); }
    // ||m||_0 over the T prunable spans (the rDP runtime surrogate).
    int keptCount() const;
    // T = n(n+1)/2 - 1 - n, the number of prunable spans (trajectory length, sec. 5).
    static int prunableCount(int n) { return n * (n + 1) / 2 - 1 - n; }
    bool operator==(const PruningMask&) const = default;

    // {"n": 5, "pruned": [[0,2],[1,3]]}: lists pruned spans (compact for typical masks).
    nlohmann::json toJson() const;
    // Strict: n and every i, k must be integers that fit (4294967303 is not 7), 0 <= n <= 4095,
    // each span prunable. Throws std::invalid_argument.
    static PruningMask fromJson(const nlohmann::json& j);
};

// A mask file (docs/file-formats.md): one mask object or an array of them, one per sentence.
// Errors are InputError(file, line, column) at the offending value.
std::vector<PruningMask> masksFromJsonText(const std::string& text, const std::string& file);
std::vector<PruningMask> readMaskFile(const std::string& path);

} // namespace prunescope
