#pragma once
// The GUI face of core's progress/cancel contract (core/util/Progress.h): the one helper every
// window uses to run long core work off the GUI thread (document loading, the regret view, the
// LOLS training queue, and every later system).
//  - start(work) runs work(progress) on a worker thread (one at a time per task; optionally at a
//    lower CPU priority so the GUI thread wins the cores).
//  - Progress reaches the GUI thread as queued posts, throttled to ~10 per second, always
//    delivering the last update (progressChanged).
//  - cancel() requests a cancel through the Progress and enters the Cancelling state at once
//    (show "cancelling…"); the work stops within core's 1 s contract.
//  - post(fn), from the work, runs fn on the GUI thread, in order (e.g. "an iteration was
//    committed"); posts still queued when the task is destroyed are dropped.
//  - Exactly one of finished(), cancelled() or failed(message) follows every start(), after the
//    last progressChanged and every post. Work that returns has finished; work cut by a cancel
//    must throw Cancelled (core does; progress.throwIfCancelled() otherwise) and ends as
//    cancelled; any other exception fails it (or cancels it, if a cancel was requested).
//  - The destructor cancels and waits for the worker, so no work outlives its window.
// Usage:
//     auto result = std::make_shared<RegretStats>();
//     task_->start([=](const Progress& p) { *result = regretAnalysis(g, s, policy, opt, p); });
//     connect(task_, &BackgroundTask::finished, this, [=] { show(*result); });
#include "core/util/Progress.h"

#include <QObject>
#include <QString>

#include <functional>
#include <mutex>

class QProgressBar;
class QThread;

namespace prunescope::gui {

class BackgroundTask : public QObject {
    Q_OBJECT
  public:
    enum class State { Idle, Running, Cancelling, Finished, Cancelled, Failed };
    Q_ENUM(State)
    using Work = std::function<void(const Progress&)>;

    explicit BackgroundTask(QObject* parent = nullptr);
    ~BackgroundTask() override; // cancels and waits

    // Runs work on a new worker thread; returns false (and does nothing) if a work is running.
    bool start(Work work);
    // Requests a cancel of the running work (no-op when idle).
    void cancel();
    // Called from the work's thread: runs fn on the GUI thread, in order with other posts.
    void post(std::function<void()> fn);
    // Processes events until the work has ended (true) or timeoutMs passed (false).
    bool waitForDone(int timeoutMs);

    State state() const { return state_; }
    bool isRunning() const { return state_ == State::Running || state_ == State::Cancelling; }
    const ProgressUpdate& lastProgress() const { return last_; }
    const QString& error() const { return error_; }
    // Worker threads run at a lower priority (nice +10 on Linux; inherited by the work's threads).
    void setLowPriority(bool low) { lowPriority_ = low; }
    // Minimum time between two progressChanged signals (default 100 ms).
    void setProgressInterval(int ms) { intervalMs_ = ms; }

  signals:
    void progressChanged(const prunescope::ProgressUpdate& update);
    void stateChanged(prunescope::gui::BackgroundTask::State state);
    void finished();
    void cancelled();
    void failed(const QString& message);

  private:
    void deliverProgress();
    void onWorkEnded(State outcome, const QString& message);

    QThread* thread_ = nullptr;
    Progress progress_;
    State state_ = State::Idle;
    ProgressUpdate last_;
    QString error_;
    bool lowPriority_ = false;
    int intervalMs_ = 100;
    qint64 lastDeliveryMs_ = -1000000;
    std::mutex
        mutex_; // guards pending_ and scheduled_; orders the work's writes before onWorkEnded
    ProgressUpdate pending_;
    bool scheduled_ = false; // a deliverProgress is queued or timed
};

// "rollouts 45/100", "training (37)", "parsing": an update as one short phrase for a label, a table
// cell or a progress bar's format (no step; callers add "iteration 3: " where it helps).
QString progressText(const ProgressUpdate& u);
// Processes the GUI thread's events until done() holds (true) or timeoutMs passed (false): for
// modes and tests that wait for background work without a nested event loop of their own.
bool processEventsUntil(const std::function<bool()>& done, int timeoutMs);
// Shows an update on a progress bar: a range when the phase has a known length, busy otherwise.
void showProgress(QProgressBar* bar, const ProgressUpdate& u);

} // namespace prunescope::gui

Q_DECLARE_METATYPE(prunescope::ProgressUpdate)
