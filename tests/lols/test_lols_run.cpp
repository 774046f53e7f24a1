// The LOLS run driver (core/lols/LolsRun.h, Alg. 2 over a run directory): how config.json stores
// paths, runLols committing every iteration and resuming, and the cancel contract of
// core/util/Progress.h in the phases that used to ignore it: a cancel during retraining (L-BFGS)
// returns within 1 s, with the finished iterations kept and no half-trained policy committed; so
// does a cancel inside one sentence's naive (reparse) rollouts.
#include "core/grammar/GrammarFile.h"
#include "core/lols/LolsRun.h"
#include "core/lols/LolsTrainer.h"
#include "core/lols/RunDirectory.h"
#include "core/lols/SurrogateLambda.h"
#include "core/policy/Policy.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

using namespace prunescope;
namespace fs = std::filesystem;

namespace {

// The first `count` normalized trees of a split, written as one treebank file.
std::string writeTreebank(const std::string& split, std::size_t count, const std::string& path) {
    std::string text;
    for (const Tree& t : readNormalizedTreebank(testdata::ptbDir(split), count))
        text += t.toString() + "\n";
    writeFileAtomically(path, text);
    return path;
}

// A run on real data in `dir`: the bundled grammar and baseline policy, the first train/dev trees,
// rDP rollouts.
LolsRunSpec realSpec(const std::string& dir, std::size_t trainTrees, std::size_t devTrees) {
    LolsRunSpec spec;
    spec.grammar = testdata::samplePath("grammar.gram");
    spec.init = testdata::samplePath("policies/baseline-w16.json");
    spec.train = writeTreebank("train", trainTrees, dir + "/train.mrg");
    spec.dev = writeTreebank("dev", devTrees, dir + "/dev.mrg");
    spec.lols.surrogate = Surrogate::DP;
    spec.lols.lambda =
        loadPolicy(spec.init).meta.lambda; // a number for the tests (its unit is the frontier's)
    return spec;
}

using Clock = std::chrono::steady_clock;

// Runs `work` while another thread (as the GUI's Cancel button and the CLI's Ctrl-C do) requests a
// cancel once `ready` holds for the progress; returns the seconds from that request to the end of
// `work`, or -1 if the request was never made.
double secondsToStop(const Progress& progress,
                     const std::function<bool(const ProgressUpdate&)>& ready,
                     const std::function<void()>& work) {
    Clock::time_point cancelAt{};
    std::atomic<bool> stop{false};
    std::thread canceller([&] {
        while (!stop.load()) {
            if (ready(progress.snapshot())) {
                cancelAt = Clock::now();
                progress.requestCancel();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    });
    work();
    const Clock::time_point end = Clock::now();
    stop = true;
    canceller.join();
    return cancelAt == Clock::time_point{} ? -1.0
                                           : std::chrono::duration<double>(end - cancelAt).count();
}

} // namespace

class TestLolsRun : public QObject {
    Q_OBJECT
  private slots:
    // One documented form for every path in config.json: absolute, lexically normal, no trailing
    // separator (docs/lols.md "Paths"), whatever form the CLI's flags or the GUI's dialog used.
    void configStoresAbsoluteNormalizedPaths() {
        const std::string cwd = fs::current_path().string();
        QCOMPARE(runConfigPath("a/../b/c.mrg"), cwd + "/b/c.mrg");
        QCOMPARE(runConfigPath("./dir/"), cwd + "/dir");
        QCOMPARE(runConfigPath("/x/./y//z/"), std::string("/x/y/z"));
        QCOMPARE(runConfigPath("/"), std::string("/"));

        LolsRunSpec spec;
        spec.grammar = testdata::samplePath("grammar.gram");
        spec.init = testdata::samplePath("policies/../policies/baseline-w16.json");
        spec.train = testdata::ptbDir("train") + "/";
        spec.dev = testdata::ptbDir("dev");
        const Policy init = loadPolicy(spec.init);
        // Issue 19: no lambda and an initial policy whose lambda is the frontier's (F1 percent per
        // mpush), not the surrogate's: refused, naming the flag, instead of a silent unit mix-up.
        QCOMPARE(init.meta.lambdaUnit, std::string("F1 percent per mpush"));
        try {
            newLolsRunConfig(spec);
            QFAIL("a frontier lambda was taken as the surrogate's");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("pass --lambda") != std::string::npos, e.what());
        }
        // A lambda already in the surrogate's units is the default.
        PolicyMetadata m = init.meta;
        m.lambdaUnit = surrogateLambdaUnit(Surrogate::DP);
        QCOMPARE(surrogateLambda(std::numeric_limits<double>::quiet_NaN(), m, Surrogate::DP),
                 m.lambda);
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            surrogateLambda(std::numeric_limits<double>::quiet_NaN(), m, Surrogate::CP));
        QCOMPARE(surrogateLambda(0.5, init.meta, Surrogate::CP), 0.5);
        spec.lols.lambda = 0.003;
        const nlohmann::json c = newLolsRunConfig(spec);
        QCOMPARE(c.at("init").get<std::string>(),
                 runConfigPath(testdata::samplePath("policies/baseline-w16.json")));
        QCOMPARE(c.at("train").get<std::string>(), runConfigPath(testdata::ptbDir("train")));
        QVERIFY(fs::path(c.at("grammar").get<std::string>()).is_absolute());
        // l2 and Q0's positive weight from the initial policy's training record.
        QCOMPARE(c.at("lols").at("lambda").get<double>(), spec.lols.lambda);
        QCOMPARE(c.at("lols").at("l2").get<double>(), init.meta.training.at("l2").get<double>());
        QCOMPARE(c.at("q0").at("positiveWeight").get<double>(),
                 init.meta.training.at("positiveWeight").get<double>());
        QCOMPARE(c.at("lols").at("threads").get<int>(), 0); // never recorded
        spec.q0 = false;
        spec.lols.lambda = 0.25;
        const nlohmann::json d = newLolsRunConfig(spec);
        QVERIFY(d.at("q0").is_null());
        QCOMPARE(d.at("lols").at("lambda").get<double>(), 0.25);
    }

