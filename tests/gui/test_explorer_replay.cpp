// GUI test (offscreen) of the explorer's Replay CKY and its synchronized steps (issue 18): the
// replay builds the chart bottom-up (width 1, 2, ..., left to right), its per-cell pushes sum to
// the Parser's under the same mask (keep-all and the policy's, on ptb-sample/dev sentences), pruned
// cells are skipped, and at step k the heat map, statistics and trees show the state after k cells;
// the change animation's statistics and trees follow its revealed cells too. Before the
// whole-sentence cell the predicted tree view shows the best partial parse
// (core/parse/PartialParse.h) as fragments.
#include "app/gui/explorer/ReplayController.h"
#include "app/gui/explorer/SentenceSession.h"
#include "app/gui/window/MainWindow.h"
#include "core/parse/Parser.h"
#include "core/parse/PartialParse.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QAction>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>

using namespace prunescope;
using namespace prunescope::gui;

class TestExplorerReplay : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> win_;
    ExplorerPanel* ex() { return win_->explorer(); }
    ReplayController* rc() { return ex()->replay(); }
    QPushButton* button(const char* name) { return ex()->findChild<QPushButton*>(name); }
    // The leading number of a statistics text ("420 so far (of 12539)").
    static long leading(const QString& t) { return t.section(' ', 0, 0).toLong(); }
    long parserPushes() {
        const SentenceSession& s = *ex()->session();
        Parser p(s.grammar());
        return p.parse(s.words(), &s.mask()).pushes;
    }
    // Selects the first dev sentence of 8..14 words whose policy mask prunes some spans.
    void selectDevSentence() {
        for (int s = 0; s < win_->sentenceCount(); ++s) {
            const int n = win_->sentenceLength(s);
            if (n < 8 || n > 14) continue;
            win_->selectSentence(s);
            if (ex()->session()->hasGold() &&
                ex()->session()->policyMask().keptCount() < PruningMask::prunableCount(n)) {
                std::string words;
                for (const auto& w : ex()->session()->words())
                    words += w + " ";
                qInfo("dev sentence %d: %s", s + 1, words.c_str());
                return;
            }
        }
        QFAIL("no dev sentence of 8-14 words with pruned spans");
    }

    // At `step`, the predicted view holds bestPartialParse's fragments as trees, notes their count,
    // and the gold view marks the gold brackets among the fragments'.
    void checkFragmentsShown(int step) {
        const SentenceSession& s = *ex()->session();
        const ReplayTrace& t = rc()->trace();
        const PartialParse p = bestPartialParse(s.chart(), builtAfter(t, s.chart(), step));
        const std::vector<Tree> expect = fragmentTrees(s.grammar(), s.chart(), s.words(), p);
        const auto& shown = ex()->predictedView()->forest();
        QCOMPARE(static_cast<int>(shown.size()), p.size());
        for (std::size_t f = 0; f < shown.size(); ++f)
            QCOMPARE(shown[f].toString(), expect[f].toString());
        QVERIFY(!ex()->predictedView()->hasTree());
        QVERIFY2(
            ex()->predictedView()->note().startsWith(QString("partial: %1 fragment").arg(p.size())),
            qPrintable(ex()->predictedView()->note()));
        QVERIFY(ex()->resultText().contains(QString("partial: %1 fragment").arg(p.size())));
        if (step == 0) QCOMPARE(p.size(), s.length()); // nothing built: the bare words
        // The gold brackets found so far, counted here from the fragments' brackets.
        std::set<LabeledSpan> found;
        for (const LabeledSpan& b : scoredBrackets(Tree{"ROOT", expect}))
            found.insert(b);
        int matched = 0;
        for (const LabeledSpan& b : s.goldBrackets())
            matched += found.count(b) != 0;
        QCOMPARE(ex()->goldView()->matchedCount(), matched);
        if (step == 0) QCOMPARE(matched, 0);
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        win_ = std::make_unique<MainWindow>(MainWindowOptions{false, false});
        win_->resize(1400, 900);
        win_->show();
        QVERIFY(win_->loadSampleSync()); // the bundled grammar and policy
        const QStringList files = QDir(QString::fromStdString(testdata::ptbDir("dev")))
                                      .entryList({"*.mrg"}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        QVERIFY(win_->openFileSync(QString::fromStdString(testdata::ptbDir("dev")) + "/" +
                                   files.front()));
        selectDevSentence();
        QVERIFY(ex()->session()->mask() == ex()->session()->policyMask());
    }

    void replayIsBottomUpAndPushesSumToTheParser() {
        const int n = ex()->session()->length();
        ex()->replayAction()->trigger();
        QVERIFY(rc()->waitUntilReady(120000)); // the trace is computed in the background
        QVERIFY(rc()->active());
        QCOMPARE(rc()->step(), 0);
        QCOMPARE(rc()->total(), n * (n + 1) / 2);
        QVERIFY(ex()->heatMap()->highlights().empty());
        int lastW = 1, lastI = -1;
        long sum = 0;
        for (int s = 1; s <= rc()->total(); ++s) {
            QTest::mouseClick(button("replayStep"), Qt::LeftButton);
            QCOMPARE(rc()->step(), s);
            const ReplayCell* c = rc()->current();
            QVERIFY(c);
            const int w = c->k - c->i;
            QVERIFY(w > lastW ||
                    (w == lastW && c->i == lastI + 1)); // width by width, left to right
            if (w > lastW) QCOMPARE(c->i, 0);
            lastW = w;
            lastI = c->i;
            sum += c->pushes;
            QCOMPARE(rc()->pushesSoFar(), sum);
            // The current cell is highlighted; its best split's children too.
            const auto& h = ex()->heatMap()->highlights();
            QVERIFY(!h.empty());
            QCOMPARE(h[0].i, c->i);
            QCOMPARE(h[0].k, c->k);
            if (!c->pruned && c->bestSplit > c->i) {
                QCOMPARE(static_cast<int>(h.size()), 3);
                QCOMPARE(h[1].k, c->bestSplit);
                QCOMPARE(h[2].i, c->bestSplit);
            }
            // Cells not reached yet are blank; reached built cells carry their label.
            for (int wd = 1; wd <= n; ++wd)
                for (int i = 0; i + wd <= n; ++i) {
                    const widgets::HeatCell& hc = ex()->heatMap()->cell(i, i + wd);
                    if (!rc()->reached(i, i + wd))
                        QVERIFY(hc.label.isEmpty() && std::isnan(hc.value));
                    else if (ex()->session()->constituents(i, i + wd) > 0)
                        QVERIFY(!hc.label.isEmpty());
                }
        }
        QVERIFY(!button("replayStep")->isEnabled());
        QCOMPARE(rc()->trace().pushes, sum);
        QCOMPARE(sum, parserPushes());
        QCOMPARE(sum, ex()->session()->result().pushes);
        QCOMPARE(rc()->constituentsSoFar(), ex()->session()->result().constituents);
        QCOMPARE(ex()->pushesText(), QString::number(sum)); // complete: the final statistics
        ex()->stopReplay();
    }

    void prunedCellsAreSkipped() {
        ex()->replayAction()->trigger();
        QVERIFY(rc()->waitUntilReady(120000)); // the trace is computed in the background
        int skipped = 0;
        long before = 0;
        for (int s = 1; s <= rc()->total(); ++s) {
            rc()->seek(s);
            const ReplayCell* c = rc()->current();
            QCOMPARE(c->pruned, !ex()->session()->mask().keep(c->i, c->k) && c->k - c->i > 1);
            if (c->pruned) {
                ++skipped;
                QCOMPARE(rc()->pushesSoFar(), before);
                QVERIFY(c->splits.empty());
                QVERIFY(ex()->replayText().contains("pruned — skipped"));
                QCOMPARE(ex()->heatMap()->highlights().front().tag, QString("skipped"));
                QCOMPARE(ex()->heatMap()->cell(c->i, c->k).label, QString("skipped"));
                QVERIFY(!ex()->heatMap()->cell(c->i, c->k).kept);
            }
            before = rc()->pushesSoFar();
        }
        QCOMPARE(skipped, PruningMask::prunableCount(ex()->session()->length()) -
                              ex()->session()->mask().keptCount());
        QVERIFY(skipped > 0);
        ex()->stopReplay();
    }

    void statsAndTreesFollowTheReplayStep() {
        ex()->replayAction()->trigger();
        QVERIFY(rc()->waitUntilReady(120000)); // the trace is computed in the background
        const int total = rc()->total();
        const int k = total / 2;
        rc()->seek(k);
        QCOMPARE(leading(ex()->pushesText()), rc()->pushesSoFar());
        QCOMPARE(leading(ex()->constituentsText()), rc()->constituentsSoFar());
        QVERIFY(rc()->pushesSoFar() < ex()->session()->result().pushes);
        QVERIFY(ex()->resultText().contains("partial:"));
        QVERIFY(ex()->f1Text().contains("no complete parse yet"));
        QVERIFY(!ex()->predictedView()->hasTree());
        for (int wd = 1; wd <= ex()->session()->length(); ++wd)
            for (int i = 0; i + wd <= ex()->session()->length(); ++i)
                QVERIFY(!ex()->heatMap()->cell(i, i + wd).best);
        // Every step before the root: the tree view shows the partial parse core computes.
        const int n = ex()->session()->length();
        for (int step : {0, 1, n, n + 1, k, total - 1}) {
            rc()->seek(step);
            checkFragmentsShown(step);
            if (QTest::currentTestFailed()) return;
        }
        rc()->seek(total); // the root cell: the parser's tree
        QCOMPARE(ex()->pushesText(), QString::number(ex()->session()->result().pushes));
        QCOMPARE(ex()->predictedView()->hasTree(), ex()->session()->result().success);
        QVERIFY(ex()->predictedView()->forest().empty());
        if (ex()->session()->result().success)
            QCOMPARE(ex()->predictedView()->tree().toString(),
                     ex()->session()->result().tree.toString());
        ex()->stopReplay();
        QVERIFY(!rc()->active());
        QVERIFY(ex()->heatMap()->highlights().empty());
        QCOMPARE(ex()->pushesText(), QString::number(ex()->session()->result().pushes));
    }

    // The trace is computed off the GUI thread; a stop meanwhile drops it (no replay appears
    // later).
    void stopWhileComputingDropsTheTrace() {
        ex()->replayAction()->trigger();
        QVERIFY(rc()->computing());
        QVERIFY(!rc()->active());
        ex()->stopReplay();
        QVERIFY(!rc()->computing());
        QTest::qWait(3000); // longer than the trace takes here
        QVERIFY(!rc()->active());
        ex()->replayAction()->trigger(); // a new start after the dropped one works
        QVERIFY(rc()->waitUntilReady(120000));
        QVERIFY(rc()->active());
        QCOMPARE(rc()->step(), 0);
        ex()->stopReplay();
    }

    void keepAllReplayAndPlay() {
        ex()->keepAllAction()->trigger();
        ex()->replayAction()->trigger();
        QVERIFY(rc()->waitUntilReady(120000)); // the trace is computed in the background
        QCOMPARE(rc()->trace().pushes, parserPushes());
        for (const ReplayCell& c : rc()->trace().cells)
            QVERIFY(!c.pruned);
        rc()->setInterval(1);
        QTest::mouseClick(button("replayPlay"), Qt::LeftButton);
        QVERIFY(rc()->playing());
        QTRY_VERIFY_WITH_TIMEOUT(rc()->complete(), 20000);
        QVERIFY(!rc()->playing());
        QCOMPARE(ex()->pushesText(), QString::number(ex()->session()->result().pushes));
        // A flip (a new mask) ends the replay.
        QVERIFY(ex()->requestFlip(0, 2));
        QVERIFY(!rc()->active());
        ex()->resetAction()->trigger();
    }

    void changeAnimationStatsFollowTheRevealedCells() {
        ex()->setAnimationMode(widgets::AnimationMode::Step);
        const SentenceSession& s = *ex()->session();
        const int n = s.length();
        // Keep a pruned span whose flip changes the parse: many touched cells.
        int bi = -1, bk = -1;
        for (int w = n - 1; w >= 2 && bi < 0; --w)
            for (int i = 0; i + w <= n && bi < 0; ++i)
                if (!s.mask().keep(i, i + w)) bi = i, bk = i + w;
        QVERIFY(bi >= 0);
        const long prevPushes = s.result().pushes, prevConst = s.result().constituents;
        const Tree prevTree = s.result().tree;
        QVERIFY(ex()->requestFlip(bi, bk));
        const int total = ex()->heatMap()->totalChanges();
        QVERIFY(total >= 2);
        QCOMPARE(ex()->heatMap()->revealedChanges(), 1);
        // After cell 1: not the final result but the state after one cell.
        QVERIFY(ex()->constituentsText().contains("after cell 1 of"));
        // Post-layer constituents that appeared or vanished, per touched cell (in agenda order).
        const auto& marks = ex()->heatMap()->changes();
        std::vector<long> delta(marks.size(), 0);
        for (const ChangeEvent& e : s.lastEvents())
            for (std::size_t m = 0; m < marks.size(); ++m)
                if (e.layer == 1 && marks[m].i == e.i && marks[m].k == e.k)
                    delta[m] += e.kind == CellChange::Appeared   ? 1
                                : e.kind == CellChange::Vanished ? -1
                                                                 : 0;
        long all = prevConst;
        for (long d : delta)
            all += d;
        QCOMPARE(all, s.result().constituents); // the revealed counts end at the parser's
        bool rootSeen = false;
        long expect = prevConst;
        for (int step = 1; step < total; ++step) {
            expect += delta[step - 1];
            rootSeen = rootSeen || (marks[step - 1].i == 0 && marks[step - 1].k == n);
            QCOMPARE(ex()->constituentsText(),
                     QString("%1 after cell %2 of %3").arg(expect).arg(step).arg(total));
            QVERIFY(ex()->pushesText().startsWith(QString::number(prevPushes) + " "));
            if (!rootSeen && prevTree.label.size() && ex()->predictedView()->hasTree())
                QCOMPARE(ex()->predictedView()->tree().toString(), prevTree.toString());
            if (!rootSeen) QVERIFY(ex()->resultText().contains("previous parse"));
            ex()->heatMap()->stepChanges();
        }
        // The last cell: the final result.
        QCOMPARE(ex()->heatMap()->revealedChanges(), total);
        QCOMPARE(ex()->constituentsText(), QString::number(s.result().constituents));
        QCOMPARE(ex()->pushesText(), QString::number(s.result().pushes));
        if (s.result().success)
            QCOMPARE(ex()->predictedView()->tree().toString(), s.result().tree.toString());
        ex()->setAnimationMode(widgets::AnimationMode::Instant);
        ex()->resetAction()->trigger();
    }
};

PRUNESCOPE_QTEST_MAIN(TestExplorerReplay)
#include "test_explorer_replay.moc"
