// `mpirun -n N prunescope-cli lols` (issue 16; Vieira & Eisner 2017 Alg. 2 with rollouts spread
// over ranks, core/lols_mpi): with 2 ranks, and 3 oversubscribed ranks with 2 threads each, every
// file of the run directory (datasets, policies, best.json, config.json) equals the single-process
// run's byte for byte and log.jsonl and the printed iteration lines equal it except for timings;
// a rank killed by SIGKILL mid-run ends the job with the finished iterations kept, and a
// single-process --resume then gives the uninterrupted result; bad input under mpirun is one
// clear error, not a hang. Built only with -DPRUNESCOPE_MPI=ON; as root, Open MPI's mpirun needs
// OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (set here when euid is 0).
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "TestConfig.h"
#include "support/TestSuite.h"

#include <QProcess>
#include <QRegularExpression>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace prunescope;

namespace {

using Run = testdata::CliRun;

// ranks = 0: the CLI alone (no launcher); otherwise mpirun -n ranks (oversubscribed past the
// cores).
Run run(int ranks, const QStringList& args, QStringList env = {}) {
    if (geteuid() == 0) // Open MPI refuses root without these (docs/user-guide.md)
        env += QStringList{"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"};
    testdata::CliRunOptions o;
    o.env = env;
    if (ranks > 0)
        o.launcher = {PRUNESCOPE_MPIEXEC, "-n", QString::number(ranks), "--oversubscribe"};
    return testdata::runCli(args, o);
}

QString samples(const char* file) {
    return QString::fromStdString(testdata::samplePath(file));
}

QStringList lolsArgs(const QString& surrogate, int iterations) {
    return {"lols",
            "--grammar",
            samples("grammar.gram"),
            "--init",
            samples("policies/baseline-w16.json"),
            "--surrogate",
            surrogate,
            "--lambda",
            surrogate == "rdp" ? "0.002" : "0.01",
            "--train",
            QString::fromStdString(testdata::ptbDir("train")),
            "--dev",
            QString::fromStdString(testdata::ptbDir("dev")),
            "--max-len",
            "15",
            "--train-limit",
            "40",
            "--dev-limit",
            "10",
            "--minibatch",
            "13",
            "--iterations",
            QString::number(iterations)};
}

// log.jsonl without its timings ("seconds"), one line per iteration.
std::string logWithoutTimings(const fs::path& dir) {
    std::string out;
    std::istringstream in(readFile((dir / "log.jsonl").string()));
    for (std::string line; std::getline(in, line);) {
        nlohmann::json j = nlohmann::json::parse(line);
        j.erase("seconds");
        j["dev"].erase("seconds");
        out += j.dump() + "\n";
    }
    return out;
}

// The printed "iter ..." lines without the trailing timing ("  0.1s").
QStringList iterationLines(const QString& out) {
    QStringList lines;
    for (QString l : out.split('\n'))
        if (l.startsWith("iter "))
            lines << l.remove(QRegularExpression("  [0-9.]+s(  \\*best\\*)?$"));
    return lines;
}

// Every file of two run directories: log.jsonl without timings, the rest byte for byte.
void expectSameRun(const fs::path& a, const fs::path& b) {
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(a))
        if (e.is_regular_file()) files.push_back(fs::relative(e.path(), a).string());
    std::vector<std::string> other;
    for (const auto& e : fs::recursive_directory_iterator(b))
        if (e.is_regular_file()) other.push_back(fs::relative(e.path(), b).string());
    std::sort(files.begin(), files.end());
    std::sort(other.begin(), other.end());
    QCOMPARE(other, files);
    QVERIFY(files.size() >= 5); // config, log, best, policies, state
    for (const std::string& f : files) {
        if (f == "log.jsonl") {
            QCOMPARE(logWithoutTimings(b), logWithoutTimings(a));
            continue;
        }
        QVERIFY2(readFile((a / f).string()) == readFile((b / f).string()), f.c_str());
    }
}

} // namespace

