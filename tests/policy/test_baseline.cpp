// Asymmetric-weighting baseline (paper sec. 3, 7 ¬): training examples, the weight sweep on real
// data, policy masks, the frontier file (round trip, validation), the SVG plot, and the CLI
// (`eval --policy`, `parse --policy`, `baseline`, `frontier`) against the library.
#include "core/eval/CorpusEvaluator.h"
#include "core/frontier/FrontierFile.h"
#include "core/frontier/FrontierSvg.h"
#include "core/grammar/GrammarFile.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/policy/Baseline.h"
#include "core/policy/GoldSpans.h"
#include "core/policy/PolicyMask.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QtCore/QProcess>
#include <QtCore/QXmlStreamReader>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

using namespace prunescope;
using nlohmann::json;

namespace {

const std::vector<double> kSweep = {0.25, 1, 4, 16, 64, 256, 1024, 4096};

std::vector<Tree> firstTrees(const std::string& split, size_t count, int maxLength) {
    std::vector<Tree> out;
    for (const auto& t : testdata::normalizedTrees(split)) {
        if (out.size() == count) break;
        if (t.size() <= maxLength) out.push_back(t);
    }
    return out;
}

json metricsOf(double f1, double mpush, double constituents, double spans) {
    return {{"f1", f1},
            {"meanMpush", mpush},
            {"meanPushes", mpush * 1e6},
            {"meanConstituents", constituents},
            {"meanSpansKept", spans},
            {"failures", 0},
            {"averageSentenceF1", f1},
            {"wordsPerSecond", 1000.0}};
}

// A frontier of six made-up points (one dominated), the unpruned parser and a fit.
FrontierData makeSampleFrontier() {
    FrontierData d;
    d.grammar = "g.gram";
    d.evaluation = {{"split", "dev"}, {"maxLength", 40}};
    d.unpruned = metricsOf(0.69, 0.64, 34000, 275);
    const double f1[] = {0.02, 0.30, 0.62, 0.72, 0.73, 0.70};
    const double mp[] = {0.001, 0.003, 0.008, 0.03, 0.1, 0.4};
    for (int i = 0; i < 6; ++i) {
        FrontierEntry e;
        e.id = "baseline-w" + std::to_string(1 << (2 * i)) + (i == 2 ? "<&\"x\">" : "");
        e.policy = i == 5 ? "" : e.id + ".json";
        e.training = {{"positiveWeight", 1 << (2 * i)}, {"l2", 0.0001220703125}};
        e.metrics = metricsOf(f1[i], mp[i], 500.0 * (i + 1) * (i + 1), 10.0 + 40 * i);
        d.points.push_back(e);
    }
    d.info = {{"kind", "test"}};
    refitFrontier(d, RuntimeMeasure::Mpush);
    return d;
}
// Built once per process: the sigmoid fit's 56 Levenberg-Marquardt runs take about 1 s under
// ASan, and frontierValidation starts each of its 19 rows from this frontier.
const FrontierData& sampleFrontier() {
    static const FrontierData d = makeSampleFrontier();
    return d;
}

std::string frontierError(const std::string& text, const std::string& path) {
    std::ofstream(path, std::ios::binary) << text;
    try {
        loadFrontier(path);
    } catch (const InputError& e) {
        if (e.file() != path) return "wrong file " + e.file();
        return e.what();
    }
    return "NO ERROR";
}

std::string cliPath() {
    return testdata::binaryDir() + "/app/prunescope-cli";
}

json runCliJson(const QStringList& args, QByteArray* out = nullptr) {
    QProcess p;
    p.start(QString::fromStdString(cliPath()), args);
    if (!p.waitForFinished(300000)) return json();
    const QByteArray o = p.readAllStandardOutput();
    if (out) *out = o;
    if (p.exitCode() != 0) {
        qWarning("%s", p.readAllStandardError().constData());
        return json();
    }
    return json::parse(o.toStdString(), nullptr, false);
}

} // namespace

class TestBaseline : public QObject {
    Q_OBJECT
    std::string dir_;
    std::vector<Tree> train_, dev_;
    std::vector<Policy> sweep_; // one policy per kSweep weight, trained on train_ (see sweep())

