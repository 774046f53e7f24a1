// GUI stress test (offscreen) of the explorer (issue 42): seeded random actions — next / previous
// sentence (the Sentence menu's Alt+→ / Alt+← actions), Replay CKY (F5) and its step / show all /
// stop, flips of random cells, undo, redo, the mask buttons, switches to the dependency view and
// back, and File ▸ Open of policies and the treebank (loaded in the background) — fired from timers
// 0-30 ms apart, so that each runs from the event loop as a key press would, while replay traces
// are computing in the background. Before the fix, Replay CKY waited for the previous trace in a
// nested event loop; a next sentence run there destroyed the session the replay was copying, and
// the worker read a freed sentence (a general protection fault in ReplayController::start's work,
// 10-80 pairs on the dev split). The test checks the window is consistent after every action and at
// the end.
//
// 1,000 actions in CI. scripts/gui-stress.sh runs 10,000 (PRUNESCOPE_STRESS_ACTIONS), with another
// seed (PRUNESCOPE_STRESS_SEED) or treebank (PRUNESCOPE_STRESS_TREEBANK: a .mrg file or folder),
// e.g. under the ASan build of scripts/sanitize.sh.
#include "app/gui/explorer/ReplayController.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/window/MainWindow.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoStack>

#include <random>

using namespace prunescope;
using namespace prunescope::gui;

namespace {
int envInt(const char* name, int fallback) {
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}

QAction* actionWithShortcut(QWidget* w, const QKeySequence& k) {
    for (QAction* a : w->findChildren<QAction*>())
        if (a->shortcut() == k) return a;
    return nullptr;
}
} // namespace

