// The one progress/cancel contract of core (see Progress.h).
#include "core/util/Progress.h"

#include <cstdint>
#include <mutex>

namespace prunescope {

struct Progress::State {
    Listener listener;
    std::chrono::steady_clock::duration interval{};
    std::atomic<bool> cancel{false};
    std::atomic<long> done{0};
    std::atomic<std::int64_t> lastNotify{0}; // steady_clock ticks of the last delivered update
    std::atomic<long> total{0};
    // Guards phase/step and serializes the listener; recursive so that a listener may request a
    // cancel (which delivers the cancelling update from inside the listener call).
    std::recursive_mutex mutex;
    std::string phase;
    int step = -1, steps = 0;

    ProgressUpdate current() { // with mutex held
        ProgressUpdate u;
        u.phase = phase;
        u.total = total.load();
        u.done = done.load();
        u.step = step;
        u.steps = steps;
        u.cancelling = cancel.load();
        return u;
    }
};

namespace {
const std::atomic<bool> kNeverCancelled{false};
std::int64_t nowTicks() {
    return std::chrono::steady_clock::now().time_since_epoch().count();
}
} // namespace

Progress::Progress(Listener listener, std::chrono::milliseconds interval)
    : state_(std::make_shared<State>()) {
    state_->listener = std::move(listener);
    state_->interval = interval;
}

void Progress::begin(const std::string& phase, long total) const {
    if (!state_) return;
    {
        std::lock_guard lock(state_->mutex);
        state_->phase = phase;
        state_->total = total;
        state_->done.store(0);
    }
    notify(true);
}

void Progress::setStep(int step, int steps) const {
    if (!state_) return;
    std::lock_guard lock(state_->mutex);
    state_->step = step;
    state_->steps = steps;
}

void Progress::advance(long n) const {
    if (!state_) return;
    const long done = state_->done.fetch_add(n) + n;
    const long total = state_->total.load(std::memory_order_relaxed);
    notify(total > 0 && done >= total);
}

void Progress::log(const std::string& message) const {
    if (!state_) return;
    notify(true, message);
}

void Progress::requestCancel() const {
    if (!state_) return;
    if (state_->cancel.exchange(true)) return; // delivered once
    notify(true);
}

const std::atomic<bool>* Progress::cancelFlag() const {
    return state_ ? &state_->cancel : &kNeverCancelled;
}

ProgressUpdate Progress::snapshot() const {
    if (!state_) return {};
    std::lock_guard lock(state_->mutex);
    return state_->current();
}

void Progress::notify(bool force, const std::string& message) const {
    if (!state_ || !state_->listener) return;
    const std::int64_t now = nowTicks();
    if (!force &&
        now - state_->lastNotify.load(std::memory_order_relaxed) < state_->interval.count())
        return;
    std::lock_guard lock(state_->mutex);
    if (!force && now - state_->lastNotify.load() < state_->interval.count()) return;
    state_->lastNotify.store(now);
    ProgressUpdate u = state_->current();
    u.message = message;
    state_->listener(u);
}

} // namespace prunescope
