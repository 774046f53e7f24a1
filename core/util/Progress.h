#pragma once
// The one progress/cancel contract of core: every long computation (evaluation, baseline sweeps,
// regret analysis, LOLS, solvers, and every later system) takes a `const Progress&`, reports
// (phase, done, total) through it and polls cancelled() in every long loop, solvers included.
//
// A Progress is a cheap handle; copies share one state, so a caller keeps one and passes it down.
// A default-constructed Progress reports nowhere and is never cancelled. Listeners are called on
// the reporting thread (any worker), serialized, throttled to one call per `interval` except that
// a phase change, the last item of a phase, a log line and a cancel request are always delivered.
// A listener may call requestCancel() (e.g. "stop after N items"); nothing else of its Progress.
//
// How to adopt it in a new long loop (the pattern every core module follows):
//     progress.begin("rollouts", count);                 // one phase, `count` items
//     parallelFor(count, threads, [&](int i, int) { work(i); progress.advance(); },
//                 progress.cancelFlag());                // workers stop taking items on cancel
//     progress.throwIfCancelled();                       // never return a cut result as complete
// Poll per item (sentence, example block, solver evaluation), never per inner-loop step: a
// relaxed atomic load is cheap, but hot loops (pushes, edges) must not pay even that.
//
// Cancel contract: a cancelled computation stops within 1 s, keeps what was finished, and either
// returns its documented "cancelled" result or throws Cancelled (throwIfCancelled()); never a
// partial result that looks complete. Front ends: the CLI prints to stderr (app/cli/
// ConsoleProgress.h), the GUI's BackgroundTask posts to the GUI thread
// (app/gui/window/BackgroundTask.h).
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace prunescope {

struct ProgressUpdate {
    std::string phase; // e.g. "parsing", "rollouts", "training", "evaluation"
    long done = 0;     // items finished in this phase
    long total = 0;    // items in this phase (0 = unknown)
    int step = -1; // outer step as users count it (LOLS iteration 0..N, sweep point 1..N, epoch),
                   // -1 = none
    int steps = 0; // number of outer steps (0 = unknown)
    bool cancelling = false; // a cancel was requested and the work is winding down
    std::string message;     // a log line (Progress::log); empty for ordinary updates
    double fraction() const {
        return total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
    }
};

// Thrown by throwIfCancelled(); callers that run cancellable work catch it (or test cancelled()).
struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
};

class Progress {
  public:
    using Listener = std::function<void(const ProgressUpdate&)>;

    Progress() = default; // reports nowhere, never cancelled
    explicit Progress(Listener listener,
                      std::chrono::milliseconds interval = std::chrono::milliseconds(50));

    // Starts a phase of `total` items (done = 0) and reports it.
    void begin(const std::string& phase, long total) const;
    // Sets the outer step (LOLS iteration, epoch, ...) shown with every update.
    void setStep(int step, int steps = 0) const;
    // Marks n more items done (thread-safe) and reports, throttled.
    void advance(long n = 1) const;
    // A one-off line for the user (a finished sweep point, a summary): delivered at once with the
    // current phase and counts, `message` set. The CLI prints it; the GUI may show or ignore it.
    void log(const std::string& message) const;

    // Cancel: any thread may request it; every long loop polls cancelled().
    void requestCancel() const;
    bool cancelled() const { return cancelFlag()->load(std::memory_order_relaxed); }
    void throwIfCancelled() const {
        if (cancelled()) throw Cancelled();
    }
    // For code that takes the raw flag (parallelFor); never null.
    const std::atomic<bool>* cancelFlag() const;

    ProgressUpdate snapshot() const;

  private:
    struct State;
    void notify(bool force, const std::string& message = {}) const;
    std::shared_ptr<State> state_;
};

} // namespace prunescope
