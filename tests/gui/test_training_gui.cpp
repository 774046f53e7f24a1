// GUI tests of background LOLS training (offscreen; Vieira & Eisner 2017, sec. 4 Alg. 2): a short
// run on a tiny grammar adds its iterations to the frontier plot while the event loop keeps
// running, writes the same run directory (and the same config.json, whatever form the paths were
// given in) as prunescope-cli lols, queued runs execute one at a time, cancelling keeps a valid
// (resumable) run directory and, during retraining, shows "cancelling…" at once and "cancelled"
// within 1 s, and run directories can be followed.
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/frontier/RecentRuns.h"
#include "app/gui/frontier/TrainingPanel.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/lols/LolsRun.h"
#include "core/lols/RunDirectory.h"
#include "core/policy/Baseline.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMenu>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

// Longest gap between the timeouts of a 5 ms timer while `busy` holds: the longest event-loop
// stall.
double measureStall(const std::function<bool()>& busy, int timeoutMs) {
    QElapsedTimer clock, total;
    double worst = 0;
    QTimer t;
    t.setTimerType(Qt::PreciseTimer);
    t.setInterval(5);
    QObject::connect(&t, &QTimer::timeout, [&] {
        worst = std::max(worst, clock.nsecsElapsed() / 1e6);
        clock.restart();
    });
    clock.start();
    total.start();
    t.start();
    while (busy() && total.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    return worst;
}

} // namespace

class TestTrainingGui : public QObject {
    Q_OBJECT
    QString dir_, grammar_, policy_, train_, dev_;

    LolsJobSpec spec(const QString& name, int iterations) const {
        LolsJobSpec job;
        LolsRunSpec& s = job.run;
        s.grammar = grammar_.toStdString();
        s.init = policy_.toStdString();
        s.train = train_.toStdString();
        s.dev = dev_.toStdString();
        job.out = dir_ + "/" + name;
        s.lols.surrogate = Surrogate::CP;
        s.lols.lambda = 0.002;
        s.lols.iterations = iterations;
        s.lols.minibatch = 8;
        s.lols.threads = 1;
        s.maxLength = 15;
        s.devLimit = 12;
        return job;
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // the recent runs (QSettings) stay the test's
        QSettings().clear();
        // Tiny data: one WSJ file for training, one for dev (copied to a temporary directory).
        dir_ = QString::fromStdString(testdata::tempDir("training_gui"));
        train_ = dir_ + "/train.mrg";
        dev_ = dir_ + "/dev.mrg";
        QVERIFY(QFile::copy(QString::fromStdString(testdata::ptbDir("train")) + "/wsj_0003.mrg",
                            train_) ||
                QFile::exists(train_));
        const QStringList devFiles = QDir(QString::fromStdString(testdata::ptbDir("dev")))
                                         .entryList({"*.mrg"}, QDir::Files, QDir::Name);
        QVERIFY(!devFiles.isEmpty());
        QVERIFY(
            QFile::copy(QString::fromStdString(testdata::ptbDir("dev")) + "/" + devFiles.first(),
                        dev_) ||
            QFile::exists(dev_));
        const std::vector<Tree> trees = readNormalizedTreebank(train_.toStdString());
        QVERIFY(trees.size() >= 10);
        const Grammar g = estimatePcfg(trees, GrammarOptions{});
        grammar_ = dir_ + "/tiny.gram";
        saveGrammar(g, grammar_.toStdString());
        auto ex = baselineExamples(g, trees, 15, 4.0);
        QVERIFY(!ex.examples.empty());
        Policy p = trainBaselinePolicy(ex.examples, 4.0, LogRegOptions{});
        p.meta.lambda = 0.002;
        policy_ = dir_ + "/baseline-w4.json";
        savePolicy(p, policy_.toStdString());
    }

