// Policy -> pruning mask (Vieira & Eisner 2017, Alg. 1 line 14): the hot path at test time.
#include "core/policy/PolicyMask.h"

#include <string>
#include <vector>

namespace prunescope {

void policyMaskInto(const Policy& p, const SentenceFeatures& f, PruningMask& out) {
    const int n = f.length();
    out.n = n;
    out.bits.assign(static_cast<std::size_t>(n + 1) * (n + 1), 1); // reuses capacity
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            out.bits[static_cast<std::size_t>(i) * (n + 1) + (i + w)] =
                p.keep(f.features(i, i + w)) ? 1 : 0;
}

PruningMask policyMask(const Policy& p, const SentenceFeatures& f) {
    PruningMask m;
    policyMaskInto(p, f, m);
    return m;
}

MaskFunction policyMaskFunction(const Policy& p) {
    const Policy* policy = &p;
    return [policy](std::span<const std::string> words) {
        const SentenceFeatures f(std::vector<std::string>(words.begin(), words.end()));
        return policyMask(*policy, f);
    };
}

} // namespace prunescope