class TestExplorerStress : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

    // The window agrees with itself: a session of the selected sentence, a chart of its length,
    // a replay (if active) of that chart. Returns what disagrees, or an empty string.
    QString treebank_;

    QString inconsistency() {
        SentenceSession* s = ex()->session();
        if (!s) return "no session";
        const int n = s->length();
        if (n != win_->sentenceLength(win_->sentenceIndex()))
            return QString("session of %1 words, sentence %2 has %3")
                .arg(n)
                .arg(win_->sentenceIndex() + 1)
                .arg(win_->sentenceLength(win_->sentenceIndex()));
        if (s->mask().n != n || ex()->heatMap()->length() != n)
            return QString("mask of %1 words, chart of %2, sentence of %3")
                .arg(s->mask().n)
                .arg(ex()->heatMap()->length())
                .arg(n);
        const ReplayController* r = ex()->replay();
        if (r->active() && (r->trace().n != n || r->step() > r->total()))
            return QString("replay of a %1-word sentence on a %2-word one")
                .arg(r->trace().n)
                .arg(n);
        return {};
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        win_ = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        win_->resize(1280, 800);
        win_->show();
        QVERIFY(win_->loadSampleSync()); // the bundled grammar and policy
        treebank_ = qEnvironmentVariableIsSet("PRUNESCOPE_STRESS_TREEBANK")
                        ? qEnvironmentVariable("PRUNESCOPE_STRESS_TREEBANK")
                        : QString::fromStdString(testdata::ptbDir("dev")) + "/wsj_0130.mrg";
        QVERIFY(win_->openFileSync(treebank_));
        QVERIFY(win_->sentenceCount() > 3);
    }

    // Navigation × replay × flips × undo, seeded; every action from the event loop.
    void stressNavigationReplayFlipsUndo() {
        const int actions = envInt("PRUNESCOPE_STRESS_ACTIONS", 1000);
        const unsigned seed = static_cast<unsigned>(envInt("PRUNESCOPE_STRESS_SEED", 42));
        std::mt19937 rng(seed);
        QAction* next = actionWithShortcut(win_.get(), QKeySequence(Qt::ALT | Qt::Key_Right));
        QAction* prev = actionWithShortcut(win_.get(), QKeySequence(Qt::ALT | Qt::Key_Left));
        QVERIFY(next && prev);
        QAction* replay = ex()->replayAction();
        QCOMPARE(replay->shortcut(), QKeySequence(Qt::Key_F5));
        int done = 0, replays = 0, flips = 0, navigations = 0, busyReplays = 0, modeSwitches = 0,
            fileOpens = 0;
        const QStringList files = {
            QString::fromStdString(testdata::samplePath("policies/baseline-w16.json")),
            QString::fromStdString(testdata::samplePath("policies/baseline-w256.json")), treebank_,
            QString::fromStdString(testdata::samplePath("policies/baseline-w128.json"))};
        QString failure;
        // An action must return without running others inside it: before the fix, F5 during a
        // computing trace waited in a nested event loop, where the next sentence destroyed the
        // session that F5 was still reading (a use-after-free; under ASan at once, in a Release
        // build a crash after 10-80 pairs or a stale replay). Depth > 1 is that nested loop.
        QObject context; // its timers and connections die with it, at the end of this function
        int depth = 0;
        auto fail = [&](const QString& what) {
            if (failure.isEmpty()) failure = QString("after action %1: %2").arg(done).arg(what);
            done = actions; // stop here
        };
        // A trace that becomes the replay is of the sentence shown.
        connect(ex()->replay(), &ReplayController::stepChanged, &context, [&](int step, int) {
            const ReplayController* r = ex()->replay();
            const SentenceSession* cur = ex()->session();
            if (step == 0 && r->active() && cur && r->trace().n != cur->length())
                fail(QString("a replay of a %1-word sentence became active on a %2-word one")
                         .arg(r->trace().n)
                         .arg(cur->length()));
        });
        auto act = [&] {
            if (++depth > 1)
                fail("an action ran inside another one (a nested event loop in an action)");
            const int kind = std::uniform_int_distribution<int>(0, 99)(rng);
            const int count = win_->sentenceCount();
            if (kind < 20) { // Alt+→ / Alt+← (wrapping to the start / end: keeps moving)
                ++navigations;
                const int at = win_->sentenceIndex();
                if (kind < 15)
                    at + 1 < count ? next->trigger() : win_->selectSentence(0);
                else
                    at > 0 ? prev->trigger() : win_->selectSentence(count - 1);
            } else if (kind < 41) { // F5, half the time on the keep-all mask (a longer trace)
                if (kind < 31) ex()->keepAllAction()->trigger();
                ++replays;
                busyReplays += ex()->replay()->computing(); // a trace is still being computed
                replay->trigger();
            } else if (kind < 47) {
                ex()->replay()->stepForward();
            } else if (kind < 50) {
                ex()->replay()->finish();
            } else if (kind < 53) {
                ex()->stopReplay();
            } else if (kind < 74) { // a click on a random cell
                const int n = ex()->session()->length();
                const int i = std::uniform_int_distribution<int>(0, n - 1)(rng);
                const int k = std::uniform_int_distribution<int>(i + 1, n)(rng);
                flips += ex()->requestFlip(i, k);
            } else if (kind < 85) {
                ex()->undoStack()->undo();
            } else if (kind < 89) {
                ex()->undoStack()->redo();
            } else if (kind < 91) {
                ex()->keepAllAction()->trigger();
            } else if (kind < 93) {
                ex()->keepGoldAction()->trigger();
            } else if (kind < 95) {
                ex()->resetAction()->trigger();
            } else if (kind < 97) { // View ▸ dependency mode and back
                ++modeSwitches;
                win_->setMode(win_->mode() == MainWindow::Mode::Constituency
                                  ? MainWindow::Mode::Dependency
                                  : MainWindow::Mode::Constituency);
            } else { // File ▸ Open, loaded in the background while the rest goes on
                win_->openFile(files[static_cast<qsizetype>(fileOpens++ % files.size())]);
            }
            ++done;
            --depth;
            if (const QString why = inconsistency(); !why.isEmpty())
                fail(QString("(kind %1) %2").arg(kind).arg(why));
        };
        // Each action is a single-shot timer's, the next armed before the action runs (as key
        // presses queue while a handler runs), 0-30 ms later or in a burst (a held key) 0-2 ms
        // later.
        std::function<void()> fire;
        fire = [&] {
            if (done + 1 < actions)
                QTimer::singleShot(std::uniform_int_distribution<int>(0, rng() % 2 ? 2 : 30)(rng),
                                   &context, fire);
            act();
        };
        QTimer::singleShot(0, &context, fire);
        QVERIFY(processEventsUntil([&] { return done >= actions; }, 3600 * 1000));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(ex()->replay()->waitUntilReady(600000)); // the last trace, if one is computing
        QVERIFY(processEventsUntil([&] { return !win_->isLoading(); }, 600000)); // the last open
        win_->setMode(MainWindow::Mode::Constituency);
        const QString atEnd = inconsistency();
        QVERIFY2(atEnd.isEmpty(), qPrintable(atEnd));
        qInfo("%d actions (seed %u): %d navigations, %d replays (%d while a trace was computing), "
              "%d flips, %d mode switches, %d file opens",
              done, seed, navigations, replays, busyReplays, flips, modeSwitches, fileOpens);
        QVERIFY(replays > actions / 10 && navigations > actions / 10 && flips > actions / 10);
        QVERIFY(modeSwitches > actions / 100 && fileOpens > actions / 100);
        // The window still works: a replay of the current sentence completes and matches it.
        ex()->replayAction()->trigger();
        QVERIFY(ex()->replay()->waitUntilReady(600000));
        QVERIFY(ex()->replay()->active());
        const int n = ex()->session()->length();
        QCOMPARE(ex()->replay()->total(), n * (n + 1) / 2);
        ex()->replay()->finish();
        QVERIFY(ex()->replay()->complete());
    }

    void cleanupTestCase() { win_.reset(); }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerStress)
#include "test_explorer_stress.moc"
