// The cube-pruning commands as a user runs them (issue 14): cube-parse gives the core CubePruner's
// trees (positional input, --input, stdin, --conll, --kbest), cube-eval's per-sentence heads and
// UAS are the core's on real dev sentences, cube-train keeps its best epoch (re-evaluating the
// written model gives that epoch's dev UAS), cube-plot and cube-bench report on it, cube-compare
// pairs only evaluations of the same sentences, and bad input exits non-zero with one line naming
// the file.
#include "core/cube/CubeModel.h"
#include "core/dep/DepEval.h"
#include "core/dep/DepReader.h"
#include "core/util/AtomicFile.h"
#include "support/CliRun.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <QFile>
#include <QProcess>

#include <nlohmann/json.hpp>

namespace {

using Run = prunescope::testdata::CliRun;
namespace td = prunescope::testdata;

std::string sampleModel() {
    return td::samplePath("cube/model.json");
}
std::string sampleSentences() {
    return td::samplePath("cube/sentences.dp");
}
QString q(const std::string& s) {
    return QString::fromStdString(s);
}

Run cube(const QStringList& args, const QByteArray& input = {}) {
    td::CliRunOptions o;
    o.input = input;
    o.timeoutMs = 300000;
    return td::runCli(args, o);
}

nlohmann::json jsonOf(const Run& r) {
    if (r.exitCode != 0) qWarning("%s", qPrintable(r.err));
    return nlohmann::json::parse(r.out.toStdString());
}

// The core parser's heads of s under the model at beam k: [0] = -1, then tokens 1..n.
std::vector<int> coreHeadsWithRoot(const prunescope::CubeModel& m, const prunescope::DepSentence& s,
                                   int beam) {
    prunescope::CubeOptions o;
    o.beam = beam;
    o.singleRoot = m.singleRoot;
    prunescope::CubePruner pruner(o);
    return prunescope::cubeParse(m, s, nullptr, pruner).heads;
}
// The same, tokens 1..n only (as cube-parse prints them).
std::vector<int> coreHeads(const prunescope::CubeModel& m, const prunescope::DepSentence& s,
                           int beam) {
    const std::vector<int> h = coreHeadsWithRoot(m, s, beam);
    return {h.begin() + 1, h.end()};
}

} // namespace

