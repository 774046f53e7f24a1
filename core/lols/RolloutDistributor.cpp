// The round-robin share of a minibatch one rank rolls out (Alg. 2 lines 5-11;
// RolloutDistributor.h).
#include "core/lols/RolloutDistributor.h"

namespace prunescope {

std::vector<int> rolloutShare(int count, int rank, int ranks) {
    std::vector<int> out;
    for (int j = rank; j < count; j += ranks)
        out.push_back(j);
    return out;
}

} // namespace prunescope
