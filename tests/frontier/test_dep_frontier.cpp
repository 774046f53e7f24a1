// The dependency frontier's core (issue 13): the combined JSON round-trips; bad combined files,
// vine-frontier and dep-eval inputs fail with InputError naming file:line and the key; dep-eval
// runs are grouped by model and each group needs its exhaustive run; the SVG draws every point
// once per panel with escaped text. The real-data test is tests/cli/test_dep_frontier_cli.cpp.
#include "core/frontier/DepFrontier.h"
#include "core/frontier/DepFrontierInputs.h"
#include "core/frontier/DepFrontierSvg.h"
#include "core/util/AtomicFile.h"
#include "support/InputErrors.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

using namespace prunescope;

namespace {

std::string depEvalText(double uas, double tps, const std::string& model, int order, bool pruned) {
    return "{\n  \"uas\": " + std::to_string(uas) +
           ",\n  \"tokensPerSecond\": " + std::to_string(tps) +
           ",\n  \"arcsKeptFraction\": " + (pruned ? "0.3" : "1.0") +
           ",\n  \"model\": {\"path\": \"" + model + "\", \"order\": " + std::to_string(order) +
           "},\n  \"stages\": " + (pruned ? "[{\"stage\": \"filter\"}]" : "[]") + "\n}\n";
}

int occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
        ++n;
    return n;
}

} // namespace

class TestDepFrontier : public QObject {
    Q_OBJECT
    std::string dir_;

  private slots:
    void initTestCase() { dir_ = testdata::tempDir("dep-frontier"); }

    void depEvalRunsAreGroupedByModel() {
        writeFileAtomically(dir_ + "/a.json", depEvalText(90, 4000, "m/o2.json", 2, false));
        writeFileAtomically(dir_ + "/b.json", depEvalText(91, 17000, "m/o2.json", 2, true));
        writeFileAtomically(dir_ + "/c.json", depEvalText(89, 16000, "m/o1.json", 1, false));
        DepFrontier f;
        addDepEvalSeries(
            f,
            {{"none", dir_ + "/a.json"}, {"joint", dir_ + "/b.json"}, {"none1", dir_ + "/c.json"}});
        QCOMPARE(f.series.size(), std::size_t(3)); // o2 pruned, o2 exhaustive, o1 exhaustive
        QCOMPARE(f.series[0].model, std::string("o2.json (order 2)"));
        QCOMPARE(f.series[0].points.at(0).label, std::string("joint"));
        QCOMPARE(f.series[1].style, DepFrontierStyle::Reference);
        QCOMPARE(f.series[1].points.at(0).uas, 90.0);
        QCOMPARE(f.series[2].model, std::string("o1.json (order 1)"));
        QCOMPARE(f.series[0].colour, f.series[1].colour);
        QVERIFY(f.series[0].colour != f.series[2].colour);
        // without its exhaustive run, a model's series is refused, naming the file
        DepFrontier g;
        const InputError e = testdata::inputErrorOf([&] {
            addDepEvalSeries(g, {{"joint", dir_ + "/b.json"}});
        });
        QCOMPARE(e.file(), dir_ + "/b.json");
        QVERIFY(std::string(e.what()).find("exhaustive") != std::string::npos);
    }

