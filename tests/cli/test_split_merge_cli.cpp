// grammar --split-merge as a user runs it (issue 39): an SM-1 grammar of 300 WSJ sample trees is
// written with its cycle checkpoint, `eval` reads it and reports an F1; bad cycle counts and a
// --dev without --split-merge are one-line errors.
#include "core/grammar/GrammarFile.h"
#include "core/parse/MaxRuleDecoder.h"
#include "core/treebank/Binarize.h"
#include "core/treebank/Normalize.h"
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
        QCOMPARE(j["decoder"].get<std::string>(), std::string("viterbi"));

        // --decoder max-rule (Petrov & Klein 2007): the same sentences and inside pushes (the
        // parser's unit), its own F1, and per sentence the tree MaxRuleDecoder gives in core.
        const auto maxRule =
            runCli({"eval", "--grammar", out, "--treebank",
                    QString::fromStdString(prunescope::testdata::ptbDir("dev")), "--max-len", "15",
                    "--threads", "2", "--decoder", "max-rule", "--json"});
        QVERIFY2(maxRule.exitCode == 0, qPrintable(maxRule.err));
        const auto m = nlohmann::json::parse(maxRule.out.toStdString());
        QCOMPARE(m["decoder"].get<std::string>(), std::string("max-rule"));
        QCOMPARE(m["sentences"].get<int>(), j["sentences"].get<int>());
        QCOMPARE(m["meanPushes"].get<double>(), j["meanPushes"].get<double>());
        QVERIFY2(m["f1"].get<double>() > 0.4, qPrintable(maxRule.out));
        const std::string devFile = prunescope::testdata::ptbDir("dev");
        const auto parsed =
            runCli({"parse", "--grammar", out, "--treebank", QString::fromStdString(devFile),
                    "--decoder", "max-rule", "--quiet"});
        QVERIFY2(parsed.exitCode == 0, qPrintable(parsed.err));
        const QStringList lines = parsed.out.split('\n', Qt::SkipEmptyParts);
        const prunescope::Grammar g = prunescope::loadGrammar(dir + "/fine.gram");
        prunescope::MaxRuleDecoder decoder(g);
        const auto gold = prunescope::readNormalizedTreebank(devFile);
        QCOMPARE(static_cast<std::size_t>(lines.size()), gold.size());
        for (std::size_t s = 0; s < 5; ++s) {
            const auto words = gold[s].words();
            const auto r = decoder.decode(words);
            QVERIFY(r.success);
            QCOMPARE(lines[static_cast<int>(s)].toStdString(),
                     prunescope::debinarize(r.binarized).toString());
        }
        expectCliError(runCli({"eval", "--grammar", out, "--treebank",
                               QString::fromStdString(devFile), "--decoder", "mbr"}),
                       "--decoder");
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
