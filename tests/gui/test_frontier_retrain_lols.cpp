// GUI and CLI tests of retraining a LOLS frontier point (core/lols/LolsRetrain.h; issue "every
// frontier point can be loaded and exported, or the window says why not and offers to retrain it")
// on a tiny real run (ptb-sample, `prunescope-cli lols`, 2 iterations) whose iteration 1 policy
// file was deleted: the frontier window offers "Retrain this point…", retrains in the background
// with progress and a Cancel button, and the point becomes loadable and exportable with the
// deleted weights bit for bit; `frontier-retrain` does the same from the command line, and the
// `lols` command it prints reproduces the iteration too.
#include "app/gui/frontier/FrontierWindow.h"
#include "core/lols/RunDirectory.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>

#include <filesystem>

using namespace prunescope;
using namespace prunescope::gui;
namespace fs = std::filesystem;

namespace {
QString firstTrees(const std::string& split, std::size_t count, const QString& path) {
    std::string text;
    for (const Tree& t : readNormalizedTreebank(testdata::ptbDir(split), count))
        text += t.toString() + "\n";
    writeFileAtomically(path.toStdString(), text);
    return path;
}

int pointOf(const FrontierWindow& w, const QString& id) {
    for (std::size_t i = 0; i < w.view().points.size(); ++i)
        if (QString::fromStdString(w.view().points[i].id) == id) return static_cast<int>(i);
    return -1;
}
} // namespace

class TestFrontierRetrainLols : public QObject {
    Q_OBJECT
    QString dir_, run_;
    Policy deleted1_, deleted2_;