    void combinedJsonRoundTrips() {
        DepFrontier f;
        f.title = "t <&>";
        f.arcsPanel = true;
        f.zoomPanel = true;
        f.sources = {"x.json"};
        f.series.push_back({"sweep",
                            "m.json",
                            "#1f77b4",
                            DepFrontierStyle::Sweep,
                            {{"α=0.5", 90.5, 9000, 0.4, true}, {"α=0", 90, 7000, 0.9, false}}});
        f.series.push_back({"ex",
                            "m.json",
                            "#1f77b4",
                            DepFrontierStyle::Reference,
                            {{"exhaustive", 90.4, 3700, -1, false}}});
        const std::string path = dir_ + "/combined.json";
        saveDepFrontier(f, path);
        DepFrontier g = loadDepFrontierFiles({path});
        QCOMPARE(g.title, f.title);
        QCOMPARE(g.series.size(), std::size_t(2));
        QCOMPARE(g.series[0].points[0].label, std::string("α=0.5"));
        QCOMPARE(g.series[0].points[0].chosen, true);
        QCOMPARE(g.series[0].points[1].arcsKept, 0.9);
        QCOMPARE(g.series[1].points[0].arcsKept, -1.0);
        QCOMPARE(g.series[1].style, DepFrontierStyle::Reference);
        QCOMPARE(depFrontierJson(g), depFrontierJson(f));
        // SVG: three panels; every point once per panel that can show it; text escaped
        const std::string svg = depFrontierSvg(g);
        QCOMPARE(occurrences(svg, "class=\"panel\""), 3);
        QCOMPARE(occurrences(svg, "class=\"point\""), 6); // 2 sweep points x 3 panels
        QCOMPARE(occurrences(svg, "class=\"reference\""),
                 2); // no arcsKept: the two tokens/s panels
        QCOMPARE(occurrences(svg, "class=\"series\""), 3);
        QVERIFY(svg.find("zoom: UAS ≥ 88") !=
                std::string::npos); // the reference 90.4 - 1.5, rounded down
        // the zoom panel omits points far below the exhaustive parsers
        g.series[0].points.push_back({"b=1", 34.5, 110000, 0.1, false});
        const std::string wide = depFrontierSvg(g);
        QCOMPARE(occurrences(wide, "class=\"point\""), 3 + 3 + 2);
        // UAS ticks at round values inside the axis (31-94 here: 40, 60, 80; not 31.0, 46.8, ...)
        for (const char* t : {">40<", ">60<", ">80<"})
            QVERIFY2(wide.find(t) != std::string::npos, t);
        QVERIFY(wide.find(">46.8<") == std::string::npos &&
                wide.find(">31.0<") == std::string::npos);
        QVERIFY(svg.find("t &lt;&amp;&gt;") != std::string::npos);
        // a combined file opens on its own only
        const InputError e = testdata::inputErrorOf([&] {
            loadDepFrontierFiles({path, dir_ + "/a.json"});
        });
        QCOMPARE(e.file(), path);
    }

    void badFilesNameFileLineAndKey() {
        const InputError missing =
            testdata::inputErrorOf([&] { loadDepFrontierFiles({dir_ + "/nope.json"}); });
        QCOMPARE(missing.file(), dir_ + "/nope.json");
        writeFileAtomically(dir_ + "/syntax.json",
                            "{\n  \"format\": \"prunescope-dep-frontier\",\n  ]\n");
        const InputError syntax =
            testdata::inputErrorOf([&] { loadDepFrontierFiles({dir_ + "/syntax.json"}); });
        QCOMPARE(syntax.file(), dir_ + "/syntax.json");
        QCOMPARE(syntax.line(), 3);
        writeFileAtomically(
            dir_ + "/nokey.json",
            "{\"format\": \"prunescope-dep-frontier\", \"version\": 1, \"title\": \"t\",\n "
            "\"series\": [\n"
            "  {\"name\": \"s\", \"model\": \"m\", \"colour\": \"#000\", \"style\": \"sweep\",\n"
            "   \"points\": [{\"label\": \"a\", \"uas\": 90}]}]}\n");
        const InputError nokey =
            testdata::inputErrorOf([&] { loadDepFrontierFiles({dir_ + "/nokey.json"}); });
        QCOMPARE(nokey.line(), 4);
        QVERIFY2(std::string(nokey.what()).find("tokensPerSecond") != std::string::npos,
                 nokey.what());
        writeFileAtomically(dir_ + "/style.json",
                            "{\"format\": \"prunescope-dep-frontier\", \"version\": 1, \"title\": "
                            "\"t\", \"series\": [\n"
                            "  {\"name\": \"s\", \"model\": \"m\", \"colour\": \"#000\", "
                            "\"style\": \"zigzag\", \"points\": []}]}\n");
        const InputError style =
            testdata::inputErrorOf([&] { loadDepFrontierFiles({dir_ + "/style.json"}); });
        QCOMPARE(style.line(), 2);
        writeFileAtomically(dir_ + "/other.json", "{\"something\": 1}\n");
        const InputError other =
            testdata::inputErrorOf([&] { loadDepFrontierFiles({dir_ + "/other.json"}); });
        QCOMPARE(other.file(), dir_ + "/other.json");
        writeFileAtomically(dir_ + "/vine.json",
                            "{\"model\": \"m.json\", \"chosenAlphas\": [0.5],\n \"frontier\": "
                            "[{\"alphas\": [0.5], \"uas\": 90}],\n"
                            " \"lengthVine\": [], \"exhaustive\": {}, \"chosen\": {}}\n");
        const InputError vine =
            testdata::inputErrorOf([&] { loadDepFrontierFiles({dir_ + "/vine.json"}); });
        QCOMPARE(vine.file(), dir_ + "/vine.json");
        QCOMPARE(vine.line(), 2);
        QVERIFY2(std::string(vine.what()).find("tokensPerSecond") != std::string::npos,
                 vine.what());
        const InputError spec = testdata::inputErrorOf([] { parseDepEvalSpec("nofile"); });
        QCOMPARE(spec.file(), std::string("--eval"));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestDepFrontier)
#include "test_dep_frontier.moc"
