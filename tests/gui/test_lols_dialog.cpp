// GUI tests of the LOLS run dialog's prefill (LolsRunDialog.h): the opened treebank fills the
// treebanks, the last run's config.json fills the data and schedule, the values of the last
// opening win over both, and the run directory offered is never a used one. QSettings are
// isolated (QStandardPaths test mode and a test organization) and cleared before each case.
#include "app/gui/frontier/LolsRunDialog.h"

#include "support/TestSuite.h"
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace prunescope;
using namespace prunescope::gui;

namespace {
void writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}
} // namespace

class TestLolsDialog : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("PruneScopeTest-lolsdialog");
        QCoreApplication::setApplicationName("test_lols_dialog");
    }
    void init() { QSettings().clear(); }
    void cleanupTestCase() { QSettings().clear(); }

    void openedTreebankFillsTrainAndDev() {
        QTemporaryDir tmp;
        QDir root(tmp.path());
        QVERIFY(root.mkpath("ptb/train") && root.mkpath("ptb/dev"));
        LolsDialogDefaults d;
        d.treebank = root.filePath("ptb/dev");
        LolsRunDialog dlg(d);
        QCOMPARE(QString::fromStdString(dlg.spec().run.train), root.filePath("ptb/train"));
        QCOMPARE(QString::fromStdString(dlg.spec().run.dev), root.filePath("ptb/dev"));
        // without a caller's treebank, the explorer's last opened one (QSettings) is used
        writeFile(root.filePath("one.mrg"), "(S (NP x))\n");
        QSettings().setValue("lastSentences", root.filePath("one.mrg"));
        LolsRunDialog dlg2{LolsDialogDefaults{}};
        QCOMPARE(QString::fromStdString(dlg2.spec().run.dev), root.filePath("one.mrg"));
        // the caller's treebanks win over the opened one
        LolsDialogDefaults given;
        given.treebank = root.filePath("ptb/dev");
        given.train = "/given/train";
        given.dev = "/given/dev";
        LolsRunDialog dlg3(given);
        QCOMPARE(QString::fromStdString(dlg3.spec().run.train), QString("/given/train"));
    }

    // Issue 42: a treebank opened in the explorer that is not ptb-sample/dev fills both train and
    // dev with itself (the bundled sample's 12 sentences); the dialog says so, and stops saying it
    // when dev is another treebank. The same folder through ".." or a symlink is the same.
    void sameTrainAndDevIsWarned() {
        QTemporaryDir tmp;
        QDir root(tmp.path());
        QVERIFY(root.mkpath("tb/a") && root.mkpath("tb/b"));
        writeFile(root.filePath("one.mrg"), "(S (NP x))\n");
        LolsDialogDefaults d;
        d.treebank = root.filePath("one.mrg");
        LolsRunDialog dlg(d);
        QCOMPARE(dlg.spec().run.train, dlg.spec().run.dev);
        auto* warning = dlg.findChild<QLabel*>("sameDataWarning");
        QVERIFY(warning);
        QVERIFY(!warning->isHidden());
        QVERIFY2(warning->text().contains("same"), qPrintable(warning->text()));
        QCOMPARE(dlg.sameDataWarning(), warning->text());
        auto* train = dlg.findChild<QLineEdit*>("lolsTrain");
        auto* dev = dlg.findChild<QLineEdit*>("lolsDev");
        QVERIFY(train && dev);
        train->setText(root.filePath("tb/a"));
        dev->setText(root.filePath("tb/b"));
        QVERIFY(warning->isHidden());
        QVERIFY(dlg.sameDataWarning().isEmpty());
        dev->setText(root.filePath("tb/b/../a"));
        QVERIFY(!warning->isHidden());
        QVERIFY(QFile::link(root.filePath("tb/a"), root.filePath("link")));
        dev->setText(root.filePath("link"));
        QVERIFY(!warning->isHidden());
    }

    void lastRunConfigFillsTheForm() {
        QTemporaryDir tmp;
        QDir root(tmp.path());
        QVERIFY(root.mkpath("run1") && root.mkpath("data/train") && root.mkpath("data/dev"));
        writeFile(root.filePath("g.gram"), "x");
        writeFile(root.filePath("p.json"), "{}");
        const QString config = QString(R"({"format":"prunescope-lols-run","version":1,
            "grammar":"%1","init":"%2","train":"%3","dev":"%4","maxLength":17,"trainLimit":33,"devLimit":21,
            "q0":{"positiveWeight":128.0,"scale":1.0},
            "lols":{"cpRolloutsPerWord":2,"engine":"fast","iterations":7,"l2":0.0001,"lambda":0.002,
                    "lbfgsEpsilon":1e-06,"lbfgsMaxIterations":12,"lbfgsMaxIterationsAfterFirst":4,"minibatch":9,"seed":1,"surrogate":"rdp",
                    "threads":0,"trainEvalSentences":0,"warmStart":true}})")
                                   .arg(root.filePath("g.gram"), root.filePath("p.json"),
                                        root.filePath("data/train"), root.filePath("data/dev"));
        writeFile(root.filePath("run1/config.json"), config.toUtf8());
        LolsDialogDefaults d;
        d.lastRunDir = root.filePath("run1");
        d.lambdaDp = 0.25;
        LolsRunDialog dlg(d);
        const LolsRunSpec r = dlg.spec().run;
        QCOMPARE(QString::fromStdString(r.grammar), root.filePath("g.gram"));
        QCOMPARE(QString::fromStdString(r.train), root.filePath("data/train"));
        QCOMPARE(QString::fromStdString(r.dev), root.filePath("data/dev"));
        QCOMPARE(r.maxLength, 17);
        QCOMPARE(r.trainLimit, 33);
        QCOMPARE(r.devLimit, 21);
        QCOMPARE(r.lols.iterations, 7);
        QCOMPARE(r.lols.minibatch, 9);
        QCOMPARE(r.lols.logreg.maxIterations, 12);
        QCOMPARE(r.lols.lbfgsMaxIterationsAfterFirst, 4);
        QCOMPARE(r.lols.surrogate, Surrogate::DP);
        QCOMPARE(r.lols.lambda, 0.25); // the caller's preset for the recorded surrogate
        // run1 has a config.json: the offered directory is a fresh sibling
        QCOMPARE(dlg.spec().out, root.filePath("run1") + "-2");
    }

    void remembersValuesBetweenOpenings() {
        QTemporaryDir tmp;
        QDir root(tmp.path());
        {
            LolsRunDialog dlg{LolsDialogDefaults{}};
            // Fresh settings: the CLI's defaults, the retraining cap after the first iteration on
            // (5, chosen on dev; issue 45), and an old settings key holding the opt-in era's 0 is
            // not read.
            QCOMPARE(dlg.spec().run.lols.lbfgsMaxIterationsAfterFirst, 5);
            QSettings().setValue("lolsDialog/lbfgsMaxIterationsAfterFirst", 0);
            QCOMPARE(
                LolsRunDialog{LolsDialogDefaults{}}.spec().run.lols.lbfgsMaxIterationsAfterFirst,
                5);
            auto spins = dlg.findChildren<QSpinBox*>();
            QVERIFY(spins.size() >= 8);
            for (QSpinBox* b : spins)
                b->setValue(b->minimum() + 3);
            for (QLineEdit* e : dlg.findChildren<QLineEdit*>())
                if (e->validator() == nullptr)
                    e->setText(root.filePath("field-" + QString::number(quintptr(e) % 997)));
            dlg.findChildren<QComboBox*>().back()->setCurrentIndex(1); // the surrogate: rDP
            dlg.done(QDialog::Rejected);                               // cancel remembers too
            const LolsJobSpec before = dlg.spec();
            LolsRunDialog again{LolsDialogDefaults{}};
            const LolsJobSpec after = again.spec();
            QCOMPARE(after.run.grammar, before.run.grammar);
            QCOMPARE(after.run.train, before.run.train);
            QCOMPARE(after.run.dev, before.run.dev);
            QCOMPARE(after.run.lols.iterations, before.run.lols.iterations);
            QCOMPARE(after.run.lols.minibatch, before.run.lols.minibatch);
            QCOMPARE(after.run.lols.threads, before.run.lols.threads);
            QCOMPARE(after.run.lols.logreg.maxIterations, before.run.lols.logreg.maxIterations);
            QCOMPARE(after.run.lols.logreg.maxIterations, 4); // minimum + 3, not the default 200
            QCOMPARE(after.run.lols.lbfgsMaxIterationsAfterFirst,
                     3); // minimum + 3, not the default 5
            QCOMPARE(after.run.trainLimit, before.run.trainLimit);
            QCOMPARE(after.run.devLimit, before.run.devLimit);
            QCOMPARE(after.run.maxLength, before.run.maxLength);
            QCOMPARE(after.out, before.out);
            QCOMPARE(after.run.lols.surrogate, Surrogate::DP);
            QVERIFY(after.run.lols.iterations != 10); // not the built-in default
        }
    }

    // Issue 42: one click sets a schedule a class can wait for, evaluated on the whole dev set
    // within 40 words (the baselines' evaluation set), and leaves policy, data and output alone.
    void classroomPresetSetsAShortRunOnTheFrontiersDevSet() {
        LolsDialogDefaults d;
        d.policies = {"/p/w128.json"};
        d.train = "/data/train";
        d.dev = "/data/dev";
        d.outDir = "/runs/new";
        d.lambdaCp = 0.004;
        d.lambdaDp = 0.0125;
        LolsRunDialog dlg(d);
        auto* button = dlg.findChild<QPushButton*>("classroomPreset");
        QVERIFY(button);
        const LolsJobSpec before = dlg.spec();
        button->click();
        const LolsJobSpec s = dlg.spec();
        QCOMPARE(s.run.lols.surrogate, Surrogate::DP);
        QCOMPARE(s.run.lols.lambda, 0.0125);
        QCOMPARE(s.run.lols.iterations, 5);
        QCOMPARE(s.run.lols.minibatch, 40);
        QCOMPARE(s.run.trainLimit, 400);
        QCOMPARE(s.run.devLimit, 0);
        QCOMPARE(s.run.maxLength, 40);
        QCOMPARE(s.run.lols.logreg.maxIterations, 50);
        QCOMPARE(s.run.lols.lbfgsMaxIterationsAfterFirst, 5);
        QCOMPARE(s.run.init, before.run.init);
        QCOMPARE(s.run.train, before.run.train);
        QCOMPARE(s.run.dev, before.run.dev);
        QCOMPARE(s.out, before.out);
        QCOMPARE(s.run.lols.threads, before.run.lols.threads);
    }

    void freeRunDirSkipsUsedDirectories() {
        QTemporaryDir tmp;
        QDir root(tmp.path());
        QCOMPARE(LolsRunDialog::freeRunDir(root.filePath("new")), root.filePath("new"));
        QVERIFY(root.mkpath("empty"));
        QCOMPARE(LolsRunDialog::freeRunDir(root.filePath("empty")), root.filePath("empty"));
        QVERIFY(root.mkpath("used") && root.mkpath("used-2"));
        writeFile(root.filePath("used/x"), "1");
        writeFile(root.filePath("used-2/x"), "1");
        QCOMPARE(LolsRunDialog::freeRunDir(root.filePath("used")), root.filePath("used-3"));
    }
};

PRUNESCOPE_QTEST_MAIN(TestLolsDialog)
#include "test_lols_dialog.moc"