    // The sweep every test that needs trained policies uses: trained once per process, by
    // whichever test asks first, so each test also runs alone (`test_baseline cliUsesPolicy`).
    const std::vector<Policy>& sweep() {
        if (sweep_.empty()) {
            // Under a sanitizer the sweep trains on the first 60 sentences (the same code paths;
            // eight trainings on 250 sentences took over 3 minutes there, on 100 85 s in CI).
            const std::vector<Tree> trees(train_.begin(),
                                          train_.begin() + (testdata::kUnderSanitizer ? 60 : 250));
            BaselineExamples data = baselineExamples(testdata::trainGrammar(), trees, 40);
            LogRegOptions lo;
            lo.l2 = std::ldexp(1.0, -13);
            for (double w : kSweep) {
                setPositiveWeight(data.examples, w);
                BaselineTrainInfo info;
                const Eigen::VectorXf* init = sweep_.empty() ? nullptr : &sweep_.back().weights;
                sweep_.push_back(trainBaselinePolicy(data.examples, w, lo, &info, init));
            }
        }
        return sweep_;
    }
  private slots:
    void initTestCase() {
        dir_ = testdata::tempDir("baseline");
        train_ = firstTrees("train", 250, 40);
        dev_ = firstTrees("dev", 80, 40);
        QCOMPARE(train_.size(), size_t(250));
    }