    // runLols commits iteration 0..N in order (onCommit sees each), and a second call on the same
    // directory resumes after the last committed iteration, giving the uninterrupted result.
    void runLolsCommitsAndResumes() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string dir = tmp.path().toStdString();
        LolsRunSpec spec = realSpec(dir, 40, 40); // dev: a few within 15 words (none is refused)
        spec.maxLength = 15;
        spec.devLimit = 3;
        spec.lols.lambda = 0.01;
        spec.lols.minibatch = 3;
        spec.lols.iterations = 2;
        spec.q0Scale = 1e-3;
        const nlohmann::json config = newLolsRunConfig(spec);

        // Uninterrupted: 2 iterations.
        RunDirectory a = RunDirectory::create(dir + "/a", config);
        const LolsRunInputs in = loadLolsRunInputs(a.config());
        std::vector<int> seen;
        LolsRunOptions opt;
        opt.threads = 2;
        opt.onCommit = [&](const LolsState& st) { seen.push_back(st.log.back().iteration); };
        const LolsRunResult ra = runLols(a, in, opt);
        QVERIFY(!ra.cancelled);
        QCOMPARE(seen, (std::vector<int>{0, 1, 2}));
        QCOMPARE(ra.state.iteration, 2);
        QCOMPARE(a.log().size(), std::size_t(3));

