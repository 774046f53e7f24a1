// GUI and CLI tests of "a frontier compares like with like" (Vieira & Eisner 2017, sec. 7): a real
// LOLS run evaluated on a dev subset (<= 20 words, 20 sentences) beside the bundled baseline
// frontier (dev <= 40 words, 300 sentences). Mixed together, the subset's iteration 0 wins
// "best policy for lambda" only because its sentences are short; the window shows one set at a
// time, and prunescope-cli frontier-best refuses the mix unless --eval-set picks a set. Also: a
// point without a policy file says why it cannot be loaded or exported.
#include "app/gui/frontier/FrontierWindow.h"
#include "core/frontier/EvaluationSet.h"
#include "core/frontier/FrontierFile.h"
#include "core/lols/RunDirectory.h"
#include "support/CliRun.h"
#include "support/FrontierTesting.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QSlider>

using namespace prunescope;
using namespace prunescope::gui;

namespace {

const std::string kBaselineSet = "ptb-sample/dev:40:300";
const std::string kRunSet = "ptb-sample/dev:20:20";

} // namespace

class TestFrontierEvalSet : public QObject {
    Q_OBJECT
    QString dir_, run_, frontier_;

  private slots:
    void initTestCase() {
        dir_ = QString::fromStdString(testdata::tempDir("frontier_evalset"));
        frontier_ =
            QString::fromStdString(testdata::sourceDir()) + "/samples/policies/frontier.json";
        run_ = dir_ + "/lols-dev20";
        const QString ptb = QString::fromStdString(testdata::dataDir()) + "/ptb-sample";
        const auto r = testdata::runCli(
            {"lols",
             "--grammar",
             QString::fromStdString(testdata::sourceDir()) + "/samples/grammar.gram",
             "--init",
             QString::fromStdString(testdata::sourceDir()) + "/samples/policies/baseline-w128.json",
             "--train",
             ptb + "/train",
             "--dev",
             ptb + "/dev",
             "--out",
             run_,
             "--iterations",
             "1",
             "--minibatch",
             "8",
             "--surrogate",
             "rcp",
             "--lambda",
             "0.002",
             "--max-len",
             "20",
             "--dev-limit",
             "20",
             "--threads",
             "2",
             "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    // Opening a run directory adds all its committed iterations and rebuilds the view once, after
    // them (it rebuilt it per iteration: a 12-iteration run took 1.5-1.8 s to open, over 1 s).
    void openingARunDirectoryRefreshesTheViewOnce() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        const std::size_t before = w.model().records().size();
        const int refreshes = w.viewRefreshes();
        QVERIFY(w.openRunDirectory(run_));
        QCOMPARE(w.model().records().size(), before + 2); // iterations 0 and 1, read at once
        QCOMPARE(w.viewRefreshes(), refreshes + 1);
        QCOMPARE(w.evaluationSetBox()->count(), 2); // the one refresh saw both iterations
    }

    void windowComparesOneSetOnly() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        QVERIFY(w.openRunDirectory(run_));
        QTRY_VERIFY_WITH_TIMEOUT(w.model().records().size() == 18,
                                 20000); // 15 + unpruned + 2 iterations
        // The selector lists both sets with their policy counts; the frontier file's set is shown.
        QComboBox* box = w.evaluationSetBox();
        QCOMPARE(box->count(), 2);
        QVERIFY(box->isEnabled());
        QCOMPARE(box->itemData(0).toString().toStdString(), kBaselineSet);
        QVERIFY2(box->itemText(0).contains("15 policies"), qPrintable(box->itemText(0)));
        QCOMPARE(box->itemData(1).toString().toStdString(), kRunSet);
        QVERIFY2(box->itemText(1).contains("ptb-sample/dev, ≤ 20 words, 20 sentences — 2 policies"),
                 qPrintable(box->itemText(1)));
        QCOMPARE(w.evaluationSet(), kBaselineSet);
        QCOMPARE(static_cast<int>(w.view().points.size()), 15);
        QCOMPARE(w.view().hiddenOtherSets, 2);

        // Mixed, as before: some lambda makes a LOLS subset point the "best" (the bug).
        const FrontierModel::View mixed =
            w.model().view(RuntimeMeasure::Mpush, AccuracyMeasure::F1);
        QCOMPARE(static_cast<int>(mixed.points.size()), 17);
        int mixedWins = 0;
        for (int pos = 0; pos <= widgets::LambdaSlider::kSteps; pos += 4) {
            w.slider()->slider()->setValue(pos);
            const double lambda = w.lambda();
            const int m = testdata::directBest(mixed.points, lambda);
            const PolicyRecord& mr = w.model().records()[static_cast<std::size_t>(
                mixed.shownRecord[static_cast<std::size_t>(m)])];
            if (mr.evaluation.key() == kRunSet) ++mixedWins;
            // The window only ever picks a policy of the shown set, the optimum among those.
            QCOMPARE(w.selectedPoint(), testdata::directBest(w.view().points, lambda));
            const PolicyRecord& r =
                w.model().records()[static_cast<std::size_t>(w.selectedRecord())];
            QCOMPARE(r.evaluation.key(), kBaselineSet);
            QVERIFY(r.run.isEmpty());
        }
        QVERIFY2(
            mixedWins > 0,
            "the mixed frontier never prefers a subset point: the test would not catch the bug");

        // Choosing the run's set (as a user does in the combo box) shows its two iterations only.
        box->setCurrentIndex(1);
        emit box->activated(1);
        QCOMPARE(w.evaluationSet(), kRunSet);
        QCOMPARE(static_cast<int>(w.view().points.size()), 2);
        QCOMPARE(w.view().hiddenOtherSets, 15);
        for (int pos = 0; pos <= widgets::LambdaSlider::kSteps; pos += 10) {
            w.slider()->slider()->setValue(pos);
            QVERIFY(w.selectedRecord() >= 0);
            QCOMPARE(
                w.model().records()[static_cast<std::size_t>(w.selectedRecord())].evaluation.key(),
                kRunSet);
        }
        // The exported policy records its evaluation set.
        QVERIFY(w.selectionProblem().isEmpty());
        const Policy p = w.exportedPolicy();
        QCOMPARE(p.meta.training["provenance"]["evaluationSet"]["maxLength"].get<int>(), 20);
        QCOMPARE(p.meta.training["provenance"]["evaluationSet"]["sentences"].get<int>(), 20);
    }

    // A committed LOLS iteration does not change the baseline points the sigmoid is fitted to, so
    // the view reuses the fit (a refit took ~100 ms of the GUI thread per commit: a 260 ms stall
    // with the benchmark's own refit); a changed baseline point refits, giving a fresh model's fit.
    void committedIterationsDoNotRefitTheBaselineSigmoid() {
        FrontierModel m;
        m.addFrontierFile(frontier_);
        const auto v0 = m.view(RuntimeMeasure::Mpush, AccuracyMeasure::F1);
        QVERIFY(v0.plot.fit.has_value());
        QCOMPARE(m.fitsComputed(), 1);
        const RunDirectorySnapshot snap = readRunDirectory(run_.toStdString());
        QVERIFY(snap.log.size() >= 2);
        for (const auto& rec : snap.log) {
            m.addLolsIteration(run_, rec, snap.config);
            for (const std::string& set :
                 {std::string(), kBaselineSet}) { // the default is the file's set
                const auto v = m.view(RuntimeMeasure::Mpush, AccuracyMeasure::F1, false, set);
                QVERIFY(v.plot.fit.has_value());
                QCOMPARE(v.plot.fit->ymax, v0.plot.fit->ymax);
                QCOMPARE(v.plot.fit->c, v0.plot.fit->c);
            }
            QCOMPARE(m.fitsComputed(), 1);
        }
        // The run's own set has fewer than 4 baseline points, so its view fits all its points:
        // once, then cached; going back to the baseline set refits (one fit is remembered).
        m.view(RuntimeMeasure::Mpush, AccuracyMeasure::F1, false, kRunSet);
        m.view(RuntimeMeasure::Mpush, AccuracyMeasure::F1, false, kRunSet);
        QCOMPARE(m.fitsComputed(), 2);
        const auto vb = m.view(RuntimeMeasure::Mpush, AccuracyMeasure::F1, false, kBaselineSet);
        QCOMPARE(m.fitsComputed(), 3);
        QCOMPARE(vb.plot.fit->a, v0.plot.fit->a);
        const int fits = m.fitsComputed();

        // A changed baseline point refits; the result equals a fresh model's.
        QFile in(frontier_);
        QVERIFY(in.open(QIODevice::ReadOnly));
        nlohmann::json j = nlohmann::json::parse(in.readAll().toStdString());
        const double f1 = 0.9 * j["points"][5]["metrics"]["f1"].get<double>();
        j["points"][5]["metrics"]["f1"] = f1;
        j["points"][5]["accuracy"] = 100 * f1;
        const QString changed = dir_ + "/frontier-changed.json";
        QFile f(changed);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(j.dump(1)));
        f.close();
        m.clear();
        m.addFrontierFile(changed);
        const auto vc = m.view(RuntimeMeasure::Mpush, AccuracyMeasure::F1);
        QCOMPARE(m.fitsComputed(), fits + 1);
        FrontierModel fresh;
        fresh.addFrontierFile(changed);
        const auto vf = fresh.view(RuntimeMeasure::Mpush, AccuracyMeasure::F1);
        QVERIFY(vc.plot.fit && vf.plot.fit);
        QCOMPARE(vc.plot.fit->ymax, vf.plot.fit->ymax);
        QCOMPARE(vc.plot.fit->a, vf.plot.fit->a);
        QVERIFY(vc.plot.fit->ymax != v0.plot.fit->ymax || vc.plot.fit->a != v0.plot.fit->a);
    }