    void backgroundRunAddsPointsAndMatchesTheCli() {
        FrontierWindow w(nullptr, false);
        w.resize(1200, 800);
        w.show();
        QSignalSpy committed(w.queue(), &TrainingQueue::iterationCommitted);
        std::vector<int> pointsSeen;
        connect(w.queue(), &TrainingQueue::iterationCommitted, &w,
                [&] { pointsSeen.push_back(static_cast<int>(w.view().points.size())); });
        const LolsJobSpec s = spec("run-a", 3);
        const int id = w.startLols(s);
        QVERIFY(w.queue()->busy());
        QCOMPARE(QSettings().value("frontier/recentRuns").toStringList().value(0),
                 QDir::cleanPath(QFileInfo(s.out).absoluteFilePath())); // remembered at once
        const double stall = measureStall([&] { return w.queue()->busy(); }, 600000);
        qInfo("longest event-loop stall during the run: %.1f ms", stall);
        const TrainingJob* j = w.queue()->job(id);
        QVERIFY(j);
        QVERIFY2(j->state == JobState::Finished, qPrintable(j->error));
        QCOMPARE(committed.count(), 4); // iterations 0..3
        // Points appeared one by one, as iterations were committed.
        QCOMPARE(pointsSeen, (std::vector<int>{1, 2, 3, 4}));
        QCOMPARE(static_cast<int>(w.view().points.size()), 4);
        QCOMPARE(static_cast<int>(w.view().plot.trajectories.size()), 1);
        QCOMPARE(static_cast<int>(w.view().plot.trajectories[0].size()), 4);
        for (const auto& p : w.view().plot.points)
            QVERIFY(p.kind == widgets::PlotPolicyKind::Lols);
        // The panel shows the run, its four dev rewards and no ETA any more.
        QCOMPARE(w.trainingPanel()->table()->rowCount(), 1);
        QCOMPARE(w.trainingPanel()->table()->item(0, 1)->text(), QString("finished"));
        QCOMPARE(w.trainingPanel()->rewardPlot()->graph(1)->dataCount(), 4);
        // The run directory is complete.
        const RunDirectorySnapshot snap = readRunDirectory(s.out.toStdString());
        QCOMPARE(static_cast<int>(snap.log.size()), 4);
        for (int it = 0; it <= 3; ++it)
            QVERIFY(QFile::exists(s.out +
                                  QString("/policies/iter-%1.json").arg(it, 3, 10, QChar('0'))));
        QVERIFY(QFile::exists(s.out + "/best.json"));

        // The same run by the CLI gives the same config, dev metrics and policies.
        const QString cli = QString::fromStdString(testdata::binaryDir()) + "/app/prunescope-cli";
        if (!QFile::exists(cli)) QSKIP("prunescope-cli not built: CLI comparison skipped");
        QProcess proc;
        const QString out = dir_ + "/run-cli";
        proc.start(cli, {"lols",  "--grammar",   grammar_, "--init",      policy_, "--train",
                         train_,  "--dev",       dev_,     "--out",       out,     "--iterations",
                         "3",     "--minibatch", "8",      "--surrogate", "rcp",   "--lambda",
                         "0.002", "--max-len",   "15",     "--dev-limit", "12",    "--threads",
                         "2",     "--quiet"});
        QVERIFY(proc.waitForFinished(600000));
        QVERIFY2(proc.exitStatus() == QProcess::NormalExit && proc.exitCode() == 0,
                 proc.readAllStandardError().constData());
        const RunDirectorySnapshot c = readRunDirectory(out.toStdString());
        QCOMPARE(c.config.dump(), snap.config.dump());
        QCOMPARE(c.log.size(), snap.log.size());
        for (std::size_t r = 0; r < c.log.size(); ++r) {
            QCOMPARE(c.log[r].dev.reward, snap.log[r].dev.reward);
            QCOMPARE(c.log[r].dev.f1, snap.log[r].dev.f1);
            const QString name = QString("/policies/iter-%1.json").arg(r, 3, 10, QChar('0'));
            QVERIFY(loadPolicy((out + name).toStdString()).weights ==
                    loadPolicy((s.out + name).toStdString()).weights);
        }
    }

    void cancelKeepsFinishedIterations() {
        FrontierWindow w(nullptr, false);
        const LolsJobSpec s = spec("run-cancel", 40);
        QSignalSpy committed(w.queue(), &TrainingQueue::iterationCommitted);
        const int id = w.startLols(s);
        QTRY_VERIFY_WITH_TIMEOUT(committed.count() >= 2, 300000);
        w.queue()->cancel(id);
        QVERIFY(w.queue()->waitForIdle(300000));
        const TrainingJob* j = w.queue()->job(id);
        QVERIFY2(j->state == JobState::Cancelled,
                 qPrintable(jobStateName(j->state) + " " + j->error));
        const RunDirectorySnapshot snap = readRunDirectory(s.out.toStdString());
        QVERIFY(snap.log.size() >= 2 && snap.log.size() < 41);
        QCOMPARE(static_cast<int>(snap.log.size()), committed.count());
        QCOMPARE(static_cast<int>(w.view().points.size()), committed.count());
        QVERIFY(!snap.truncatedTail);
        for (const auto& r : snap.log)
            loadPolicy(
                (s.out + QString("/policies/iter-%1.json").arg(r.iteration, 3, 10, QChar('0')))
                    .toStdString());
        // Valid for `prunescope-cli lols --resume`.
        const LolsState st = RunDirectory::open(s.out.toStdString()).restore();
        QCOMPARE(st.iteration, snap.log.back().iteration);
    }

