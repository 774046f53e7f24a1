#pragma once
// A minimal work-sharing loop over std::threads. Items are handed out in order from a shared
// counter; callers merge per-item results by index, so results never depend on the thread count.
#include <atomic>
#include <functional>

namespace prunescope {

class Progress;

// Hardware concurrency when requested <= 0, else requested.
int defaultThreads(int requested);

// Runs fn(index, worker) for index in [0, count) on up to `threads` threads (worker in
// [0, threads)). Stops handing out work on the first exception (rethrown on the caller's thread)
// or once `cancel` is set; the caller checks the flag afterwards to tell a full run from a cut one.
void parallelFor(int count, int threads, const std::function<void(int, int)>& fn,
                 const std::atomic<bool>* cancel = nullptr);

} // namespace prunescope
