// Numbers on the command line (issue 46 items 2, 3): nan, inf and 1e999 in any floating-point
// option are refused before any work, naming the flag (app/cli/CommandLineGuard.h); the ranges
// the run-directory reader enforces are enforced on the flags that write config.json; counts that
// divide (bench-randomized --iterations, --passes) or that select alphas are range-checked.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "TestConfig.h"
#include "support/TestSuite.h"

#include <QFile>

#include <filesystem>
#include <nlohmann/json.hpp>

namespace td = prunescope::testdata;
namespace fs = std::filesystem;

namespace {

// Exit 2, no signal, the flag named on stderr, nothing written to `mustNotExist`.
void expectRefused(const QStringList& args, const QString& flag, const QString& mustNotExist = {}) {
    const td::CliRun r = td::runCli(args);
    const QString what = args.join(' ');
    QVERIFY2(!r.crashed, qPrintable(what + ": crashed"));
    QVERIFY2(r.exitCode == 2, qPrintable(what + QString(": exit %1: ").arg(r.exitCode) + r.err));
    QVERIFY2(r.err.contains(flag), qPrintable(what + ": does not name " + flag + ": " + r.err));
    if (!mustNotExist.isEmpty())
        QVERIFY2(!QFile::exists(mustNotExist), qPrintable(what + ": wrote " + mustNotExist));
}

} // namespace

class TestNumbersCli : public QObject {
    Q_OBJECT
    QString dir_, grammar_, treebank_, policy_;

  private slots:
    void initTestCase() {
        if (!QFile::exists(td::cliBinary())) QSKIP("prunescope-cli not built");
        dir_ = QString::fromStdString(td::tempDir("numbers-cli"));
        grammar_ = QString::fromStdString(td::samplePath("grammar.gram"));
        treebank_ = QString::fromStdString(td::samplePath("sentences.mrg"));
        policy_ = QString::fromStdString(td::samplePath("policies/baseline-w16.json"));
    }

    // Any floating-point option: the central check, before the command reads anything.
    void nonFiniteFloatsAreRefused() {
        for (const QString bad : {"nan", "inf", "-inf", "1e999", "NaN"}) {
            expectRefused({"compare", "--grammar", grammar_, "--treebank", treebank_, "--baseline",
                           policy_, "--lols", policy_, "--lambda", bad},
                          "--lambda");
            expectRefused({"frontier-best", "--frontier", dir_, "--lambda", bad}, "--lambda");
            expectRefused({"lols", "--grammar", grammar_, "--init", policy_, "--train", treebank_,
                           "--dev", treebank_, "--out", dir_ + "/run-" + bad, "--lambda", bad},
                          "--lambda", dir_ + "/run-" + bad);
        }
        const td::CliRun r =
            td::runCli({"compare", "--grammar", grammar_, "--treebank", treebank_, "--baseline",
                        policy_, "--lols", policy_, "--lambda", "nan"});
        QCOMPARE(r.err.trimmed(), QString("error: --lambda: nan is not a finite number (nan, inf "
                                          "and values beyond 1.8e308 are refused)"));
        expectRefused({"vine-train", "--model", policy_, "--train", treebank_, "--dev", treebank_,
                       "--out", dir_ + "/c.json", "--train-alpha", "nan"},
                      "--train-alpha", dir_ + "/c.json");
        expectRefused({"vine-train", "--model", policy_, "--train", treebank_, "--dev", treebank_,
                       "--out", dir_ + "/c.json", "--alpha-grid", "0.5,nan"},
                      "--alpha-grid", dir_ + "/c.json");
        expectRefused({"dep-eval", "--model", policy_, "--treebank", treebank_, "--cascade",
                       policy_, "--alpha", "nan,nan"},
                      "--alpha");
    }

    // Ranges: alphas are in [0, 1]; the flags `lols` writes into config.json take the ranges
    // its strict reader enforces (issue 46: the CLI wrote configs it could not resume).
    void rangesAreEnforced() {
        expectRefused({"dep-eval", "--model", policy_, "--treebank", treebank_, "--cascade",
                       policy_, "--alpha", "5,5"},
                      "--alpha");
        const QStringList lols = {"lols",    "--grammar", grammar_, "--init", policy_,
                                  "--train", treebank_,   "--dev",  treebank_};
        const QList<QStringList> bad = {{"--minibatch", "0"},   {"--lambda", "-1"},
                                        {"--max-len", "5000"},  {"--max-len", "0"},
                                        {"--iterations", "-1"}, {"--q0-scale", "-1"},
                                        {"--train-limit", "-3"}};
        int x = 0;
        for (const QStringList& b : bad) {
            const QString out = dir_ + "/lols-range-" + QString::number(x++);
            expectRefused(lols + QStringList{"--out", out} + b, b[0], out);
        }
        for (const char* flag : {"--iterations", "--passes", "--per-length"})
            expectRefused(
                {"bench-randomized", "--grammar", grammar_, "--treebank", treebank_, flag, "0"},
                flag);
    }

