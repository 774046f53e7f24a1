// The progress/cancel contract (core/util/Progress.h): counts, throttling, cancel, parallelFor
// (whose workers start with a clean vector state, core/util/VectorState.h).
#include "core/util/Parallel.h"
#include "core/util/Progress.h"
#include "core/util/VectorState.h"
#include "support/VectorStateTesting.h"

#include "support/TestSuite.h"

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace prunescope;

class TestProgress : public QObject {
    Q_OBJECT
  private slots:
    void defaultReportsNowhereAndNeverCancels() {
        const Progress p;
        p.begin("x", 10);
        p.advance(3);
        p.requestCancel();
        QVERIFY(!p.cancelled());
        QVERIFY(p.cancelFlag() != nullptr);
        QVERIFY(!p.cancelFlag()->load());
        p.throwIfCancelled(); // must not throw
        QCOMPARE(p.snapshot().done, 0L);
    }

    void countsFromManyThreadsAndDeliversTheLastItem() {
        std::mutex m;
        std::vector<ProgressUpdate> seen;
        const Progress p(
            [&](const ProgressUpdate& u) {
                std::lock_guard lock(m);
                seen.push_back(u);
            },
            std::chrono::milliseconds(1000));
        p.setStep(2, 5);
        p.begin("rollouts", 4000);
        std::vector<std::thread> ts;
        for (int t = 0; t < 4; ++t)
            ts.emplace_back([&] {
                for (int x = 0; x < 1000; ++x)
                    p.advance();
            });
        for (auto& t : ts)
            t.join();
        QCOMPARE(p.snapshot().done, 4000L);
        QVERIFY(seen.size() >= 2); // the phase start and the last item are always delivered
        QVERIFY(seen.size() <= 4); // ...and the 1 s throttle drops the rest
        QCOMPARE(seen.front().phase, std::string("rollouts"));
        QCOMPARE(seen.front().done, 0L);
        QCOMPARE(seen.back().done, 4000L);
        QCOMPARE(seen.back().total, 4000L);
        QCOMPARE(seen.back().step, 2);
        QCOMPARE(seen.back().steps, 5);
    }

    void cancelIsSharedByCopiesAndDelivered() {
        bool cancellingSeen = false;
        const Progress p(
            [&](const ProgressUpdate& u) { cancellingSeen = cancellingSeen || u.cancelling; });
        const Progress copy = p;
        QVERIFY(!p.cancelled());
        copy.requestCancel();
        QVERIFY(p.cancelled());
        QVERIFY(p.cancelFlag()->load());
        QVERIFY(cancellingSeen);
        QVERIFY_THROWS_EXCEPTION(Cancelled, p.throwIfCancelled());
    }

    // Log lines are delivered at once, with the current counts, even inside the throttle interval.
    void logLinesAreAlwaysDelivered() {
        std::vector<ProgressUpdate> seen;
        const Progress p([&](const ProgressUpdate& u) { seen.push_back(u); },
                         std::chrono::milliseconds(100000));
        p.begin("sweep", 3);
        p.advance();
        p.log("point 1: F1 80.1");
        p.log("point 2: F1 81.3");
        QCOMPARE(seen.size(),
                 std::size_t(3)); // the phase start and both lines; the advance is throttled
        QCOMPARE(seen[1].message, std::string("point 1: F1 80.1"));
        QCOMPARE(seen[1].done, 1L);
        QCOMPARE(seen[2].message, std::string("point 2: F1 81.3"));
        QVERIFY(seen[0].message.empty());
    }

    // A listener may request the cancel ("stop after N items"); it is delivered once.
    void listenerMayCancel() {
        int cancelling = 0;
        Progress p;
        p = Progress(
            [&](const ProgressUpdate& u) {
                if (u.done == 5) p.requestCancel();
                cancelling += u.cancelling;
            },
            std::chrono::milliseconds(0));
        p.begin("items", 100);
        int done = 0;
        while (!p.cancelled() && done < 100) {
            ++done;
            p.advance();
        }
        p.requestCancel(); // again: not delivered twice
        QCOMPARE(done, 5);
        QCOMPARE(cancelling, 1);
    }

    // clearUpperVectorState() clears what AVX code without VZEROUPPER left dirty.
    void upperVectorStateIsCleared() {
        if (!canReadVectorState())
            QSKIP("this CPU has no AVX or cannot report the state (XGETBV1)");
        testsupport::dirtyUpperVectorState();
        QVERIFY(upperVectorStateDirty());
        clearUpperVectorState();
        QVERIFY(!upperVectorStateDirty());
    }

    // parallelFor's workers start clean although their creator is dirty: threads inherit the state,
    // and a dirty one made the GUI's LOLS retraining 2.4x slower (legacy-SSE math waits on it).
    void parallelForWorkersStartWithACleanVectorState() {
        if (!canReadVectorState())
            QSKIP("this CPU has no AVX or cannot report the state (XGETBV1)");
        for (int threads : {1, 2, 3}) {
            testsupport::dirtyUpperVectorState();
            QVERIFY(upperVectorStateDirty());
            std::atomic<int> dirty{0};
            parallelFor(12, threads, [&](int, int) {
                if (upperVectorStateDirty()) ++dirty;
            });
            QCOMPARE(dirty.load(), 0);
        }
    }

    void parallelForStopsOnCancel() {
        const Progress p([](const ProgressUpdate&) {});
        std::atomic<int> ran{0};
        parallelFor(
            100000, 2,
            [&](int idx, int) {
                if (idx == 10) p.requestCancel();
                ++ran;
            },
            p.cancelFlag());
        QVERIFY(ran.load() < 100000);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestProgress)
#include "test_progress.moc"
