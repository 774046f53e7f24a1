// Run integrity as the command line sees it (issue 46 item 2): `lols` records a fingerprint in
// config.json; after the training trees change, `lols --resume` refuses at config.json naming the
// treebank and leaves best.json and the log as they were, `frontier-best --run` refuses the run,
// `lols-plot` warns but plots; a run without a fingerprint resumes with a warning; a temporary a
// killed writer left is swept by the resume.
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
using prunescope::readFile;
using prunescope::writeFileAtomically;

class TestRunIntegrityCli : public QObject {
    Q_OBJECT
    QString dir_, grammar_, policy_, train_, run_;

  private slots:
    void initTestCase() {
        if (!QFile::exists(td::cliBinary())) QSKIP("prunescope-cli not built");
        dir_ = QString::fromStdString(td::tempDir("run-integrity-cli"));
        grammar_ = QString::fromStdString(td::samplePath("grammar.gram"));
        policy_ = QString::fromStdString(td::samplePath("policies/baseline-w16.json"));
        train_ = dir_ + "/train.mrg";
        writeFileAtomically(train_.toStdString(), readFile(td::samplePath("sentences.mrg")));
        run_ = dir_ + "/run";
        const td::CliRun r =
            td::runCli({"lols", "--grammar",    grammar_, "--init",      policy_, "--train",
                        train_, "--dev",        train_,   "--out",       run_,    "--max-len",
                        "10",   "--iterations", "1",      "--minibatch", "2",     "--lambda",
                        "0.01", "--threads",    "1",      "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto config = nlohmann::json::parse(readFile((run_ + "/config.json").toStdString()));
        QVERIFY(config.contains("fingerprint"));
    }

    void changedTreesAreRefused() {
        const std::string best = readFile((run_ + "/best.json").toStdString());
        const std::string log = readFile((run_ + "/log.jsonl").toStdString());
        const std::string train = readFile(train_.toStdString());
        std::string edited = train;
        edited.replace(edited.find("(NN teacher)"), 12, "(NN student)");
        writeFileAtomically(train_.toStdString(), edited);

        const td::CliRun resume = td::runCli({"lols", "--resume", run_, "--iterations", "2"});
        td::expectCliError(resume, run_ + "/config.json:", 2);
        QVERIFY2(resume.err.contains("train treebank") && resume.err.contains("refusing to resume"),
                 qPrintable(resume.err));
        QCOMPARE(readFile((run_ + "/best.json").toStdString()), best);
        QCOMPARE(readFile((run_ + "/log.jsonl").toStdString()), log);

        const td::CliRun best2 = td::runCli({"frontier-best", "--run", run_, "--lambda", "0.01"});
        td::expectCliError(best2, run_ + "/config.json:", 2);

        const td::CliRun plot = td::runCli({"lols-plot", run_, "--out", dir_ + "/curve.svg"});
        QVERIFY2(plot.exitCode == 0, qPrintable(plot.err));
        QVERIFY2(plot.err.contains("warning: ") && plot.err.contains("inputs changed"),
                 qPrintable(plot.err));

        writeFileAtomically(train_.toStdString(), train);
    }

    void oldRunResumesWithAWarningAndSweepsTemporaries() {
        const std::string path = (run_ + "/config.json").toStdString();
        auto config = nlohmann::json::parse(readFile(path));
        config.erase("fingerprint");
        writeFileAtomically(path, config.dump(2) + "\n");
        const QString stale = run_ + "/policies/.iter-002.json.tmp.Qw12Er";
        writeFileAtomically(stale.toStdString(), "half a policy");
        const td::CliRun r =
            td::runCli({"lols", "--resume", run_, "--iterations", "2", "--threads", "1"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("no fingerprint"), qPrintable(r.err));
        QVERIFY(!QFile::exists(stale));
        QVERIFY(nlohmann::json::parse(readFile(path)).contains("fingerprint"));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestRunIntegrityCli)
#include "test_run_integrity_cli.moc"
