// The output guard (app/cli/CommandLineGuard.h, issue 46 item 1): no command writes over a file it
// reads. Every subcommand is enumerated from the CLI itself (`prunescope-cli list-commands`), so a
// new command or a new output option cannot skip the check; then the twelve commands the issue
// found overwriting their own inputs, by plain path, through `..` and through a symbolic link.
// Every refusal exits 2 with one line naming the output flag, before any work, and leaves the
// input byte-identical.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "TestConfig.h"
#include "support/TestSuite.h"

#include <QFile>
#include <QRegularExpression>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;
using prunescope::readFile;
using prunescope::writeFileAtomically;
namespace td = prunescope::testdata;

namespace {

json commandList() {
    const td::CliRun r = td::runCli({"list-commands"});
    if (r.exitCode != 0) return json::array();
    json all = json::array();
    for (const QString& line : r.out.split('\n', Qt::SkipEmptyParts))
        all.push_back(json::parse(line.toStdString()));
    return all;
}

QStringList words(const json& command) {
    QStringList w;
    for (const auto& s : command["command"])
        w << QString::fromStdString(s.get<std::string>());
    return w;
}

const std::string kSentinel = "the input's bytes, which no command may change\n";

} // namespace

class TestOutputGuard : public QObject {
    Q_OBJECT
    QString dir_;
    json commands_;
    int fresh_ = 0;

    QString newDir() {
        const QString d = dir_ + "/case" + QString::number(fresh_++);
        fs::create_directories(d.toStdString());
        return d;
    }
    QString file(const QString& d, const QString& name) {
        const QString p = d + "/" + name;
        writeFileAtomically(p.toStdString(), kSentinel);
        return p;
    }
    const json* command(const QStringList& w) {
        for (const auto& c : commands_)
            if (words(c) == w) return &c;
        return nullptr;
    }

    // Runs `w args` with every other required option filled in (inputs: a sentinel file of its
    // own; outputs: a fresh path; numbers: 1) and expects the guard's refusal naming outFlag,
    // with `input` unchanged.
    void expectRefused(const QStringList& w, QStringList args, const QString& outFlag,
                       const QString& input) {
        const json* c = command(w);
        QVERIFY2(c, qPrintable("no command " + w.join(' ')));
        const QString d = newDir();
        const std::string before = readFile(input.toStdString());
        int n = 0;
        QStringList given; // positionals the caller gave ("@name" markers)
        for (const QString& a : args)
            if (a.startsWith('@')) given << a.mid(1);
        args.erase(std::remove_if(args.begin(), args.end(),
                                  [](const QString& a) { return a.startsWith('@'); }),
                   args.end());
        for (const auto& o : (*c)["options"]) {
            const QString name = QString::fromStdString(o["name"].get<std::string>());
            if (!o["required"].get<bool>() || o["flag"].get<bool>()) continue;
            if (o["positional"].get<bool>()) {
                if (!given.contains(name)) args << file(d, "positional" + QString::number(n++));
                continue;
            }
            if (args.contains(name)) continue;
            const std::string kind = o["kind"];
            args << name
                 << (kind == "input"    ? file(d, "in" + QString::number(n++))
                     : kind == "output" ? d + "/out" + QString::number(n++)
                                        : QString("1"));
        }
        const td::CliRun r = td::runCli(w + args);
        const QString what = (w + args).join(' ');
        QVERIFY2(!r.crashed, qPrintable(what + ": crashed"));
        QVERIFY2(r.exitCode == 2,
                 qPrintable(what + QString(": exit %1: ").arg(r.exitCode) + r.err));
        const QString err = r.err.trimmed();
        QVERIFY2(!err.contains('\n'), qPrintable(what + ": more than one line: " + r.err));
        QVERIFY2(err.startsWith("error: ") && err.contains(outFlag + " would overwrite an input") &&
                     err.contains("refusing to overwrite"),
                 qPrintable(what + ": not the guard's refusal: " + r.err));
        QVERIFY2(readFile(input.toStdString()) == before, qPrintable(what + ": input changed"));
    }

  private slots:
    void initTestCase() {
        if (!QFile::exists(td::cliBinary())) QSKIP("prunescope-cli not built");
        dir_ = QString::fromStdString(td::tempDir("output-guard"));
        commands_ = commandList();
        QVERIFY2(commands_.size() >= 35, "list-commands lists fewer commands than the CLI has");
    }

    // Every command, every output option: pointed at the file its first input reads, refused.
    void everyCommandRefusesToOverwriteItsInputs() {
        int checked = 0;
        for (const auto& c : commands_) {
            QString firstInput;
            bool inputPositional = false;
            for (const auto& o : c["options"]) {
                // The first input that takes any path (not one of a fixed set of names).
                const std::string type = o["type"];
                if (o["kind"] == "input" && !o["flag"].get<bool>() &&
                    type.find('{') == std::string::npos) {
                    firstInput = QString::fromStdString(o["name"].get<std::string>());
                    inputPositional = o["positional"].get<bool>();
                    break;
                }
            }
            for (const auto& o : c["options"]) {
                if (o["kind"] != "output") continue;
                const QString out = QString::fromStdString(o["name"].get<std::string>());
                // A command with an output must read something; otherwise the listing is wrong.
                QVERIFY2(!firstInput.isEmpty(),
                         qPrintable(words(c).join(' ') + " writes " + out + " but reads nothing"));
                const QString d = newDir();
                const QString in = file(d, "input.txt");
                QStringList args;
                if (inputPositional)
                    args << in << "@" + firstInput;
                else
                    args << firstInput << in;
                args << out << in;
                expectRefused(words(c), args, out, in);
                ++checked;
            }
        }
        QVERIFY2(checked >= 24, qPrintable(QString("only %1 outputs checked").arg(checked)));
    }

