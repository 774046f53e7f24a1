#pragma once
// Where one LOLS iteration's roll-ins and rollouts run (Vieira & Eisner 2017, Alg. 2 lines 5-11):
// the seam between LolsTrainer and its workers. The trainer hands a distributor the iteration, the
// roll-in policy pi_t and the minibatch size; the distributor returns one SentenceRollouts per
// minibatch position, in position order, however it spread the work. The default runs every
// position on this process's threads (parallelFor); core/lols_mpi spreads positions over MPI ranks.
//
// Contract (docs/architecture.md "Distributed rollouts"): a distributor's result must equal
// local(all positions) field for field in everything the trainer reads (entries, states, weight,
// rollInAccuracy, rollInRuntime, skipped; `rollouts` may be left empty), so datasets, weights and
// log lines are bit-identical for any number of ranks and threads. A distributor must return
// (not throw) once `local` has thrown or been cancelled, after finishing its own exchanges, and
// may rethrow `local`'s exception after that; the trainer then checks the cancel flag.
#include "core/lols/Lols.h"
#include "core/policy/Policy.h"

#include <functional>
#include <span>
#include <vector>

namespace prunescope {

// Alg. 2 lines 6-11 for some minibatch positions on this process (results in the order given).
using LocalRollouts = std::function<std::vector<SentenceRollouts>(std::span<const int> positions)>;

struct RolloutDistributor {
    // Empty = run all positions locally.
    std::function<std::vector<SentenceRollouts>(int iteration, const Policy& rollIn, int count,
                                                const LocalRollouts& local)>
        collect;
};

// The positions rank `rank` of `ranks` rolls out: rank, rank + ranks, rank + 2*ranks, ... (round
// robin, so long and short sentences spread evenly whatever the minibatch's order).
std::vector<int> rolloutShare(int count, int rank, int ranks);

} // namespace prunescope
