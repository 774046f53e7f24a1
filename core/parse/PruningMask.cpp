#include "core/parse/PruningMask.h"

#include "core/parse/Chart.h"
#include "core/util/AtomicFile.h"
#include "core/util/JsonDocument.h"

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
        for (int i = 0; i + w <= n; ++i)
            c += keep(i, i + w);
    return c;
}

nlohmann::json PruningMask::toJson() const {
    nlohmann::json pruned = nlohmann::json::array();
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            if (!keep(i, i + w)) pruned.push_back({i, i + w});
    return {{"n", n}, {"pruned", pruned}};
}

namespace {

// Reads one mask object; fail(value, message) reports a problem at a value and does not return.
template <class Fail> PruningMask maskFromJson(const nlohmann::json& j, Fail&& fail) {
    auto integer = [&](const nlohmann::json& v, const char* what, int lo, int hi) {
        if (!v.is_number_integer()) fail(v, std::string(what) + " must be an integer");
        const bool fits = v.is_number_unsigned()
                              ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi)
                              : v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= hi;
        if (!fits)
            fail(v, std::string(what) + " = " + v.dump() + " is outside [" + std::to_string(lo) +
                        ", " + std::to_string(hi) + "]");
        return static_cast<int>(v.get<std::int64_t>());
    };
    if (!j.is_object())
        fail(j, "a mask must be a JSON object {\"n\": N, \"pruned\": [[i,k], ...]}");
    auto nIt = j.find("n");
    if (nIt == j.end()) fail(j, "mask JSON needs an integer field 'n'");
    const int n = integer(*nIt, "mask length 'n'", 0, kMaxSentenceLength);
    PruningMask m = PruningMask::allKeep(n);
    if (auto p = j.find("pruned"); p != j.end()) {
        if (!p->is_array()) fail(*p, "mask field 'pruned' must be an array of [i,k] pairs");
        for (const auto& s : *p) {
            if (!s.is_array() || s.size() != 2)
                fail(s, "mask field 'pruned' must hold [i,k] integer pairs");
            const int i = integer(s[0], "span start i", 0, n);
            const int k = integer(s[1], "span end k", 0, n);
            if (!PruningMask::prunable(n, i, k))
                fail(s, "span [" + std::to_string(i) + "," + std::to_string(k) +
                            "] is not prunable for n=" + std::to_string(n) +
                            " (needs 1 < k-i < n)");
            m.set(i, k, false);
        }
    }
    return m;
}

} // namespace

PruningMask PruningMask::fromJson(const nlohmann::json& j) {
    return maskFromJson(j, [](const nlohmann::json&, const std::string& msg) -> void {
        throw std::invalid_argument(msg);
    });
}

std::vector<PruningMask> masksFromJsonText(const std::string& text, const std::string& file) {
    const JsonDocument doc(text, file, "mask file: ");
    auto fail = [&](const nlohmann::json& v, const std::string& msg) -> void { doc.fail(v, msg); };
    std::vector<PruningMask> masks;
    if (doc.root().is_array()) {
        for (const auto& m : doc.root())
            masks.push_back(maskFromJson(m, fail));
    } else {
        masks.push_back(maskFromJson(doc.root(), fail));
    }
    return masks;
}

std::vector<PruningMask> readMaskFile(const std::string& path) {
    return masksFromJsonText(readFile(path), path);
}

} // namespace prunescope
