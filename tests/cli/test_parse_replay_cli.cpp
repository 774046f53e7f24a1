// prunescope-cli parse --json --replay (issue 18, Replay CKY from the command line) on a
// ptb-sample/dev file under a bundled policy's masks and under none: every sentence's trace is in
// bottom-up order, its per-cell pushes sum to the parser's count (the same as a run without
// --replay), pruned cells are skipped; --replay without --json is refused.
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QDir>

#include <nlohmann/json.hpp>

using prunescope::testdata::runCli;

namespace {
QString src(const QString& rel) {
    return QString::fromStdString(prunescope::testdata::sourceDir()) + "/" + rel;
}
QString devFile() {
    const QString dir = QString::fromStdString(prunescope::testdata::ptbDir("dev"));
    const QStringList files = QDir(dir).entryList({"*.mrg"}, QDir::Files, QDir::Name);
    return files.isEmpty() ? QString() : dir + "/" + files.front();
}
std::vector<nlohmann::json> lines(const QString& out) {
    std::vector<nlohmann::json> v;
    for (const QString& l : out.split('\n', Qt::SkipEmptyParts))
        v.push_back(nlohmann::json::parse(l.toStdString()));
    return v;
}
} // namespace

class TestParseReplayCli : public QObject {
    Q_OBJECT
  private slots:
    void traceMatchesTheParser_data() {
        QTest::addColumn<QStringList>("maskArgs");
        QTest::newRow("keep-all") << QStringList{};
        QTest::newRow("policy") << QStringList{"--policy",
                                               src("samples/policies/baseline-w16.json")};
    }
    void traceMatchesTheParser() {
        QFETCH(QStringList, maskArgs);
        const QString file = devFile();
        QVERIFY(!file.isEmpty());
        const QStringList base = QStringList{"parse",      "--grammar", src("samples/grammar.gram"),
                                             "--treebank", file,        "--json"} +
                                 maskArgs;
        const auto plain = runCli(base);
        const auto replay = runCli(base + QStringList{"--replay"});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.err));
        const auto a = lines(plain.out), b = lines(replay.out);
        QCOMPARE(a.size(), b.size());
        QVERIFY(a.size() >= 10);
        int skipped = 0;
        for (std::size_t s = 0; s < b.size(); ++s) {
            const auto& r = b[s].at("replay");
            QCOMPARE(b[s].at("pushes").get<long>(), a[s].at("pushes").get<long>());
            QCOMPARE(r.at("pushes").get<long>(), a[s].at("pushes").get<long>());
            QCOMPARE(r.at("success").get<bool>(), a[s].at("success").get<bool>());
            const int n = b[s].at("length").get<int>();
            QCOMPARE(static_cast<int>(r.at("cells").size()), n * (n + 1) / 2);
            long sum = 0, consts = 0;
            int lastW = 0, lastI = -1, step = 0, pruned = 0;
            for (const auto& c : r.at("cells")) {
                const int i = c.at("span")[0].get<int>(), k = c.at("span")[1].get<int>();
                QVERIFY((k - i == lastW && i == lastI + 1) || (k - i == lastW + 1 && i == 0));
                lastW = k - i;
                lastI = i;
                QCOMPARE(c.at("step").get<int>(), ++step);
                sum += c.at("pushes").get<long>();
                consts += c.at("constituents").get<long>();
                QCOMPARE(c.at("pushesSoFar").get<long>(), sum);
                if (c.at("pruned").get<bool>()) {
                    ++pruned;
                    QCOMPARE(c.at("pushes").get<long>(), 0L);
                    QVERIFY(c.at("splits").empty());
                    QVERIFY(c.at("best").is_null());
                }
            }
            QCOMPARE(sum, a[s].at("pushes").get<long>());
            QCOMPARE(consts, a[s].at("constituents").get<long>());
            QCOMPARE(pruned,
                     n >= 2 ? n * (n + 1) / 2 - 1 - n - a[s].at("spansKept").get<int>() : 0);
            skipped += pruned;
        }
        QCOMPARE(skipped > 0, !maskArgs.isEmpty());
    }
    void replayNeedsJson() {
        prunescope::testdata::CliRunOptions o;
        o.input = "the dog barks .\n";
        const auto r = runCli({"parse", "--grammar", src("samples/grammar.gram"), "--replay"}, o);
        QVERIFY(!r.crashed);
        QVERIFY(r.exitCode != 0);
        QVERIFY(r.err.contains("--json"));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestParseReplayCli)
#include "test_parse_replay_cli.moc"
