#pragma once
// LOLS rollouts over MPI ranks (Vieira & Eisner 2017, Alg. 2 lines 5-11; sec. 7 trained on a
// cluster): rank 0 runs the trainer (retraining, dev evaluation, the run directory) and, each
// iteration, broadcasts (t, pi_t); every rank rolls out its round-robin share of the minibatch
// (rolloutShare) on its threads; rank 0 gathers the reward vectors and places them in position
// order, so results are bit-identical to one process (RolloutDistributor.h's contract).
// Only this library calls MPI; core/lols stays MPI-free. Waits poll (MPI_Test + a 1 ms sleep), so
// an idle rank does not spin a core that the busy one needs. Messages: docs/user-guide.md
// "Running LOLS on a cluster"; design: docs/architecture.md "Distributed rollouts".
#include "core/lols/LolsTrainer.h"
#include "core/lols/RolloutDistributor.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace prunescope {

// MPI_Init_thread (FUNNELED: only the thread that made it calls MPI) and MPI_Finalize.
class MpiWorld {
  public:
    MpiWorld();
    ~MpiWorld();
    MpiWorld(const MpiWorld&) = delete;
    MpiWorld& operator=(const MpiWorld&) = delete;
    int rank() const { return rank_; }
    int size() const { return size_; }
    int localSize() const { return localSize_; } // ranks on this node (MPI_COMM_TYPE_SHARED)
    // Ends every rank of the job now (MPI_Abort) with `code`.
    [[noreturn]] static void abort(int code);

  private:
    int rank_ = 0, size_ = 1, localSize_ = 1;
};

// True when this process was started by an MPI launcher (mpirun, srun with PMI/PMIx).
bool launchedByMpi();

// Rank 0 sends `text` (empty = "the run did not start; exit"), every rank returns it.
std::string broadcastRunConfig(const std::string& text);

struct MpiTraffic { // bytes per iteration, for the log and docs/benchmarks.md
    std::uint64_t policyBytes = 0, rolloutBytes = 0;
};

// Rank 0's distributor. If *cancel becomes set (Ctrl-C, or mpirun's SIGTERM after another rank
// died) while rank 0 waits for other ranks, the iteration cannot finish: it prints why on stderr
// and ends the job with exit code 130; every committed iteration is kept (resume with --resume).
// onIteration (optional) sees each iteration's traffic.
RolloutDistributor
mpiRolloutDistributor(const std::atomic<bool>* cancel,
                      std::function<void(int iteration, const MpiTraffic&)> onIteration = {});
// Rank 0: no more iterations; releases serveRollouts on every other rank.
void stopRolloutWorkers();
// Ranks > 0: serve rollout requests with trainer.rollOut until rank 0 stops them.
void serveRollouts(const LolsTrainer& trainer);

} // namespace prunescope
