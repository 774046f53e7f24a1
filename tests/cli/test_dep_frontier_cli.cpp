// prunescope-cli dep-frontier as a user runs it (issue 13: one frontier for the dependency mode):
// on real inputs made here from the shared data (a small second-order model and vine cascade,
// vine-frontier on one dev file; dep-eval of the bundled first-order model exhaustively and behind
// the length-only vine), the combined JSON holds every input point with the input's numbers, each
// series names its model and has its exhaustive reference, and the SVG draws them all on one plot;
// vine-frontier and filter-frontier draw with the same writer; bad inputs are named by file.
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QFile>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

using prunescope::testdata::cliBinary;
using prunescope::testdata::CliRun;
using prunescope::testdata::runCli;

nlohmann::json readJson(const QString& path) {
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in);
}

void writeText(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

int countOf(const QString& text, const QString& what) {
    return text.count(what);
}

} // namespace

class TestDepFrontierCli : public QObject {
    Q_OBJECT
    QString dir_, dev_, vineJson_, evalNone_, evalVine_, model1_;

  private slots:
    void initTestCase() {
        if (!QFile::exists(cliBinary())) QSKIP("prunescope-cli not built");
        const std::string dir = prunescope::testdata::tempDir("dep-frontier-cli");
        dir_ = QString::fromStdString(dir);
        fs::create_directories(dir +
                               "/train"); // links to the first 6 training files (nothing copied)
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(prunescope::testdata::depDir("train")))
            files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (std::size_t i = 0; i < 6 && i < files.size(); ++i)
            fs::create_symlink(files[i], dir + "/train/" + files[i].filename().string());
        std::vector<fs::path> devFiles;
        for (const auto& e : fs::directory_iterator(prunescope::testdata::depDir("dev")))
            devFiles.push_back(e.path());
        std::sort(devFiles.begin(), devFiles.end());
        dev_ = QString::fromStdString(devFiles.front().string());
        model1_ =
            QString::fromStdString(prunescope::testdata::sourceDir() + "/samples/dep/model.json");
        const QString model2 = dir_ + "/model-o2.json", cascade = dir_ + "/cascade.json";
        CliRun r = runCli({"dep-train", "--train", dir_ + "/train", "--dev", dev_, "--order", "2",
                           "--learner", "perceptron", "--epochs", "1", "--hash-bits", "16",
                           "--max-len", "30", "--out", model2, "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli({"vine-train", "--model", model2, "--train", dir_ + "/train", "--dev", dev_,
                    "--out", cascade, "--epochs", "1", "--hash-bits", "16", "--max-len", "30",
                    "--alpha-grid", "0,0.5", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        vineJson_ = dir_ + "/vine-frontier.json";
        r = runCli({"vine-frontier",
                    "--model",
                    model2,
                    "--first-order-model",
                    model1_,
                    "--cascade",
                    cascade,
                    "--treebank",
                    dev_,
                    "--alpha-grid",
                    "0,0.5,0.9",
                    "--length-bands",
                    "1,3",
                    "--permutations",
                    "100",
                    "--out-json",
                    vineJson_,
                    "--out-svg",
                    dir_ + "/vine-frontier.svg",
                    "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        evalNone_ = dir_ + "/eval-none.json";
        evalVine_ = dir_ + "/eval-vine.json";
        r = runCli({"dep-eval", "--model", model1_, "--treebank", dev_, "--json", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        writeText(evalNone_, r.out.toStdString());
        r = runCli({"dep-eval", "--model", model1_, "--treebank", dev_, "--length-vine", "2",
                    "--json", "--quiet"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        writeText(evalVine_, r.out.toStdString());
    }

    // Every input point is on the one plot with its input's numbers; series name their models.
    void combinedFrontierOnRealInputs() {
        const QString svg = dir_ + "/dep-frontier.svg", json = dir_ + "/dep-frontier.json";
        const CliRun r =
            runCli({"dep-frontier", "--vine", vineJson_, "--eval", "exhaustive=" + evalNone_,
                    "--eval", "length-vine=" + evalVine_, "--out", svg, "--out-json", json,
                    "--title", "A <test> & frontier"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("6 series") && r.out.contains("2 final model(s)"),
                 qPrintable(r.out)); // the first-order model is the same file
        const auto v = readJson(vineJson_), none = readJson(evalNone_), vine = readJson(evalVine_),
                   f = readJson(json);
        QCOMPARE(f["format"].get<std::string>(), std::string("prunescope-dep-frontier"));
        // vine: alpha sweep, length-only vine, exhaustive, exhaustive first order; dep-eval:
        // pruned, exhaustive
        QCOMPARE(f["series"].size(), std::size_t(6));
        const auto& s = f["series"];
        QCOMPARE(s[0]["style"].get<std::string>(), std::string("sweep"));
        QVERIFY(s[0]["points"].size() == v["frontier"].size() ||
                s[0]["points"].size() == v["frontier"].size() + 1);
        int chosen = 0;
        for (const auto& p : s[0]["points"])
            chosen += p["chosen"].get<bool>() ? 1 : 0;
        QCOMPARE(chosen, 1);
        for (std::size_t i = 0; i < v["frontier"].size(); ++i) {
            QCOMPARE(s[0]["points"][i]["uas"].get<double>(), v["frontier"][i]["uas"].get<double>());
            QCOMPARE(s[0]["points"][i]["tokensPerSecond"].get<double>(),
                     v["frontier"][i]["tokensPerSecond"].get<double>());
        }
        QCOMPARE(s[1]["points"].size(), std::size_t(2));
        QCOMPARE(s[1]["points"][1]["uas"].get<double>(), v["lengthVine"][1]["uas"].get<double>());
        QCOMPARE(s[2]["style"].get<std::string>(), std::string("reference"));
        QCOMPARE(s[2]["points"][0]["uas"].get<double>(), v["exhaustive"]["uas"].get<double>());
        QCOMPARE(s[3]["points"][0]["uas"].get<double>(),
                 v["exhaustiveFirstOrder"]["uas"].get<double>());
        QCOMPARE(s[3]["model"].get<std::string>(),
                 std::string("model.json (order 1)")); // recorded by vine-frontier
        QCOMPARE(s[0]["model"].get<std::string>(), std::string("model-o2.json"));
        QCOMPARE(s[4]["points"][0]["label"].get<std::string>(), std::string("length-vine"));
        QCOMPARE(s[4]["points"][0]["uas"].get<double>(), vine["uas"].get<double>());
        QCOMPARE(s[4]["points"][0]["tokensPerSecond"].get<double>(),
                 vine["tokensPerSecond"].get<double>());
        QCOMPARE(s[5]["style"].get<std::string>(), std::string("reference"));
        QCOMPARE(s[5]["points"][0]["uas"].get<double>(), none["uas"].get<double>());
        QCOMPARE(s[4]["model"], s[5]["model"]);
        QCOMPARE(s[4]["colour"], s[5]["colour"]); // a series and its reference share the colour
        QFile in(svg);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(in.readAll());
        std::size_t points = 0, refs = 0;
        for (const auto& x : s)
            (x["style"] == "reference" ? refs : points) += x["points"].size();
        QCOMPARE(countOf(text, "class=\"panel\""), 1);
        QCOMPARE(countOf(text, "class=\"point\""), static_cast<int>(points));
        QCOMPARE(countOf(text, "class=\"reference\""), static_cast<int>(refs));
        QCOMPARE(countOf(text, "class=\"legend-entry\""), 6);
        QVERIFY(text.contains("data-model=\"model-o2.json\""));
        QVERIFY(text.contains("A &lt;test&gt; &amp; frontier"));
        QVERIFY(!text.contains("<test>"));
        // --frontier plots the combined file again: the same figure, its title kept; alone only
        const QString again = dir_ + "/again.svg";
        const CliRun a = runCli({"dep-frontier", "--frontier", json, "--out", again});
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        QFile in2(again);
        QVERIFY(in2.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(in2.readAll()), text);
        const CliRun mixed =
            runCli({"dep-frontier", "--frontier", json, "--vine", vineJson_, "--out", again});
        QVERIFY(mixed.exitCode != 0);
        QVERIFY2(mixed.err.startsWith("error: " + json) && mixed.err.contains("on its own"),
                 qPrintable(mixed.err));
    }

    // vine-frontier draws its two-panel figure with the same writer.
    void vineFrontierUsesTheSharedWriter() {
        QFile in(dir_ + "/vine-frontier.svg");
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(in.readAll());
        QCOMPARE(countOf(text, "class=\"panel\""), 2);
        QCOMPARE(countOf(text, "class=\"legend-entry\""), 4);
        QVERIFY(text.contains("class=\"series\" data-name=\"vine cascade (alpha sweep)\""));
    }

    void filterFrontierUsesTheSharedWriter() {
        const QString svg = dir_ + "/filter-frontier.svg";
        const CliRun r = runCli({"filter-frontier", "--eval", "none=" + evalNone_, "--eval",
                                 "b2=" + evalVine_, "--out", svg});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile in(svg);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(in.readAll());
        QCOMPARE(countOf(text, "class=\"pareto\""), 1);
        QCOMPARE(countOf(text, "class=\"legend-entry\""), 2);
    }

    void errorsNameTheFile() {
        const QString svg = dir_ + "/bad.svg";
        CliRun r = runCli({"dep-frontier", "--vine", dir_ + "/missing.json", "--out", svg});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("missing.json"), qPrintable(r.err));
        writeText(dir_ + "/broken.json", "{\n  \"uas\": 1,\n  oops\n}\n");
        r = runCli({"dep-frontier", "--eval", "x=" + dir_ + "/broken.json", "--out", svg});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("broken.json:3"), qPrintable(r.err));
        auto j = readJson(evalVine_);
        j.erase("tokensPerSecond");
        writeText(dir_ + "/no-speed.json", j.dump(2));
        r = runCli({"dep-frontier", "--eval", "none=" + evalNone_, "--eval",
                    "x=" + dir_ + "/no-speed.json", "--out", svg});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("no-speed.json:1") && r.err.contains("tokensPerSecond"),
                 qPrintable(r.err));
        auto v = readJson(vineJson_);
        v.erase("lengthVine");
        writeText(dir_ + "/no-length.json", v.dump(2));
        r = runCli({"dep-frontier", "--vine", dir_ + "/no-length.json", "--out", svg});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("no-length.json") && r.err.contains("lengthVine"),
                 qPrintable(r.err));
        // a model without its exhaustive run
        r = runCli({"dep-frontier", "--eval", "b2=" + evalVine_, "--out", svg});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("eval-vine.json") && r.err.contains("exhaustive"),
                 qPrintable(r.err));
        r = runCli({"dep-frontier", "--eval", evalNone_, "--out", svg});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("NAME=FILE"), qPrintable(r.err));
        QVERIFY(!QFile::exists(svg));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestDepFrontierCli)
#include "test_dep_frontier_cli.moc"
