#include "core/parse/PruningMask.h"

#include "core/parse/Chart.h" // kMaxSentenceLength

#include <stdexcept>

namespace prunescope {

PruningMask PruningMask::allKeep(int n) {
    if (n < 0) throw std::invalid_argument("negative sentence length");
    PruningMask m;
    m.n = n;
    m.bits.assign(static_cast<std::size_t>(n + 1) * (n + 1), 1);
    return m;
}

void PruningMask::set(int i, int k, bool keepIt) {
    if (i < 0 || k > n || i >= k) throw std::invalid_argument("span out of range");
    if (!keepIt && !prunable(n, i, k))
        throw std::invalid_argument("span (" + std::to_string(i) + "," + std::to_string(k) +
                                    ") is not prunable (width 1 or the whole sentence)");
    bits[static_cast<std::size_t>(i) * (n + 1) + k] = keepIt ? 1 : 0;
}

int PruningMask::keptCount() const {
    int c = 0;
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i) c += keep(i, i + w);
    return c;
}

nlohmann::json PruningMask::toJson() const {
    nlohmann::json pruned = nlohmann::json::array();
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            if (!keep(i, i + w)) pruned.push_back({i, i + w});
    return {{"n", n}, {"pruned", pruned}};
}

PruningMask PruningMask::fromJson(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("n") || !j["n"].is_number_integer())
        throw std::invalid_argument("mask JSON needs an integer field 'n'");
    int n = j["n"].get<int>();
    if (n < 0 || n > kMaxSentenceLength) throw std::invalid_argument("mask length 'n' out of range");
    PruningMask m = allKeep(n);
    if (j.contains("pruned")) {
        if (!j["pruned"].is_array()) throw std::invalid_argument("mask field 'pruned' must be an array of [i,k] pairs");
        for (const auto& s : j["pruned"]) {
            if (!s.is_array() || s.size() != 2 || !s[0].is_number_integer() || !s[1].is_number_integer())
                throw std::invalid_argument("mask field 'pruned' must hold [i,k] integer pairs");
            int i = s[0].get<int>(), k = s[1].get<int>();
            if (!prunable(n, i, k))
                throw std::invalid_argument("span [" + std::to_string(i) + "," + std::to_string(k) + "] is not prunable for n=" + std::to_string(n));
            m.set(i, k, false);
        }
    }
    return m;
}

} // namespace prunescope
