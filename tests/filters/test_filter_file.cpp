// Arc filter files (docs/file-formats.md "Arc filter"): round trip, +inf threshold, and bad files
// give an InputError naming file:line and the problem.
#include "core/filters/ArcFilterFile.h"
#include "core/util/AtomicFile.h"
#include "core/util/JsonDocument.h"
#include "support/InputErrors.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

using namespace prunescope;

namespace {
ArcFilter small() {
    ArcFilter f = ArcFilter::zeros(ArcFilterKind::Joint, 10);
    f.weights[3] = 0.5f;
    f.weights[700] = -1.25f;
    f.threshold = 0.75;
    f.training = {{"c0", 0.1}};
    return f;
}
std::string pretty(const ArcFilter& f) {
    return arcFilterToJson(f).dump(2);
}
} // namespace

class TestFilterFile : public QObject {
    Q_OBJECT
  private slots:
    void roundTrip() {
        const std::string dir = testdata::tempDir("filter-file");
        ArcFilter f = small();
        saveArcFilter(f, dir + "/f.json");
        const ArcFilter g = loadArcFilter(dir + "/f.json");
        QCOMPARE(g.weights, f.weights);
        QCOMPARE(g.threshold, 0.75);
        QVERIFY(g.kind == ArcFilterKind::Joint && g.useNone && g.useVine && g.useRoot);
        f.threshold = std::numeric_limits<double>::infinity();
        saveArcFilter(f, dir + "/inf.json");
        QVERIFY(std::isinf(loadArcFilter(dir + "/inf.json").threshold));
    }
    // A weight beyond float range (1e39) used to load as inf; refused at the value (issue 46).
    void weightOverflowingFloatIsLocated() {
        std::string text = pretty(small());
        const auto at = text.find("-1.25");
        QVERIFY(at != std::string::npos);
        text.replace(at, 5, "1e39");
        const auto [line, column] = lineColumn(text, at);
        const InputError e = testdata::inputErrorOf([&] { arcFilterFromText(text, "w.json"); });
        QCOMPARE(e.file(), std::string("w.json"));
        QCOMPARE(e.line(), line);
        QCOMPARE(e.column(), column);
        QVERIFY2(std::string(e.what()).find("overflows a float") != std::string::npos, e.what());
    }
    void badFilesNameTheirPlace() {
        struct Case {
            std::string from, to, message;
        };
        const std::string good = pretty(small());
        const std::vector<Case> cases = {
            {"\"prunescope-arc-filter\"", "\"prunescope-dep-model\"", "'format' must be"},
            {"\"version\": 1", "\"version\": 7", "unsupported 'version'"},
            {"\"kind\": \"joint\"", "\"kind\": \"greedy\"", "unknown filter kind"},
            {"\"threshold\": 0.75", "\"threshold\": \"high\"",
             "'threshold' must be a number or \"inf\""},
            {"\"featureSet\": \"filters-v1\"", "\"featureSet\": \"filters-v0\"",
             "'featureSet' must be"},
            {"\"hashBits\": 10", "\"hashBits\": 4", "hashBits"},
            {"\"none\": true", "\"none\": 3", "true or false"},
            {"700", "5000", ">= 2^hashBits"},
        };
        for (const auto& c : cases) {
            std::string text = good;
            const auto at = text.find(c.from);
            QVERIFY2(at != std::string::npos, c.from.c_str());
            text.replace(at, c.from.size(), c.to);
            const InputError e =
                testdata::inputErrorOf([&] { arcFilterFromText(text, "bad.json"); });
            QVERIFY2(e.file() == "bad.json" && e.line() >= 1,
                     qPrintable(QString::fromStdString(c.to + ": " + e.what())));
            QVERIFY2(std::string(e.what()).find(c.message) != std::string::npos, e.what());
        }
        // syntax error, missing key, truncated file, not a file
        QVERIFY(testdata::inputErrorOf([&] {
                    arcFilterFromText("{\"format\": ", "t.json");
                }).line() == 1);
        const InputError missing = testdata::inputErrorOf(
            [&] { arcFilterFromText("{\"format\": \"prunescope-arc-filter\"}", "m.json"); });
        QVERIFY2(std::string(missing.what()).find("version") != std::string::npos, missing.what());
        const InputError none =
            testdata::inputErrorOf([&] { loadArcFilter("/nonexistent/filter.json"); });
        QCOMPARE(QString::fromStdString(none.file()), QString("/nonexistent/filter.json"));
        std::string indep = good;
        indep.replace(indep.find("\"kind\": \"joint\""), 15, "\"kind\": \"independent\"");
        QVERIFY(
            std::string(testdata::inputErrorOf([&] { arcFilterFromText(indep, "i.json"); }).what())
                .find("no None event") != std::string::npos);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFilterFile)
#include "test_filter_file.moc"
