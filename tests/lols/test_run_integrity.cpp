// Resume integrity of LOLS run directories (issue 19): config.json and log.jsonl are read
// strictly with file:line:column errors, and a fingerprint of the inputs names what changed.
#include "core/lols/RunConfig.h"
#include "core/lols/RunFingerprint.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/JsonDocument.h"
#include "support/InputErrors.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <filesystem>

using namespace prunescope;
using nlohmann::json;

namespace {

json goodConfig() {
    return {{"format", "prunescope-lols-run"},
            {"version", 1},
            {"grammar", "/g.gram"},
            {"init", "/i.json"},
            {"train", "/train"},
            {"dev", "/dev"},
            {"maxLength", 40},
            {"trainLimit", 10},
            {"devLimit", 5},
            {"q0", {{"positiveWeight", 16}, {"scale", 0.01}}},
            {"lols",
             {{"surrogate", "rdp"},
              {"engine", "fast"},
              {"lambda", 0.003},
              {"iterations", 3},
              {"minibatch", 10},
              {"seed", 1},
              {"l2", 0.0001},
              {"lbfgsEpsilon", 1e-6},
              {"warmStart", true}}}};
}

InputError configError(const std::string& text) {
    return testdata::inputErrorOf([&] { runConfigFromText(text, "config.json"); });
}

} // namespace

