// grammar --split-merge as a user runs it (issue 39): an SM-1 grammar of 300 WSJ sample trees is
// written with its cycle checkpoint, `eval` reads it and reports an F1; bad cycle counts and a
// --dev without --split-merge are one-line errors.
#include "support/CliRun.h"
#include "support/TestData.h"
#include "support/TestSuite.h"

#include <filesystem>

using prunescope::testdata::expectCliError;
using prunescope::testdata::runCli;

class TestSplitMergeCli : public QObject {
    Q_OBJECT
  private slots:
    void sm1GrammarTrainsAndEvaluates() {
        const std::string dir = prunescope::testdata::tempDir("split-merge-cli");
        const QString out = QString::fromStdString(dir + "/fine.gram");
        const auto train = runCli(
            {"grammar", "--train", QString::fromStdString(prunescope::testdata::ptbDir("train")),
             "--max-trees", "300", "--split-merge", "1", "--threads", "2", "--out", out});
        QVERIFY2(train.exitCode == 0, qPrintable(train.err));
        QVERIFY(train.out.contains("split-merge 1"));
        QVERIFY(train.out.contains("cycle 1 seconds"));
        QVERIFY(std::filesystem::exists(dir + "/fine.gram"));
        QVERIFY(std::filesystem::exists(dir + "/fine.gram.sm1"));
        const auto eval = runCli({"eval", "--grammar", out, "--treebank",
                                  QString::fromStdString(prunescope::testdata::ptbDir("dev")),
                                  "--max-len", "15", "--threads", "2", "--json"});
        QVERIFY2(eval.exitCode == 0, qPrintable(eval.err));
        const auto j = nlohmann::json::parse(eval.out.toStdString());
        QVERIFY(j["sentences"].get<int>() > 20);
        QVERIFY2(j["f1"].get<double>() > 0.4, qPrintable(eval.out));
    }

    void badInputIsRefused() {
        const QString train = QString::fromStdString(prunescope::testdata::ptbDir("train"));
        const QString out = QString::fromStdString(
            prunescope::testdata::tempDir("split-merge-cli-bad") + "/x.gram");
        for (const char* n : {"9", "-1"})
            expectCliError(runCli({"grammar", "--train", train, "--split-merge", n, "--out", out}),
                           "--split-merge");
        expectCliError(runCli({"grammar", "--train", train, "--dev", train, "--out", out}),
                       "--dev");
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestSplitMergeCli)
#include "test_split_merge_cli.moc"
