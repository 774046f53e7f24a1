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
        train_ = dev_;  // small and fast; the experiments train on train (docs/results.md)
    }
    void trainEvaluateBothKinds() {
        for (const QString kind : {"independent", "joint"}) {
            const QString out = dir_ + "/" + kind + ".json";
            const Run t = runCli({"filter-train", "--kind", kind, "--train", train_, "--dev", dev_, "--out", out, "--hash-bits", "16",
                               "--max-len", "20", "--alternations", "2", "--solver-iterations", "10", "--quiet"});
            QVERIFY2(t.exitCode == 0, qPrintable(t.err));
            const Run e = runCli({"filter-eval", "--filter", out, "--treebank", dev_, "--coverage", "0.995", "--curve", "--json", "--quiet"});
            QVERIFY2(e.exitCode == 0, qPrintable(e.err));
            const auto j = nlohmann::json::parse(e.out.toStdString());
            for (const char* k : {"coverage", "reduction", "threshold", "sentences", "goldArcs", "arcs", "curve", "atCoverage"})
                QVERIFY2(j.contains(k), k);
            const double cov = j["coverage"], red = j["reduction"];
            QVERIFY2(cov >= 0.995 && cov <= 1.0, qPrintable(QString::number(cov)));  // chosen on this very dev set
            QVERIFY2(red > 0.2 && red < 1.0, qPrintable(QString::number(red)));
            QCOMPARE(j["sentences"].get<int>(), 319);
            QCOMPARE(j["arcsFiltered"].get<long>(), static_cast<long>(std::llround(red * j["arcs"].get<double>())));
            QCOMPARE(j["kind"].get<std::string>(), kind.toStdString());
            QVERIFY(j["curve"].size() >= 10);
        }
    }
    void depEvalWithFilter() {
        const QString model = dir_ + "/model.json";
        const Run t = runCli({"dep-train", "--train", train_, "--dev", dev_, "--out", model, "--epochs", "1", "--max-len", "15",
                           "--hash-bits", "16", "--learner", "perceptron", "--quiet"});
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        const QString filter = dir_ + "/joint.json";
        QVERIFY(QFile::exists(filter));
        const Run e = runCli({"dep-eval", "--model", model, "--treebank", dev_, "--filter", filter, "--max-len", "25", "--json", "--quiet"});
        QVERIFY2(e.exitCode == 0, qPrintable(e.err));
        const auto j = nlohmann::json::parse(e.out.toStdString());
        QCOMPARE(j["stages"].size(), std::size_t(1));
        QCOMPARE(j["stages"][0]["stage"].get<std::string>(), std::string("filter"));
        QVERIFY(j["finalArcsFraction"].get<double>() < 0.8);
        QVERIFY(j["uas"].get<double>() > 30);
    }
    void badFilterFileIsAnError() {
        const QString bad = dir_ + "/bad.json";
        prunescope::writeFileAtomically(bad.toStdString(), "{\n  \"format\": \"prunescope-arc-filter\",\n  \"version\": 2\n}\n");
        const Run e = runCli({"filter-eval", "--filter", bad, "--treebank", dev_, "--json"});
        QCOMPARE(e.exitCode, 2);
        QVERIFY2(e.err.startsWith("error: " + bad + ":3"), qPrintable(e.err));
        QVERIFY2(e.err.contains("version"), qPrintable(e.err));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFilterCli)
#include "test_filter_cli.moc"
