// prunescope-cli's command line as one interface (issue 43; docs/cli.md): --version from CMake's
// project version; "unknown subcommand X — did you mean Y?" and unknown flags named; the grouped
// help (<= 40 lines) and every command's --help within 100 columns without internal issue
// numbers; grouped spellings (`dep train`) running the same command as the old names; old flag
// spellings as hidden aliases with a deprecation note; docs/cli.md in step with --help; bash
// completion generated from the same definitions.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

namespace fs = std::filesystem;
using namespace prunescope;
using testdata::CliRun;
using testdata::runCli;

namespace {

QStringList textLines(const QString& text) {
    QStringList l = text.split('\n');
    if (!l.isEmpty() && l.back().isEmpty()) l.pop_back();
    return l;
}

// Each command of the top-level help as the user types it ("eval", "dep train").
QStringList helpCommands(const QString& help) {
    QStringList commands;
    static const QRegularExpression label("^(\\S+ +| {12})$");
    static const QRegularExpression command("^([a-z][a-z -]*[a-z])  ");
    for (const QString& line : textLines(help).mid(1)) {
        const auto m = command.match(line.mid(12));
        if (label.match(line.left(12)).hasMatch() && m.hasMatch()) commands << m.captured(1);
    }
    return commands;
}

// The long flags of a command's --help ("--max-len"), from its option lines.
std::set<QString> helpFlags(const QString& help) {
    std::set<QString> flags;
    static const QRegularExpression re("^\\s+(?:-\\w,)?(--[a-z0-9-]+)");
    for (const QString& line : textLines(help)) {
        const auto m = re.match(line);
        if (m.hasMatch() && m.captured(1) != "--help") flags.insert(m.captured(1));
    }
    return flags;
}

QString readTextFile(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

} // namespace

class TestCliInterface : public QObject {
    Q_OBJECT
    QString dir_, treebank_, grammar_;

  private slots:
    void initTestCase() {
        if (!QFile::exists(testdata::cliBinary())) QSKIP("prunescope-cli not built");
        dir_ = QString::fromStdString(testdata::tempDir("cli-interface"));
        treebank_ = QString::fromStdString(testdata::samplePath("sentences.mrg"));
        grammar_ = QString::fromStdString(testdata::samplePath("grammar.gram"));
    }

