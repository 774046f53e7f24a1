// prunescope-cli vine-complexity as a user runs it (issue 41, empirical complexity): on WSJ dev
// sentences of 10-40 words with the bundled first-order model, exhaustively and behind the
// length-only vine; Eisner's pushes grow as n^3 (the fitted push exponent is within 0.3 of 3)
// and the vine's grow more slowly; --also adds an earlier run's series to the figure; a bad
// --also file names file:line.
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace td = prunescope::testdata;

namespace {

QString model() {
    return QString::fromStdString(td::sourceDir()) + "/samples/dep/model.json";
}

td::CliRun complexity(const QStringList& args) {
    td::CliRunOptions o;
    o.timeoutMs = 300000;
    return td::runCli(QStringList{"vine-complexity"} + args, o);
}

} // namespace

class TestVineComplexityCli : public QObject {
    Q_OBJECT
  private slots:
    void fitsAndFigure() {
        const std::string dir = td::tempDir("vine-complexity-cli");
        const QString json = QString::fromStdString(dir + "/run.json");
        const QString svg = QString::fromStdString(dir + "/run.svg");
        const td::CliRun r = complexity(
            {"--model", model(), "--treebank", QString::fromStdString(td::depDir("dev")),
             "--min-len", "10", "--max-len", "40", "--max-sentences", "60", "--repeats", "2",
             "--length-vine", "3", "--out-json", json, "--out-svg", svg, "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("exhaustive, 1st order"), qPrintable(r.out));
        const auto j = nlohmann::json::parse(prunescope::readFile(json.toStdString()));
        QCOMPARE(j["series"].size(), std::size_t(2));
        const auto& ex = j["series"][0];
        const auto& vine = j["series"][1];
        QCOMPARE(ex["sentences"].get<int>(), 60);
        QCOMPARE(ex["points"].size(), std::size_t(60));
        for (const auto& p : ex["points"]) {
            QVERIFY(p[0].get<int>() >= 10 && p[0].get<int>() <= 40);
            QVERIFY(p[1].get<double>() > 0);
        }
        const double pushExp = ex["pushExponent"].get<double>();
        QVERIFY2(std::abs(pushExp - 3) < 0.3, qPrintable(QString::number(pushExp)));
        QVERIFY(vine["pushExponent"].get<double>() < pushExp);
        QVERIFY(vine["arcsKeptFraction"].get<double>() < 0.5);
        QVERIFY(std::isfinite(ex["exponent"].get<double>()));
        const std::string figure = prunescope::readFile(svg.toStdString());
        QVERIFY(figure.find("class=\"fit\" data-label=\"exhaustive, 1st order\"") !=
                std::string::npos);
        // the earlier run's series join this one's
        const QString both = QString::fromStdString(dir + "/both.json");
        const td::CliRun r2 =
            complexity({"--model", model(), "--treebank", QString::fromStdString(td::depDir("dev")),
                        "--min-len", "10", "--max-len", "20", "--max-sentences", "10", "--repeats",
                        "1", "--label", "again", "--also", json, "--out-json", both, "--quiet"});
        QVERIFY2(r2.exitCode == 0, qPrintable(r2.err));
        const auto k = nlohmann::json::parse(prunescope::readFile(both.toStdString()));
        QCOMPARE(k["series"].size(), std::size_t(3));
        QCOMPARE(k["series"][0]["pushExponent"].get<double>(), pushExp);
        QCOMPARE(k["series"][2]["label"].get<std::string>(), std::string("exhaustive, again"));
    }

    void badInput() {
        const std::string dir = td::tempDir("vine-complexity-bad");
        prunescope::writeFileAtomically(dir + "/bad.json",
                                        "{\"format\": \"prunescope-complexity\",\n \"series\": [\n "
                                        "{\"label\": \"x\", \"uas\": 1}]}\n");
        td::expectCliError(
            complexity({"--model", model(), "--treebank", QString::fromStdString(td::depDir("dev")),
                        "--also", QString::fromStdString(dir + "/bad.json")}),
            QString::fromStdString(dir + "/bad.json:3"), 2);
        td::expectCliError(
            complexity({"--model", model(), "--treebank", QString::fromStdString(td::depDir("dev")),
                        "--min-len", "30", "--max-len", "20"}),
            "--min-len", 2);
        td::expectCliError(
            complexity({"--model", model(), "--treebank", QString::fromStdString(td::depDir("dev")),
                        "--min-len", "400", "--max-len", "500"}),
            QString::fromStdString(td::depDir("dev")) + ": no sentence of 400", 2);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestVineComplexityCli)
#include "test_vine_complexity_cli.moc"