  private slots:
    void initTestCase() {
        dir_ = QString::fromStdString(testdata::tempDir("frontier_retrain_lols"));
        run_ = dir_ + "/run";
        const QString samples = QString::fromStdString(testdata::sourceDir()) + "/samples";
        const auto r = testdata::runCli({"lols",
                                         "--grammar",
                                         samples + "/grammar.gram",
                                         "--init",
                                         samples + "/policies/baseline-w16.json",
                                         "--train",
                                         firstTrees("train", 200, dir_ + "/train.mrg"),
                                         "--dev",
                                         firstTrees("dev", 60, dir_ + "/dev.mrg"),
                                         "--out",
                                         run_,
                                         "--iterations",
                                         "2",
                                         "--minibatch",
                                         "3",
                                         "--max-len",
                                         "15",
                                         "--train-limit",
                                         "40",
                                         "--dev-limit",
                                         "6",
                                         "--surrogate",
                                         "rdp",
                                         "--lambda",
                                         "0.01",
                                         "--q0-scale",
                                         "0.001",
                                         "--threads",
                                         "2",
                                         "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const RunDirectory rd = RunDirectory::open(run_.toStdString());
        QCOMPARE(rd.log().at(1).dev.sentences, 6);
        QVERIFY(rd.log().at(1).dev.f1 > 0 && rd.log().at(1).dev.mpush > 0);
        deleted1_ = loadPolicy(rd.policyPath(1));
        deleted2_ = loadPolicy(rd.policyPath(2));
        QVERIFY(!(deleted1_.weights == deleted2_.weights));
        QVERIFY(!(deleted1_.weights == loadPolicy(rd.policyPath(0)).weights));
        fs::remove(rd.policyPath(1));
        fs::remove(rd.policyPath(2));
    }

    void cliPrintsTheCommandAndRetrains() {
        const auto show =
            testdata::runCli({"frontier-retrain", "--frontier", run_, "--point", "run/iter-001"});
        QVERIFY2(show.exitCode == 0, qPrintable(show.err));
        QVERIFY2(show.out.contains("point run/iter-001: iteration 1 of the LOLS run"),
                 qPrintable(show.out));
        QVERIFY(!show.out.contains("note:")); // the flags give every recorded setting
        const QStringList lines = show.out.split('\n');
        const int at = lines.indexOf("equivalent command:");
        QVERIFY(at >= 0 && at + 1 < lines.size());
        QString cmd = lines[at + 1].trimmed();
        QVERIFY2(cmd.startsWith("prunescope-cli lols --grammar ") &&
                     cmd.contains(" --iterations 1 ") && cmd.contains(" --seed 1") &&
                     cmd.endsWith(" --out OUT") && !cmd.contains('\''),
                 qPrintable(cmd));

        // The printed command, run as printed, reproduces iteration 1.
        cmd.replace(" --out OUT", " --out " + dir_ + "/by-command --quiet --threads 2");
        QStringList args = cmd.split(' ', Qt::SkipEmptyParts);
        args.removeFirst();
        const auto byCommand = testdata::runCli(args);
        QVERIFY2(byCommand.exitCode == 0, qPrintable(byCommand.err));
        QVERIFY(loadPolicy((dir_ + "/by-command/policies/iter-001.json").toStdString()).weights ==
                deleted1_.weights);

        // --out retrains (on another thread count) and checks the recorded dev evaluation.
        const auto r =
            testdata::runCli({"frontier-retrain", "--frontier", run_, "--point", "run/iter-001",
                              "--out", dir_ + "/cli-out", "--threads", "1", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains("reproduced: the dev evaluation equals the recorded one"),
                 qPrintable(r.out));
        QVERIFY(loadPolicy((dir_ + "/cli-out/policies/iter-001.json").toStdString()).weights ==
                deleted1_.weights);

        const auto bad =
            testdata::runCli({"frontier-retrain", "--frontier", run_, "--point", "run/iter-009"});
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains("iteration 9 was never committed"), qPrintable(bad.err));
        const auto present =
            testdata::runCli({"frontier-retrain", "--frontier", run_, "--point", "run/iter-000"});
        QVERIFY2(present.exitCode == 0 && present.out.contains("nothing to retrain"),
                 qPrintable(present.out));
    }

    void windowRetrainsTheIteration() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openRunDirectory(run_));
        QTRY_VERIFY_WITH_TIMEOUT(w.model().records().size() == 3, 20000);
        const int point = pointOf(w, "run/iter-001");
        QVERIFY(point >= 0);
        w.selectPoint(point);
        QCOMPARE(w.selectedPoint(), point);
        QVERIFY2(w.selectionProblem().contains("does not exist"), qPrintable(w.selectionProblem()));
        QVERIFY2(w.retrainProblem().isEmpty(), qPrintable(w.retrainProblem()));
        auto* retrain = w.findChild<QPushButton*>("retrainPoint");
        auto* bar = w.findChild<QProgressBar*>("retrainProgress");
        auto* cancel = w.findChild<QPushButton*>("cancelRetrain");
        QVERIFY(retrain && bar && cancel);
        QVERIFY(retrain->isEnabled() && !retrain->isHidden());
        QVERIFY(bar->parentWidget()->isHidden());

        LolsRetrainSettings seen;
        QString defaultOut;
        const QString out = dir_ + "/gui-out";
        w.setLolsRetrainDialogFunction(
            [&](QWidget*, const LolsRetrainSettings& s, QString& outDir) {
                seen = s;
                defaultOut = outDir;
                outDir = out;
                return true;
            });
        QSignalSpy done(&w, &FrontierWindow::pointRetrained);
        retrain->click();
        QCOMPARE(seen.iteration, 1);
        QVERIFY(fs::equivalent(seen.runDir, run_.toStdString()));
        QVERIFY2(defaultOut.endsWith("/run-retrain-iter-001"), qPrintable(defaultOut));
        QVERIFY(!bar->parentWidget()->isHidden()); // progress and Cancel while it runs
        QVERIFY(!retrain->isEnabled());
        QVERIFY(w.retrainTask()->waitForDone(120000));
        QCOMPARE(done.count(), 1);
        const QString path = done.at(0).at(1).toString();
        QCOMPARE(path, out + "/policies/iter-001.json");
        QVERIFY(bar->parentWidget()->isHidden());

        // The same point, now loadable and exportable, with the deleted weights.
        QCOMPARE(w.selectedPoint(), pointOf(w, "run/iter-001"));
        QVERIFY2(w.selectionProblem().isEmpty(), qPrintable(w.selectionProblem()));
        QVERIFY(retrain->isHidden());
        QVERIFY(w.exportedPolicy().weights == deleted1_.weights);
        QString err;
        QVERIFY2(w.exportSelected(dir_ + "/exported.json", &err), qPrintable(err));

        // Iteration 2: Cancel stops it; the point stays unloadable and can be retrained again.
        const int second = pointOf(w, "run/iter-002");
        QVERIFY(second >= 0);
        w.selectPoint(second);
        QVERIFY2(w.retrainProblem().isEmpty(), qPrintable(w.retrainProblem()));
        w.setLolsRetrainDialogFunction([&](QWidget*, const LolsRetrainSettings&, QString& outDir) {
            outDir = dir_ + "/gui-cancelled";
            return true;
        });
        QVERIFY(w.retrainSelected());
        cancel->click();
        QVERIFY(w.retrainTask()->waitForDone(30000));
        QCOMPARE(w.retrainTask()->state(), BackgroundTask::State::Cancelled);
        QCOMPARE(done.count(), 2);
        QVERIFY(done.at(1).at(1).toString().isEmpty());
        QCOMPARE(w.selectedPoint(), second);
        QVERIFY(!w.selectionProblem().isEmpty());
        QVERIFY(w.retrainProblem().isEmpty());
    }

    // A run whose config.json is gone: the window says why (naming the file) and offers nothing.
    void missingConfigSaysSo() {
        FrontierWindow w(nullptr, false);
        QVERIFY(w.openRunDirectory(run_));
        QTRY_VERIFY_WITH_TIMEOUT(w.model().records().size() == 3, 20000);
        fs::rename((run_ + "/config.json").toStdString(),
                   (dir_ + "/config.json.moved").toStdString());
        w.selectPoint(pointOf(w, "run/iter-002"));
        const QString why = w.retrainProblem();
        const bool started = w.retrainSelected();
        fs::rename((dir_ + "/config.json.moved").toStdString(),
                   (run_ + "/config.json").toStdString());
        QVERIFY2(why.contains(run_ + "/config.json: missing"), qPrintable(why));
        QVERIFY(!started);
    }
};

PRUNESCOPE_QTEST_MAIN(TestFrontierRetrainLols)
#include "test_frontier_retrain_lols.moc"
