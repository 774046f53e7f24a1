// Background work for the GUI with throttled progress and cancel (see BackgroundTask.h).
#include "app/gui/window/BackgroundTask.h"
#include "core/util/VectorState.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QProgressBar>
#include <QThread>
#include <QTimer>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace prunescope::gui {

namespace {
qint64 nowMs() {
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.elapsed();
}
} // namespace

BackgroundTask::BackgroundTask(QObject* parent) : QObject(parent) {
    qRegisterMetaType<prunescope::ProgressUpdate>();
    qRegisterMetaType<prunescope::gui::BackgroundTask::State>();
}

BackgroundTask::~BackgroundTask() {
    if (thread_) {
        progress_.requestCancel();
        thread_->wait();
        delete thread_;
    }
}

bool BackgroundTask::start(Work work) {
    if (thread_) return false;
    error_.clear();
    last_ = {};
    {
        std::lock_guard lock(mutex_);
        pending_ = {};
        scheduled_ = false;
    }
    // The worker's listener keeps only the latest update and schedules one delivery at a time.
    progress_ = Progress(
        [this](const ProgressUpdate& u) {
            {
                std::lock_guard lock(mutex_);
                pending_ = u;
                if (scheduled_) return;
                scheduled_ = true;
            }
            QMetaObject::invokeMethod(
                this, [this] { deliverProgress(); }, Qt::QueuedConnection);
        },
        std::chrono::milliseconds(20));
    const Progress progress = progress_;
    const bool low = lowPriority_;
    thread_ = QThread::create([this, work = std::move(work), progress, low] {
        clearUpperVectorState(); // born with the GUI thread's dirty state (core/util/VectorState.h)
#ifdef __linux__
        // QThread priorities do not change the nice value on Linux; this does, and the work's own
        // threads inherit it, so the GUI thread wins the cores whenever it has work.
        if (low) setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#else
        (void)low;
#endif
        State outcome = State::Finished;
        QString message;
        try {
            work(progress); // returning = finished, even if a cancel came too late to cut it
        } catch (const Cancelled&) {
            outcome = State::Cancelled;
        } catch (const std::exception& e) {
            outcome = progress.cancelled() ? State::Cancelled : State::Failed;
            message = QString::fromStdString(e.what());
        } catch (...) {
            outcome = State::Failed;
            message = QStringLiteral("unknown error");
        }
        // The hand-off of everything the work wrote, made explicit: the GUI thread takes the same
        // mutex in onWorkEnded. (Qt's event queue also orders it, but inside the uninstrumented
        // libQt6Core, where ThreadSanitizer cannot see it; docs/reliability.md.)
        { std::lock_guard lock(mutex_); }
        QMetaObject::invokeMethod(
            this, [this, outcome, message] { onWorkEnded(outcome, message); },
            Qt::QueuedConnection);
    });
    state_ = State::Running;
    emit stateChanged(state_);
    thread_->start();
    return true;
}

void BackgroundTask::cancel() {
    if (state_ != State::Running) return;
    state_ = State::Cancelling;
    progress_.requestCancel();
    emit stateChanged(state_);
}

void BackgroundTask::post(std::function<void()> fn) {
    QMetaObject::invokeMethod(this, std::move(fn), Qt::QueuedConnection);
}

bool BackgroundTask::waitForDone(int timeoutMs) {
    return processEventsUntil([this] { return !isRunning(); }, timeoutMs);
}

bool processEventsUntil(const std::function<bool()>& done, int timeoutMs) {
    // Blocks between events. processEvents(flags, maxtime) drops WaitForMoreEvents and so spun a
    // whole core while background work ran (the work's own threads then had one core less); a 5 ms
    // timer wakes the blocking wait to re-check done() and the deadline.
    QElapsedTimer t;
    t.start();
    QTimer wake;
    wake.setInterval(5);
    wake.start();
    while (!done() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    return done();
}

void BackgroundTask::deliverProgress() {
    const qint64 wait = lastDeliveryMs_ + intervalMs_ - nowMs();
    if (wait > 0) { // too soon after the last one: deliver the latest update when the interval ends
        QTimer::singleShot(static_cast<int>(wait), this, [this] { deliverProgress(); });
        return;
    }
    ProgressUpdate u;
    {
        std::lock_guard lock(mutex_);
        if (!scheduled_) return;
        u = pending_;
        scheduled_ = false;
    }
    lastDeliveryMs_ = nowMs();
    u.message.clear();
    last_ = u;
    emit progressChanged(u);
}

void BackgroundTask::onWorkEnded(State outcome, const QString& message) {
    { std::lock_guard lock(mutex_); } // pairs with the worker's, before it posted this call
    if (thread_) {
        thread_->wait();
        delete thread_;
        thread_ = nullptr;
    }
    // The last update is always delivered, before the outcome.
    bool flush = false;
    ProgressUpdate u;
    {
        std::lock_guard lock(mutex_);
        if (scheduled_) {
            flush = true;
            u = pending_;
            scheduled_ = false;
        }
    }
    if (flush) {
        lastDeliveryMs_ = nowMs();
        last_ = u;
        emit progressChanged(u);
    }
    state_ = outcome;
    error_ = message;
    emit stateChanged(state_);
    if (outcome == State::Finished)
        emit finished();
    else if (outcome == State::Cancelled)
        emit cancelled();
    else
        emit failed(message);
}

QString progressText(const ProgressUpdate& u) {
    QString s = QString::fromStdString(u.phase);
    if (u.total > 0)
        s += QString(" %1/%2").arg(u.done).arg(u.total);
    else if (u.done > 0)
        s += QString(" (%1)").arg(u.done);
    return s;
}

void showProgress(QProgressBar* bar, const ProgressUpdate& u) {
    if (u.total > 0 && !u.cancelling) {
        bar->setRange(0, static_cast<int>(u.total));
        bar->setValue(static_cast<int>(u.done));
        bar->setFormat(QString::fromStdString(u.phase) + " %v/%m");
    } else {
        bar->setRange(0, 0);
        bar->setFormat(u.cancelling ? QString::fromUtf8("cancelling\u2026") : progressText(u));
    }
}

} // namespace prunescope::gui
