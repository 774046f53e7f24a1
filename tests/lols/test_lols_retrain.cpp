// Retraining a LOLS frontier point (core/lols/LolsRetrain.h; Alg. 2 is deterministic for its
// config): on a tiny real run (ptb-sample, the bundled grammar and baseline policy), an
// iteration whose policy file was deleted is retrained from config.json into a new run directory
// and comes back weight for weight, with its recorded dev F1 and pushes; a neighbouring iteration
// or another seed would not match (so the check can fail); missing inputs are named.
#include "core/lols/LolsRetrain.h"
#include "core/lols/LolsRun.h"
#include "core/lols/RunDirectory.h"
#include "core/policy/Policy.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <filesystem>

using namespace prunescope;
namespace fs = std::filesystem;

namespace {

std::string firstTrees(const std::string& split, std::size_t count, const std::string& path) {
    std::string text;
    for (const Tree& t : readNormalizedTreebank(testdata::ptbDir(split), count))
        text += t.toString() + "\n";
    writeFileAtomically(path, text);
    return path;
}

// Two iterations of rDP LOLS on the first 40 train / 6 dev sentences of <= 15 words.
nlohmann::json tinyRunConfig(const std::string& dir) {
    LolsRunSpec spec;
    spec.grammar = testdata::sourceDir() + "/samples/grammar.gram";
    spec.init = testdata::sourceDir() + "/samples/policies/baseline-w16.json";
    spec.train = firstTrees("train", 200, dir + "/train.mrg");
    spec.dev = firstTrees("dev", 60, dir + "/dev.mrg");
    spec.maxLength = 15;
    spec.trainLimit = 40;
    spec.devLimit = 6;
    spec.lols.surrogate = Surrogate::DP;
    spec.lols.lambda = 0.01;
    spec.lols.minibatch = 3;
    spec.lols.iterations = 2;
    spec.q0Scale = 1e-3;
    return newLolsRunConfig(spec);
}

} // namespace

class TestLolsRetrain : public QObject {
    Q_OBJECT
    std::string dir_, run_;
    nlohmann::json config_;
    std::vector<Policy> policies_; // iterations 0, 1, 2 as the run wrote them

  private slots:
    void initTestCase() {
        dir_ = testdata::tempDir("lols_retrain");
        run_ = dir_ + "/run";
        config_ = tinyRunConfig(dir_);
        RunDirectory rd = RunDirectory::create(run_, config_);
        LolsRunOptions opt;
        opt.threads = 2;
        QVERIFY(!runLols(rd, loadLolsRunInputs(rd.config()), opt).cancelled);
        for (int t = 0; t <= 2; ++t)
            policies_.push_back(loadPolicy(rd.policyPath(t)));
        const auto log = rd.log();
        QCOMPARE(log.at(1).dev.sentences, 6);
        QVERIFY(log.at(1).dev.f1 > 0 && log.at(1).dev.mpush > 0);
        // The check below can only fail if neighbouring iterations differ.
        QVERIFY(!(policies_[1].weights == policies_[0].weights));
        QVERIFY(!(policies_[1].weights == policies_[2].weights));
    }

    void pointIds() {
        QCOMPARE(lolsPointId("/a/b/run-7/", 3), std::string("run-7/iter-003"));
        QCOMPARE(lolsPointIteration("run-7/iter-003"), 3);
        QCOMPARE(lolsPointIteration("iter-012"), 12);
        QCOMPARE(lolsPointIteration("baseline-w16"), -1);
        QCOMPARE(lolsPointIteration("run/iter-"), -1);
        QCOMPARE(lolsPointIteration("run/iter-1x"), -1);
    }