class TestRunIntegrity : public QObject {
    Q_OBJECT
  private slots:
    void goodConfigReads() {
        const json c = runConfigFromText(goodConfig().dump(2), "config.json");
        QCOMPARE(LolsConfig::fromJson(c["lols"]).minibatch, 10);
    }
    void badConfigValues_data() {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("minibatch 0") << "/lols/minibatch"
                                     << "0"
                                     << "'/lols/minibatch' = 0 is outside [1,";
        QTest::newRow("minibatch -3") << "/lols/minibatch"
                                      << "-3"
                                      << "is outside";
        QTest::newRow("lambda < 0") << "/lols/lambda"
                                    << "-0.5"
                                    << "'/lols/lambda' = -0.5 is outside";
        QTest::newRow("l2 < 0") << "/lols/l2"
                                << "-1"
                                << "'/lols/l2'";
        QTest::newRow("iterations absurd") << "/lols/iterations"
                                           << "1000000000000"
                                           << "'/lols/iterations'";
        QTest::newRow("iterations type") << "/lols/iterations"
                                         << "\"3\""
                                         << "must be an integer, not a string";
        QTest::newRow("surrogate") << "/lols/surrogate"
                                   << "\"rxp\""
                                   << "must be \"rcp\" or \"rdp\"";
        QTest::newRow("epsilon 0") << "/lols/lbfgsEpsilon"
                                   << "0"
                                   << "must be > 0";
        QTest::newRow("gradient reduction 1") << "/lols/lbfgsGradientReduction"
                                              << "1"
                                              << "must be < 1";
        QTest::newRow("gradient reduction < 0") << "/lols/lbfgsGradientReduction"
                                                << "-0.5"
                                                << "is outside";
        QTest::newRow("cap after first < 0") << "/lols/lbfgsMaxIterationsAfterFirst"
                                             << "-1"
                                             << "is outside";
        QTest::newRow("max iterations 0") << "/lols/lbfgsMaxIterations"
                                          << "0"
                                          << "is outside";
        QTest::newRow("seed negative") << "/lols/seed"
                                       << "-1"
                                       << "non-negative integer";
        QTest::newRow("maxLength") << "/maxLength"
                                   << "5000"
                                   << "'/maxLength' = 5000 is outside";
        QTest::newRow("trainLimit") << "/trainLimit"
                                    << "-1"
                                    << "'/trainLimit'";
        QTest::newRow("grammar type") << "/grammar"
                                      << "7"
                                      << "'/grammar' must be a string";
        QTest::newRow("q0 weight") << "/q0/positiveWeight"
                                   << "0"
                                   << "must be > 0";
        QTest::newRow("lols type") << "/lols"
                                   << "[]"
                                   << "'/lols' must be an object";
        QTest::newRow("version") << "/version"
                                 << "4294967297"
                                 << "unsupported run directory version";
    }
    void badConfigValues() {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, message);
        json c = goodConfig();
        c[json::json_pointer(pointer.toStdString())] = json::parse(value.toStdString());
        const std::string text = c.dump(2);
        const InputError e = configError(text);
        QCOMPARE(e.file(), std::string("config.json"));
        QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
        // The line is the offending value's.
        const auto off = jsonValueOffset(text, json::json_pointer(pointer.toStdString()));
        QCOMPARE(e.line(), lineColumn(text, off).first);
    }
    void missingKeyNamesTheObject() {
        json c = goodConfig();
        c.erase("train");
        const InputError e = configError(c.dump(2));
        QCOMPARE(e.line(), 1);
        QVERIFY2(std::string(e.what()).find("missing field '/train'") != std::string::npos,
                 e.what());
    }
    void logLinesAreTyped() {
        const std::string good =
            "{\"iteration\":0,\"dev\":{\"sentences\":3,\"reward\":0.5},\"best\":true}\n"
            "{\"iteration\":1,\"dev\":{\"sentences\":3,\"reward\":0.6},\"newStates\":12,\"best\":"
            "true}\n";
        bool truncated = true;
        QCOMPARE(logRecordsFromText(good, "log.jsonl", &truncated).size(), std::size_t(2));
        QVERIFY(!truncated);
        // A type error used to be a bare nlohmann type_error naming no file.
        const std::string bad =
            good + "{\"iteration\":2,\"dev\":{\"sentences\":\"three\"}}\n" + good;
        try {
            logRecordsFromText(bad, "log.jsonl");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.line(), 3);
            QCOMPARE(e.column(), 35);
            QVERIFY2(std::string(e.what()).find("'/dev/sentences' must be an integer") !=
                         std::string::npos,
                     e.what());
        }
        // newStates 1e300 would have been converted to long (undefined behaviour).
        QVERIFY_THROWS_EXCEPTION(
            InputError,
            logRecordsFromText(good + "{\"iteration\":2,\"dev\":{},\"newStates\":1e300}\n" + good,
                               "l"));
        // A tail being written (no newline, or unparsable last line) is tolerated and reported.
        QCOMPARE(logRecordsFromText(good + "{\"iteration\":2,\"de", "log.jsonl", &truncated).size(),
                 std::size_t(2));
        QVERIFY(truncated);
        QCOMPARE(
            logRecordsFromText(good + "{\"iteration\":2,\"de\n", "log.jsonl", &truncated).size(),
            std::size_t(2));
        QVERIFY(truncated);
    }
    void fingerprintNamesWhatChanged() {
        namespace fs = std::filesystem;
        const std::string dir = testdata::tempDir("run-integrity");
        fs::create_directories(dir + "/train");
        writeFileAtomically(dir + "/g.gram", "grammar one");
        writeFileAtomically(dir + "/train/a.mrg", "(S (NN a))\n");
        writeFileAtomically(dir + "/train/b.mrg", "(S (NN b))\n");
        writeFileAtomically(dir + "/dev.mrg", "(S (NN d))\n");
        json config = goodConfig();
        config["grammar"] = dir + "/g.gram";
        config["train"] = dir + "/train";
        config["dev"] = dir + "/dev.mrg";
        const std::vector<LolsSentence> train = {{{"a", "b", "c"}, {}}, {{"d", "e", "f"}, {}}};
        const std::vector<LolsSentence> dev = {{{"x", "y", "z"}, {}}};
        const json before = runInputsFingerprint(config, train, dev);
        QVERIFY(fingerprintChanges(before, runInputsFingerprint(config, train, dev)).empty());

        writeFileAtomically(dir + "/train/b.mrg", "(S (NN b) (NN c))\n");
        writeFileAtomically(dir + "/train/c.mrg", "(S (NN c))\n");
        config["maxLength"] = 30;
        auto changes = fingerprintChanges(before, runInputsFingerprint(config, {train[0]}, dev));
        QStringList all;
        for (const auto& c : changes)
            all << QString::fromStdString(c.key + ": " + c.what);
        const QString text = all.join(" | ");
        QVERIFY2(text.contains("maxLength: maxLength: 40 -> 30"), qPrintable(text));
        QVERIFY2(text.contains("b.mrg changed (11 bytes -> 18 bytes)"), qPrintable(text));
        QVERIFY2(text.contains("c.mrg added"), qPrintable(text));
        QVERIFY2(text.contains("train sentences selected: 2 -> 1"), qPrintable(text));
        QVERIFY2(!text.contains("grammar"), qPrintable(text));
        writeFileAtomically(dir + "/g.gram", "grammar two!");
        changes = fingerprintChanges(before, runInputsFingerprint(config, train, dev));
        QVERIFY(std::any_of(changes.begin(), changes.end(),
                            [](const auto& c) { return c.key == "grammar"; }));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestRunIntegrity)
#include "test_run_integrity.moc"
