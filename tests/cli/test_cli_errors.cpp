// prunescope-cli on bad input (issue 19, "interface the acceptance checks use"): `grammar`, `eval`,
// `parse` and `lols --resume` exit with status 1 or 2 and print one line `error: FILE:LINE…` on
// stderr; nothing exits by a signal. Also: output write errors exit non-zero, inputs are never
// overwritten, over-long sentences are skipped and counted by `eval`, `parse --json` survives
// bytes that are not UTF-8, and `frontier` keeps a policy path whose file is missing right now.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "TestConfig.h"
#include "support/TestSuite.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>

#include <filesystem>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using prunescope::readFile;
using prunescope::writeFileAtomically;

namespace {

using Run = prunescope::testdata::CliRun;

QString cliPath() {
    return prunescope::testdata::cliBinary();
}

Run run(const QStringList& args, const QByteArray& input = {}, const QString& stdoutFile = {}) {
    prunescope::testdata::CliRunOptions o;
    o.input = input;
    o.stdoutFile = stdoutFile;
    return prunescope::testdata::runCli(args, o);
}

// Status 1 or 2, no signal, and stderr is exactly one line "error: FILE:LINE…".
void expectError(const Run& r, const QString& file, int line = -1) {
    QVERIFY2(!r.crashed, qPrintable("exited by a signal; stderr: " + r.err));
    QVERIFY2(r.exitCode == 1 || r.exitCode == 2,
             qPrintable(QString("exit %1: %2").arg(r.exitCode).arg(r.err)));
    const QString err = r.err.endsWith('\n') ? r.err.chopped(1) : r.err;
    QVERIFY2(!err.contains('\n'), qPrintable("more than one line: " + r.err));
    const QRegularExpression re("^error: " + QRegularExpression::escape(file) + ":(\\d+)");
    const auto m = re.match(err);
    QVERIFY2(m.hasMatch(), qPrintable("not 'error: " + file + ":LINE': " + err));
    if (line > 0) QCOMPARE(m.captured(1).toInt(), line);
}

} // namespace

class TestCliErrors : public QObject {
    Q_OBJECT
    QString dir_, grammar_, treebank_;

    QString file(const QString& name, const std::string& text) {
        const QString p = dir_ + "/" + name;
        writeFileAtomically(p.toStdString(), text);
        return p;
    }