    // The deleted iteration 1 comes back bit for bit (trained on one thread, recorded on two),
    // with its recorded dev evaluation; the printed `lols` command needs no other setting.
    void retrainReproducesADeletedIteration() {
        const RunDirectory rd = RunDirectory::open(run_);
        QVERIFY(lolsRetrainSettings(run_, 1).policyExists);
        QVERIFY(lolsRetrainSettings(run_, 1).why.find("nothing to retrain") != std::string::npos);
        fs::remove(rd.policyPath(1));
        const LolsRetrainSettings s = lolsRetrainSettings(run_, 1);
        QVERIFY2(s.ok(), s.why.c_str());
        QCOMPARE(s.iteration, 1);
        QCOMPARE(s.recorded.iteration, 1);
        QCOMPARE(s.config["lols"]["iterations"].get<int>(), 1);
        QCOMPARE(s.config["lols"]["seed"], config_["lols"]["seed"]);
        QCOMPARE(s.config["train"], config_["train"]);
        const std::string cmd = lolsRetrainCommand(s, "OUT");
        QVERIFY2(cmd.find(" --iterations 1 --minibatch 3 --max-len 15 --max-train-sentences 40 "
                          "--max-dev-sentences 6 ") != std::string::npos,
                 cmd.c_str());
        QVERIFY2(cmd.find(" --lambda 0.01 ") != std::string::npos, cmd.c_str());
        const auto diff = lolsRetrainCommandDifferences(s);
        QVERIFY2(diff.empty(), diff.empty() ? "" : diff.front().c_str());

        const std::string out = dir_ + "/retrained";
        const LolsRetrainResult r = retrainLolsPoint(s, out, 1);
        QVERIFY(!r.cancelled);
        QVERIFY(r.reproduced);
        QCOMPARE(r.policyPath, RunDirectory::open(out).policyPath(1));
        const Policy p = loadPolicy(r.policyPath);
        QVERIFY(p.weights == policies_[1].weights);
        QCOMPARE(p.meta.name, policies_[1].meta.name);
        QCOMPARE(r.retrained.dev.f1, s.recorded.dev.f1);
        QCOMPARE(r.retrained.dev.mpush, s.recorded.dev.mpush);
        QCOMPARE(r.retrained.iteration, 1);
        QVERIFY(
            !fs::exists(RunDirectory::open(out).policyPath(2))); // trained up to iteration 1 only
        qInfo("iteration 1: recorded F1 %.4f mpush %.6f; retrained F1 %.4f mpush %.6f",
              s.recorded.dev.f1, s.recorded.dev.mpush, r.retrained.dev.f1, r.retrained.dev.mpush);
        const nlohmann::json written = RunDirectory::open(out).config();
        QCOMPARE(written["retrainedFrom"]["iteration"].get<int>(), 1);

        // Again into the same directory: nothing left to train, the same result.
        const LolsRetrainResult again = retrainLolsPoint(s, out, 1);
        QVERIFY(again.reproduced);
        QVERIFY(loadPolicy(again.policyPath).weights == policies_[1].weights);
        // Not into a directory holding something else, nor into the run itself.
        QVERIFY_THROWS_EXCEPTION(InputError, retrainLolsPoint(s, dir_, 1));
        QVERIFY_THROWS_EXCEPTION(InputError, retrainLolsPoint(s, run_, 1));
    }

