// prunescope-cli bench-parse (issue 17's interface: --ideal --json with a key containing `ideal`
// and `mpush` beside one containing `total` and `mpush`) on a ptb-sample/dev file: the pushes it
// reports are the parser's own, the ideal loop rebuilt the parser's rows, --phases accounts for
// every parse it timed, and bad options are refused with a message.
#include "core/grammar/GrammarFile.h"
#include "core/parse/Parser.h"
#include "core/treebank/Normalize.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QDir>

#include <nlohmann/json.hpp>

using prunescope::testdata::runCli;

namespace {
QString benchGrammar() {
    return QString::fromStdString(prunescope::testdata::samplePath("grammar.gram"));
}
QString benchDevFile() {
    const QString dir = QString::fromStdString(prunescope::testdata::ptbDir("dev"));
    const QStringList files = QDir(dir).entryList({"*.mrg"}, QDir::Files, QDir::Name);
    return files.isEmpty() ? QString() : dir + "/" + files.front();
}
bool hasPositiveKey(const nlohmann::json& j, const std::string& a, const std::string& b) {
    for (const auto& [key, value] : j.items()) {
        std::string lower = key;
        for (char& c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower.find(a) != std::string::npos && lower.find(b) != std::string::npos &&
            value.is_number() && value.get<double>() > 0)
            return true;
    }
    return false;
}
} // namespace

class TestBenchParseCli : public QObject {
    Q_OBJECT
  private slots:
    void reportsTheParsersPushes() {
        const QString file = benchDevFile();
        QVERIFY(!file.isEmpty());
        const int maxLen = 20, repeat = 2;
        const auto run =
            runCli({"bench-parse", "--grammar", benchGrammar(), "--treebank", file, "--max-len",
                    QString::number(maxLen), "--repeat", QString::number(repeat), "--ideal",
                    "--ideal-seconds", "0.03", "--memory-words", "30", "--phases", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto j = nlohmann::json::parse(run.out.toStdString());
        QVERIFY(hasPositiveKey(j, "ideal", "mpush"));
        QVERIFY(hasPositiveKey(j, "total", "mpush"));
        const double total = j.at("totalMpushPerSecond").get<double>(),
                     ideal = j.at("idealMpushPerSecond").get<double>();
        QVERIFY(qAbs(j.at("ratioToIdeal").get<double>() - total / ideal) < 1e-9);
        QVERIFY(j.at("idealLoop").at("rowsMatchParser").get<bool>());
        // The cost by length (issue 39): CKY's pushes grow as n^3 times the symbols per cell,
        // which still grow with the span on short sentences (n^3.5 on dev <= 40 with this grammar).
        const auto& fit = j.at("lengthFit");
        const double k = fit.at("pushExponent").get<double>();
        QVERIFY2(k > 2 && k < 4.5, qPrintable(QString::number(k)));
        QVERIFY(fit.at("timeExponent").get<double>() > 1);
        QVERIFY(fit.at("pushR2").get<double>() > 0.8);

        // The same sentences through the core parser: the buckets' pushes and the phases' counts.
        const prunescope::Grammar g = prunescope::loadGrammar(benchGrammar().toStdString());
        auto trees = prunescope::readNormalizedTreebank(file.toStdString());
        std::erase_if(trees, [&](const prunescope::Tree& t) { return t.size() > maxLen; });
        QVERIFY(trees.size() >= 5);
        QCOMPARE(j.at("lengthFit").at("sentences").get<std::size_t>(), trees.size());
        prunescope::Parser parser(g);
        long pushes = 0;
        std::vector<long> byBucket(2, 0);
        for (const auto& t : trees) {
            const long p = parser.parse(t.words()).pushes;
            pushes += p;
            byBucket[(t.size() - 1) / 10] += p;
        }
        long reported = 0;
        for (const auto& b : j.at("buckets")) {
            const int from = b.at("from").get<int>();
            const double bucketPushes =
                b.at("mpushPerSentence").get<double>() * 1e6 * b.at("sentences").get<int>();
            QVERIFY(qAbs(bucketPushes - static_cast<double>(byBucket[(from - 1) / 10])) < 0.5);
            reported += std::llround(bucketPushes);
        }
        QCOMPARE(reported, pushes);
        QCOMPARE(j.at("total").at("sentences").get<long>(), static_cast<long>(trees.size()));
        const auto& ph = j.at("phases");
        QCOMPARE(ph.at("pushes").get<long>(), repeat * pushes);
        QCOMPARE(ph.at("parses").get<long>(), repeat * static_cast<long>(trees.size()));
        for (const char* k : {"itemBuild", "split", "finishCell", "total", "itemsPerPush"})
            QVERIFY2(ph.at(k).get<double>() > 0, k);
        QVERIFY(ph.at("direct").get<double>() >= 0);
        const double sum = ph.at("itemBuild").get<double>() + ph.at("split").get<double>() +
                           ph.at("direct").get<double>() + ph.at("finishCell").get<double>() +
                           ph.at("other").get<double>();
        QVERIFY(qAbs(sum - ph.at("total").get<double>()) < 1e-6 * ph.at("total").get<double>());
        QCOMPARE(j.at("memory").at("words").get<int>(), 30);
        QVERIFY(j.at("memory").at("totalMiB").get<double>() > 0);
    }

    void textOutputNamesPhasesAndTheIdealCheck() {
        const auto run =
            runCli({"bench-parse", "--grammar", benchGrammar(), "--treebank", benchDevFile(),
                    "--max-len", "10", "--repeat", "1", "--memory-words", "0", "--phases"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.out.contains("M pushes/s"));
        QVERIFY(run.out.contains("phases, ns per push"));
        QVERIFY(run.out.contains("item build"));
        const auto ideal = runCli({"bench-parse", "--grammar", benchGrammar(), "--treebank",
                                   benchDevFile(), "--max-len", "10", "--repeat", "1",
                                   "--memory-words", "0", "--ideal", "--ideal-seconds", "0.03"});
        QVERIFY2(ideal.exitCode == 0, qPrintable(ideal.err));
        QVERIFY(ideal.out.contains("its rows are the parser's: yes"));
    }

    void refusesBadOptions_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("mask") << QStringList{"--mask-kind", "half"}
                              << "--mask-kind must be all (or keep), gold or random:P";
        QTest::newRow("mask, old spelling")
            << QStringList{"--mask", "half"}
            << "--mask-kind must be all (or keep), gold or random:P";
        QTest::newRow("random:P out of range")
            << QStringList{"--mask-kind", "random:x"}
            << "--mask-kind random:P needs a probability P in [0, 1], got 'x'";
        QTest::newRow("kernel") << QStringList{"--kernel", "sse9"} << "--kernel must be";
        QTest::newRow("ideal without sentences")
            << QStringList{"--max-len", "0", "--ideal"} << "--ideal needs at least one sentence";
        QTest::newRow("missing treebank")
            << QStringList{"--treebank", "/nonexistent/dev"} << "/nonexistent/dev";
    }
    void refusesBadOptions() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QStringList all{"bench-parse", "--grammar", benchGrammar()};
        if (!args.contains("--treebank")) all << "--treebank" << benchDevFile();
        all << "--memory-words"
            << "0" << args;
        const auto run = runCli(all);
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestBenchParseCli)
#include "test_bench_parse_cli.moc"
