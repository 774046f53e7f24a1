// prunescope-cli's reports of its own work (issue 43): eval's "words/second per core" is words over
// the summed thread CPU time of the sentences (not their wall time, which a loaded machine
// inflates); bench-randomized shows progress; a baseline cancelled by Ctrl-C exits 130 and leaves
// no empty run directory.
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cmath>
#include <csignal>
#include <filesystem>

namespace fs = std::filesystem;
using namespace prunescope;
using testdata::CliRun;
using testdata::runCli;

class TestCliRunReports : public QObject {
    Q_OBJECT
    QString dir_, treebank_, grammar_;

  private slots:
    void initTestCase() {
        if (!QFile::exists(testdata::cliBinary())) QSKIP("prunescope-cli not built");
        dir_ = QString::fromStdString(testdata::tempDir("cli-run-reports"));
        treebank_ = QString::fromStdString(testdata::samplePath("sentences.mrg"));
        grammar_ = QString::fromStdString(testdata::samplePath("grammar.gram"));
    }

    // eval's words/second per core is words over summed thread CPU time.
    void evalSpeedPerCoreIsCpuTime() {
        const QString gram = dir_ + "/eval.gram";
        QCOMPARE(runCli({"grammar", "--train", treebank_, "--out", gram}).exitCode, 0);
        const CliRun r = runCli({"eval", "--grammar", gram, "--treebank", treebank_, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const double cpu = j.value("cpuSeconds").toDouble();
        QVERIFY2(cpu > 0, qPrintable(r.out));
        QVERIFY(
            std::abs(j.value("wordsPerSecond").toDouble() - j.value("words").toDouble() / cpu) <=
            1e-6 * j.value("wordsPerSecond").toDouble());
        const CliRun text = runCli({"eval", "--grammar", gram, "--treebank", treebank_});
        QVERIFY2(text.out.contains("per core (thread CPU)"), qPrintable(text.out));
    }

    // bench-randomized shows progress on a terminal (it runs for seconds; off a terminal the
    // first status line waits 10 s, as for every command), none with --quiet.
    void benchRandomizedShowsProgress() {
        const QString command = testdata::cliBinary() + " randomized bench --grammar " + grammar_ +
                                " --treebank " + QString::fromStdString(testdata::ptbDir("dev")) +
                                " --lengths 10 --per-length 2 --iterations 2 --repeats 1 --json";
        auto atTerminal = [](const QString& line) { // script(1) gives the command a pty
            QProcess p;
            p.start("script", {"-qec", line, "/dev/null"});
            p.waitForFinished(120000);
            return QString::fromUtf8(p.readAllStandardOutput());
        };
        const QString shown = atTerminal(command);
        QVERIFY2(shown.contains("bench-randomized: timing") && shown.contains("\"rows\""),
                 qPrintable(shown));
        const QString quiet = atTerminal(command + " --quiet");
        QVERIFY2(!quiet.contains("bench-randomized:") && quiet.contains("\"rows\""),
                 qPrintable(quiet));
    }

    // Ctrl-C during baseline exits 130 and leaves no (empty) run directory.
    void cancelledBaselineLeavesNoRunDirectory() {
        const QString out = dir_ + "/baseline-run";
        QProcess p;
        p.start(testdata::cliBinary(),
                {"baseline", "--grammar", grammar_, "--train",
                 QString::fromStdString(testdata::ptbDir("train")), "--dev",
                 QString::fromStdString(testdata::ptbDir("dev")), "--out", out});
        QVERIFY(p.waitForStarted());
        QVERIFY(!p.waitForFinished(2500)); // still reading or training
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(!fs::exists(out.toStdString()), qPrintable(out));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestCliRunReports)
#include "test_cli_run_reports.moc"