    // Hand-worked: labels are the prunable spans of the binarized gold tree, in (width, i) order.
    void examplesOfOneTree() {
        const Grammar& g = testdata::trainGrammar();
        // (S (NP (DT a) (JJ red) (NN fox)) (VP (VBZ eats)) (. .)): binarized (h=2, left) as
        // (S (@S (NP (@NP (DT a) (JJ red)) (NN fox)) (VP eats)) (. .)); unary VP->VBZ spans 1 word.
        Tree t{"ROOT",
               {Tree{"S",
                     {Tree{"NP",
                           {Tree{"DT", {Tree{"a", {}}}}, Tree{"JJ", {Tree{"red", {}}}},
                            Tree{"NN", {Tree{"fox", {}}}}}},
                      Tree{"VP", {Tree{"VBZ", {Tree{"eats", {}}}}}}, Tree{".", {Tree{".", {}}}}}}}};
        const std::vector<Tree> trees = {t};
        const BaselineExamples ex = baselineExamples(g, trees, 40, 8.0);
        QCOMPARE(ex.sentences, 1);
        QCOMPARE(ex.examples.size(), size_t(PruningMask::prunableCount(5))); // 9 spans
        const auto gold = prunableSpans(binarizeLike(g, t));
        QCOMPARE(gold, (std::vector<std::pair<int, int>>{{0, 2}, {0, 3}, {0, 4}}));
        QCOMPARE(ex.positives, 3L);
        const SentenceFeatures f(t.words());
        size_t idx = 0;
        for (int w = 2; w < 5; ++w)
            for (int i = 0; i + w <= 5; ++i, ++idx) {
                const auto& e = ex.examples[idx];
                QCOMPARE(ex.origin[idx].i, i);
                QCOMPARE(ex.origin[idx].k, i + w);
                const bool isGold =
                    std::find(gold.begin(), gold.end(), std::make_pair(i, i + w)) != gold.end();
                QCOMPARE(e.label, isGold ? 1 : 0);
                QCOMPARE(e.weight, isGold ? 8.0 : 1.0);
                const auto fs = f.features(i, i + w);
                QVERIFY(std::equal(fs.begin(), fs.end(), e.features.begin(), e.features.end()));
            }
        // maxLength filters; sentences of < 3 words have no prunable span.
        QCOMPARE(baselineExamples(g, trees, 4).sentences, 0);
        std::vector<WeightedExample> q = baselineDataset(g, trees, 0.5, 40);
        QCOMPARE(q.size(), size_t(9));
        QCOMPARE(q[3].weight, 1.0); // (3,5) not gold
        QCOMPARE(q[0].weight, 0.5); // (0,2) gold
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, baselineDataset(g, trees, 0.0, 40));
    }

    // Hand-worked: staircase area over log runtime.
    void hypervolume() {
        // Between e^0 and e^2: best accuracy 0 on [1, e), 50 on [e, e^2) -> mean 25.
        const std::vector<FrontierPoint> p = {{std::exp(1.0), 50, "a"}, {std::exp(1.5), 40, "b"}};
        QVERIFY(std::abs(frontierHypervolume(p, 1.0, std::exp(2.0)) - 25.0) < 1e-12);
        // A point at 60 from e^1.5 on adds 10 * 0.5 / 2.
        const std::vector<FrontierPoint> q = {{std::exp(1.0), 50, "a"}, {std::exp(1.5), 60, "b"}};
        QVERIFY(std::abs(frontierHypervolume(q, 1.0, std::exp(2.0)) - 27.5) < 1e-12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, frontierHypervolume(q, 0.0, 1.0));
    }

    // Real data: the sweep goes from "prune almost everything" to "keep almost everything".
    void sweepSpansKeptMonotone() {
        const Grammar& g = testdata::trainGrammar();
        BaselineExamples data = baselineExamples(g, train_, 40);
        QVERIFY(data.examples.size() > 20000);
        // Gold spans are a small minority (about 7% of prunable spans).
        const double goldRate = static_cast<double>(data.positives) / data.examples.size();
        QVERIFY2(goldRate > 0.04 && goldRate < 0.12, std::to_string(goldRate).c_str());
        std::vector<double> keptFraction;
        long total = 0;
        for (const auto& t : dev_)
            total += PruningMask::prunableCount(t.size());
        for (std::size_t x = 0; x < kSweep.size(); ++x) {
            const double w = kSweep[x];
            const Policy& trained = sweep().at(x);
            QCOMPARE(trained.meta.kind, std::string("baseline"));
            QCOMPARE(trained.meta.training["positiveWeight"].get<double>(), w);
            long kept = 0;
            for (const auto& t : dev_)
                kept += policyMask(trained, SentenceFeatures(t.words())).keptCount();
            keptFraction.push_back(static_cast<double>(kept) / total);
        }
        QString msg;
        for (double k : keptFraction)
            msg += QString::number(k, 'f', 3) + " ";
        // Extremes, strictly: almost nothing kept at w = 1/4, almost everything at w = 4096.
        QVERIFY2(keptFraction.front() < 0.03, qPrintable(msg));
        QVERIFY2(keptFraction.back() > 0.9, qPrintable(msg));
        // Monotone-ish in between (a 1% slack for optimizer noise).
        for (size_t i = 1; i < keptFraction.size(); ++i)
            QVERIFY2(keptFraction[i] >= keptFraction[i - 1] - 0.01, qPrintable(msg));
    }

    // policyMask is exactly Policy::keep per prunable span; always-kept spans stay kept; reused
    // storage is not reallocated.
    void policyMaskAgreesWithKeep() {
        QVERIFY(!sweep().empty());
        Policy p = sweep()[4];
        p.threshold = 0.3f;
        PruningMask m;
        m.bits.reserve(41 * 41);
        const auto* storage = m.bits.data();
        int spans = 0;
        for (const auto& t : dev_) {
            const std::vector<std::string> words = t.words();
            const int n = static_cast<int>(words.size());
            const SentenceFeatures f(words);
            policyMaskInto(p, f, m);
            QCOMPARE(m.bits.data(), storage);
            QCOMPARE(m.n, n);
            for (int i = 0; i < n; ++i)
                for (int k = i + 1; k <= n; ++k) {
                    const bool expected =
                        PruningMask::prunable(n, i, k) ? p.keep(f.features(i, k)) : true;
                    if (m.keep(i, k) != expected)
                        QFAIL(qPrintable(QString("span (%1,%2)").arg(i).arg(k)));
                    ++spans;
                }
            QVERIFY(m == policyMask(p, f));
            QVERIFY(policyMaskFunction(p)(words) == m);
        }
        QVERIFY(spans > 10000);
    }

    void frontierRoundTrip() {
        const FrontierData d = sampleFrontier();
        QVERIFY(d.fit.has_value());
        QCOMPARE(d.lambdaUnit, std::string("F1 percent per mpush"));
        // Point 5 (73 -> 70 F1 at higher runtime) is dominated; the others form the frontier.
        QCOMPARE(d.frontier, (std::vector<int>{0, 1, 2, 3, 4}));
        QVERIFY(!d.points[5].onFrontier && d.points[5].lambdaRange.empty);
        QVERIFY(std::isinf(d.points[0].lambdaRange.hi) && d.points[4].lambdaRange.lo == 0);
        for (const auto& e : d.points) {
            QCOMPARE(e.runtime, e.metrics["meanMpush"].get<double>());
            QVERIFY(std::abs(e.lambda - d.fit->slope(e.runtime)) == 0);
        }
        const std::string path = dir_ + "/frontier.json";
        saveFrontier(d, path);
        const FrontierData r = loadFrontier(path);
        QCOMPARE(frontierToJson(r), readFile(path)); // byte-identical rewrite
        QCOMPARE(r.points.size(), d.points.size());
        QCOMPARE(r.points[2].id, d.points[2].id);
        QCOMPARE(r.points[5].policy, std::string());
        QCOMPARE(r.points[3].lambda, d.points[3].lambda);
        QCOMPARE(r.points[0].lambdaRange.hi, d.points[0].lambdaRange.hi);
        QCOMPARE(r.fit->c, d.fit->c);
        QCOMPARE(r.frontier, d.frontier);
        QCOMPARE(frontierPolicyPath(path, r.points[1]), dir_ + "/" + r.points[1].policy);
        QCOMPARE(frontierPolicyPath(path, r.points[5]), std::string());
        // Refit with another runtime measure: runtimes, unit and lambdas change, accuracies do not.
        FrontierData c = r;
        refitFrontier(c, RuntimeMeasure::Constituents);
        QCOMPARE(c.points[3].runtime, 8000.0);
        QCOMPARE(c.lambdaUnit, std::string("F1 percent per constituent built"));
        QCOMPARE(c.points[3].accuracy, r.points[3].accuracy);
        QCOMPARE(loadFrontier((saveFrontier(c, path), path)).runtimeMeasure,
                 RuntimeMeasure::Constituents);
        // Fewer than 4 points: no fit, lambdas null.
        FrontierData small = d;
        small.points.resize(3);
        refitFrontier(small, RuntimeMeasure::Mpush);
        QVERIFY(!small.fit && std::isnan(small.points[0].lambda));
        QVERIFY(json::parse(frontierToJson(small))["points"][0]["lambda"].is_null());
        QCOMPARE(frontierFromJson(frontierToJson(small), "x").points.size(), size_t(3));
    }

    void frontierValidation_data() {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value"); // JSON text or DELETE
        QTest::addColumn<QString>("expected");
        QTest::newRow("format") << "/format"
                                << "\"x\""
                                << "format is 'x'";
        QTest::newRow("version") << "/version"
                                 << "2"
                                 << "unsupported version 2";
        QTest::newRow("measure") << "/runtimeMeasure"
                                 << "\"seconds\""
                                 << "unknown runtime measure 'seconds'";
        QTest::newRow("accuracy") << "/accuracyMeasure"
                                  << "\"recall\""
                                  << "accuracyMeasure must be \"f1\"";
        QTest::newRow("missing points") << "/points"
                                        << "DELETE"
                                        << "missing field 'points'";
        QTest::newRow("fit ymax") << "/fit/ymax"
                                  << "-1"
                                  << "fit.ymax must be > 0";
        QTest::newRow("fit type") << "/fit"
                                  << "3"
                                  << "'fit' must be an object or null";
        QTest::newRow("id repeated") << "/points/1/id"
                                     << "\"baseline-w1\""
                                     << "id 'baseline-w1' is repeated";
        QTest::newRow("policy type") << "/points/0/policy"
                                     << "7"
                                     << "points[0].policy' must be a non-empty string or null";
        QTest::newRow("metrics f1") << "/points/0/metrics/f1"
                                    << "1.5"
                                    << "points[0].metrics.f1' must be in [0, 1]";
        QTest::newRow("metrics missing") << "/points/2/metrics/meanSpansKept"
                                         << "DELETE"
                                         << "missing field 'points[2].metrics.meanSpansKept'";
        QTest::newRow("runtime") << "/points/1/runtime"
                                 << "0.5"
                                 << "points[1].runtime does not equal metrics.meanMpush";
        QTest::newRow("accuracy value") << "/points/1/accuracy"
                                        << "31"
                                        << "points[1].accuracy does not equal 100 * metrics.f1";
        QTest::newRow("lambda type") << "/points/1/lambda"
                                     << "\"big\""
                                     << "'points[1].lambda' must be a number or null";
        QTest::newRow("range order") << "/points/1/lambdaRange/lo"
                                     << "1e99"
                                     << "points[1].lambdaRange must satisfy 0 <= lo <= hi";
        QTest::newRow("onFrontier") << "/points/5/onFrontier"
                                    << "true"
                                    << "points[5].onFrontier disagrees";
        QTest::newRow("frontier index") << "/frontier/0"
                                        << "17"
                                        << "frontier[0] = 17 is not a point index";
        QTest::newRow("frontier order") << "/frontier"
                                        << "[1,0,2,3,4]"
                                        << "frontier is not sorted by runtime";
        QTest::newRow("unpruned") << "/unpruned"
                                  << "[]"
                                  << "'unpruned' must be an object or null";
    }
    void frontierValidation() {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        json j = json::parse(frontierToJson(sampleFrontier()));
        const json::json_pointer ptr(pointer.toStdString());
        if (value == "DELETE")
            j[ptr.parent_pointer()].erase(ptr.back());
        else
            j[ptr] = json::parse(value.toStdString());
        const std::string path = dir_ + "/bad.json";
        const std::string err = frontierError(j.dump(1), path);
        QVERIFY2(err.find(expected.toStdString()) != std::string::npos, err.c_str());
        QVERIFY2(err.rfind(path, 0) == 0, err.c_str());
    }
    void frontierInvalidJsonHasLineColumn() {
        const std::string path = dir_ + "/broken.json";
        std::ofstream(path) << "{\n  \"format\": \"prunescope-frontier\",\n  \"version\": 1 x\n}";
        try {
            loadFrontier(path);
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.line(), 3);
            QVERIFY(e.column() >= 14);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, loadFrontier(dir_ + "/missing.json"));
    }

    void svgIsWellFormed() {
        const FrontierData d = sampleFrontier();
        for (bool logX : {true, false}) {
            FrontierSvgOptions o;
            o.logX = logX;
            const std::string svg = frontierSvg(d, o);
            QXmlStreamReader xml(QByteArray::fromStdString(svg));
            int points = 0, arrows = 0, cones = 0, unpruned = 0, pareto = 0, fit = 0;
            while (!xml.atEnd()) {
                if (xml.readNext() != QXmlStreamReader::StartElement) continue;
                const QString cls = xml.attributes().value("class").toString();
                if (xml.name() == QLatin1String("circle") && cls == "point") ++points;
                if (xml.name() == QLatin1String("line") && cls == "lambda-arrow") ++arrows;
                if (xml.name() == QLatin1String("path") && cls == "cone") ++cones;
                if (xml.name() == QLatin1String("path") && cls == "fit") ++fit;
                if (xml.name() == QLatin1String("rect") && cls == "unpruned") ++unpruned;
                if (xml.name() == QLatin1String("polyline") && cls == "pareto") ++pareto;
            }
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
            QCOMPARE(points, 6);
            QCOMPARE(arrows, 6);
            QCOMPARE(cones, 5);
            QCOMPARE(unpruned, 1);
            QCOMPARE(pareto, 1);
            QCOMPARE(fit, 1);
        }
        writeFrontierSvg(d, dir_ + "/f.svg");
        QVERIFY(readFile(dir_ + "/f.svg").rfind("<?xml", 0) == 0);
    }

    // `eval --policy --json` reports exactly what evaluateCorpus with policyMaskFunction measures;
    // `parse --policy --json` gives the same counters as Parser with policyMask.
    void cliUsesPolicy() {
        if (!std::filesystem::exists(cliPath()))
            QSKIP("prunescope-cli is not built (build target prunescope-cli)");
        QVERIFY(sweep().size() == kSweep.size());
        const Grammar& g = testdata::trainGrammar();
        const std::string gram = dir_ + "/g.gram", pol = dir_ + "/w64.json";
        saveGrammar(g, gram);
        savePolicy(sweep_[4], pol);
        const std::string devFile = dir_ + "/dev.mrg";
        {
            std::string text;
            for (const auto& t : dev_)
                text += t.toString() + "\n";
            writeFileAtomically(devFile, text);
        }
        const json j = runCliJson({"eval", "--grammar", QString::fromStdString(gram), "--treebank",
                                   QString::fromStdString(devFile), "--policy",
                                   QString::fromStdString(pol), "--json"});
        QVERIFY(j.is_object());
        const std::vector<Tree> reread = readNormalizedTreebank(devFile);
        const Policy loaded = loadPolicy(pol);
        const CorpusResult r = evaluateCorpus(g, reread, policyMaskFunction(loaded));
        QCOMPARE(j["sentences"].get<int>(), static_cast<int>(r.sentences.size()));
        QCOMPARE(j["f1"].get<double>(), r.f1());
        QCOMPARE(j["averageSentenceF1"].get<double>(), r.evalb.averageSentenceF1());
        QCOMPARE(j["meanPushes"].get<double>(), r.meanPushes());
        QCOMPARE(j["meanConstituents"].get<double>(), r.meanConstituents());
        QCOMPARE(j["meanSpansKept"].get<double>(), r.meanSpansKept());
        QCOMPARE(j["failures"].get<int>(), r.failures);
        QCOMPARE(j["policy"]["name"].get<std::string>(), std::string("baseline-w64"));
        QVERIFY(r.meanSpansKept() < 0.6 * [&] {
            double s = 0;
            for (const auto& t : reread)
                s += PruningMask::prunableCount(t.size());
            return s / reread.size();
        }());
        QVERIFY(r.f1() > 0.5); // pruning by the w=64 baseline keeps a sensible parser

        QByteArray out;
        runCliJson({"parse", "--grammar", QString::fromStdString(gram), "--treebank",
                    QString::fromStdString(devFile), "--policy", QString::fromStdString(pol),
                    "--json"},
                   &out);
        const QList<QByteArray> lines = out.trimmed().split('\n');
        QCOMPARE(static_cast<size_t>(lines.size()), reread.size());
        Parser parser(g);
        for (size_t s = 0; s < reread.size(); ++s) {
            const json pj = json::parse(lines[static_cast<int>(s)].toStdString());
            const auto words = reread[s].words();
            const PruningMask m = policyMask(loaded, SentenceFeatures(words));
            const ParseStats st = parser.parse(words, &m);
            QCOMPARE(pj["pushes"].get<long>(), st.pushes);
            QCOMPARE(pj["spansKept"].get<int>(), st.spansKept);
        }
    }

    // `baseline` end to end on a tiny setup, then `frontier` refits with another runtime measure.
    void cliBaselineAndFrontier() {
        if (!std::filesystem::exists(cliPath()))
            QSKIP("prunescope-cli is not built (build target prunescope-cli)");
        const std::string gram = dir_ + "/g.gram", run = dir_ + "/run";
        saveGrammar(testdata::trainGrammar(), gram);
        QProcess p;
        p.start(QString::fromStdString(cliPath()),
                {"baseline", "--grammar", QString::fromStdString(gram), "--train",
                 QString::fromStdString(testdata::ptbDir("train")), "--dev",
                 QString::fromStdString(testdata::ptbDir("dev")), "--out",
                 QString::fromStdString(run), "--train-sentences",
                 testdata::kUnderSanitizer ? "40" : "120", "--weights", "1,16,256,4096", "--l2",
                 "2^-13,2^-11", "--dev-max-len", "12"});
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        FrontierData d = loadFrontier(run + "/frontier.json");
        QCOMPARE(d.points.size(), size_t(4));
        QCOMPARE(d.runtimeMeasure, RuntimeMeasure::Mpush);
        QCOMPARE(d.info["l2Selection"].size(), size_t(2));
        for (const auto& e : d.points) {
            const Policy pol = loadPolicy(frontierPolicyPath(run + "/frontier.json", e));
            QCOMPARE(pol.meta.name, e.id);
            QCOMPARE(pol.meta.training["l2"].get<double>(), d.info["chosenL2"].get<double>());
            QCOMPARE(pol.meta.lambda, e.lambda);
        }
        // Spans kept grow with the weight at the extremes.
        QVERIFY(d.points.front().metrics["meanSpansKept"].get<double>() <
                d.points.back().metrics["meanSpansKept"].get<double>());
        QVERIFY(readFile(run + "/frontier.svg").find("class=\"point\"") != std::string::npos);
        // A second run into the same directory is refused.
        p.start(QString::fromStdString(cliPath()),
                {"baseline", "--grammar", QString::fromStdString(gram), "--train", "x", "--dev",
                 "y", "--out", QString::fromStdString(run)});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);

        const std::string missingPolicy = d.points[0].policy;
        std::filesystem::remove(frontierPolicyPath(run + "/frontier.json", d.points[0]));
        p.start(QString::fromStdString(cliPath()),
                {"frontier", "--run", QString::fromStdString(run), "--runtime", "constituents",
                 "--update-policies"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        d = loadFrontier(run + "/frontier.json");
        QCOMPARE(d.runtimeMeasure, RuntimeMeasure::Constituents);
        // A missing file keeps its path (issue 19: the file may be back later; it used to be nulled
        // for good).
        QCOMPARE(d.points[0].policy, missingPolicy);
        QCOMPARE(d.points[1].runtime, d.points[1].metrics["meanConstituents"].get<double>());
        const Policy updated = loadPolicy(frontierPolicyPath(run + "/frontier.json", d.points[1]));
        QCOMPARE(updated.meta.lambdaUnit, std::string("F1 percent per constituent built"));
        QCOMPARE(updated.meta.lambda, d.points[1].lambda);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestBaseline)
#include "test_baseline.moc"