    // --version prints the version of CMakeLists.txt's project(... VERSION ...) and exits 0.
    void versionIsTheProjectVersion() {
        const QString cmake = readTextFile(testdata::sourceDir() + "/CMakeLists.txt");
        const auto m = QRegularExpression("project\\(PruneScope VERSION ([0-9.]+)").match(cmake);
        QVERIFY(m.hasMatch());
        const CliRun r = runCli({"--version"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.trimmed(), "prunescope-cli " + m.captured(1));
    }

    void unknownSubcommandsSuggest() {
        const std::map<QString, QString> cases = {{"evl", "'eval'"},
                                                  {"evaluate", "'eval'"},
                                                  {"dep-trian", "'dep-train'"},
                                                  {"bench-prase", "'bench-parse'"},
                                                  {"cub", "'cube'"}};
        for (const auto& [typed, suggestion] : cases) {
            const CliRun r = runCli({typed});
            QCOMPARE(r.exitCode, 2);
            QCOMPARE(textLines(r.err).size(), 1);
            QVERIFY2(r.err.startsWith("error: unknown subcommand '" + typed + "' — did you mean"),
                     qPrintable(r.err));
            QVERIFY2(r.err.contains(suggestion), qPrintable(r.err));
        }
        const CliRun grouped = runCli({"dep", "trian"});
        QCOMPARE(grouped.exitCode, 2);
        QVERIFY2(grouped.err.contains("unknown subcommand 'dep trian' — did you mean 'dep train'?"),
                 qPrintable(grouped.err));
        const CliRun far = runCli({"zzzzzzzz"});
        QCOMPARE(far.exitCode, 2);
        QVERIFY2(far.err.startsWith("error: unknown subcommand 'zzzzzzzz'"), qPrintable(far.err));
    }

    void unknownFlagsAreNamed() {
        const CliRun r = runCli({"eval", "--grammar", grammar_, "--max-lenn", "3"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(textLines(r.err).size(), 1);
        QVERIFY2(r.err.contains("unknown flag '--max-lenn' for 'eval' — did you mean '--max-len'?"),
                 qPrintable(r.err));
        const CliRun g = runCli({"dep", "eval", "--modle=x"});
        QCOMPARE(g.exitCode, 2);
        QVERIFY2(g.err.contains("unknown flag '--modle' for 'dep eval'"), qPrintable(g.err));
    }

    // A flag of the vocabulary that a command spells otherwise points to its spelling.
    void synonymFlagsPointToTheCommandsSpelling() {
        const CliRun r = runCli({"grammar", "--treebank", treebank_, "--out", dir_ + "/s.gram"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(
            r.err.contains("unknown flag '--treebank' for 'grammar' — did you mean '--train'?"),
            qPrintable(r.err));
        QVERIFY(!QFile::exists(dir_ + "/s.gram"));
    }

    // A bad flag value or combination found after parsing exits 2 (docs/cli.md, "Exit codes").
    void usageErrorsExit2() {
        const CliRun randomized = runCli({"randomized"});
        QCOMPARE(randomized.exitCode, 2);
        QVERIFY2(randomized.err.startsWith("error: randomized needs --grammar and --treebank"),
                 qPrintable(randomized.err));
        const CliRun lols = runCli({"lols"});
        QCOMPARE(lols.exitCode, 2);
        QVERIFY2(lols.err.startsWith("error: lols needs --grammar"), qPrintable(lols.err));
        const CliRun mask = runCli(
            {"bench-parse", "--grammar", grammar_, "--treebank", treebank_, "--mask", "bogus"});
        QCOMPARE(mask.exitCode, 2);
        QVERIFY2(mask.err.startsWith("error: --mask-kind must be all (or keep), gold or random:P"),
                 qPrintable(mask.err)); // the old spelling --mask still sets it
        // bench-parse's name for the keep-everything mask works in check-rollouts too.
        QStringList check{"check-rollouts", "--grammar",       grammar_, "--treebank",
                          treebank_,        "--max-len",       "8",      "--masks",
                          "keep,gold",      "--max-sentences", "2"};
        const CliRun keep = runCli(check);
        check[check.indexOf("keep,gold")] = "all,gold";
        const CliRun all = runCli(check);
        QCOMPARE(keep.exitCode, 0);
        QCOMPARE(all.exitCode, 0);
        QVERIFY2(all.out.contains("flips checked        108") &&
                     keep.out.section('\n', 2, 4) == all.out.section('\n', 2, 4),
                 qPrintable(keep.out + all.out));
        // A value a command refuses after parsing (std::invalid_argument) is bad input too: 2.
        const CliRun bucket = runCli(
            {"bench-rollouts", "--grammar", grammar_, "--treebank", treebank_, "--buckets", "5-1"});
        QCOMPARE(bucket.exitCode, 2);
        QVERIFY2(bucket.err.startsWith("error: bucket '5-1' is not lo-hi"), qPrintable(bucket.err));
        // CLI11's own refusals: one line, "error: " first, the range in short numbers.
        const CliRun range = runCli({"lols", "--grammar", grammar_, "--max-len", "5000"});
        QCOMPARE(range.exitCode, 2);
        QCOMPARE(
            range.err.trimmed(),
            QString("error: --max-len: 5000 is not in 1 to 4095 (prunescope-cli lols --help)"));
        const CliRun below =
            runCli({"eval", "--grammar", grammar_, "--treebank", treebank_, "--threads", "-1"});
        QCOMPARE(below.exitCode, 2);
        QVERIFY2(below.err.trimmed() ==
                     "error: --threads: -1 is not allowed: it must be at least 0 "
                     "(prunescope-cli eval --help)",
                 qPrintable(below.err));
        const CliRun missing = runCli({"eval", "--grammar", grammar_});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.count('\n') == 1 && missing.err.startsWith("error: --treebank"),
                 qPrintable(missing.err));
        const CliRun p = runCli({"bench-parse", "--grammar", grammar_, "--treebank", treebank_,
                                 "--mask-kind", "random:1.5"});
        QCOMPARE(p.exitCode, 2);
        QVERIFY2(p.err.startsWith("error: --mask-kind random:P needs a probability P in [0, 1]"),
                 qPrintable(p.err));
    }

    // The top-level help lists groups, one line per command, on one screen.
    void topLevelHelpIsGroupedAndShort() {
        const CliRun r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        const QStringList l = textLines(r.out);
        QVERIFY2(l.size() <= 42, qPrintable(QString::number(l.size()))); // 41 with vine complexity
        for (const char* group :
             {"CKY/LOLS", "dep", "vine", "filter", "cube", "randomized", "model"})
            QVERIFY2(l.filter(QRegularExpression("^" + QString(group) + "\\s")).size() == 1,
                     qPrintable(group));
        const QStringList commands = helpCommands(r.out);
        QCOMPARE(commands.size(), 40);
        QVERIFY(commands.contains("dep train") && commands.contains("randomized bench") &&
                commands.contains("eval") && commands.contains("cube bench"));
        // every command the CLI has is in the help (vine-complexity was not, at first): by its
        // own name or, grouped, as "group sub" whose `group sub --help` names it
        for (const QString& line : runCli({"list-commands"}).out.split('\n', Qt::SkipEmptyParts)) {
            const auto c = QJsonDocument::fromJson(line.toUtf8()).object()["command"].toArray();
            QCOMPARE(c.size(), 1);
            const QString name = c[0].toString();
            const bool listed =
                commands.contains(name) ||
                std::any_of(commands.begin(), commands.end(), [&](const QString& grouped) {
                    return grouped.contains(' ') &&
                           runCli(grouped.split(' ') + QStringList{"--help"})
                               .out.contains("prunescope-cli " + name + " ");
                });
            QVERIFY2(listed, qPrintable(name + " is not in prunescope-cli --help"));
        }
        const CliRun none = runCli({});
        QCOMPARE(none.exitCode, 2);
        QCOMPARE(none.err, r.out);
    }

    // Every help (top, group, command) fits in 100 columns and cites no internal issue number.
    void everyHelpFitsIn100Columns() {
        const QString top = runCli({"--help"}).out;
        QStringList helps{top};
        for (const char* group : {"dep", "vine", "filter", "cube", "randomized", "cky", "model"}) {
            const CliRun g = runCli({group, "--help"});
            QCOMPARE(g.exitCode, 0);
            helps << g.out;
        }
        for (const QString& command : helpCommands(top)) {
            const CliRun r = runCli(command.split(' ') + QStringList{"--help"});
            QVERIFY2(r.exitCode == 0, qPrintable(command + ": " + r.err));
            QVERIFY2(!helpFlags(r.out).empty(), qPrintable(command));
            helps << r.out;
        }
        static const QRegularExpression issue("[Ii]ssue \\d+");
        for (const QString& help : helps)
            for (const QString& line : textLines(help)) {
                QVERIFY2(line.size() <= 100,
                         qPrintable(QString("%1 columns: %2").arg(line.size()).arg(line)));
                QVERIFY2(!issue.match(line).hasMatch(), qPrintable(line));
            }
    }

    // `dep train` is dep-train, `randomized run` is randomized, `cky grammar` is grammar.
    void groupedSpellingsRunTheSameCommands() {
        QCOMPARE(runCli({"dep", "train", "--help"}).out, runCli({"dep-train", "--help"}).out);
        QCOMPARE(runCli({"randomized", "bench", "--help"}).out,
                 runCli({"bench-randomized", "--help"}).out);
        QCOMPARE(runCli({"randomized", "run", "--help"}).out, runCli({"randomized", "--help"}).out);
        const QString a = dir_ + "/grouped.gram", b = dir_ + "/flat.gram";
        QCOMPARE(runCli({"cky", "grammar", "--train", treebank_, "--out", a}).exitCode, 0);
        QCOMPARE(runCli({"grammar", "--train", treebank_, "--out", b}).exitCode, 0);
        QCOMPARE(readTextFile(a.toStdString()), readTextFile(b.toStdString()));
        QVERIFY(!readTextFile(a.toStdString()).isEmpty());
    }

    // Old spellings still work, hidden from --help, with a one-line deprecation note.
    void oldFlagSpellingsAreDeprecatedAliases() {
        const QString a = dir_ + "/old.gram", b = dir_ + "/new.gram", all = dir_ + "/all.gram";
        const CliRun old =
            runCli({"grammar", "--train", treebank_, "--max-trees", "2", "--out", a});
        QCOMPARE(old.exitCode, 0);
        QVERIFY2(!old.err.contains("deprecated"), qPrintable(old.err)); // scripts see no change
        // At a terminal (script(1) gives the command a pty) the old spelling gets a note.
        QProcess pty;
        pty.start("script", {"-qec",
                             testdata::cliBinary() + " grammar --train " + treebank_ +
                                 " --max-trees 2 --out " + dir_ + "/pty.gram",
                             "/dev/null"});
        QVERIFY(pty.waitForFinished(60000));
        const QString terminal = QString::fromUtf8(pty.readAllStandardOutput());
        QVERIFY2(terminal.contains("note: --max-trees is deprecated; use --max-sentences"),
                 qPrintable(terminal));
        const CliRun now =
            runCli({"grammar", "--train", treebank_, "--max-sentences", "2", "--out", b});
        QCOMPARE(now.exitCode, 0);
        QVERIFY2(!now.err.contains("deprecated"), qPrintable(now.err));
        QCOMPARE(runCli({"grammar", "--train", treebank_, "--out", all}).exitCode, 0);
        QCOMPARE(readTextFile(a.toStdString()), readTextFile(b.toStdString()));
        QVERIFY(readTextFile(a.toStdString()) != readTextFile(all.toStdString()));

        const std::vector<std::pair<QString, std::pair<QString, QString>>> renamed = {
            {"bench-parse", {"--repeat", "--repeats"}},
            {"bench-features", {"--repeat", "--repeats"}},
            {"bench-randomized", {"--passes", "--repeats"}},
            {"randomized", {"--limit", "--max-sentences"}},
            {"regret", {"--limit", "--max-sentences"}},
            {"check-rollouts", {"--limit", "--max-sentences"}},
            {"baseline", {"--train-sentences", "--max-train-sentences"}},
            {"lols", {"--train-limit", "--max-train-sentences"}},
            {"randomized-em", {"--train-max-len", "--max-train-len"}},
            {"cube-bench", {"--beams", "--beam"}},
            {"compare", {"--json", "--out-json"}},
            {"baseline", {"--dev-max-len", "--max-dev-len"}},
            {"baseline", {"--max-iterations", "--lbfgs-max-iterations"}},
            {"bench-features", {"--max-iterations", "--lbfgs-max-iterations"}},
            {"frontier", {"--svg", "--out-svg"}},
            {"cube-train", {"--dev-max-len", "--max-dev-len"}},
            {"randomized-em", {"--dev-max-len", "--max-dev-len"}},
            {"lols", {"--dev-limit", "--max-dev-sentences"}},
            {"randomized", {"--plot", "--out-svg"}},
            {"bench-randomized", {"--tolerance", "--length-tolerance"}},
            {"check-rollouts", {"--tolerance", "--max-relative-error"}},
            {"vine-train", {"--tolerance", "--cascade-tolerance"}},
            {"dep-parse", {"--mask", "--mask-file"}},
            {"cube-parse", {"--mask", "--mask-file"}},
            {"bench-parse", {"--mask", "--mask-kind"}}};
        for (const auto& [command, names] : renamed) {
            const CliRun help = runCli({command, "--help"});
            const std::set<QString> flags = helpFlags(help.out);
            QVERIFY2(flags.count(names.second) == 1, qPrintable(command + " " + names.second));
            QVERIFY2(flags.count(names.first) == 0, qPrintable(command + " " + names.first));
            // Accepted (not an unknown flag): --help after it still prints the help.
            QCOMPARE(runCli({command, names.first, "1", "--help"}).exitCode, 0);
        }
    }

    // randomized's --out-json FILE writes what --json prints, and the table still goes to stdout.
    void randomizedOutJson() {
        const QStringList base{"randomized", "--grammar",       grammar_, "--treebank",
                               treebank_,    "--max-len",       "12",     "--iterations",
                               "2",          "--max-sentences", "2",      "--permutations",
                               "10"};
        const CliRun printed = runCli(base + QStringList{"--json"});
        QCOMPARE(printed.exitCode, 0);
        const QString file = dir_ + "/randomized.json";
        const CliRun written = runCli(base + QStringList{"--out-json", file});
        QCOMPARE(written.exitCode, 0);
        QVERIFY2(written.out.startsWith("sentences 2"), qPrintable(written.out));
        const auto a = QJsonDocument::fromJson(printed.out.toUtf8());
        const auto b = QJsonDocument::fromJson(readTextFile(file.toStdString()).toUtf8());
        QVERIFY(a.isObject() && a.object().contains("biasL1"));
        QCOMPARE(a, b);
    }

    // docs/cli.md names every command and flag of --help, and no flag a command does not have.
    void docsAreInStepWithHelp() {
        const QString doc = readTextFile(testdata::sourceDir() + "/docs/cli.md");
        QVERIFY(!doc.isEmpty());
        // Sections "### `dep train` (`dep-train`)", each with a line "Flags: `--a`, `--b`".
        std::map<QString, std::set<QString>> documented;
        QString current;
        static const QRegularExpression heading("^### `([a-z -]+)`");
        static const QRegularExpression flag("`(--[a-z0-9-]+)`");
        for (const QString& line : textLines(doc)) {
            const auto h = heading.match(line);
            if (h.hasMatch()) {
                current = h.captured(1);
                documented[current];
                continue;
            }
            if (current.isEmpty() || !line.startsWith("Flags:")) continue;
            for (auto it = flag.globalMatch(line); it.hasNext();)
                documented[current].insert(it.next().captured(1));
        }
        const QStringList commands = helpCommands(runCli({"--help"}).out);
        QCOMPARE(documented.size(), static_cast<std::size_t>(commands.size()));
        for (const QString& command : commands) {
            QVERIFY2(documented.count(command) == 1, qPrintable("not in docs/cli.md: " + command));
            const std::set<QString> flags =
                helpFlags(runCli(command.split(' ') + QStringList{"--help"}).out);
            for (const QString& f : flags)
                QVERIFY2(documented[command].count(f) == 1,
                         qPrintable(command + " " + f + ": not in docs/cli.md"));
            for (const QString& f : documented[command])
                QVERIFY2(flags.count(f) == 1,
                         qPrintable(command + " " + f + ": in docs/cli.md, not in --help"));
        }
        for (const char* code : {"| 0 ", "| 1 ", "| 2 ", "| 130 "})
            QVERIFY2(doc.contains(code), qPrintable(code));
    }

    // The bash completion completes groups, grouped commands and visible flags only.
    void bashCompletion() {
        const CliRun script = runCli({"completion", "bash"});
        QCOMPARE(script.exitCode, 0);
        const QString path = dir_ + "/completion.bash";
        writeFileAtomically(path.toStdString(), script.out.toStdString());
        auto complete = [&](const QString& words) {
            QProcess p;
            const QString n = QString::number(words.split(' ').size() - 1);
            p.start("bash", {"-c", "source " + path + "; COMP_WORDS=(" + words + "); COMP_CWORD=" +
                                       n + "; _prunescope_cli; echo \"${COMPREPLY[*]}\""});
            p.waitForFinished(20000);
            return QString::fromUtf8(p.readAllStandardOutput()).trimmed().split(' ');
        };
        QVERIFY(complete("prunescope-cli de").contains("dep"));
        QCOMPARE(complete("prunescope-cli dep tr"), QStringList{"train"});
        QVERIFY(complete("prunescope-cli dep train --de").contains("--dev"));
        const QStringList repeats = complete("prunescope-cli bench-parse --rep");
        QVERIFY2(repeats.contains("--repeats") && !repeats.contains("--repeat"),
                 qPrintable(repeats.join(' ')));
        QVERIFY(complete("prunescope-cli randomized bench --rep").contains("--repeats"));
        QVERIFY(complete("prunescope-cli completion ").contains("zsh"));
        const CliRun zsh = runCli({"completion", "zsh"});
        QCOMPARE(zsh.exitCode, 0);
        QVERIFY(zsh.out.startsWith("#compdef prunescope-cli") && zsh.out.contains("bashcompinit"));
        if (!QStandardPaths::findExecutable("zsh").isEmpty()) { // registered, and it completes
            const QString zshPath = dir_ + "/completion.zsh";
            writeFileAtomically(zshPath.toStdString(), zsh.out.toStdString());
            QProcess p;
            p.start("zsh", {"-fc", "autoload -U compinit; compinit -u; source " + zshPath +
                                       "; echo ${_comps[prunescope-cli]}; emulate sh -c "
                                       "'COMP_WORDS=(prunescope-cli dep tr); COMP_CWORD=2; "
                                       "_prunescope_cli; echo ${COMPREPLY[*]}'"});
            QVERIFY(p.waitForFinished(30000));
            const QStringList got = textLines(QString::fromUtf8(p.readAllStandardOutput()));
            QCOMPARE(got.size(), 2);
            QVERIFY2(got[0].contains("_prunescope_cli"), qPrintable(got[0]));
            QVERIFY2(got[1].split(' ').contains("train"), qPrintable(got[1]));
        }
        QCOMPARE(runCli({"completion", "fish"}).exitCode, 2);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestCliInterface)
#include "test_cli_interface.moc"
