// prunescope-cli lols-plot (issue 16's learning curves): two short real LOLS runs (rDP and rCP on
// the PTB sample) drawn as one panel per surrogate, a curve per run with a point per committed
// iteration starting at iteration 0, the early-stopped iteration ringed and the values those of
// log.jsonl; bad input (not a run directory, a run with no iteration yet) is one clear error.
#include "core/lols/RunDirectory.h"
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QRegularExpression>

#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;
using namespace prunescope;

namespace {

QString samples(const char* file) {
    return QString::fromStdString(testdata::sourceDir()) + "/samples/" + file;
}

QStringList lolsArgs(const QString& surrogate, const QString& out) {
    return {"lols",
            "--grammar",
            samples("grammar.gram"),
            "--init",
            samples("policies/baseline-w16.json"),
            "--surrogate",
            surrogate,
            "--lambda",
            surrogate == "rdp" ? "0.002" : "0.0001",
            "--train",
            QString::fromStdString(testdata::ptbDir("train")),
            "--dev",
            QString::fromStdString(testdata::ptbDir("dev")),
            "--max-len",
            "15",
            "--train-limit",
            "30",
            "--dev-limit",
            "10",
            "--minibatch",
            "10",
            "--iterations",
            "2",
            "--q0-scale",
            "0.01",
            "--threads",
            "1",
            "--out",
            out,
            "--quiet"};
}

} // namespace

class TestLolsPlotCli : public QObject {
    Q_OBJECT
  private slots:
    void drawsTheLearningCurvesOfRealRuns() {
        const fs::path tmp = testdata::tempDir("lols-plot");
        const QString rdp = QString::fromStdString((tmp / "alpha-rdp").string()),
                      rcp = QString::fromStdString((tmp / "beta-rcp").string());
        for (const auto& [s, dir] :
             {std::pair{QString("rdp"), rdp}, std::pair{QString("rcp"), rcp}}) {
            const auto r = testdata::runCli(lolsArgs(s, dir));
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        const QString svg = QString::fromStdString((tmp / "curves.svg").string());
        const auto r =
            testdata::runCli({"lols-plot", rdp, rcp, "--out", svg, "--quantity", "reward"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("2 panels, 2 curves"));
        const QString text = QString::fromStdString(readFile(svg.toStdString()));
        QCOMPARE(text.count("<g class=\"panel\""), 2);
        QVERIFY(text.contains("surrogate rdp") && text.contains("surrogate rcp"));
        QVERIFY(text.contains("LOLS iteration"));
        // One point per committed iteration, labelled from iteration 0, with the logged dev reward.
        for (const QString& dir : {rdp, rcp}) {
            const RunDirectorySnapshot snap = readRunDirectory(dir.toStdString());
            QCOMPARE(static_cast<int>(snap.log.size()), 3);
            const QString label =
                dir == rdp ? "alpha" : "beta"; // the surrogate dropped from the name in its panel
            QCOMPARE(text.count(QString("data-label=\"%1\"").arg(label)), 1);
            for (const LolsIterationRecord& rec : snap.log) {
                const QRegularExpression point(
                    QString("<title>%1, LOLS iteration = %2: ([-0-9.e]+)</title>")
                        .arg(label)
                        .arg(rec.iteration));
                const auto m = point.match(text);
                QVERIFY2(m.hasMatch(), qPrintable(point.pattern()));
                QVERIFY(std::abs(m.captured(1).toDouble() - rec.dev.reward) < 1e-3);
            }
        }
        QCOMPARE(text.count("r=\"6.5\""), 2); // each run's early-stopped iteration
        // reward-gain (the default) starts every curve at 0.
        const auto g = testdata::runCli({"lols-plot", rdp, "--out", svg, "--panels", "run"});
        QVERIFY2(g.exitCode == 0, qPrintable(g.err));
        QVERIFY(QString::fromStdString(readFile(svg.toStdString()))
                    .contains("alpha-rdp, LOLS iteration = 0: 0<"));
    }

    void badInputIsOneClearError() {
        const fs::path tmp = testdata::tempDir("lols-plot-bad");
        const QString svg = QString::fromStdString((tmp / "x.svg").string());
        const auto notRun =
            testdata::runCli({"lols-plot", QString::fromStdString(tmp.string()), "--out", svg});
        QVERIFY(notRun.exitCode != 0 && !notRun.crashed);
        QVERIFY2(notRun.err.contains("config.json"), qPrintable(notRun.err));
        // A run directory with its config but no committed iteration yet.
        const fs::path empty = tmp / "empty-run";
        fs::create_directories(empty);
        const auto src = testdata::tempDir("lols-plot-src");
        const auto made = testdata::runCli(
            lolsArgs("rdp", QString::fromStdString((fs::path(src) / "run").string())));
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        fs::copy_file(fs::path(src) / "run" / "config.json", empty / "config.json");
        const auto noLog =
            testdata::runCli({"lols-plot", QString::fromStdString(empty.string()), "--out", svg});
        QVERIFY(noLog.exitCode != 0 && !noLog.crashed);
        QVERIFY2(noLog.err.contains("log.jsonl") && noLog.err.contains("no committed iteration"),
                 qPrintable(noLog.err));
        QVERIFY(!fs::exists(svg.toStdString()));
    }
};

PRUNESCOPE_QTEST_MAIN(TestLolsPlotCli)
#include "test_lols_plot_cli.moc"