        // One iteration, then the run is extended to 2 and resumed from the directory.
        nlohmann::json shorter = config;
        shorter["lols"]["iterations"] = 1;
        RunDirectory b = RunDirectory::create(dir + "/b", shorter);
        QCOMPARE(runLols(b, in, {}).state.iteration, 1);
        shorter["lols"]["iterations"] = 2;
        b.writeConfig(shorter);
        seen.clear();
        const LolsRunResult rb = runLols(b, in, opt);
        QCOMPARE(seen, (std::vector<int>{2}));
        QVERIFY(rb.state.policy.weights == ra.state.policy.weights);
        QVERIFY(rb.state.data == ra.state.data);
        QCOMPARE(rb.state.bestIteration, ra.state.bestIteration);
    }

    // The cancel contract in retraining: L-BFGS on ~70k examples with a convergence test it cannot
    // meet would run for many seconds; a cancel from another thread (as the GUI's Cancel and the
    // CLI's Ctrl-C send it) once it has done a few objective evaluations must return within 1 s,
    // still in the training phase, with iteration 0 committed and nothing of iteration 1 written.
    void cancelDuringRetrainingReturnsWithinOneSecond() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string dir = tmp.path().toStdString();
        LolsRunSpec spec = realSpec(dir, 300, 8);
        spec.lols.lambda = 0.002;
        spec.lols.minibatch = 2;
        spec.lols.iterations = 3;
        spec.lols.logreg.maxIterations = 1000000;
        spec.lols.logreg.epsilon = 1e-300; // (> 0, as config.json requires) never converged by the
                                           // gradient test: only a cancel stops it soon
        RunDirectory rd = RunDirectory::create(dir + "/run", newLolsRunConfig(spec));
        const LolsRunInputs in = loadLolsRunInputs(rd.config());

        const Progress progress([](const ProgressUpdate&) {});
        LolsRunOptions opt;
        opt.threads = 2;
        LolsRunResult r;
        const double seconds = secondsToStop(
            progress,
            [](const ProgressUpdate&
                   u) { // in L-BFGS proper: 3 objective evaluations of iteration 1
                return u.step == 1 && u.phase == "training" && u.done >= 3;
            },
            [&] { r = runLols(rd, in, opt, progress); });
        QVERIFY2(seconds >= 0, "the run ended before retraining was cancelled");
        qInfo("cancel during retraining returned after %.3f s", seconds);
        QVERIFY2(seconds < 1.0, qPrintable(QString("returned %1 s after the cancel").arg(seconds)));
        QVERIFY(r.cancelled);
        QCOMPARE(progress.snapshot().phase, std::string("training")); // it stopped inside L-BFGS
        // Finished iterations kept, the cut one not: iteration 0 is committed and resumable.
        QCOMPARE(r.state.iteration, 0);
        QCOMPARE(rd.log().size(), std::size_t(1));
        QVERIFY(fs::exists(rd.policyPath(0)));
        QVERIFY(!fs::exists(rd.policyPath(1)));
        QCOMPARE(rd.restore().iteration, 0);
    }

    // The naive engine (reparse per state, for checks) spends seconds on one 35-40 word sentence;
    // it polls the cancel per state, so a cancel in its rollouts also returns within 1 s.
    void cancelDuringNaiveRolloutsReturnsWithinOneSecond() {
        const Grammar g = loadGrammar(testdata::samplePath("grammar.gram"));
        std::vector<LolsSentence> longOnes;
        for (const auto& s : lolsSentences(readNormalizedTreebank(testdata::ptbDir("dev")), 40))
            if (s.words.size() >= 35 && longOnes.size() < 2) longOnes.push_back(s);
        QCOMPARE(longOnes.size(), std::size_t(2));
        LolsConfig cfg;
        cfg.surrogate = Surrogate::CP;
        cfg.engine = RolloutEngine::Naive;
        cfg.cpRolloutsPerWord = 0; // all ~700 states: a reparse each
        cfg.lambda = 0.002;
        cfg.minibatch = 2;
        cfg.threads = 2;
        LolsTrainer trainer(g, longOnes, {longOnes.front()}, cfg);
        LolsState st = trainer.start(Policy{}, AggregatedDataset{});
        const Progress progress([](const ProgressUpdate&) {});
        bool stepped = true;
        const auto begun = Clock::now();
        const double seconds = secondsToStop(
            progress,
            [&](const ProgressUpdate& u) {
                return u.phase == "rollouts" &&
                       Clock::now() - begun > std::chrono::milliseconds(300);
            },
            [&] { stepped = trainer.step(st, progress); });
        qInfo("cancel during naive rollouts returned after %.3f s", seconds);
        QVERIFY2(seconds >= 0, "the step ended before its rollouts were cancelled");
        QVERIFY2(seconds < 1.0, qPrintable(QString("returned %1 s after the cancel").arg(seconds)));
        QVERIFY(!stepped);
        QCOMPARE(progress.snapshot().phase, std::string("rollouts"));
        QCOMPARE(st.iteration, 0);
    }

    // Run integrity (issue 46): runLols records a fingerprint of the inputs and settings in
    // config.json and refuses a resume after any of them changed, naming what changed, without
    // touching best.json; a run without a fingerprint resumes with a warning; temporaries of a
    // killed writer are swept; a cut last log line whose predecessor's state file is gone is an
    // error at log.jsonl's line, not a resume from nothing.
    void resumeChecksTheRunsInputs() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string dir = tmp.path().toStdString();
        LolsRunSpec spec = realSpec(dir, 20, 40);
        spec.maxLength = 15;
        spec.devLimit = 2;
        spec.lols.lambda = 0.01;
        spec.lols.minibatch = 2;
        spec.lols.iterations = 1;
        spec.q0Scale = 1e-3;
        const std::string run = dir + "/run";
        {
            RunDirectory rd = RunDirectory::create(run, newLolsRunConfig(spec));
            QCOMPARE(runLols(rd, loadLolsRunInputs(rd.config()), {}).state.iteration, 1);
        }
        RunDirectory rd = RunDirectory::open(run);
        QVERIFY(rd.config().contains("fingerprint"));
        const std::string config = readFile(rd.configPath()), best = readFile(rd.bestPath());
        auto raiseIterations = [&](int n) {
            nlohmann::json c = rd.config();
            c["lols"]["iterations"] = n;
            rd.writeConfig(c);
        };
        auto refusedNaming = [&](const std::string& what) {
            try {
                runLols(rd, loadLolsRunInputs(rd.config()), {});
                QFAIL("resumed on changed inputs");
            } catch (const InputError& e) {
                QCOMPARE(e.file(), rd.configPath());
                QVERIFY(e.line() > 0);
                QVERIFY2(std::string(e.what()).find(what) != std::string::npos, e.what());
            }
            QCOMPARE(readFile(rd.bestPath()), best);
            QCOMPARE(rd.log().size(), std::size_t(2));
        };
        // Other training trees: refused.
        const std::string train = readFile(spec.train);
        writeTreebank("train", 24, spec.train);
        raiseIterations(2);
        refusedNaming("train");
        writeFileAtomically(spec.train, train);
        // Another grammar named by an edited config.json: refused.
        nlohmann::json c = rd.config();
        const std::string otherGrammar = dir + "/other.gram";
        std::string g = readFile(spec.grammar); // the same grammar but for its options line
        const std::size_t at = g.find("\"trainingTrees\":");
        QVERIFY(at != std::string::npos);
        g.insert(at + 16, "1");
        writeFileAtomically(otherGrammar, g);
        c["grammar"] = otherGrammar;
        rd.writeConfig(c);
        refusedNaming("grammar");
        // An edited setting (lambda): refused.
        c["grammar"] = rd.config()["fingerprint"]["grammar"]["path"];
        c["lols"]["lambda"] = 0.5;
        rd.writeConfig(c);
        refusedNaming("lols.lambda");
        // A run from before the fingerprint: resumes with a warning, and records one.
        c["lols"]["lambda"] = 0.01;
        c.erase("fingerprint");
        rd.writeConfig(c);
        // A killed writer's temporaries: swept by the resume.
        const std::string stale = run + "/state/.iter-002.bin.tmp.Ab12Cd";
        writeFileAtomically(stale, "half");
        std::vector<std::string> logs;
        const Progress progress(
            [&](const ProgressUpdate& u) {
                if (!u.message.empty()) logs.push_back(u.message);
            },
            std::chrono::milliseconds(0));
        QCOMPARE(runLols(rd, loadLolsRunInputs(rd.config()), {}, progress).state.iteration, 2);
        QVERIFY(std::any_of(logs.begin(), logs.end(), [](const std::string& m) {
            return m.find("no fingerprint") != std::string::npos;
        }));
        QVERIFY(!fs::exists(stale));
        QVERIFY(rd.config().contains("fingerprint"));
        // Cut the last log line (iteration 2): iteration 1's state file went with its commit.
        std::string log = readFile(rd.logPath());
        log.resize(log.size() - 20);
        writeFileAtomically(rd.logPath(), log);
        try {
            (void)rd.restore();
            QFAIL("resumed from an iteration whose state file is gone");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), rd.logPath());
            QCOMPARE(e.line(), 2);
            QVERIFY2(std::string(e.what()).find("cut") != std::string::npos, e.what());
        }
        (void)config;
    }

    // No training on zero sentences (issue 46: `lols --max-len 2` wrote best.json), and no config
    // the strict reader would refuse; a directory a create killed before config.json is reused.
    void refusesWhatCannotTrain() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string dir = tmp.path().toStdString();
        LolsRunSpec spec = realSpec(dir, 5, 2);
        spec.maxLength = 2;
        try {
            (void)loadLolsRunInputs(newLolsRunConfig(spec));
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), runConfigPath(spec.train));
            QVERIFY2(std::string(e.what()).find("no train sentence") != std::string::npos,
                     e.what());
        }
        spec.maxLength = 40;
        spec.lols.minibatch = 0;
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 RunDirectory::create(dir + "/bad", newLolsRunConfig(spec)));
        QVERIFY(!fs::exists(dir + "/bad"));
        spec.lols.minibatch = 2;
        const std::string killed = dir + "/killed";
        fs::create_directories(killed + "/policies");
        fs::create_directories(killed + "/state");
        writeFileAtomically(killed + "/.config.json.tmp.Xy34Zw", "{\"form");
        RunDirectory rd = RunDirectory::create(killed, newLolsRunConfig(spec));
        QVERIFY(fs::exists(rd.configPath()));
        QVERIFY(!fs::exists(killed + "/.config.json.tmp.Xy34Zw"));
        fs::create_directories(dir + "/full");
        writeFileAtomically(dir + "/full/notes.txt", "mine");
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 RunDirectory::create(dir + "/full", newLolsRunConfig(spec)));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestLolsRun)
#include "test_lols_run.moc"