    // Cancel while L-BFGS retrains (the phase that used to ignore a cancel for a minute): the job
    // shows "cancelling…" at once, then "cancelled" within 1 s; iteration 0 stays committed.
    void cancelDuringRetrainingShowsCancellingThenCancelled() {
        // ~70k baseline examples (Q0) and a convergence test L-BFGS cannot meet: seconds of
        // training.
        const QString heavy = dir_ + "/train-300.mrg";
        std::string text;
        for (const Tree& t : readNormalizedTreebank(testdata::ptbDir("train"), 300))
            text += t.toString() + "\n";
        writeFileAtomically(heavy.toStdString(), text);
        LolsJobSpec s = spec("run-cancel-training", 3);
        s.run.train = heavy.toStdString();
        s.run.maxLength = 40;
        s.run.lols.surrogate = Surrogate::DP;
        s.run.lols.minibatch = 2;
        s.run.lols.logreg.maxIterations = 1000000;
        s.run.lols.logreg.epsilon = 1e-300; // the run config refuses 0 (issue 46); as unreachable
        s.run.lols.threads = 2;
        FrontierWindow w(nullptr, false);
        QStringList states; // the state column of the panel's row, as it changed
        connect(w.queue(), &TrainingQueue::jobChanged, &w, [&] {
            const QString st = w.trainingPanel()->table()->item(0, 1)->text();
            if (states.isEmpty() || states.back() != st) states << st;
        });
        const int id = w.startLols(s);
        const TrainingJob* j = w.queue()->job(id);
        QTRY_VERIFY_WITH_TIMEOUT(j->state == JobState::Running && j->progress.step == 1 &&
                                     j->progress.phase == "training" && j->progress.done >= 3,
                                 120000);
        QElapsedTimer t;
        t.start();
        w.queue()->cancel(id);
        QCOMPARE(j->state, JobState::Cancelling);
        QCOMPARE(w.trainingPanel()->table()->item(0, 1)->text(),
                 QString::fromUtf8("cancelling\u2026"));
        QTRY_VERIFY_WITH_TIMEOUT(j->state != JobState::Cancelling, 5000);
        const qint64 ms = t.elapsed();
        qInfo("cancel during retraining: cancelled after %lld ms", static_cast<long long>(ms));
        QCOMPARE(j->state, JobState::Cancelled);
        QVERIFY2(ms < 1000, qPrintable(QString("%1 ms").arg(ms)));
        QCOMPARE(states, (QStringList{"queued", "running", QString::fromUtf8("cancelling\u2026"),
                                      "cancelled"}));
        const RunDirectorySnapshot snap = readRunDirectory(s.out.toStdString());
        QCOMPARE(static_cast<int>(snap.log.size()), 1);
        QCOMPARE(RunDirectory::open(s.out.toStdString()).restore().iteration, 0);
    }

    // One documented form of config.json's paths (docs/lols.md "Paths"): the CLI given paths
    // relative to its working directory and the GUI given absolute ones with "./" and ".."
    // write the same file.
    void cliAndGuiWriteTheSameConfig() {
        const QString cli = QString::fromStdString(testdata::binaryDir()) + "/app/prunescope-cli";
        if (!QFile::exists(cli)) QSKIP("prunescope-cli not built");
        LolsJobSpec s = spec("config-gui", 0);
        s.run.grammar = (dir_ + "/./tiny.gram").toStdString();
        s.run.dev = (dir_ + "/sub/../dev.mrg").toStdString();
        TrainingQueue q;
        const int id = q.enqueue(s);
        QVERIFY(q.waitForIdle(120000));
        QVERIFY2(q.job(id)->state == JobState::Finished, qPrintable(q.job(id)->error));
        QProcess proc;
        proc.setWorkingDirectory(dir_);
        proc.start(cli,
                   {"lols",        "--grammar",    "tiny.gram", "--init",      "./baseline-w4.json",
                    "--train",     "train.mrg",    "--dev",     "dev.mrg",     "--out",
                    "config-cli",  "--iterations", "0",         "--minibatch", "8",
                    "--surrogate", "rcp",          "--lambda",  "0.002",       "--max-len",
                    "15",          "--dev-limit",  "12",        "--quiet"});
        QVERIFY(proc.waitForFinished(120000));
        QVERIFY2(proc.exitCode() == 0, proc.readAllStandardError().constData());
        QFile a(dir_ + "/config-gui/config.json"), b(dir_ + "/config-cli/config.json");
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray gui = a.readAll();
        QCOMPARE(gui, b.readAll());
        QVERIFY(gui.contains(QFileInfo(dir_ + "/dev.mrg").absoluteFilePath().toUtf8()));
    }

