// prunescope-cli vine-train, dep-eval --cascade and dep-bench as a user runs them (issue 12's
// interface): the JSON keys of dep-eval, a cascade that prunes, --help, and a bad cascade file
// named by file:line.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QFile>

#include <filesystem>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

using Run = prunescope::testdata::CliRun;
using prunescope::testdata::cliBinary;
using prunescope::testdata::runCli;

class TestVineCli : public QObject {
    Q_OBJECT
    QString dir_, train_, dev_, model_, cascade_;

  private slots:
    void initTestCase() {
        if (!QFile::exists(cliBinary())) QSKIP("prunescope-cli not built");
        const std::string dir = prunescope::testdata::tempDir("vine-cli");
        dir_ = QString::fromStdString(dir);
        // a small training set: links to the first 12 training files of the sample (nothing
        // copied); 4 under a sanitizer, where training the cascades was most of this suite's 50 s
        fs::create_directories(dir + "/train");
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(prunescope::testdata::depDir("train")))
            files.push_back(e.path());
        std::sort(files.begin(), files.end());
        const std::size_t trainFiles = prunescope::testdata::kUnderSanitizer ? 4 : 12;
        for (std::size_t i = 0; i < trainFiles && i < files.size(); ++i)
            fs::create_symlink(files[i], dir + "/train/" + files[i].filename().string());
        train_ = dir_ + "/train";
        dev_ = QString::fromStdString(prunescope::testdata::depDir("dev"));
        std::vector<fs::path> devFiles;
        for (const auto& e : fs::directory_iterator(dev_.toStdString()))
            devFiles.push_back(e.path());
        std::sort(devFiles.begin(), devFiles.end());
        dev_ = QString::fromStdString(devFiles.front().string()); // one dev file
        model_ = dir_ + "/model.json";
        cascade_ = dir_ + "/cascade.json";
        Run r = runCli({"dep-train", "--train", train_, "--dev", dev_, "--order", "2", "--learner",
                        "perceptron", "--epochs", "1", "--hash-bits", "18", "--out", model_,
                        "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli({"vine-train", "--model", model_, "--train", train_, "--dev", dev_, "--out",
                    cascade_, "--epochs", "1", "--hash-bits", "18", "--alpha-grid", "0,0.5",
                    "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(cascade_));
    }

    void depEvalCascadeJson() {
        const Run r = runCli({"dep-eval", "--model", model_, "--cascade", cascade_, "--treebank",
                              dev_, "--json", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        for (const char* k :
             {"uas", "uasWithPunct", "sentences", "arcsKeptFraction", "tokensPerSecond"})
            QVERIFY2(j.contains(k), k);
        QVERIFY(j["uas"].get<double>() > 0 && j["uas"].get<double>() <= 100);
        QVERIFY(j["sentences"].get<int>() > 0);
        QVERIFY2(j["arcsKeptFraction"].get<double>() < 1.0,
                 "the vine prunes before the first exact stage");
        QCOMPARE(j["stages"].size(), std::size_t(2));
        QCOMPARE(j["stages"][0]["name"].get<std::string>(), std::string("vine"));
        QCOMPARE(j["stages"][1]["name"].get<std::string>(), std::string("first-order"));
        const Run plain =
            runCli({"dep-eval", "--model", model_, "--treebank", dev_, "--json", "--quiet"});
        QCOMPARE(nlohmann::json::parse(plain.out.toStdString())["arcsKeptFraction"].get<double>(),
                 1.0);
        // alphas overridden to keep everything: the exhaustive parse
        const Run all = runCli({"dep-eval", "--model", model_, "--cascade", cascade_,
                                "--alpha=-1e6,-1e6", "--treebank", dev_, "--json", "--quiet"});
        QVERIFY2(all.exitCode == 0, qPrintable(all.err));
        QCOMPARE(nlohmann::json::parse(all.out.toStdString())["uas"],
                 nlohmann::json::parse(plain.out.toStdString())["uas"]);
    }

    // --vine-structure tree: the file says so, dep-eval reports it, and with every alpha at
    // keep-all the cascade parses like the exhaustive model (the tree vine keeps every arc some
    // vine tree uses, and each arc of a projective tree is one).
    void treeVineCascade() {
        const QString tree = dir_ + "/tree.json";
        Run r = runCli({"vine-train", "--model", model_, "--train", train_, "--dev", dev_, "--out",
                        tree, "--epochs", "1", "--hash-bits", "18", "--alpha-grid", "0,0.5",
                        "--vine-structure", "tree", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(tree);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto c = nlohmann::json::parse(f.readAll().toStdString());
        QCOMPARE(c["version"].get<int>(), 3);
        QCOMPARE(c["stages"][0]["structure"].get<std::string>(), std::string("tree"));
        r = runCli({"dep-eval", "--model", model_, "--cascade", tree, "--treebank", dev_, "--json",
                    "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["stages"][0]["structure"].get<std::string>(), std::string("tree"));
        QVERIFY2(j["arcsKeptFraction"].get<double>() < 1.0, "the tree vine prunes");
        const Run all = runCli({"dep-eval", "--model", model_, "--cascade", tree,
                                "--alpha=-1e6,-1e6", "--treebank", dev_, "--json", "--quiet"});
        const Run plain =
            runCli({"dep-eval", "--model", model_, "--treebank", dev_, "--json", "--quiet"});
        QCOMPARE(nlohmann::json::parse(all.out.toStdString())["uas"],
                 nlohmann::json::parse(plain.out.toStdString())["uas"]);
        const Run bad = runCli({"vine-train", "--model", model_, "--train", train_, "--dev", dev_,
                                "--out", dir_ + "/x.json", "--vine-structure", "forest"});
        QVERIFY(bad.exitCode != 0);
        QVERIFY2(bad.err.contains("--vine-structure"), qPrintable(bad.err));
    }

    // dep-train --order 3 (grand-siblings) and vine-train in front of it: three pruning stages by
    // default (vine, first-order, second-order); dep-eval runs them; with every alpha at keep-all
    // the cascade parses like the exhaustive third-order model; --order 4 is refused.
    void thirdOrderModelGetsThreeStages() {
        const QString o3 = dir_ + "/o3.json", c3 = dir_ + "/c3.json";
        Run r = runCli({"dep-train", "--train", train_, "--dev", dev_, "--order", "3", "--learner",
                        "perceptron", "--epochs", "1", "--hash-bits", "18", "--max-len", "25",
                        "--out", o3, "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("order 3"), qPrintable(r.out));
        r = runCli({"vine-train", "--model", o3, "--train", train_, "--dev", dev_, "--out", c3,
                    "--epochs", "1", "--hash-bits", "18", "--alpha-grid", "0,0.5", "--max-len",
                    "25", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("second-order alpha"), qPrintable(r.out));
        r = runCli(
            {"dep-eval", "--model", o3, "--cascade", c3, "--treebank", dev_, "--json", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["model"]["order"].get<int>(), 3);
        QCOMPARE(j["stages"].size(), std::size_t(3));
        QCOMPARE(j["stages"][2]["name"].get<std::string>(), std::string("second-order"));
        const Run all = runCli({"dep-eval", "--model", o3, "--cascade", c3,
                                "--alpha=-1e6,-1e6,-1e6", "--treebank", dev_, "--json", "--quiet"});
        const Run plain =
            runCli({"dep-eval", "--model", o3, "--treebank", dev_, "--json", "--quiet"});
        QVERIFY2(all.exitCode == 0 && plain.exitCode == 0, qPrintable(all.err + plain.err));
        QCOMPARE(nlohmann::json::parse(all.out.toStdString())["uas"],
                 nlohmann::json::parse(plain.out.toStdString())["uas"]);
        // two stages on request; a tolerance no alpha meets is said, even with --quiet
        const QString c2 = dir_ + "/c3-two.json";
        r = runCli({"vine-train", "--model",      o3,   "--train",
                    train_,       "--dev",        dev_, "--out",
                    c2,           "--epochs",     "1",  "--hash-bits",
                    "18",         "--alpha-grid", "0",  "--max-len",
                    "25",         "--stages",     "2",  "--cascade-tolerance",
                    "-5",         "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(!r.out.contains("second-order"));
        QVERIFY2(r.err.contains("first-order: no alpha of the grid keeps dev UAS"),
                 qPrintable(r.err));
        const Run four = runCli({"dep-train", "--train", train_, "--dev", dev_, "--order", "4",
                                 "--out", dir_ + "/o4.json"});
        QVERIFY(four.exitCode != 0);
        QVERIFY2(four.err.contains("--order"), qPrintable(four.err));
    }

    void depBenchJson() {
        const Run r = runCli({"dep-bench", "--model", model_, "--cascade", cascade_, "--treebank",
                              dev_, "--repeats", "2", "--json", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(j["exhaustive"]["tokensPerSecond"]["median"].get<double>() > 0);
        QVERIFY(j["pruned"]["speedup"]["median"].get<double>() > 0);
        QVERIFY(j["eisnerFirstOrderPushesPerSecond"]["min"].get<double>() > 0);
    }

    void helpForEachCommand() {
        for (const char* cmd : {"vine-train", "dep-bench", "dep-eval"}) {
            const Run r = runCli({cmd, "--help"});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains("--model"));
        }
        QVERIFY(runCli({"dep-eval", "--help"}).out.contains("--cascade"));
    }

    void badCascadeNamesFileAndLine() {
        const QString bad = dir_ + "/bad.json";
        prunescope::writeFileAtomically(
            bad.toStdString(),
            "{\n \"format\": \"prunescope-vine-cascade\",\n \"version\": 7\n}\n");
        const Run r = runCli({"dep-eval", "--model", model_, "--cascade", bad, "--treebank", dev_,
                              "--json", "--quiet"});
        QVERIFY(r.exitCode == 1 || r.exitCode == 2);
        QVERIFY2(r.err.startsWith("error: " + bad + ":3"), qPrintable(r.err));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestVineCli)
#include "test_vine_cli.moc"
