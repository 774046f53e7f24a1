// prunescope-cli's reports of its own work (issue 43): eval's "words/second per core" is words over
// the summed thread CPU time of the sentences (not their wall time, which a loaded machine
// inflates); bench-randomized shows progress; a baseline cancelled by Ctrl-C exits 130 and leaves
// no empty run directory; bench-rollouts and parse show progress without mixing it into their
// output (parse stays silent when its stdout is the terminal); Ctrl-C during parse exits 130 with
// only whole trees printed.
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

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

    // bench-rollouts shows progress at a terminal and prints its table after it, whole; --quiet
    // shows none. parse shows progress when its output goes to a file, none when stdout is the
    // terminal too (a status line would land between the trees).
    void progressNeverMixesWithOutput() {
        auto atTerminal = [](const QString& line) { // script(1) gives the command a pty
            QProcess p;
            p.start("script", {"-qec", line, "/dev/null"});
            p.waitForFinished(120000);
            return QString::fromUtf8(p.readAllStandardOutput());
        };
        const QString bench = testdata::cliBinary() + " bench-rollouts --grammar " + grammar_ +
                              " --treebank " + treebank_ +
                              " --buckets 1-20 --per-bucket 2 --masks keep --latency-sentences 0";
        const QString shown = atTerminal(bench);
        // The status line is cleared (carriage return, erase line) before the table starts.
        QVERIFY2(shown.contains("bench-rollouts: mask 1/1") &&
                     shown.contains(QRegularExpression("(\\n|\\r\\x1b\\[K)mask    bucket")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QRegularExpression("\nkeep +1-20 +2 ")), qPrintable(shown));
        QVERIFY2(!atTerminal(bench + " --quiet").contains("bench-rollouts:"), qPrintable(shown));

        const QString file = dir_ + "/parsed.txt";
        const QString parse =
            testdata::cliBinary() + " parse --grammar " + grammar_ + " --treebank " + treebank_;
        const QString toFile = atTerminal(parse + " > " + file);
        QVERIFY2(toFile.contains("parse: sentence") || toFile.contains("parse: parsing"),
                 qPrintable(toFile));
        const QString toTerminal = atTerminal(parse);
        QVERIFY2(!toTerminal.contains("parse:"), qPrintable(toTerminal));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()).trimmed(),
                 QString(toTerminal).remove(QChar(13)).trimmed()); // the same trees either way
    }

    // Ctrl-C during parse exits 130; every line printed before it is a whole tree.
    void cancelledParsePrintsWholeTrees() {
        QProcess p;
        p.start(testdata::cliBinary(), {"parse", "--grammar", grammar_, "--treebank",
                                        QString::fromStdString(testdata::ptbDir("train"))});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        while (!out.contains('\n') && p.state() == QProcess::Running && p.waitForReadyRead(60000))
            out += p.readAllStandardOutput();
        QVERIFY2(out.contains('\n'), "no tree printed");
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        out += p.readAllStandardOutput();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY(out.endsWith('\n'));
        for (const QByteArray& line : out.trimmed().split('\n'))
            QVERIFY2(line.startsWith('(') && line.count('(') == line.count(')'), line.constData());
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
