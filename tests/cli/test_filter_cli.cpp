// prunescope-cli's arc-filter commands on real data (issue 13, "interface the acceptance checks
// use"): filter-train --kind independent|joint writes a filter whose operating point reaches the
// coverage target on dev; filter-eval --json prints coverage and reduction (fractions) and the
// curve; dep-eval --filter puts the filter stage in front of the parse; a bad filter file is an
// error naming FILE:LINE.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QFile>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

using Run = prunescope::testdata::CliRun;
using prunescope::testdata::cliBinary;
using prunescope::testdata::runCli;

class TestFilterCli : public QObject {
    Q_OBJECT
    QString dir_, dev_, train_;

  private slots:
    void initTestCase() {
        if (!QFile::exists(cliBinary())) QSKIP("prunescope-cli not built");
        dir_ = QString::fromStdString(prunescope::testdata::tempDir("filter-cli"));
        dev_ = QString::fromStdString(prunescope::testdata::depDir("dev"));
        train_ = dev_; // small and fast; the experiments train on train (docs/results.md)
    }
    void trainEvaluateBothKinds() {
        for (const QString kind : {"independent", "joint"}) {
            const QString out = dir_ + "/" + kind + ".json";
            const Run t = runCli({"filter-train", "--kind", kind, "--train", train_, "--dev", dev_,
                                  "--out", out, "--hash-bits", "16", "--max-len", "20",
                                  "--alternations", "2", "--solver-iterations", "10", "--quiet"});
            QVERIFY2(t.exitCode == 0, qPrintable(t.err));
            const Run e = runCli({"filter-eval", "--filter", out, "--treebank", dev_, "--coverage",
                                  "0.995", "--curve", "--json", "--quiet"});
            QVERIFY2(e.exitCode == 0, qPrintable(e.err));
            const auto j = nlohmann::json::parse(e.out.toStdString());
            for (const char* k : {"coverage", "reduction", "threshold", "sentences", "goldArcs",
                                  "arcs", "curve", "atCoverage"})
                QVERIFY2(j.contains(k), k);
            const double cov = j["coverage"], red = j["reduction"];
            QVERIFY2(cov >= 0.995 && cov <= 1.0,
                     qPrintable(QString::number(cov))); // chosen on this very dev set
            QVERIFY2(red > 0.2 && red < 1.0, qPrintable(QString::number(red)));
            QCOMPARE(j["sentences"].get<int>(), 319);
            QCOMPARE(j["arcsFiltered"].get<long>(),
                     static_cast<long>(std::llround(red * j["arcs"].get<double>())));
            QCOMPARE(j["kind"].get<std::string>(), kind.toStdString());
            QVERIFY(j["curve"].size() >= 10);
        }
    }
    void depEvalWithFilter() {
        const QString model = dir_ + "/model.json";
        const Run t =
            runCli({"dep-train", "--train", train_, "--dev", dev_, "--out", model, "--epochs", "1",
                    "--max-len", "15", "--hash-bits", "16", "--learner", "perceptron", "--quiet"});
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        const QString filter = dir_ + "/joint.json";
        QVERIFY(QFile::exists(filter));
        const Run e = runCli({"dep-eval", "--model", model, "--treebank", dev_, "--filter", filter,
                              "--max-len", "25", "--json", "--quiet"});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        const auto j = nlohmann::json::parse(e.out.toStdString());
        QCOMPARE(j["stages"].size(), std::size_t(1));
        QCOMPARE(j["stages"][0]["stage"].get<std::string>(), std::string("filter"));
        QVERIFY(j["finalArcsFraction"].get<double>() < 0.8);
        QVERIFY(j["uas"].get<double>() > 30);
    }
    // filter-compare (paired tests, Holm) and filter-plot on the two filters trained above.
    void compareAndPlot() {
        const QString joint = dir_ + "/joint.json", independent = dir_ + "/independent.json";
        QVERIFY(QFile::exists(joint) && QFile::exists(independent));
        const Run c =
            runCli({"filter-compare", "--pair", joint + "," + independent, "--pair",
                    joint + "," + joint, "--treebank", dev_, "--permutations", "1000", "--quiet"});
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        const auto j = nlohmann::json::parse(c.out.toStdString());
        QCOMPARE(j["sentences"].get<int>(), 319);
        const auto& rows = j["comparisons"];
        QCOMPARE(rows.size(), std::size_t(2));
        // each side's coverage and reduction are filter-eval's at the filter's operating point
        for (const auto& [key, file] : {std::pair{"A", joint}, std::pair{"B", independent}}) {
            const Run e =
                runCli({"filter-eval", "--filter", file, "--treebank", dev_, "--json", "--quiet"});
            QVERIFY2(e.exitCode == 0, qPrintable(e.err));
            const auto ej = nlohmann::json::parse(e.out.toStdString());
            QCOMPARE(rows[0][std::string("coverage") + key].get<double>(),
                     ej["coverage"].get<double>());
            QCOMPARE(rows[0][std::string("reduction") + key].get<double>(),
                     ej["reduction"].get<double>());
        }
        for (const auto& r : rows) {
            QVERIFY(r["pReductionHolm"].get<double>() >= r["pReduction"].get<double>());
            QVERIFY(r["pCoverageHolm"].get<double>() >= r["pCoverage"].get<double>());
        }
        QCOMPARE(rows[1]["pReduction"].get<double>(), 1.0); // a filter against itself
        QCOMPARE(rows[1]["relativeReductionGain"].get<double>(), 0.0);
        // no sentence to evaluate: an error naming the treebank, not coverage 1.0000
        prunescope::testdata::expectCliError(runCli({"filter-eval", "--filter", joint, "--treebank",
                                                     dev_, "--max-len", "1", "--quiet"}),
                                             dev_ + ": no sentence within --max-len 1 to evaluate");
        const Run bad = runCli({"filter-compare", "--pair", joint, "--treebank", dev_, "--quiet"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.startsWith("error: --pair: expected A,B"), qPrintable(bad.err));

        const QString svg = dir_ + "/curves.svg";
        const Run p = runCli({"filter-plot", "--filter", "independent=" + independent, "--filter",
                              "joint=" + joint, "--treebank", dev_, "--out", svg, "--quiet"});
        QVERIFY2(p.exitCode == 0, qPrintable(p.err));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.startsWith("<svg") && text.contains(">independent<") &&
                text.contains(">joint<"));
        QCOMPARE(text.count("class=\"operating-point\""), 2);
        // tick labels are percentages a coverage or a reduction can take
        const QRegularExpression tick(R"re(text-anchor="(?:middle|end)">(-?[0-9.]+)</text>)re");
        int ticks = 0;
        for (auto it = tick.globalMatch(text); it.hasNext();) {
            const double v = it.next().captured(1).toDouble();
            QVERIFY2(v >= 0 && v <= 100, qPrintable(QString::number(v)));
            ++ticks;
        }
        QVERIFY(ticks >= 6);
    }
    void badFilterFileIsAnError() {
        const QString bad = dir_ + "/bad.json";
        prunescope::writeFileAtomically(
            bad.toStdString(),
            "{\n  \"format\": \"prunescope-arc-filter\",\n  \"version\": 2\n}\n");
        const Run e = runCli({"filter-eval", "--filter", bad, "--treebank", dev_, "--json"});
        QCOMPARE(e.exitCode, 2);
        QVERIFY2(e.err.startsWith("error: " + bad + ":3"), qPrintable(e.err));
        QVERIFY2(e.err.contains("version"), qPrintable(e.err));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFilterCli)
#include "test_filter_cli.moc"