    void pointWithoutPolicyFileSaysWhy() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(frontier_));
        QPushButton* load = nullptr;
        for (auto* b : w.findChildren<QPushButton*>())
            if (b->text() == "Load into explorer") load = b;
        QVERIFY(load);
        int without = 0, with = 0;
        for (int pos = 0; pos <= widgets::LambdaSlider::kSteps; pos += 2) {
            w.slider()->slider()->setValue(pos);
            const PolicyRecord& r =
                w.model().records()[static_cast<std::size_t>(w.selectedRecord())];
            if (r.policyPath.isEmpty()) {
                ++without;
                QVERIFY(!load->isEnabled());
                QVERIFY2(w.selectionProblem().contains("without a policy file"),
                         qPrintable(w.selectionProblem()));
                QVERIFY(load->toolTip().contains("without a policy file"));
                QString err;
                QVERIFY(!w.exportSelected(dir_ + "/x.json", &err));
                QVERIFY2(err.contains("without a policy file"), qPrintable(err));
            } else {
                ++with;
                QVERIFY(load->isEnabled());
                QVERIFY(w.selectionProblem().isEmpty());
            }
        }
        QVERIFY(without > 0 && with > 0);
    }

    void missingPolicyFileSaysWhy() {
        // A copy of the frontier whose policies were not copied along: the files are missing.
        const QString copy = dir_ + "/copied/frontier.json";
        QDir().mkpath(dir_ + "/copied");
        QVERIFY(QFile::copy(frontier_, copy));
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openFrontier(copy));
        for (int pos = 0; pos <= widgets::LambdaSlider::kSteps; pos += 2) {
            w.slider()->slider()->setValue(pos);
            const PolicyRecord& r =
                w.model().records()[static_cast<std::size_t>(w.selectedRecord())];
            if (r.policyPath.isEmpty()) continue;
            QVERIFY2(w.selectionProblem().contains("does not exist"),
                     qPrintable(w.selectionProblem()));
            return;
        }
        QFAIL("no point with a policy path was selected");
    }

    void cliRefusesMixedSets() {
        // Mixed: refused, naming both sets and how to choose.
        auto r = testdata::runCli(
            {"frontier-best", "--frontier", frontier_, "--run", run_, "--lambda", "100"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("2 evaluation sets"), qPrintable(r.err));
        QVERIFY(r.err.contains(QString::fromStdString("--eval-set " + kBaselineSet)));
        QVERIFY(r.err.contains(QString::fromStdString("--eval-set " + kRunSet)));
        QVERIFY(r.out.isEmpty());
        // --list-sets prints them with their counts.
        r = testdata::runCli(
            {"frontier-best", "--frontier", frontier_, "--run", run_, "--list-sets"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("15 points") && r.out.contains("2 points"), qPrintable(r.out));
        // A set nobody was evaluated on.
        r = testdata::runCli({"frontier-best", "--frontier", frontier_, "--run", run_, "--lambda",
                              "1", "--eval-set", "x:1:1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("no point was evaluated on 'x:1:1'"));

        // --eval-set: the same choice as the window at the same lambda, on each set.
        for (const std::string& set : {kBaselineSet, kRunSet}) {
            FrontierWindow w(nullptr, false);
            QVERIFY(w.openFrontier(frontier_));
            QVERIFY(w.openRunDirectory(run_));
            QTRY_VERIFY_WITH_TIMEOUT(w.model().records().size() == 18, 20000);
            w.setEvaluationSet(set);
            for (double lambda : {0.0, 30.0, 300.0, 3000.0}) {
                w.setLambda(lambda);
                const double shown = w.lambda(); // the slider's grid
                r = testdata::runCli({"frontier-best", "--frontier", frontier_, "--run", run_,
                                      "--lambda", QString::number(shown, 'g', 17), "--eval-set",
                                      QString::fromStdString(set), "--json"});
                QVERIFY2(r.exitCode == 0, qPrintable(r.err));
                const auto j = nlohmann::json::parse(r.out.toStdString());
                const PolicyRecord& rec =
                    w.model().records()[static_cast<std::size_t>(w.selectedRecord())];
                QCOMPARE(QString::fromStdString(j["id"].get<std::string>()), rec.id);
                QCOMPARE(j["evaluationSetKey"].get<std::string>(), set);
                QCOMPARE(j["otherPoints"].get<int>(), set == kBaselineSet ? 2 : 15);
            }
        }
        // The frontier alone is one set: no --eval-set needed.
        r = testdata::runCli({"frontier-best", "--frontier", frontier_, "--lambda", "100"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QString::fromStdString("evaluation set " + kBaselineSet)),
                 qPrintable(r.out));
    }
};

PRUNESCOPE_QTEST_MAIN(TestFrontierEvalSet)
#include "test_frontier_evalset.moc"