    // `lols --max-len 2` used to train on "0 train / 0 dev sentences" and write best.json.
    void lolsOnNoSentenceIsRefused() {
        const QString out = dir_ + "/empty-run";
        const td::CliRun r =
            td::runCli({"lols", "--grammar", grammar_, "--init", policy_, "--train", treebank_,
                        "--dev", treebank_, "--out", out, "--max-len", "2", "--lambda", "0.01"});
        td::expectCliError(r, "", 2);
        QVERIFY2(r.err.contains("no train sentence within maxLength 2"), qPrintable(r.err));
        QVERIFY2(!fs::exists(out.toStdString()), "a run directory was created");
    }

    // `--json -` is standard output: the JSON alone, and no file named "-" (it used to be one).
    void jsonDashIsStandardOutput() {
        const QString work = dir_ + "/json-dash";
        fs::create_directories(work.toStdString());
        td::CliRunOptions o;
        o.launcher = {"sh", "-c", "cd \"$0\" && exec \"$@\"", work};
        const td::CliRun r =
            td::runCli({"regret", "--grammar", grammar_, "--policy", policy_, "--treebank",
                        treebank_, "--max-len", "12", "--lambda", "0.01", "--json", "-"},
                       o);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(!fs::exists((work + "/-").toStdString()));
        const auto j = nlohmann::json::parse(r.out.toStdString()); // the JSON alone
        QVERIFY(j.contains("E[regret]"));
    }

    // An allocation failure is one line naming the command and its files, not a bare
    // "error: std::bad_alloc".
    void outOfMemoryNamesTheCommand() {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer reserves terabytes of address space: a ulimit -v run cannot start");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
        QSKIP("AddressSanitizer reserves terabytes of address space: a ulimit -v run cannot start");
#endif
#endif
        const QString dep = QString::fromStdString(td::samplePath("dep/sentences.dp"));
        td::CliRunOptions o;
        o.launcher = {"sh", "-c", "ulimit -v 150000 && exec \"$@\"", "sh"};
        const td::CliRun r =
            td::runCli({"dep-train", "--train", dep, "--dev", dep, "--out", dir_ + "/oom.json",
                        "--hash-bits", "26", "--epochs", "1", "--quiet"},
                       o);
        QVERIFY(!r.crashed);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("error: dep-train (--train " + dep) &&
                     r.err.contains("out of memory"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(dir_ + "/oom.json"));
        // filter-train used to swallow the bad_alloc inside its solver and segfault after it
        // (64-128 MiB of address space).
        for (const char* kib : {"64000", "96000", "128000"}) {
            td::CliRunOptions low;
            low.launcher = {"sh", "-c", QString("ulimit -v %1 && exec \"$@\"").arg(kib), "sh"};
            const td::CliRun f = td::runCli({"filter-train", "--train", dep, "--dev", dep, "--out",
                                             dir_ + "/oom-filter.json", "--quiet"},
                                            low);
            QVERIFY2(!f.crashed, qPrintable(QString("crashed at %1 KiB").arg(kib)));
            if (f.exitCode == 0) continue; // enough memory after all
            QCOMPARE(f.exitCode, 1);
            QVERIFY2(f.err.startsWith("error: filter-train (") && f.err.contains("out of memory"),
                     qPrintable(f.err));
        }
    }

    // No empty result passes for a result (issue 46 item 8): training or benchmarking on no
    // sentence is an error naming the treebank, not a table of zeros or "OK".
    void emptySelectionsAreErrors() {
        const QString dep = QString::fromStdString(td::samplePath("dep/sentences.dp"));
        const QString depModel = QString::fromStdString(td::samplePath("dep/model.json"));
        const QString cubeModel = QString::fromStdString(td::samplePath("cube/model.json"));
        const QString empty = dir_ + "/empty.conllu";
        prunescope::writeFileAtomically(empty.toStdString(), "");
        td::expectCliError(td::runCli({"dep-train", "--train", empty, "--dev", dep, "--out",
                                       dir_ + "/e.json", "--quiet"}),
                           empty + ": no training sentences", 2);
        td::expectCliError(td::runCli({"cube-train", "--train", empty, "--dev", dep, "--out",
                                       dir_ + "/e.json", "--quiet"}),
                           empty + ": no training sentences", 2);
        QVERIFY(!QFile::exists(dir_ + "/e.json"));
        td::expectCliError(
            td::runCli({"dep-bench", "--model", depModel, "--treebank", dep, "--max-len", "1"}),
            dep + ": no sentence within --max-len 1", 2);
        td::expectCliError(
            td::runCli({"cube-bench", "--model", cubeModel, "--treebank", dep, "--max-len", "1"}),
            dep + ": no sentence within --max-len 1", 2);
        td::expectCliError(td::runCli({"check-rollouts", "--grammar", grammar_, "--treebank",
                                       treebank_, "--max-len", "2"}),
                           treebank_ + ": no sentence within --max-len 2", 2);
        td::expectCliError(td::runCli({"randomized", "--grammar", grammar_, "--treebank", treebank_,
                                       "--min-len", "30", "--max-len", "5"}),
                           treebank_ + ": no sentence of 30 to 5 words", 2);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestNumbersCli)
#include "test_numbers_cli.moc"
