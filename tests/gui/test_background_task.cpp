// The GUI's one helper for background work (app/gui/window/BackgroundTask.h): throttled progress
// that always delivers the last update, posts in order, the cancelling state, failures, and
// cancel-and-wait in the destructor.
#include "app/gui/window/BackgroundTask.h"
#include "core/util/VectorState.h"
#include "support/VectorStateTesting.h"

#include "support/TestSuite.h"
#include <QElapsedTimer>
#include <QSignalSpy>

#include <atomic>
#include <chrono>
#include <ctime>
#include <thread>

using namespace prunescope;
using namespace prunescope::gui;

class TestBackgroundTask : public QObject {
    Q_OBJECT
  private slots:
    // 20,000 items over ~0.6 s reach the GUI as a handful of updates (~10 per second), the last
    // one complete, followed by the posts in order and then finished().
    void progressIsThrottledAndTheLastUpdateArrives() {
        BackgroundTask task;
        std::vector<ProgressUpdate> seen;
        std::vector<int> posts;
        QStringList order;
        connect(&task, &BackgroundTask::progressChanged, &task, [&](const ProgressUpdate& u) {
            seen.push_back(u);
            if (order.isEmpty() || order.back() != "progress") order << "progress";
        });
        connect(&task, &BackgroundTask::finished, &task, [&] { order << "finished"; });
        QVERIFY(task.start([&task, &posts](const Progress& p) {
            p.setStep(2, 3);
            p.begin("items", 20000);
            for (int x = 0; x < 20000; ++x) {
                if (x % 1000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(30));
                p.advance();
            }
            for (int x = 0; x < 5; ++x)
                task.post([&posts, x] { posts.push_back(x); });
        }));
        QVERIFY(!task.start([](const Progress&) {})); // one work at a time
        QVERIFY(task.isRunning());
        QVERIFY(task.waitForDone(30000));
        QCOMPARE(task.state(), BackgroundTask::State::Finished);
        QVERIFY2(seen.size() >= 2 && seen.size() <= 12, qPrintable(QString::number(seen.size())));
        QCOMPARE(seen.back().done, 20000L);
        QCOMPARE(seen.back().total, 20000L);
        QCOMPARE(seen.back().step, 2);
        QCOMPARE(task.lastProgress().done, 20000L);
        QCOMPARE(posts, (std::vector<int>{0, 1, 2, 3, 4}));
        QCOMPARE(order.back(), QString("finished"));
        QCOMPARE(progressText(seen.back()), QString("items 20000/20000"));
    }

    // Waiting for background work blocks between events instead of spinning: the waiting GUI thread
    // uses a small part of a core (it used a whole one, which the work's own threads then lacked on
    // a 2-core machine: the training-stall benchmark with 2 trainer threads ran 3x slower than with
    // 1).
    void waitingBlocksInsteadOfSpinning() {
#ifdef __linux__
        auto threadCpuMs = [] {
            timespec ts{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
        };
        BackgroundTask task;
        QVERIFY(task.start([](const Progress& p) {
            p.begin("sleeping", 8);
            for (int x = 0; x < 8; ++x) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                p.advance();
            }
        }));
        QElapsedTimer wall;
        wall.start();
        const double cpu0 = threadCpuMs();
        QVERIFY(task.waitForDone(30000));
        const double cpu = threadCpuMs() - cpu0, ms = wall.nsecsElapsed() / 1e6;
        QVERIFY2(ms >= 350, qPrintable(QString::number(ms)));
        QVERIFY2(
            cpu < 0.25 * ms,
            qPrintable(QString("GUI thread CPU %1 ms over %2 ms of waiting").arg(cpu).arg(ms)));
        // The same for a plain deadline (settling a window in the command-line modes).
        const double cpu1 = threadCpuMs();
        wall.restart();
        QVERIFY(!processEventsUntil([] { return false; }, 300));
        QVERIFY(wall.elapsed() >= 300);
        QVERIFY2(threadCpuMs() - cpu1 < 75, qPrintable(QString::number(threadCpuMs() - cpu1)));
#else
        QSKIP("thread CPU time is read with a Linux clock");
#endif
    }

    // The work runs with a clean vector state although the GUI thread that starts it is dirty
    // (QApplication's constructor left it so on a Xeon; core/util/VectorState.h).
    void workStartsWithACleanVectorState() {
        if (!canReadVectorState())
            QSKIP("this CPU has no AVX or cannot report the state (XGETBV1)");
        testsupport::dirtyUpperVectorState();
        QVERIFY(upperVectorStateDirty());
        BackgroundTask task;
        std::atomic<int> dirty{-1};
        QVERIFY(task.start([&dirty](const Progress&) { dirty = upperVectorStateDirty() ? 1 : 0; }));
        QVERIFY(task.waitForDone(30000));
        QCOMPARE(dirty.load(), 0);
    }

    // cancel() shows Cancelling at once; work cut by the cancel ends as cancelled(), not failed.
    void cancelShowsCancellingThenCancelled() {
        BackgroundTask task;
        QSignalSpy cancelled(&task, &BackgroundTask::cancelled),
            finished(&task, &BackgroundTask::finished);
        QList<BackgroundTask::State> states;
        connect(&task, &BackgroundTask::stateChanged, &task,
                [&](BackgroundTask::State s) { states << s; });
        std::atomic<bool> started{false};
        task.start([&](const Progress& p) {
            p.begin("waiting", 0);
            started = true;
            while (true) {
                p.throwIfCancelled();
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        });
        QTRY_VERIFY(started.load());
        task.cancel();
        QCOMPARE(task.state(), BackgroundTask::State::Cancelling);
        QVERIFY(task.isRunning());
        QVERIFY(task.waitForDone(5000));
        QCOMPARE(task.state(), BackgroundTask::State::Cancelled);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(finished.count(), 0);
        QCOMPARE(states, (QList<BackgroundTask::State>{BackgroundTask::State::Running,
                                                       BackgroundTask::State::Cancelling,
                                                       BackgroundTask::State::Cancelled}));
        // The task is reusable, with a fresh cancel flag.
        bool ran = false;
        task.start([&](const Progress& p) { ran = !p.cancelled(); });
        QVERIFY(task.waitForDone(5000));
        QVERIFY(ran);
        QCOMPARE(task.state(), BackgroundTask::State::Finished);
    }

    void failureCarriesTheMessage() {
        BackgroundTask task;
        QSignalSpy failed(&task, &BackgroundTask::failed);
        task.start(
            [](const Progress&) { throw std::runtime_error("data.mrg:3:7: unbalanced bracket"); });
        QVERIFY(task.waitForDone(5000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().first().toString(), QString("data.mrg:3:7: unbalanced bracket"));
        QCOMPARE(task.error(), QString("data.mrg:3:7: unbalanced bracket"));
    }

    // Destroying the task (closing its window) cancels the work and waits for it: nothing runs on.
    void destructorCancelsAndWaits() {
        std::atomic<bool> started{false}, ended{false};
        auto* task = new BackgroundTask;
        task->start([&](const Progress& p) {
            started = true;
            while (!p.cancelled())
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            std::this_thread::sleep_for(std::chrono::milliseconds(50)); // winding down
            ended = true;
        });
        QTRY_VERIFY(started.load());
        QElapsedTimer t;
        t.start();
        delete task;
        QVERIFY(ended.load());
        QVERIFY(t.elapsed() < 1000);
        QCoreApplication::processEvents(); // posts of the deleted task are dropped, not run
    }
};

PRUNESCOPE_QTEST_MAIN(TestBackgroundTask)
#include "test_background_task.moc"
