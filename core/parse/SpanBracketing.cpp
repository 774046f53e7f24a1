// Binary bracketings over a pruning mask's kept spans (see SpanBracketing.h).
#include "core/parse/SpanBracketing.h"

#include <algorithm>

namespace prunescope {

bool SpanBracketing::exists(const PruningMask& mask) {
    const int n = mask.n;
    if (n <= 0) return false;
    if (n != n_) {
        n_ = n;
        words_ = (n + 1 + 63) / 64;
        startsAt_.resize(static_cast<std::size_t>(n + 1) * words_);
        endsAt_.resize(static_cast<std::size_t>(n + 1) * words_);
    }
    std::fill(startsAt_.begin(), startsAt_.end(), 0);
    std::fill(endsAt_.begin(), endsAt_.end(), 0);
    const auto set = [&](int i, int k) {
        startsAt_[static_cast<std::size_t>(i) * words_ + (k >> 6)] |= std::uint64_t{1} << (k & 63);
        endsAt_[static_cast<std::size_t>(k) * words_ + (i >> 6)] |= std::uint64_t{1} << (i & 63);
    };
    for (int i = 0; i < n; ++i)
        set(i, i + 1);
    // Width by width, (i,k) is bracketable when kept and some split j has (i,j) and (j,k)
    // bracketable: bit j of startsAt_[i] and of endsAt_[k]. Only narrower spans are set yet, so i <
    // j < k.
    for (int w = 2; w <= n; ++w)
        for (int i = 0, k = w; k <= n; ++i, ++k) {
            if (w < n && !mask.keep(i, k)) continue;
            const std::uint64_t* a = startsAt_.data() + static_cast<std::size_t>(i) * words_;
            const std::uint64_t* b = endsAt_.data() + static_cast<std::size_t>(k) * words_;
            for (int q = (i + 1) >> 6; q <= (k - 1) >> 6; ++q)
                if (a[q] & b[q]) {
                    set(i, k);
                    break;
                }
        }
    return (startsAt_[(n >> 6)] >> (n & 63)) & 1;
}

} // namespace prunescope
