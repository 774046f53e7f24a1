// prunescope-cli inspect-cell as a user runs it (issue 42, the Inspect action's command-line
// twin): on a WSJ dev sentence under a mask file, the JSON of several cells equals the core
// inspection of the parser's own chart (labels, scores, best-parse marks, best subtree); the text
// form lists the same; bad spans, masks and indices exit 2 with one line naming the flag or file.
#include "core/grammar/GrammarFile.h"
#include "core/parse/CellInspection.h"
#include "core/parse/Parser.h"
#include "core/treebank/Normalize.h"
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using namespace prunescope;
using Run = testdata::CliRun;

class TestInspectCellCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString grammar() const {
        return QString::fromStdString(testdata::sourceDir() + "/samples/grammar.gram");
    }
    QString dev() const { return QString::fromStdString(testdata::ptbDir("dev")); }

  private slots:
    void jsonEqualsTheCoreInspectionOfTheParsersChart() {
        const Grammar g = loadGrammar(grammar().toStdString());
        const auto trees = readNormalizedTreebank(dev().toStdString(), 4);
        const std::vector<std::string> w = trees.at(3).words();
        const int n = static_cast<int>(w.size());
        QVERIFY(n >= 8);
        PruningMask m = PruningMask::allKeep(n);
        m.set(0, 2, false);
        m.set(3, 6, false);
        const QString maskPath = dir_.filePath("mask.json");
        writeFileAtomically(maskPath.toStdString(), m.toJson().dump());
        Parser parser(g);
        parser.parse(w, &m);
        const DenseChart chart = toDense(parser.chart());
        int compared = 0;
        for (const auto& [i, k] : std::vector<std::pair<int, int>>{
                 {0, 1}, {0, 2}, {3, 6}, {2, 5}, {0, n}, {n - 2, n}, {1, n - 1}}) {
            const Run r = testdata::runCli({"inspect-cell", "--grammar", grammar(), "--treebank",
                                            dev(), "--sentence", "4", "--mask-file", maskPath,
                                            "--span", QString("%1,%2").arg(i).arg(k), "--json"});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
            const CellInspection c = inspectCell(g, chart, w, i, k);
            QCOMPARE(j["span"], (nlohmann::json{i, k}));
            QCOMPARE(j["kept"].get<bool>(), m.keep(i, k));
            QCOMPARE(j["labels"].size(), c.labels.size());
            for (std::size_t r2 = 0; r2 < c.labels.size(); ++r2) {
                QCOMPARE(j["labels"][r2]["symbol"].get<std::string>(), c.labels[r2].name);
                QCOMPARE(j["labels"][r2]["score"].get<float>(), c.labels[r2].post);
                QCOMPARE(j["labels"][r2]["onBest"].get<bool>(), c.labels[r2].onBest);
            }
            if (c.labels.empty())
                QVERIFY(j["bestSubtree"].is_null());
            else
                QCOMPARE(j["bestSubtree"].get<std::string>(), c.bestSubtree.toString());
            compared += static_cast<int>(c.labels.size());
        }
        QVERIFY(compared > 50);
        // The pruned spans build nothing; the text form names the status and the best subtree.
        const Run text =
            testdata::runCli({"inspect-cell", "--grammar", grammar(), "--treebank", dev(),
                              "--sentence", "4", "--span", "0,2", "--top", "3"});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains("status      kept") && text.out.contains("best subtree (") &&
                     text.out.contains("more (--top)"),
                 qPrintable(text.out));
    }

    void badInputExitsTwoNamingTheFlagOrFile() {
        const QStringList base{"inspect-cell", "--grammar", grammar(), "--words", "the cat"};
        testdata::expectCliError(testdata::runCli(base + QStringList{"--span", "0,3"}),
                                 "--span 0,3", 2);
        testdata::expectCliError(testdata::runCli(base + QStringList{"--span", "1-2"}), "--span",
                                 2);
        const QString missing = dir_.filePath("missing.json");
        testdata::expectCliError(
            testdata::runCli(base + QStringList{"--span", "0,2", "--mask-file", missing}), missing,
            2);
        const QString wrong = dir_.filePath("wrong.json");
        writeFileAtomically(wrong.toStdString(), PruningMask::allKeep(5).toJson().dump());
        testdata::expectCliError(
            testdata::runCli(base + QStringList{"--span", "0,2", "--mask-file", wrong}), wrong, 2);
        testdata::expectCliError(
            testdata::runCli({"inspect-cell", "--grammar", grammar(), "--treebank", dev(),
                              "--sentence", "999999", "--span", "0,1"}),
            dev(), 2);
        testdata::expectCliError(
            testdata::runCli({"inspect-cell", "--grammar", grammar(), "--span", "0,1"}),
            "inspect-cell needs --words or --treebank", 2);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestInspectCellCli)
#include "test_inspect_cell_cli.moc"