    // The retraining settings with flags (issue 16) are in the command when not the defaults, and
    // then the command still reproduces the config.
    void lbfgsSettingsAreInTheCommand() {
        fs::remove(RunDirectory::open(run_).policyPath(
            1)); // as retrainReproducesADeletedIteration leaves it
        LolsRetrainSettings s = lolsRetrainSettings(run_, 1);
        QVERIFY2(s.ok(), s.why.c_str());
        QVERIFY2(lolsRetrainCommand(s, "OUT").find("--lbfgs") == std::string::npos,
                 lolsRetrainCommand(s, "OUT").c_str());
        s.config["lols"]["lbfgsMaxIterations"] = 7;
        s.config["lols"]["lbfgsGradientReduction"] = 0.01;
        s.config["lols"]["lbfgsMaxIterationsAfterFirst"] = 4; // not the default (5)
        const std::string cmd = lolsRetrainCommand(s, "OUT");
        QVERIFY2(cmd.find(" --lbfgs-max-iterations-after-first 4 ") != std::string::npos,
                 cmd.c_str());
        QVERIFY2(cmd.find(" --lbfgs-max-iterations 7 ") != std::string::npos, cmd.c_str());
        QVERIFY2(cmd.find(" --lbfgs-gradient-reduction 0.01 ") != std::string::npos, cmd.c_str());
        const auto diff = lolsRetrainCommandDifferences(s);
        QVERIFY2(diff.empty(), diff.empty() ? "" : diff.front().c_str());
        // A run made before the cap was on by default (no key: off) is retrained uncapped.
        s.config["lols"].erase("lbfgsMaxIterationsAfterFirst");
        const std::string legacy = lolsRetrainCommand(s, "OUT");
        QVERIFY2(legacy.find(" --lbfgs-max-iterations-after-first 0 ") != std::string::npos,
                 legacy.c_str());
        const auto legacyDiff = lolsRetrainCommandDifferences(s);
        QVERIFY2(legacyDiff.empty(), legacyDiff.empty() ? "" : legacyDiff.front().c_str());
    }

    // Other settings (another seed) give another policy, and the result says it is not reproduced.
    void otherSettingsAreNotReproduced() {
        LolsRetrainSettings s = lolsRetrainSettings(run_, 1);
        QVERIFY2(s.ok(), s.why.c_str());
        s.config["lols"]["seed"] = 2;
        const LolsRetrainResult r = retrainLolsPoint(s, dir_ + "/other-seed", 2);
        QVERIFY(!r.reproduced);
        QVERIFY(!(loadPolicy(r.policyPath).weights == policies_[1].weights));
    }

    void problemsNameTheFile() {
        // An iteration that was never committed.
        LolsRetrainSettings s = lolsRetrainSettings(run_, 5);
        QVERIFY(!s.ok());
        QVERIFY2(s.why.find("log.jsonl: iteration 5 was never committed (the last is 2)") !=
                     std::string::npos,
                 s.why.c_str());

        // A treebank that moved: config.json's line and column of "train".
        const std::string copy = dir_ + "/moved";
        fs::create_directories(copy + "/policies");
        nlohmann::json c = config_;
        c["format"] = kRunFormat;
        c["version"] = kRunFormatVersion;
        c["train"] = dir_ + "/gone/train.mrg";
        writeFileAtomically(copy + "/config.json", c.dump(2) + "\n");
        fs::copy_file(run_ + "/log.jsonl", copy + "/log.jsonl");
        s = lolsRetrainSettings(copy, 1);
        QVERIFY(!s.ok());
        QVERIFY2(s.why.find(copy + "/config.json:") == 0, s.why.c_str());
        QVERIFY2(s.why.find("the training treebank '" + dir_ + "/gone/train.mrg' was not found") !=
                     std::string::npos,
                 s.why.c_str());

        // An unreadable config.json: its line and column.
        writeFileAtomically(
            copy + "/config.json",
            "{\"format\": \"prunescope-lols-run\", \"version\": 1,\n  \"grammar\": 3}\n");
        s = lolsRetrainSettings(copy, 1);
        QVERIFY(!s.ok());
        QVERIFY2(s.why.find(copy + "/config.json:") == 0, s.why.c_str());

        // No config.json at all.
        fs::remove(copy + "/config.json");
        s = lolsRetrainSettings(copy, 1);
        QVERIFY(!s.ok());
        QVERIFY2(s.why.find(copy + "/config.json: missing") == 0, s.why.c_str());
        QVERIFY_THROWS_EXCEPTION(InputError, retrainLolsPoint(s, dir_ + "/never", 1));
        QVERIFY(!fs::exists(dir_ + "/never"));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestLolsRetrain)
#include "test_lols_retrain.moc"
