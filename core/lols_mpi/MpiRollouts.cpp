// LOLS rollouts over MPI ranks (Alg. 2 lines 5-11; MpiRollouts.h).
#include "core/lols_mpi/MpiRollouts.h"
#include "core/lols/RolloutWire.h"

#include <mpi.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace prunescope {

namespace {

enum Command : std::int64_t { kStop = 0, kRollOut = 1 };

void check(int rc, const char* what) {
    if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// Completes r, sleeping 1 ms between tests. With `cancel` set it returns false (r is abandoned).
bool await(MPI_Request& r, const std::atomic<bool>* cancel = nullptr) {
    for (;;) {
        int done = 0;
        check(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done) return true;
        if (cancel && cancel->load()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void broadcast(void* data, int count, MPI_Datatype type,
               const std::atomic<bool>* cancel = nullptr) {
    MPI_Request r;
    check(MPI_Ibcast(data, count, type, 0, MPI_COMM_WORLD, &r), "MPI_Ibcast");
    if (!await(r, cancel)) throw std::runtime_error("cancelled");
}

int toCount(std::uint64_t bytes, const char* what) {
    if (bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        throw std::runtime_error(
            std::string("MPI: ") + what + " of " + std::to_string(bytes) +
            " bytes exceeds one message's 2 GiB limit (use a smaller --minibatch)");
    return static_cast<int>(bytes);
}

// Every rank sends `mine`; rank 0 returns all of them (rank order), the others an empty vector.
// Returns false on rank 0 if cancelled while waiting.
bool gatherBytes(const std::string& mine, std::vector<std::string>& all,
                 const std::atomic<bool>* cancel) {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::uint64_t mySize = mine.size();
    std::vector<std::uint64_t> sizes(rank == 0 ? size : 0);
    MPI_Request r;
    check(
        MPI_Igather(&mySize, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &r),
        "MPI_Igather");
    if (!await(r, cancel)) return false;
    std::vector<int> counts, displs;
    std::string buffer;
    if (rank == 0) {
        std::uint64_t total = 0;
        for (std::uint64_t s : sizes) {
            counts.push_back(toCount(s, "one rank's rollouts"));
            displs.push_back(toCount(total, "one iteration's rollouts"));
            total += s;
        }
        toCount(total, "one iteration's rollouts");
        buffer.resize(total);
    }
    check(MPI_Igatherv(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, buffer.data(),
                       counts.data(), displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD, &r),
          "MPI_Igatherv");
    if (!await(r, cancel)) return false;
    if (rank == 0)
        for (int x = 0; x < size; ++x)
            all.push_back(buffer.substr(displs[x], counts[x]));
    return true;
}

// A test-only hook (tests/lols_mpi): PRUNESCOPE_TEST_KILL_RANK_AT="r:t" makes rank r die by
// SIGKILL when asked for iteration t's rollouts, as a crashed node would.
void maybeDieForTest(int rank, int iteration) {
    const char* spec = std::getenv("PRUNESCOPE_TEST_KILL_RANK_AT");
    if (!spec) return;
    int r = -1, t = -1;
    if (std::sscanf(spec, "%d:%d", &r, &t) == 2 && r == rank && t == iteration) std::raise(SIGKILL);
}

} // namespace

MpiWorld::MpiWorld() {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw std::runtime_error("MPI: MPI_Init_thread failed");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local) ==
        MPI_SUCCESS) {
        MPI_Comm_size(local, &localSize_);
        MPI_Comm_free(&local);
    }
}

MpiWorld::~MpiWorld() {
    MPI_Finalize();
}

void MpiWorld::abort(int code) {
    std::cerr.flush();
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code); // not reached
}

bool launchedByMpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
        if (std::getenv(v)) return true;
    return false;
}

std::string broadcastRunConfig(const std::string& text) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::uint64_t size = text.size();
    broadcast(&size, 1, MPI_UINT64_T);
    std::string out = rank == 0 ? text : std::string(size, '\0');
    broadcast(out.data(), toCount(size, "config.json"), MPI_BYTE);
    return out;
}

RolloutDistributor mpiRolloutDistributor(const std::atomic<bool>* cancel,
                                         std::function<void(int, const MpiTraffic&)> onIteration) {
    RolloutDistributor d;
    d.collect = [cancel, onIteration](int iteration, const Policy& rollIn, int count,
                                      const LocalRollouts& local) {
        int size = 1;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        auto giveUp = [&] {
            std::cerr << "lols: stopped while other ranks were rolling out iteration " << iteration
                      << " (a cancel, or a rank died); the iterations before it are kept (continue "
                         "with --resume)\n";
            MpiWorld::abort(130);
        };
        const std::string policy = encodeRollInPolicy(rollIn);
        std::int64_t header[4] = {kRollOut, iteration, count,
                                  static_cast<std::int64_t>(policy.size())};
        try {
            broadcast(header, 4, MPI_INT64_T, cancel);
            broadcast(const_cast<char*>(policy.data()), toCount(policy.size(), "the policy"),
                      MPI_BYTE, cancel);
        } catch (const std::runtime_error&) {
            giveUp();
        }
        // Rank 0's own share; an exception waits until the exchange is complete (the contract).
        const std::vector<int> mine = rolloutShare(count, 0, size);
        std::vector<SentenceRollouts> out(static_cast<std::size_t>(count));
        std::exception_ptr failure;
        try {
            const auto results = local(mine);
            for (std::size_t x = 0; x < mine.size(); ++x)
                out[static_cast<std::size_t>(mine[x])] = results[x];
        } catch (...) {
            failure = std::current_exception();
        }
        std::vector<std::string> parts;
        if (!gatherBytes(std::string(), parts, cancel)) giveUp();
        MpiTraffic traffic;
        traffic.policyBytes = policy.size() + sizeof header;
        for (int rank = 1; rank < size; ++rank) {
            traffic.rolloutBytes += parts[static_cast<std::size_t>(rank)].size();
            decodeSentenceRollouts(parts[static_cast<std::size_t>(rank)], out,
                                   "rank " + std::to_string(rank));
        }
        if (failure) std::rethrow_exception(failure);
        if (onIteration) onIteration(iteration, traffic);
        return out;
    };
    return d;
}

void stopRolloutWorkers() {
    std::int64_t header[4] = {kStop, 0, 0, 0};
    broadcast(header, 4, MPI_INT64_T);
}

void serveRollouts(const LolsTrainer& trainer) {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (;;) {
        std::int64_t header[4] = {};
        broadcast(header, 4, MPI_INT64_T);
        if (header[0] == kStop) return;
        const int iteration = static_cast<int>(header[1]), count = static_cast<int>(header[2]);
        std::string policy(static_cast<std::size_t>(header[3]), '\0');
        broadcast(policy.data(), toCount(policy.size(), "the policy"), MPI_BYTE);
        maybeDieForTest(rank, iteration);
        const Policy rollIn = decodeRollInPolicy(policy, "rank 0's policy");
        const std::vector<int> mine = rolloutShare(count, rank, size);
        const auto results = trainer.rollOut(iteration, rollIn, mine);
        std::vector<std::string> unused;
        gatherBytes(encodeSentenceRollouts(mine, results), unused, nullptr);
    }
}

} // namespace prunescope
