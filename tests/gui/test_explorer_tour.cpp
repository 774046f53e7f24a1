// GUI test (offscreen) of the guided start (issue 42): Help ▸ Tour's five steps each act on the
// window (a gold span pruned, its changes step by step, Replay CKY, the mask comparison, the
// frontier window); Help ▸ Keyboard Shortcuts lists the real actions' shortcuts (F5, Alt+→, F1,
// Ctrl+Z, ...) taken from the menus' QActions; the status bar shows a hint on start; the About
// text says pruned cells are hatched (no cross); `prunescope --help` and `--version` print and exit
// 0 with no display and no platform plugin; View ▸ Presentation Mode is one key (F11) both ways.
#include "app/gui/explorer/MaskComparisonPanel.h"
#include "app/gui/explorer/ReplayController.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/frontier/FrontierWindow.h"
#include "app/gui/window/MainWindow.h"
#include "app/gui/window/TourDialog.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableWidget>
#include <QToolBar>
#include <QUndoStack>

using namespace prunescope;
using namespace prunescope::gui;

class TestExplorerTour : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }

    struct Run {
        int code = -1;
        QString out, err;
    };
    // The GUI executable with no display at all: no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM.
    static Run runWithoutDisplay(const QStringList& args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(v);
        p.setProcessEnvironment(env);
        p.start(QString::fromStdString(testdata::binaryDir()) + "/app/prunescope", args);
        p.waitForFinished(60000);
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        win_ = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        win_->resize(1280, 800);
        win_->show();
        QVERIFY(win_->loadSampleSync()); // the bundled grammar, policy and sentences (with gold)
        win_->selectSentence(0);
        QVERIFY(ex()->session() && ex()->session()->hasGold());
    }

    void helpAndVersionNeedNoDisplay() {
        const Run help = runWithoutDisplay({"--help"});
        QVERIFY2(help.code == 0, qPrintable(help.err));
        QVERIFY2(help.out.contains("Usage:") && help.out.contains("--screenshot") &&
                     help.out.contains("--benchmark-latency") && help.out.contains("--dep"),
                 qPrintable(help.out));
        QVERIFY2(!help.err.contains("platform plugin"), qPrintable(help.err));
        const Run version = runWithoutDisplay({"--version"});
        QCOMPARE(version.code, 0);
        QVERIFY2(version.out.contains("0.1.0"), qPrintable(version.out));
    }

    void statusBarHintAndAboutText() {
        QLabel* hint = win_->statusHint();
        QVERIFY(hint && hint->isVisible());
        QVERIFY(hint->text().contains("Click a cell") && hint->text().contains("F1"));
        QFile about(":/prunescope/about.html");
        QVERIFY(about.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(about.readAll());
        QVERIFY(text.contains("hatched"));
        QVERIFY2(!text.contains("cross"), "pruned cells are hatched, not crossed");
        QVERIFY(text.contains("Tour"));
    }

    void tourStepsActOnTheWindow() {
        QCOMPARE(win_->tourAction()->shortcut(), QKeySequence(Qt::Key_F1));
        win_->tourAction()->trigger();
        TourDialog* tour = win_->tour();
        QVERIFY(tour->isVisible());
        QCOMPARE(tour->stepCount(), 5);
        QVERIFY(tour->stepTitle(0).contains("gold span"));
        QVERIFY(tour->stepTitle(1).contains("propagation"));
        QVERIFY(tour->stepTitle(2).contains("Replay CKY"));
        QVERIFY(tour->stepTitle(3).contains("Compare masks"));
        QVERIFY(tour->stepTitle(4).contains("λ"));

        // 1: a kept gold span gets pruned, through the undo stack.
        SentenceSession* s = ex()->session();
        const PruningMask before = s->mask();
        const int undoBefore = ex()->undoStack()->count();
        tour->setStep(0);
        QVERIFY(tour->actOnWindow());
        QCOMPARE(ex()->undoStack()->count(), undoBefore + 1);
        int prunedGold = 0;
        const int n = s->length();
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i)
                if (before.keep(i, i + w) && !s->mask().keep(i, i + w)) {
                    QVERIFY(s->isGoldSpan(i, i + w));
                    ++prunedGold;
                }
        QCOMPARE(prunedGold, 1);

        // 2: step-by-step changes, the flip replayed: the same mask, changes waiting for N.
        const PruningMask afterFlip = s->mask();
        tour->setStep(1);
        QVERIFY(tour->actOnWindow());
        QCOMPARE(ex()->heatMap()->animationMode(), widgets::AnimationMode::Step);
        QCOMPARE(ex()->session()->mask(), afterFlip);
        QVERIFY(!ex()->session()->lastEvents().empty());

        // 3: Replay CKY of the current mask.
        tour->setStep(2);
        QVERIFY(tour->actOnWindow());
        QVERIFY(ex()->replay()->waitUntilReady(120000));
        QVERIFY(ex()->replay()->active());
        QCOMPARE(ex()->replay()->total(), n * (n + 1) / 2);

        // 4: the comparison dock, current mask against the policy's.
        tour->setStep(3);
        QVERIFY(tour->actOnWindow());
        QVERIFY(!ex()->replay()->active());
        QVERIFY(win_->maskComparison()->isVisible());
        QCOMPARE(win_->maskComparison()->source(0), MaskSourceKind::Current);
        QCOMPARE(win_->maskComparison()->source(1), MaskSourceKind::Policy);
        QVERIFY(win_->maskComparison()->comparison().has_value());

        // 5: the frontier window, where λ is picked.
        tour->setStep(4);
        QVERIFY(tour->actOnWindow());
        bool frontierShown = false;
        for (QWidget* w : QApplication::topLevelWidgets())
            frontierShown |= qobject_cast<FrontierWindow*>(w) && w->isVisible();
        QVERIFY(frontierShown);
        for (QWidget* w : QApplication::topLevelWidgets())
            if (qobject_cast<FrontierWindow*>(w)) w->close();
        // Back / next stay within the steps.
        tour->setStep(99);
        QCOMPARE(tour->step(), 4);
        tour->setStep(-3);
        QCOMPARE(tour->step(), 0);
        tour->close();
    }

    void keyboardShortcutsComeFromTheActions() {
        const std::vector<ShortcutRow> rows = shortcutRows(win_.get());
        auto has = [&](const QString& action, const QKeySequence& k) {
            for (const ShortcutRow& r : rows)
                if (r.action.startsWith(action) &&
                    r.keys.contains(k.toString(QKeySequence::NativeText)))
                    return true;
            return false;
        };
        QVERIFY(has("Replay CKY", QKeySequence(Qt::Key_F5)));
        QVERIFY(has("Next", QKeySequence(Qt::ALT | Qt::Key_Right)));
        QVERIFY(has("Previous", QKeySequence(Qt::ALT | Qt::Key_Left)));
        QVERIFY(has("Tour", QKeySequence(Qt::Key_F1)));
        QVERIFY(has("Undo", QKeySequence(QKeySequence::Undo)));
        QVERIFY(has("Keep Gold Only", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G)));
        // A shortcut set on an action later shows up: the list is read from the actions.
        ex()->replayAction()->setShortcut(QKeySequence(Qt::Key_F6));
        QVERIFY(has("Replay CKY", QKeySequence(Qt::Key_F5))); // the old list
        const std::vector<ShortcutRow> again = shortcutRows(win_.get());
        bool f6 = false;
        for (const ShortcutRow& r : again)
            f6 |= r.action == "Replay CKY" &&
                  r.keys == QKeySequence(Qt::Key_F6).toString(QKeySequence::NativeText);
        ex()->replayAction()->setShortcut(QKeySequence(Qt::Key_F5));
        QVERIFY(f6);
        // The dialog shows every row and the chart's keys.
        win_->keyboardShortcutsAction()->trigger();
        QTableWidget* table = nullptr;
        for (QWidget* w : QApplication::topLevelWidgets())
            if (w->objectName() == "shortcutsDialog" && w->isVisible())
                table = w->findChild<QTableWidget*>("shortcutsTable");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), static_cast<int>(rows.size()) + 3);
        QCOMPARE(table->item(0, 1)->text(), rows[0].action);
        table->window()->close();
    }

    // View ▸ Presentation Mode: one key (F11) on, the same key off, everything restored. The
    // View menu's Changes entries follow the explorer's Changes box.
    void presentationModeIsOneKey() {
        QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
        ex()->setAnimationMode(widgets::AnimationMode::Animated);
        QAction* animatedEntry = nullptr;
        for (QAction* a : win_->findChildren<QAction*>())
            if (a->text() == "Animated Changes") animatedEntry = a;
        QVERIFY(animatedEntry && animatedEntry->isChecked());
        QVERIFY(!win_->presentationFontAction()->isChecked());
        QToolBar* toolbar = win_->findChild<QToolBar*>("sentenceToolBar");
        QVERIFY(toolbar->isVisible() && win_->statusBar()->isVisible());
        QCOMPARE(win_->presentationModeAction()->shortcut(), QKeySequence(Qt::Key_F11));
        QApplication::setActiveWindow(win_.get()); // a shortcut of the active window
        QVERIFY(QTest::qWaitForWindowActive(win_.get()));
        QTest::keyClick(win_.get(), Qt::Key_F11);
        QVERIFY(win_->presentationModeAction()->isChecked());
        QVERIFY(win_->presentationFontAction()->isChecked());
        QVERIFY(ex()->presentationFont());
        QCOMPARE(ex()->animationMode(), widgets::AnimationMode::Step);
        QVERIFY(!animatedEntry->isChecked());
        QVERIFY(!toolbar->isVisible() && !win_->statusBar()->isVisible());
        QVERIFY(win_->windowState() & Qt::WindowFullScreen);
        QTest::keyClick(win_.get(), Qt::Key_F11);
        QVERIFY(!win_->presentationModeAction()->isChecked());
        QVERIFY(!win_->presentationFontAction()->isChecked());
        QCOMPARE(ex()->animationMode(), widgets::AnimationMode::Animated);
        QVERIFY(animatedEntry->isChecked());
        QVERIFY(toolbar->isVisible() && win_->statusBar()->isVisible());
        QVERIFY(!(win_->windowState() & Qt::WindowFullScreen));
        ex()->setAnimationMode(widgets::AnimationMode::Instant);
    }

    void cleanupTestCase() { win_.reset(); }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerTour)
#include "test_explorer_tour.moc"