class TestCubeCli : public QObject {
    Q_OBJECT
  private slots:
    void parseIsTheCoreParser() {
        const prunescope::CubeModel m = prunescope::loadCubeModel(sampleModel());
        const auto sentences = prunescope::readDepTreebank(sampleSentences());
        QVERIFY(sentences.size() >= 5);
        for (const int beam : {1, 4}) {
            const Run a = cube({"cube-parse", "--model", q(sampleModel()), "--beam",
                                QString::number(beam), q(sampleSentences())});
            const auto j = jsonOf(a);
            QCOMPARE(j.size(), sentences.size());
            for (std::size_t i = 0; i < sentences.size(); ++i) {
                QCOMPARE(j[i]["heads"].get<std::vector<int>>(), coreHeads(m, sentences[i], beam));
                QCOMPARE(j[i]["beam"].get<int>(), beam);
                const auto sc = prunescope::scoreAttachment(
                    sentences[i], coreHeadsWithRoot(m, sentences[i], beam));
                QCOMPARE(j[i]["uas"].get<double>(), sc.uas());
            }
        }
        // --input is the positional input; --conll prints the same heads in its 7th column
        const Run pos = cube({"cube-parse", "--model", q(sampleModel()), q(sampleSentences())});
        const Run opt =
            cube({"cube-parse", "--model", q(sampleModel()), "--input", q(sampleSentences())});
        QVERIFY2(opt.exitCode == 0, qPrintable(opt.err));
        QCOMPARE(opt.out, pos.out);
        const auto j = jsonOf(pos);
        const Run conll =
            cube({"cube-parse", "--model", q(sampleModel()), "--conll", q(sampleSentences())});
        QVERIFY2(conll.exitCode == 0, qPrintable(conll.err));
        const QStringList blocks = conll.out.split("\n\n", Qt::SkipEmptyParts);
        QCOMPARE(static_cast<std::size_t>(blocks.size()), sentences.size());
        const QStringList first = blocks[0].split('\n', Qt::SkipEmptyParts);
        QCOMPARE(static_cast<std::size_t>(first.size()), j[0]["heads"].size());
        for (int t = 0; t < first.size(); ++t)
            QCOMPARE(first[t].section('\t', 6, 6).toInt(),
                     j[0]["heads"][static_cast<std::size_t>(t)].get<int>());
        // the same words and tags typed on stdin parse to the same tree (no gold, so no UAS)
        QStringList typed;
        for (int m2 = 1; m2 <= sentences[0].size(); ++m2)
            typed << q(sentences[0].words[static_cast<std::size_t>(m2)] + "/" +
                       sentences[0].tags[static_cast<std::size_t>(m2)]);
        const auto s = jsonOf(cube({"cube-parse", "--model", q(sampleModel()), "-"},
                                   typed.join(' ').toUtf8() + "\n"));
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0]["heads"], j[0]["heads"]);
        QVERIFY(!s[0].contains("uas"));
        // --kbest: the root beam's best trees, the 1-best first, scores not increasing
        const auto kb = jsonOf(cube(
            {"cube-parse", "--model", q(sampleModel()), "--kbest", "3", q(sampleSentences())}));
        for (std::size_t i = 0; i < kb.size(); ++i) {
            const auto& list = kb[i]["kbest"];
            QVERIFY(!list.empty() && list.size() <= 3);
            QCOMPARE(list[0]["heads"], kb[i]["heads"]);
            QCOMPARE(list[0]["score"].get<double>(), kb[i]["score"].get<double>());
            for (std::size_t r = 1; r < list.size(); ++r) {
                QVERIFY(list[r]["score"].get<double>() <= list[r - 1]["score"].get<double>());
                QVERIFY(list[r]["heads"] != list[r - 1]["heads"]);
            }
        }
    }

    void evalOnRealDev() {
        const prunescope::CubeModel m = prunescope::loadCubeModel(sampleModel());
        const std::string dev = td::depDir("dev");
        const auto gold = prunescope::readDepTreebank(dev, 15);
        QVERIFY(gold.size() > 30);
        const auto j =
            jsonOf(cube({"cube-eval", "--model", q(sampleModel()), "--treebank", q(dev),
                         "--max-len", "15", "--beam", "2", "--json", "--per-sentence", "--quiet"}));
        QCOMPARE(j["sentences"].get<std::size_t>(), gold.size());
        QCOMPARE(j["beam"].get<int>(), 2);
        const auto& per = j["perSentence"];
        QCOMPARE(per.size(), gold.size());
        long scored = 0, correct = 0;
        for (std::size_t i = 0; i < gold.size(); ++i) {
            std::vector<int> heads = per[i]["heads"].get<std::vector<int>>();
            QCOMPARE(std::vector<int>(heads.begin() + 1, heads.end()), coreHeads(m, gold[i], 2));
            QCOMPARE(per[i]["file"].get<std::string>(), gold[i].file);
            QCOMPARE(per[i]["line"].get<int>(), gold[i].line);
            const auto sc = prunescope::scoreAttachment(gold[i], heads);
            QCOMPARE(per[i]["scoredCorrect"].get<long>(), sc.scoredCorrect);
            scored += sc.scoredTokens;
            correct += sc.scoredCorrect;
        }
        QCOMPARE(j["uas"].get<double>(),
                 100.0 * static_cast<double>(correct) / static_cast<double>(scored));
        QVERIFY(j["uas"].get<double>() > 80.0); // the bundled model parses real WSJ dev sentences
    }

    void compareRefusesDifferentSentences() {
        const std::string dir = td::tempDir("cube-cli-compare");
        const std::string dev = td::depDir("dev");
        auto eval = [&](const std::string& treebank, const QString& maxLen, const QString& beam,
                        const std::string& out) {
            const Run r =
                cube({"cube-eval", "--model", q(sampleModel()), "--treebank", q(treebank),
                      "--max-len", maxLen, "--beam", beam, "--json", "--per-sentence", "--quiet"});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            prunescope::writeFileAtomically(out, r.out.toStdString());
        };
        eval(dev, "15", "1", dir + "/k1.json");
        eval(dev, "15", "4", dir + "/k4.json");
        eval(dev, "10", "4", dir + "/short.json");
        const auto k1 = nlohmann::json::parse(prunescope::readFile(dir + "/k1.json"));
        const auto k4 = nlohmann::json::parse(prunescope::readFile(dir + "/k4.json"));
        const auto t = jsonOf(cube(
            {"cube-compare", "--pair", q(dir + "/k1.json:" + dir + "/k4.json"), "--pair",
             q(dir + "/k4.json:" + dir + "/k4.json"), "--permutations", "500", "--json"}))["tests"];
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(t[0]["uasA"].get<double>(), k1["uas"].get<double>());
        QCOMPARE(t[0]["uasB"].get<double>(), k4["uas"].get<double>());
        QCOMPARE(t[0]["difference"].get<double>(),
                 k1["uas"].get<double>() - k4["uas"].get<double>());
        QVERIFY(t[0]["pHolm"].get<double>() >= t[0]["p"].get<double>());
        QCOMPARE(t[1]["difference"].get<double>(), 0.0);
        QCOMPARE(t[1]["p"].get<double>(), 1.0);
        // other sentences: refused, naming both files
        const QString shortPair = q(dir + "/k1.json:" + dir + "/short.json");
        td::expectCliError(cube({"cube-compare", "--pair", shortPair}), q(dir + "/k1.json has "));
        // the same number of sentences with the same lengths, in another order: refused by where
        // they came from
        nlohmann::json swapped = k4;
        auto& per = swapped["perSentence"];
        std::size_t a = 0, b = 1;
        for (; b < per.size() && per[b]["scoredTokens"] != per[a]["scoredTokens"]; ++b) {
        }
        QVERIFY2(b < per.size(), "no two dev sentences of the same length");
        std::swap(per[a], per[b]);
        prunescope::writeFileAtomically(dir + "/swapped.json", swapped.dump());
        td::expectCliError(
            cube({"cube-compare", "--pair", q(dir + "/k4.json:" + dir + "/swapped.json")}),
            "sentence 1 is ");
        // an evaluation without per-sentence records, and a pair without a colon
        prunescope::writeFileAtomically(dir + "/summary.json", "{\"uas\": 90}\n");
        td::expectCliError(
            cube({"cube-compare", "--pair", q(dir + "/k4.json:" + dir + "/summary.json")}),
            q(dir + "/summary.json"));
        td::expectCliError(cube({"cube-compare", "--pair", q(dir + "/k4.json")}), "--pair ");
    }

    // dep-eval --per-sentence writes the same per-sentence fields as cube-eval, so one paired
    // test compares an exhaustive or pruned dependency parser with a cube-pruned one (the EWT
    // protocol's table does).
    void compareReadsDepEvalFiles() {
        const std::string dir = td::tempDir("cube-cli-compare-dep");
        const std::string dev = td::depDir("dev");
        const Run d =
            cube({"dep-eval", "--model", q(td::samplePath("dep/model.json")), "--treebank", q(dev),
                  "--max-len", "15", "--json", "--per-sentence", "--quiet"});
        QVERIFY2(d.exitCode == 0, qPrintable(d.err));
        prunescope::writeFileAtomically(dir + "/dep.json", d.out.toStdString());
        const Run c =
            cube({"cube-eval", "--model", q(sampleModel()), "--treebank", q(dev), "--max-len", "15",
                  "--beam", "2", "--json", "--per-sentence", "--quiet"});
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        prunescope::writeFileAtomically(dir + "/cube.json", c.out.toStdString());
        const auto dj = jsonOf(d), cj = jsonOf(c);
        const auto gold = prunescope::readDepTreebank(dev, 15);
        const auto& per = dj["perSentence"];
        QCOMPARE(per.size(), gold.size());
        long scored = 0, correct = 0;
        for (std::size_t i = 0; i < gold.size(); ++i) {
            QCOMPARE(per[i]["file"].get<std::string>(), gold[i].file);
            QCOMPARE(per[i]["line"].get<int>(), gold[i].line);
            const auto sc =
                prunescope::scoreAttachment(gold[i], per[i]["heads"].get<std::vector<int>>());
            QCOMPARE(per[i]["scoredCorrect"].get<long>(), sc.scoredCorrect);
            QCOMPARE(per[i]["tokens"].get<long>(), sc.tokens);
            scored += per[i]["scoredTokens"].get<long>();
            correct += per[i]["scoredCorrect"].get<long>();
        }
        QCOMPARE(dj["uas"].get<double>(),
                 100.0 * static_cast<double>(correct) / static_cast<double>(scored));
        const auto t =
            jsonOf(cube({"cube-compare", "--pair", q(dir + "/dep.json:" + dir + "/cube.json"),
                         "--permutations", "200", "--json"}))["tests"];
        QCOMPARE(t.size(), std::size_t(1));
        QCOMPARE(t[0]["uasA"].get<double>(), dj["uas"].get<double>());
        QCOMPARE(t[0]["uasB"].get<double>(), cj["uas"].get<double>());
    }

    void trainKeepsTheBestEpoch() {
        const std::string dir = td::tempDir("cube-cli-train");
        const std::string model = dir + "/pmax-k2.json";
        const Run t = cube({"cube-train",
                            "--train",
                            q(td::depDir("train")),
                            "--dev",
                            q(td::depDir("dev")),
                            "--update",
                            "pmax",
                            "--beam",
                            "2",
                            "--epochs",
                            "2",
                            "--max-len",
                            "10",
                            "--dev-max-len",
                            "10",
                            "--hash-bits",
                            "16",
                            "--out",
                            q(model),
                            "--quiet"});
        QVERIFY2(t.exitCode == 0, qPrintable(t.err));
        QVERIFY2(
            t.out.startsWith(q("wrote " + model + ": update pmax, beam 2, 2 epochs, best epoch ")),
            qPrintable(t.out));
        const prunescope::CubeModel m = prunescope::loadCubeModel(model);
        QCOMPARE(m.beam, 2);
        const auto& curve = m.training["curve"];
        QCOMPARE(curve.size(), std::size_t(2));
        const int best = m.training["bestEpoch"].get<int>();
        QVERIFY(best == 1 || best == 2);
        for (const auto& e : curve)
            QVERIFY(e["devUas"].get<double>() <=
                    curve[static_cast<std::size_t>(best - 1)]["devUas"].get<double>());
        QCOMPARE(m.training["devMaxLength"].get<int>(), 10);
        // the written weights are the best epoch's: cube-eval on the same dev sentences gives its
        // UAS
        const auto e = jsonOf(cube({"cube-eval", "--model", q(model), "--treebank",
                                    q(td::depDir("dev")), "--max-len", "10", "--json", "--quiet"}));
        QCOMPARE(e["beam"].get<int>(), 2);
        QCOMPARE(e["uas"].get<double>(),
                 curve[static_cast<std::size_t>(best - 1)]["devUas"].get<double>());
        // cube-plot draws its curve in a panel for k = 2
        const Run p = cube({"cube-plot", q(model), "--out", q(dir + "/curve.svg")});
        QVERIFY2(p.exitCode == 0, qPrintable(p.err));
        QCOMPARE(p.out, q("wrote " + dir + "/curve.svg: 1 panel, 1 curve\n"));
        const std::string svg = prunescope::readFile(dir + "/curve.svg");
        QVERIFY(svg.starts_with("<svg") && svg.find("beam k = 2") != std::string::npos &&
                svg.find("p-max") != std::string::npos);
        // cube-bench: one row per beam, min <= median <= max, and the UAS cube-eval reports
        const auto bench = jsonOf(
            cube({"cube-bench", "--model", q(model), "--treebank", q(td::depDir("dev")),
                  "--max-len", "10", "--beams", "1,2", "--repeats", "2", "--json", "--quiet"}));
        QCOMPARE(bench["rows"].size(), std::size_t(2));
        for (const auto& row : bench["rows"]) {
            QVERIFY(row["tokensPerSecondMin"].get<double>() > 0);
            QVERIFY(row["tokensPerSecondMin"].get<double>() <=
                    row["tokensPerSecondMedian"].get<double>());
            QVERIFY(row["tokensPerSecondMedian"].get<double>() <=
                    row["tokensPerSecondMax"].get<double>());
            // two repeats: the median is their mean (it was the larger one)
            QCOMPARE(row["tokensPerSecondMedian"].get<double>(),
                     0.5 * (row["tokensPerSecondMin"].get<double>() +
                            row["tokensPerSecondMax"].get<double>()));
        }
        QCOMPARE(bench["rows"][1]["beam"].get<int>(), 2);
        QCOMPARE(bench["rows"][1]["uas"].get<double>(), e["uas"].get<double>());
    }

    // A sentence long enough to take more than ~10 s gets one warning line naming it, the estimate
    // and what to do, before the work (issue 46, item 10); short ones get none. The process is
    // stopped once the warning is read.
    void longSentenceIsAnnounced() {
        const std::string dir = td::tempDir("cube-long");
        QString tokens;
        for (int i = 0; i < 100; ++i)
            tokens += "the/DT dog/NN runs/VBZ ";
        prunescope::writeFileAtomically(dir + "/long.txt", tokens.trimmed().toStdString() + "\n");
        QProcess p;
        p.start(td::cliBinary(),
                {"cube", "parse", "--model", q(sampleModel()), "--input", q(dir + "/long.txt")});
        QVERIFY(p.waitForStarted());
        QByteArray err;
        while (!err.contains('\n') && p.waitForReadyRead(60000))
            err += p.readAllStandardError();
        p.kill();
        p.waitForFinished(10000);
        QVERIFY2(err.startsWith("warning: " + QByteArray::fromStdString(dir) +
                                "/long.txt:1: a sentence of 300 tokens; cube pruning grows as "
                                "n^3 and may take about 16 s"),
                 err.constData());
        const Run shortOne =
            cube({"cube-parse", "--model", q(sampleModel()), q(sampleSentences())});
        QCOMPARE(shortOne.exitCode, 0);
        QVERIFY2(!shortOne.err.contains("warning"), qPrintable(shortOne.err));
    }

    void badInput() {
        const std::string dir = td::tempDir("cube-cli-bad");
        td::expectCliError(cube({"cube-parse", "--model", q(sampleModel()), "-"}, "The/DT cat\n"),
                           "<stdin>:1");
        td::expectCliError(cube({"cube-parse", "--model", q(sampleModel()), "-"}, "\n\n"),
                           "<stdin>: no sentences to parse"); // as dep-parse
        td::expectCliError(
            cube({"cube-parse", "--model", "/nonexistent/model.json", "-"}, "a/DT\n"),
            "/nonexistent/model.json");
        prunescope::writeFileAtomically(dir + "/broken.json",
                                        "{\"format\": \"prunescope-cube-model\",\n  oops\n}\n");
        td::expectCliError(cube({"cube-parse", "--model", q(dir + "/broken.json"), "-"}, "a/DT\n"),
                           q(dir + "/broken.json:2"));
        td::expectCliError(cube({"cube-eval", "--model", q(dir + "/broken.json"), "--treebank",
                                 q(sampleSentences())}),
                           q(dir + "/broken.json:2"));
        prunescope::writeFileAtomically(dir + "/mask.json", "{\"n\": 3, \"pruned\": []}");
        td::expectCliError(cube({"cube-parse", "--model", q(sampleModel()), "--mask-file",
                                 q(dir + "/mask.json"), "--input", q(sampleSentences())}),
                           "--mask-file needs exactly one");
        td::expectCliError(
            cube({"cube-parse", "--model", q(sampleModel()), "--mask", q(dir + "/mask.json"), "-"},
                 "a/DT b/NN\n"),
            q(dir + "/mask.json"));
        prunescope::writeFileAtomically(dir + "/bad.dp", "The\tDT\t2\ndog\tNN\n");
        td::expectCliError(
            cube({"cube-eval", "--model", q(sampleModel()), "--treebank", q(dir + "/bad.dp")}),
            q(dir + "/bad.dp:2"));
        td::expectCliError(cube({"cube-train", "--train", q(dir + "/missing"), "--dev",
                                 q(sampleSentences()), "--out", q(dir + "/m.json"), "--quiet"}),
                           q(dir + "/missing"));
        QVERIFY(!QFile::exists(q(dir + "/m.json")));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestCubeCli)
#include "test_cube_cli.moc"