  private slots:
    void initTestCase() {
        if (!QFile::exists(cliPath())) QSKIP("prunescope-cli not built");
        dir_ = QString::fromStdString(prunescope::testdata::tempDir("cli-errors"));
        treebank_ =
            QString::fromStdString(prunescope::testdata::sourceDir()) + "/samples/sentences.mrg";
        grammar_ = dir_ + "/small.gram";
        const Run r = run({"grammar", "--train", treebank_, "--out", grammar_});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    // An evaluation of zero sentences is an error naming the treebank, not "F1 0.00" or "UAS 0.00".
    void evaluatingNoSentenceIsAnError() {
        namespace td = prunescope::testdata;
        const QString empty = file("empty.mrg", "");
        td::expectCliError(run({"eval", "--grammar", grammar_, "--treebank", empty}),
                           empty + ": no sentences to evaluate");
        td::expectCliError(
            run({"eval", "--grammar", grammar_, "--treebank", treebank_, "--max-len", "1"}),
            treebank_ + ": no sentence within --max-len 1 to evaluate");
        const QString dep = QString::fromStdString(td::samplePath("dep/sentences.dp"));
        td::expectCliError(
            run({"dep-eval", "--model", QString::fromStdString(td::samplePath("dep/model.json")),
                 "--treebank", dep, "--max-len", "1"}),
            dep + ": no sentence within --max-len 1 to evaluate");
        td::expectCliError(
            run({"compare", "--grammar", grammar_, "--treebank", empty, "--baseline",
                 QString::fromStdString(td::samplePath("policies/baseline-w16.json")), "--lols",
                 QString::fromStdString(td::samplePath("policies/baseline-w16.json")), "--lambda",
                 "1"}),
            empty + ": no sentences to evaluate");
        td::expectCliError(
            run({"regret", "--grammar", grammar_, "--treebank", treebank_, "--max-len", "2",
                 "--lambda", "0.1", "--policy",
                 QString::fromStdString(td::samplePath("policies/baseline-w16.json"))}),
            treebank_ + ": no sentence within --max-len 2 to evaluate");
        const QString emptyDp = file("empty.dp", "");
        td::expectCliError(
            run({"cube-eval", "--model", QString::fromStdString(td::samplePath("cube/model.json")),
                 "--treebank", emptyDp}),
            emptyDp + ": no sentences to evaluate");
    }

    // Started by mpirun (or srun) as several processes, a CLI built without MPI says so instead of
    // letting each copy train alone into the same run directory (issue 16).
    void lolsUnderMpiLauncherWithoutMpiBuild() {
#if PRUNESCOPE_CLI_HAS_MPI
        QSKIP("this prunescope-cli is built with MPI (tests/lols_mpi covers mpirun)");
#endif
        for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}) {
            QProcess p;
            QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
            e.insert(var, "3");
            p.setProcessEnvironment(e);
            p.start(cliPath(), {"lols", "--resume", dir_ + "/no-such-run"});
            p.waitForFinished(60000);
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 1);
            QVERIFY2(err.startsWith("error: lols: started as 3 processes") &&
                         err.contains("-DPRUNESCOPE_MPI=ON"),
                     qPrintable(err));
        }
    }

    void grammarBadTreebank() {
        const QString bad = file(
            "bad.mrg", "( (S (NP (DT The) (NN dog)) (VP (VBZ barks)) )\n( (S (NP (NN x) y)) )\n");
        expectError(run({"grammar", "--train", bad, "--out", dir_ + "/x.gram"}), bad, 2);
        std::string nested = "\n( ";
        for (int d = 0; d < 50000; ++d)
            nested += "(X ";
        nested += "(NN w)" + std::string(50000, ')') + " )\n";
        const QString deep2 = file("deep2.mrg", nested);
        expectError(run({"grammar", "--train", deep2, "--out", dir_ + "/x.gram"}), deep2, 2);
        const QString empty = file("empty.mrg", "\n  \n");
        expectError(run({"grammar", "--train", empty, "--out", dir_ + "/x.gram"}), empty, 1);
        const QString traces = file("traces.mrg", "(S (NN a))\n( (-NONE- *T*) )\n");
        expectError(run({"grammar", "--train", traces, "--out", dir_ + "/x.gram"}), traces, 2);
        QVERIFY(!QFile::exists(dir_ + "/x.gram"));
    }
    void grammarRefusesToOverwriteItsInput() {
        const QString t = file("t.mrg", readFile(treebank_.toStdString()));
        const Run r = run({"grammar", "--train", t, "--out", t});
        QVERIFY(!r.crashed);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("refusing to overwrite"), qPrintable(r.err));
        QCOMPARE(readFile(t.toStdString()), readFile(treebank_.toStdString()));
    }
    void evalBadGrammar() {
        std::string g = readFile(grammar_.toStdString());
        const auto pos = g.find("\nbinary ");
        const auto lineStart = g.find('\n', pos + 1) + 1; // the first binary rule
        const auto sp = g.rfind(' ', g.find('\n', lineStart));
        g.replace(sp + 1, g.find('\n', lineStart) - sp - 1, "nan");
        const int line = static_cast<int>(std::count(
                             g.begin(), g.begin() + static_cast<long>(lineStart), '\n')) +
                         1;
        const QString bad = file("nan.gram", g);
        expectError(run({"eval", "--grammar", bad, "--treebank", treebank_}), bad, line);
    }
    void evalBadPolicy() {
        std::string p = readFile((QString::fromStdString(prunescope::testdata::sourceDir()) +
                                  "/samples/policies/baseline-w16.json")
                                     .toStdString());
        const auto v = p.find("\"value\": [") + 10;
        p.replace(v, p.find(',', v) - v, "1e300");
        const QString bad = file("huge.json", p);
        expectError(run({"eval", "--grammar", grammar_, "--treebank", treebank_, "--policy", bad}),
                    bad);
        QVERIFY(run({"eval", "--grammar", grammar_, "--treebank", treebank_, "--policy", bad})
                    .err.contains("float range"));
    }
    void evalSkipsOverlongSentences() {
        std::string t = readFile(treebank_.toStdString());
        t += "( (S";
        for (int i = 0; i < 4200; ++i)
            t += " (NN word)";
        t += ") )\n";
        const QString tb = file("long.mrg", t);
        const Run r = run({"eval", "--grammar", grammar_, "--treebank", tb, "--json"});
        QVERIFY2(r.exitCode == 0 && !r.crashed, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["skippedTooLarge"].get<int>(), 1);
        QCOMPARE(j["sentences"].get<int>(), 12);
        QVERIFY(r.err.contains("skipped"));
    }
    void parseBadMaskFile() {
        const QString s = file("s.txt", "The dog barks .\n");
        const QString m = file("m.json", "{\"n\": 4294967300, \"pruned\": []}");
        expectError(run({"parse", "--grammar", grammar_, "--input", s, "--mask-file", m}), m, 1);
    }
    void parseOverlongSentence() {
        std::string text = "The dog barks .\n";
        for (int i = 0; i < 4200; ++i)
            text += "word ";
        text += "\nIt ran .\n";
        const QString s = file("long.txt", text);
        expectError(run({"parse", "--grammar", grammar_, "--input", s}), s, 2);
        const Run skip = run({"parse", "--grammar", grammar_, "--input", s, "--skip-too-large"});
        QCOMPARE(skip.exitCode, 0);
        const QStringList lines = skip.out.split('\n');
        QVERIFY(lines.size() >= 3);
        QVERIFY(lines[0].startsWith("(ROOT"));
        QVERIFY(lines[1].isEmpty());
        QVERIFY(lines[2].startsWith("(ROOT"));
    }
    void parseJsonWithInvalidUtf8() {
        const QByteArray input = "The \xff\xfe dog barks .\nIt ran \xc3 .\n";
        const Run r = run({"parse", "--grammar", grammar_, "--json"}, input);
        QVERIFY2(r.exitCode == 0 && !r.crashed, qPrintable(r.err));
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2); // stopped at the first bad byte before
        for (const QString& l : lines)
            QVERIFY(nlohmann::json::accept(l.toStdString()));
        QVERIFY(lines[0].contains(QChar(0xFFFD)));
        QCOMPARE(r.err.count("not UTF-8"), 1); // said once
    }
    void parseToAFullDiskFails() {
        if (!fs::exists("/dev/full")) QSKIP("no /dev/full");
        std::string text;
        for (int i = 0; i < 400; ++i)
            text += "The dog barks .\n";
        const QString s = file("many.txt", text);
        const Run r = run({"parse", "--grammar", grammar_, "--input", s}, {}, "/dev/full");
        QVERIFY(!r.crashed);
        QVERIFY2(r.exitCode != 0, "exit 0 although nothing could be written");
        QVERIFY2(r.err.contains("error: <stdout>"), qPrintable(r.err));
    }
    void frontierKeepsMissingPolicyPaths() {
        const QString run1 = dir_ + "/frontier-run";
        fs::create_directories(run1.toStdString());
        const std::string src =
            prunescope::testdata::sourceDir() + "/samples/policies/frontier.json";
        writeFileAtomically((run1 + "/frontier.json").toStdString(), readFile(src));
        // No policy file is next to it (as when a disk is not mounted): the paths must survive.
        const Run r = run({"frontier", "--run", run1});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.err.contains("not found"));
        const auto j = nlohmann::json::parse(readFile((run1 + "/frontier.json").toStdString()));
        const auto original = nlohmann::json::parse(readFile(src));
        int kept = 0;
        for (std::size_t x = 0; x < original["points"].size(); ++x)
            if (original["points"][x]["policy"].is_string()) {
                QCOMPARE(j["points"][x]["policy"], original["points"][x]["policy"]);
                ++kept;
            }
        QVERIFY(kept >= 3);
        // --svg onto frontier.json is refused and leaves it intact.
        const std::string before = readFile((run1 + "/frontier.json").toStdString());
        const Run s = run({"frontier", "--run", run1, "--svg", run1 + "/frontier.json"});
        QCOMPARE(s.exitCode, 2);
        QVERIFY2(s.err.contains("refusing to overwrite"), qPrintable(s.err));
        QCOMPARE(readFile((run1 + "/frontier.json").toStdString()), before);
    }
    void badCommandLineExitsTwo() {
        const Run r = run({"grammar", "--train"});
        QVERIFY(!r.crashed);
        QCOMPARE(r.exitCode, 2);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestCliErrors)
#include "test_cli_errors.moc"