    void queuedRunsExecuteOneAtATime() {
        TrainingQueue q;
        int maxRunning = 0;
        connect(&q, &TrainingQueue::jobChanged, &q, [&] {
            int running = 0;
            for (const auto& j : q.jobs())
                running += j.state == JobState::Running;
            maxRunning = std::max(maxRunning, running);
        });
        const int a = q.enqueue(spec("queue-a", 1));
        const int b = q.enqueue(spec("queue-b", 1));
        const int c = q.enqueue(spec("queue-c", 1));
        QCOMPARE(q.job(b)->state, JobState::Queued);
        q.cancel(c);
        QCOMPARE(q.job(c)->state, JobState::Cancelled);
        QVERIFY(q.waitForIdle(600000));
        QCOMPARE(maxRunning, 1);
        QCOMPARE(q.job(a)->state, JobState::Finished);
        QCOMPARE(q.job(b)->state, JobState::Finished);
        QCOMPARE(static_cast<int>(q.job(b)->log.size()), 2);
        QVERIFY(!QFileInfo::exists(dir_ + "/queue-c"));
    }

    void followsAGrowingRunDirectory() {
        // A directory "being written elsewhere": config and the first log line now, the rest later.
        // Its source: a finished 3-iteration run made here by the driver the CLI uses.
        const QString src = dir_ + "/run-follow-source", dst = dir_ + "/run-followed";
        {
            const LolsJobSpec s = spec("run-follow-source", 3);
            RunDirectory rd = RunDirectory::create(src.toStdString(), newLolsRunConfig(s.run));
            QVERIFY(!runLols(rd, loadLolsRunInputs(rd.config()), {}).cancelled);
        }
        QDir().mkpath(dst + "/policies");
        QFile::copy(src + "/config.json", dst + "/config.json");
        QFile log(src + "/log.jsonl");
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = log.readAll().split('\n');
        for (int it = 0; it <= 3; ++it) {
            const QString name = QString("/policies/iter-%1.json").arg(it, 3, 10, QChar('0'));
            QFile::copy(src + name, dst + name);
        }
        auto writeLog = [&](int n) {
            QFile f(dst + "/log.jsonl");
            QVERIFY(f.open(QIODevice::WriteOnly));
            for (int i = 0; i < n; ++i)
                f.write(lines[i] + "\n");
        };
        writeLog(1);
        FrontierWindow w(nullptr, false);
        QString err;
        QVERIFY2(w.openRunDirectory(dst, &err), qPrintable(err));
        QCOMPARE(static_cast<int>(w.view().points.size()), 1);
        { // issue 42: remembered across restarts — a new window lists it first and reopens it
            const QString abs = QDir::cleanPath(QFileInfo(dst).absoluteFilePath());
            QCOMPARE(recentLolsRuns().value(0), abs);
            FrontierWindow restarted(nullptr, false);
            restarted.fillRecentRuns();
            const QList<QAction*> items = restarted.recentRunsMenu()->actions();
            QVERIFY(!items.isEmpty());
            QCOMPARE(items.front()->text(), abs);
            items.front()->trigger();
            QCOMPARE(static_cast<int>(restarted.view().points.size()), 1);
            rememberLolsRun(dir_ + "/no-such-run"); // gone directories are not listed
            QCOMPARE(recentLolsRuns().value(0), abs);
        }
        writeLog(3);
        QTRY_COMPARE_WITH_TIMEOUT(static_cast<int>(w.view().points.size()), 3, 10000);
        writeLog(4);
        QTRY_COMPARE_WITH_TIMEOUT(static_cast<int>(w.view().points.size()), 4, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(w.queue()->jobs().front().state, JobState::Finished, 10000);
        // Not a run directory: a clear error.
        QVERIFY(!w.openRunDirectory(dir_, &err));
        QVERIFY(err.contains("config.json"));
    }
};

PRUNESCOPE_QTEST_MAIN(TestTrainingGui)
#include "test_training_gui.moc"
