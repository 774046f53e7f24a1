// prunescope-cli compare-masks as a user runs it (issue 18, the explorer's mask comparison from
// the command line): its JSON equals core/policy/MaskComparison.h called directly on real dev
// sentences; a mask file compares equal to the policy it was made from; bad input names the file.
#include "core/grammar/GrammarFile.h"
#include "core/policy/MaskComparison.h"
#include "core/policy/PolicyMask.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QFile>

#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;
using namespace prunescope;

class TestCompareMasksCli : public QObject {
    Q_OBJECT
    QString grammar_, policy_, dev_, dir_;

  private slots:
    void initTestCase() {
        if (!QFile::exists(testdata::cliBinary())) QSKIP("prunescope-cli not built");
        grammar_ = QString::fromStdString(testdata::sourceDir() + "/samples/grammar.gram");
        policy_ =
            QString::fromStdString(testdata::sourceDir() + "/samples/policies/baseline-w16.json");
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(testdata::ptbDir("dev")))
            files.push_back(e.path());
        std::sort(files.begin(), files.end());
        dev_ = QString::fromStdString(files.front().string()); // one dev file
        dir_ = QString::fromStdString(testdata::tempDir("compare-masks-cli"));
    }

    void jsonEqualsTheCoreComparison() {
        const testdata::CliRun r =
            testdata::runCli({"compare-masks", "--grammar", grammar_, "--treebank", dev_, "--a",
                              "policy:" + policy_, "--b", "gold"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const Grammar g = loadGrammar(grammar_.toStdString());
        const Policy p = loadPolicy(policy_.toStdString());
        const std::vector<Tree> gold = readNormalizedTreebank(dev_.toStdString());
        std::istringstream lines(r.out.toStdString());
        std::size_t s = 0;
        for (std::string line; std::getline(lines, line); ++s) {
            QVERIFY(s < gold.size());
            const auto j = nlohmann::json::parse(line);
            const std::vector<std::string> words = gold[s].words();
            const PruningMask a = policyMask(p, SentenceFeatures(words)),
                              b = goldSpanMask(g, gold[s]);
            const nlohmann::json expected =
                maskComparisonJson(compareMasks(g, words, &gold[s], a, b), a.n);
            for (const char* key : {"intersection", "onlyA", "onlyB", "counts"})
                QCOMPARE(j[key], expected[key]);
            for (const char* side : {"a", "b"})
                for (const char* key : {"f1", "pushes", "kept", "constituents", "success"})
                    QCOMPARE(j[side][key], expected[side][key]);
            QCOMPARE(j["sentence"].get<std::size_t>(), s + 1);
            QCOMPARE(j["a"]["source"].get<std::string>(), "policy:" + policy_.toStdString());
        }
        QCOMPARE(s, gold.size());
        QVERIFY(s > 3);
    }

    void maskFileEqualsItsPolicy() {
        const Grammar g = loadGrammar(grammar_.toStdString());
        const Policy p = loadPolicy(policy_.toStdString());
        const std::vector<Tree> gold = readNormalizedTreebank(dev_.toStdString());
        const PruningMask m = policyMask(p, SentenceFeatures(gold[2].words()));
        const QString maskPath = dir_ + "/mask.json";
        writeFileAtomically(maskPath.toStdString(), m.toJson().dump());
        const testdata::CliRun r = testdata::runCli(
            {"compare-masks", "--grammar", grammar_, "--treebank", dev_, "--sentence", "3", "--a",
             "mask:" + maskPath, "--b", "policy:" + policy_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["onlyA"].size(), std::size_t{0});
        QCOMPARE(j["onlyB"].size(), std::size_t{0});
        QCOMPARE(j["a"]["pushes"], j["b"]["pushes"]);
        QCOMPARE(j["counts"]["intersection"].get<int>(), m.keptCount());
        // The same one-sentence mask against another sentence: an error naming the mask file.
        const testdata::CliRun bad =
            testdata::runCli({"compare-masks", "--grammar", grammar_, "--treebank", dev_,
                              "--sentence", "1", "--a", "mask:" + maskPath, "--b", "all"});
        if (gold[0].size() != gold[2].size()) {
            QCOMPARE(bad.exitCode, 2);
            QVERIFY2(bad.err.contains(maskPath), qPrintable(bad.err));
        }
        const testdata::CliRun spec =
            testdata::runCli({"compare-masks", "--grammar", grammar_, "--treebank", dev_, "--a",
                              "best", "--b", "all"});
        QVERIFY(spec.exitCode != 0 && !spec.crashed);
        QVERIFY2(spec.err.contains("policy:FILE, gold, all or mask:FILE"), qPrintable(spec.err));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestCompareMasksCli)
#include "test_compare_masks_cli.moc"
