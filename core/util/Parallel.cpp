// A minimal work-sharing loop over std::threads (the fastText pattern: first error wins, rethrown).
#include "core/util/Parallel.h"

#include "core/util/VectorState.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace prunescope {

int defaultThreads(int requested) {
    if (requested > 0) return requested;
    const unsigned hw = std::thread::hardware_concurrency();
    return hw ? static_cast<int>(hw) : 1;
}

void parallelFor(int count, int threads, const std::function<void(int, int)>& fn,
                 const std::atomic<bool>* cancel) {
    const int workers = std::max(1, std::min(defaultThreads(threads), count));
    std::atomic<int> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto run = [&](int worker) {
        clearUpperVectorState(); // a new thread inherits its creator's dirty state (VectorState.h)
        while (!failed.load() && !(cancel && cancel->load())) {
            const int idx = next.fetch_add(1);
            if (idx >= count) return;
            try {
                fn(idx, worker);
            } catch (...) {
                std::lock_guard lock(errorMutex);
                if (!error) error = std::current_exception();
                failed = true;
            }
        }
    };
    if (workers == 1) {
        run(0);
    } else {
        std::vector<std::thread> pool;
        for (int w = 0; w < workers; ++w)
            pool.emplace_back(run, w);
        for (auto& t : pool)
            t.join();
    }
    if (error) std::rethrow_exception(error);
}

} // namespace prunescope