    // An option whose help says it writes a file is classified as an output (a new output option
    // that is not in outputOptionNames fails here).
    void everyWritingOptionIsAnOutput() {
        const QRegularExpression writes("\\b[Ww]rite\\b|to write|[Ww]rites\\b");
        for (const auto& c : commands_)
            for (const auto& o : c["options"]) {
                if (o["flag"].get<bool>()) continue;
                const QString desc = QString::fromStdString(o["description"].get<std::string>());
                if (!desc.contains(writes)) continue;
                // Inputs whose help mentions who writes them.
                if (words(c) == QStringList{"dep-parse"} && o["name"] == "--mask-file") continue;
                QVERIFY2(o["kind"] == "output",
                         qPrintable(words(c).join(' ') + " " +
                                    QString::fromStdString(o["name"].get<std::string>()) +
                                    " writes (\"" + desc + "\") but is not guarded as an output"));
            }
    }

    // The twelve cases of issue 46 item 1.
    void lolsPlotOntoItsRunLog() {
        const QString run = newDir();
        file(run, "config.json");
        const QString log = file(run, "log.jsonl");
        expectRefused({"lols-plot"}, {run, "@runs", "--out", run + "/log.jsonl"}, "--out", log);
    }
    void depTrainOntoTrainOrDev() {
        const QString d = newDir();
        const QString t = file(d, "train.conllu"), v = file(d, "dev.conllu");
        expectRefused({"dep-train"}, {"--train", t, "--dev", v, "--out", t}, "--out", t);
        expectRefused({"dep-train"}, {"--train", t, "--dev", v, "--out", v}, "--out", v);
    }
    void cubeTrainOntoDev() {
        const QString d = newDir();
        const QString v = file(d, "dev.conllu");
        expectRefused({"cube-train"}, {"--dev", v, "--out", v}, "--out", v);
    }
    void filterTrainOntoInit() {
        const QString d = newDir();
        const QString f = file(d, "filter.json");
        expectRefused({"filter-train"}, {"--kind", "joint", "--init", f, "--out", f}, "--out", f);
    }
    void cubePlotOntoModel() {
        const QString d = newDir();
        const QString m = file(d, "model.json");
        expectRefused({"cube-plot"}, {m, "@models", "--out", m}, "--out", m);
    }
    void filterPlotOntoFilter() {
        const QString d = newDir();
        const QString f = file(d, "filter.json");
        expectRefused({"filter-plot"}, {"--filter", f, "--out", f}, "--out", f);
    }
    void vineFrontierOntoCascade() {
        const QString d = newDir();
        const QString c = file(d, "cascade.json");
        expectRefused({"vine-frontier"}, {"--cascade", c, "--out-json", c}, "--out-json", c);
    }
    void filterFrontierOntoEval() {
        const QString d = newDir();
        const QString e = file(d, "eval.json");
        expectRefused({"filter-frontier"}, {"--eval", "a=" + e, "--out", e}, "--out", e);
    }
    void compareOntoPolicy() {
        const QString d = newDir();
        const QString p = file(d, "best.json");
        expectRefused({"compare"}, {"--lols", p, "--json", p}, "--json", p);
    }
    void regretOntoPolicy() {
        const QString d = newDir();
        const QString p = file(d, "policy.json");
        expectRefused({"regret"}, {"--policy", p, "--json", p}, "--json", p);
    }
    void randomizedEmOntoGrammar() {
        const QString d = newDir();
        const QString g = file(d, "small.gram");
        expectRefused({"randomized-em"}, {"--grammar", g, "--json", g}, "--json", g);
    }

    // The same file reached through `..` and through a symbolic link is the same input.
    void dotDotAndSymlinksResolve() {
        const QString d = newDir();
        const QString t = file(d, "train.conllu");
        fs::create_directories((d + "/sub").toStdString());
        expectRefused({"dep-train"}, {"--train", t, "--out", d + "/sub/../train.conllu"}, "--out",
                      t);
        fs::create_symlink((d + "/train.conllu").toStdString(), (d + "/link.json").toStdString());
        expectRefused({"dep-train"}, {"--train", t, "--out", d + "/link.json"}, "--out", t);
        fs::create_directories((d + "/run").toStdString());
        file(d + "/run", "config.json");
        const QString log = file(d + "/run", "log.jsonl");
        fs::create_directory_symlink((d + "/run").toStdString(), (d + "/runlink").toStdString());
        expectRefused({"lols-plot"}, {d + "/run", "@runs", "--out", d + "/runlink/log.jsonl"},
                      "--out", log);
    }

    // Not refused: an output beside the inputs, "-" for stdout, a plot rewritten inside a run.
    void distinctOutputsStillRun() {
        const QString d = newDir();
        const QString run = d + "/run";
        fs::create_directories(run.toStdString());
        writeFileAtomically((run + "/config.json").toStdString(), "{}");
        writeFileAtomically((run + "/old.svg").toStdString(), "<svg/>");
        // lols-plot reads the run and fails on its config, not on the guard.
        const td::CliRun r = td::runCli({"lols-plot", run, "--out", run + "/old.svg"});
        QVERIFY2(!r.err.contains("refusing to overwrite"), qPrintable(r.err));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestOutputGuard)
#include "test_output_guard.moc"
