// GUI tests of the randomized-pruning window (offscreen): it shows what core computes for the same
// sentence, options and seed; step / play / pause / restart; the mask map's cells; selection "none"
// is exact; closing while a step runs is safe.
#include "app/gui/randomized/RandomizedWindow.h"
#include "app/gui/window/MainWindow.h"
#include "core/mcmc/FigureOfMerit.h"

#include "support/TestSuite.h"
#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>

#include <cmath>

using namespace prunescope;
using namespace prunescope::gui;

class TestRandomizedGui : public QObject {
    Q_OBJECT
  private slots:
    void showsWhatCoreComputes() {
        MainWindow w(MainWindowOptions{false, false});
        QVERIFY(w.loadSampleSync());
        w.selectSentence(2);
        RandomizedWindow* r = RandomizedWindow::showFor(&w);
        QVERIFY(r->waitIdle(30000));
        QCOMPARE(r->snapshot().iteration, 0);
        QVERIFY(r->readoutText().contains("No iteration yet"));
        // The window says what it shows and why the estimate can trail a fixed mask.
        const auto* about = r->findChild<QLabel*>("randomizedExplanation");
        QVERIFY(about && about->isVisible() && about->text().contains("fixed mask") &&
                about->text().contains("running estimate"));
        for (int t = 0; t < 4; ++t) {
            r->stepOnce();
            QVERIFY(r->waitIdle(30000));
        }
        const ChainSnapshot& s = r->snapshot();
        QCOMPARE(s.iteration, 4);
        QCOMPARE(r->trace()->points(), 4);
        QVERIFY(r->readoutText().contains("Iteration <b>4</b>"));

        // The same chain in core: same estimate, same pushes, same last mask.
        const SentenceSession* session = w.explorer()->session();
        RandomizedPruning chain(session->grammar());
        chain.start(session->words(), policyFigureOfMerit(*session->policy(), session->words()),
                    r->options());
        chain.run(4);
        QCOMPARE(s.pushes, chain.pushes());
        QCOMPARE(s.estimate, chain.estimate().span);
        QCOMPARE(s.mask, chain.mask());
        QCOMPARE(r->trace()->lastRunning(), s.spanL1);

        // The mask map: hatched = pruned by m(s, a); outlined = selected; dotted = the tree a.
        const int n = session->length();
        for (int i = 0; i < n; ++i)
            for (int k = i + 2; k <= n; ++k) {
                if (k - i == n) continue;
                const auto& c = r->maskMap()->cell(i, k);
                QCOMPARE(c.kept, s.mask.keep(i, k));
                bool sel = false;
                for (const auto& sp : s.selected)
                    sel |= sp == std::make_pair(i, k);
                QCOMPARE(c.gold, sel);
                if (sel && !c.best) QVERIFY(!c.kept); // a selected non-constituent is pruned
            }
        r->setEstimateView(1);
        QCOMPARE(r->estimateMap()->cell(0, 2).value, static_cast<float>(s.at(s.exact, 0, 2)));
    }

    void playPauseRestartAndExactSelection() {
        MainWindow w(MainWindowOptions{false, false});
        QVERIFY(w.loadSampleSync());
        w.selectSentence(4);
        RandomizedWindow* r = RandomizedWindow::showFor(&w);
        QVERIFY(r->waitIdle(30000));
        r->setStepInterval(0);
        r->play();
        QVERIFY(r->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(r->snapshot().iteration >= 3, 30000);
        r->pause();
        QVERIFY(r->waitIdle(30000));
        const int stopped = r->snapshot().iteration;
        QTest::qWait(150);
        QCOMPARE(r->snapshot().iteration, stopped); // paused stays paused

        RandomizedOptions o = r->options();
        o.selection = SelectionKind::None; // nothing selected: every iteration is exact
        r->setOptions(o);
        QVERIFY(r->waitIdle(30000));
        QCOMPARE(r->snapshot().iteration, 0);
        QCOMPARE(r->trace()->points(), 0);
        r->stepOnce();
        QVERIFY(r->waitIdle(30000));
        QCOMPARE(r->snapshot().spanL1, 0.0);
        QCOMPARE(r->snapshot().spansKept, r->snapshot().prunable);
    }

    // Closing (and destroying) the window while it plays cancels and waits: no crash, no leak.
    void closeWhilePlaying() {
        MainWindow w(MainWindowOptions{false, false});
        QVERIFY(w.loadSampleSync());
        w.selectSentence(1);
        auto* r = RandomizedWindow::showFor(&w);
        r->setStepInterval(0);
        r->play();
        QTest::qWait(50);
        r->close();
        delete r;
        QVERIFY(w.findChild<RandomizedWindow*>() == nullptr);
    }
};

PRUNESCOPE_QTEST_MAIN(TestRandomizedGui)
#include "test_randomized_gui.moc"
