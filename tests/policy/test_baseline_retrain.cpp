// Retraining a baseline frontier point from its recorded settings (Vieira & Eisner 2017, sec. 7):
// the bundled frontier's points give back exactly the recorded weight, l2, training treebank,
// sentence limits, dev set and grammar, with paths resolved from another working directory or a
// copied frontier file (through the data folder); the equivalent command line carries the exact
// numbers; a point without recorded settings says so. The retrain itself runs in
// tests/gui/test_frontier_retrain.cpp and tests/cli/test_frontier_retrain_cli.cpp.
#include "core/frontier/FrontierFile.h"
#include "core/policy/BaselineRetrain.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <cmath>
#include <filesystem>

using namespace prunescope;
namespace fs = std::filesystem;

class TestBaselineRetrain : public QObject {
    Q_OBJECT
    std::string frontier_;

  private slots:
    void initTestCase() { frontier_ = testdata::sourceDir() + "/samples/policies/frontier.json"; }

    void recordedSettingsOfTheBundledFrontier() {
        const FrontierData d = loadFrontier(frontier_);
        // Resolution must not depend on the working directory.
        const fs::path old = fs::current_path();
        fs::current_path(testdata::tempDir("baseline_retrain_cwd"));
        int checked = 0;
        for (const auto& e : d.points) {
            const BaselineRetrainSettings s =
                baselineRetrainSettings(d, frontier_, e.id, testdata::dataDir());
            QVERIFY2(s.ok(), s.why.c_str());
            QCOMPARE(s.positiveWeight, e.training.at("positiveWeight").get<double>());
            QCOMPARE(s.l2, e.training.at("l2").get<double>());
            QCOMPARE(s.l2, std::ldexp(1.0, -13));
            QCOMPARE(s.trainSentences, d.info.at("train").at("firstTrees").get<int>());
            QCOMPARE(s.maxTrainLength, 40);
            QCOMPARE(s.maxDevLength, 40);
            QVERIFY(fs::equivalent(s.train, testdata::dataDir() + "/ptb-sample/train"));
            QVERIFY(fs::equivalent(s.dev, testdata::dataDir() + "/ptb-sample/dev"));
            QVERIFY(fs::equivalent(s.grammar, testdata::sourceDir() + "/samples/grammar.gram"));
            const std::string cmd = baselineRetrainCommand(s, "/tmp/out dir");
            QVERIFY2(cmd.find(" --weights " + e.training.at("positiveWeight").dump()) !=
                             std::string::npos ||
                         cmd.find(" --weights " +
                                  std::to_string(static_cast<long>(s.positiveWeight)) + " ") !=
                             std::string::npos,
                     cmd.c_str());
            QVERIFY2(cmd.find(" --l2 0.0001220703125 ") != std::string::npos, cmd.c_str());
            QVERIFY2(cmd.find(" --max-train-sentences 100 ") != std::string::npos, cmd.c_str());
            QVERIFY2(cmd.find(" --out '/tmp/out dir'") != std::string::npos, cmd.c_str());
            ++checked;
        }
        fs::current_path(old);
        QCOMPARE(checked, 15);
    }

    // CI failed once because the working directory (a temporary folder) had a "../shared/data"
    // of its own: a relative recorded path resolved against it instead of the named data folder.
    void namedDataFolderWinsOverTheWorkingDirectory() {
        const fs::path root = testdata::tempDir("baseline_retrain_decoy");
        fs::create_directories(root / "shared/data/ptb-sample/train");
        fs::create_directories(root / "shared/data/ptb-sample/dev");
        fs::create_directories(root / "cwd");
        const FrontierData d = loadFrontier(frontier_);
        const fs::path old = fs::current_path();
        fs::current_path(root / "cwd");
        const BaselineRetrainSettings named =
            baselineRetrainSettings(d, frontier_, "baseline-w32", testdata::dataDir());
        QVERIFY(fs::equivalent(named.train, testdata::dataDir() + "/ptb-sample/train"));
        QVERIFY(fs::equivalent(named.dev, testdata::dataDir() + "/ptb-sample/dev"));
        // Without a named data folder, the frontier's ancestors come before the working directory.
        const BaselineRetrainSettings guessed =
            baselineRetrainSettings(d, frontier_, "baseline-w32");
        const fs::path besideTheSources =
            fs::path(testdata::sourceDir()) / "../shared/data/ptb-sample/train";
        if (fs::exists(besideTheSources)) QVERIFY(fs::equivalent(guessed.train, besideTheSources));
        QVERIFY2(!fs::equivalent(guessed.train, root / "shared/data/ptb-sample/train") ||
                     !fs::exists(besideTheSources),
                 guessed.train.c_str());
        fs::current_path(old);
    }

    void copiedFrontierFindsTheDataFolder() {
        const std::string dir = testdata::tempDir("baseline_retrain_copy");
        const std::string copy = dir + "/frontier.json";
        fs::copy_file(frontier_, copy, fs::copy_options::overwrite_existing);
        const FrontierData d = loadFrontier(copy);
        // (Without the data folder the treebanks may or may not be found from the temporary
        // directory's parents, depending on where TMPDIR is: not checked.)
        const fs::path old = fs::current_path();
        fs::current_path(dir); // not a folder that holds samples/grammar.gram
        const BaselineRetrainSettings s =
            baselineRetrainSettings(d, copy, "baseline-w32", testdata::dataDir());
        fs::current_path(old);
        QVERIFY(fs::equivalent(s.train, testdata::dataDir() + "/ptb-sample/train"));
        QVERIFY(fs::equivalent(s.dev, testdata::dataDir() + "/ptb-sample/dev"));
        QVERIFY(!s.ok()); // the grammar (samples/grammar.gram) is still missing, and said so
        QVERIFY2(s.why.find("grammar") != std::string::npos, s.why.c_str());
    }

    void missingSettingsAreReported() {
        FrontierData d = loadFrontier(frontier_);
        d.points[3].training = nlohmann::json::object();
        const BaselineRetrainSettings s = baselineRetrainSettings(d, frontier_, d.points[3].id);
        QVERIFY(!s.ok());
        QVERIFY2(s.why.find("no recorded training settings") != std::string::npos, s.why.c_str());
        QVERIFY(baselineRetrainSettings(d, frontier_, "no-such-point").why.find("is not a point") !=
                std::string::npos);
        d.info.erase("train");
        QVERIFY(baselineRetrainSettings(d, frontier_, d.points[4].id)
                    .why.find("no training treebank") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::exception, retrainBaselinePoint(s));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestBaselineRetrain)
#include "test_baseline_retrain.moc"