class TestLolsMpi : public QObject {
    Q_OBJECT
  private slots:
    void ranksTrainBitIdentically() {
        const fs::path tmp = testdata::tempDir("lols-mpi-equal");
        for (const QString surrogate : {"rdp", "rcp"}) {
            const fs::path single = tmp / (surrogate.toStdString() + "-single");
            const Run s = run(0, lolsArgs(surrogate, 2) +
                                     QStringList{"--threads", "1", "--out",
                                                 QString::fromStdString(single.string())});
            QVERIFY2(s.exitCode == 0 && !s.crashed, qPrintable(s.err));
            QCOMPARE(iterationLines(s.out).size(), 3);
            struct Case {
                int ranks;
                const char* threads;
            };
            for (const Case c : {Case{2, "1"}, Case{3, "2"}}) {
                if (surrogate == "rcp" && c.ranks == 2)
                    continue; // rCP's sampled spans: 3 ranks suffice
                const fs::path dir =
                    tmp / (surrogate.toStdString() + "-n" + std::to_string(c.ranks));
                const Run m = run(c.ranks, lolsArgs(surrogate, 2) +
                                               QStringList{"--threads", c.threads, "--out",
                                                           QString::fromStdString(dir.string())});
                QVERIFY2(m.exitCode == 0 && !m.crashed, qPrintable(m.err));
                QVERIFY2(m.err.contains(QString(" x %1 ranks").arg(c.ranks)), qPrintable(m.err));
                QVERIFY2(m.err.contains("bytes of rollouts"), qPrintable(m.err));
                QCOMPARE(iterationLines(m.out), iterationLines(s.out));
                expectSameRun(single, dir);
            }
        }
    }

    // Rank 1 dies by SIGKILL when asked for iteration 2's rollouts (a crashed node): the job ends,
    // iterations 0 and 1 are committed and nothing of 2; --resume in one process finishes the run
    // with the uninterrupted run's result.
    void deadRankKeepsFinishedIterationsAndResumes() {
        const fs::path tmp = testdata::tempDir("lols-mpi-kill");
        const fs::path whole = tmp / "whole", cut = tmp / "cut";
        const Run w =
            run(0, lolsArgs("rdp", 3) + QStringList{"--threads", "2", "--out",
                                                    QString::fromStdString(whole.string())});
        QVERIFY2(w.exitCode == 0, qPrintable(w.err));
        const Run k = run(2,
                          lolsArgs("rdp", 3) + QStringList{"--threads", "1", "--out",
                                                           QString::fromStdString(cut.string())},
                          {"PRUNESCOPE_TEST_KILL_RANK_AT=1:2"});
        QVERIFY2(k.exitCode != 0, qPrintable(k.err));
        QVERIFY2(k.err.contains("continue with --resume"), qPrintable(k.err));
        QCOMPARE(iterationLines(k.out).size(), 2);
        const std::string log = logWithoutTimings(cut);
        QCOMPARE(std::count(log.begin(), log.end(), '\n'), 2L); // iterations 0 and 1
        QVERIFY(fs::exists(cut / "state" / "iter-001.bin"));
        QVERIFY(!fs::exists(cut / "policies" / "iter-002.json"));
        const Run r =
            run(0, {"lols", "--resume", QString::fromStdString(cut.string()), "--threads", "2"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        expectSameRun(whole, cut);
    }

    // Bad input under mpirun: rank 0 says why once, every rank exits (no hang); --threads < 0;
    // several copies started without MPI.
    void badInputUnderMpirunIsOneClearError() {
        const fs::path tmp = testdata::tempDir("lols-mpi-bad");
        QStringList args = lolsArgs("rdp", 1);
        args[args.indexOf("--grammar") + 1] =
            QString::fromStdString((tmp / "missing.gram").string());
        const Run m =
            run(2, args + QStringList{"--out", QString::fromStdString((tmp / "run").string())});
        QVERIFY(m.exitCode != 0);
        QCOMPARE(m.err.count("error: "), 1);
        QVERIFY2(m.err.contains("missing.gram"), qPrintable(m.err));
        const Run t =
            run(2, lolsArgs("rdp", 1) + QStringList{"--threads", "-1", "--out",
                                                    QString::fromStdString((tmp / "t").string())});
        QVERIFY(t.exitCode != 0);
        QVERIFY2(t.err.contains("--threads must be >= 0"), qPrintable(t.err));
        // srun without PMI starts independent copies: refused, not N runs into one directory.
        const Run c = run(0,
                          lolsArgs("rdp", 1) +
                              QStringList{"--out", QString::fromStdString((tmp / "c").string())},
                          {"SLURM_STEP_NUM_TASKS=4"});
        QCOMPARE(c.exitCode, 1);
        QVERIFY2(
            c.err.startsWith("error: lols: started as 4 processes, but not by an MPI launcher"),
            qPrintable(c.err));
        QVERIFY(!fs::exists(tmp / "c"));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestLolsMpi)
#include "test_lols_mpi.moc"
