// The dependency view's and dep-parse's shared core (DepInspection.h, MaxMarginalPruning.h,
// DepParseInput.h) on real dev sentences: inspectDepSentence without a mask is DepPipeline::parse
// (heads, fallbacks, pushes) for any stages, including a test stage built here; prunedBy names the
// stage whose mask dropped the arc; a given mask is parsed exactly (no fallback); t_alpha matches
// its definition computed naively; the model's own max-marginal pass never changes an order-1
// model's tree; the stdin layouts of dep-parse and their errors (file:line); mask files' errors at
// the value (file:line:column).
#include "core/dep/ArcMaskFile.h"
#include "core/dep/DepInspection.h"
#include "core/dep/DepParseInput.h"
#include "core/dep/DepReader.h"
#include "core/dep/DepTraining.h"
#include "core/dep/MaxMarginalPruning.h"
#include "core/util/AtomicFile.h"
#include "core/util/JsonDocument.h"
#include "support/InputErrors.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <cmath>
#include <cstdlib>

using namespace prunescope;

namespace {

std::vector<DepSentence> firstShort(const std::string& dir, std::size_t count, int maxLen) {
    std::vector<DepSentence> out;
    for (auto& s : readDepTreebank(dir))
        if (s.size() <= maxLen && out.size() < count) out.push_back(std::move(s));
    return out;
}

const DepModel& model1() {
    static const DepModel m = [] {
        DepTrainOptions o;
        o.epochs = 2;
        o.patience = 0;
        o.hashBits = 18;
        o.learner = DepLearner::Perceptron;
        return trainDepModel(firstShort(testdata::depDir("train"), 300, 30),
                             firstShort(testdata::depDir("dev"), 20, 30), o)
            .model;
    }();
    return m;
}

// A test stage: keeps arcs no longer than `b` plus every root arc (a length-only vine).
ArcPruningStage lengthStage(int b) {
    return {"length", false, [b](const DepSentence& s, const ArcMask& in, DepSentenceFeatures&) {
                StageResult r{ArcMask::none(s.size()), 0};
                for (int h = 0; h <= s.size(); ++h)
                    for (int m = 1; m <= s.size(); ++m)
                        if (h != m && in.keep(h, m) && (h == 0 || std::abs(h - m) <= b))
                            r.mask.set(h, m, true);
                return r;
            }};
}

// A stage that prunes every root arc: no tree survives, so the pipeline must fall back.
ArcPruningStage rootlessStage() {
    return {"rootless", false, [](const DepSentence& s, const ArcMask& in, DepSentenceFeatures&) {
                StageResult r{in, 0};
                for (int m = 1; m <= s.size(); ++m)
                    r.mask.set(0, m, false);
                return r;
            }};
}

} // namespace

class TestDepInspection : public QObject {
    Q_OBJECT
  private slots:
    void withoutAMaskItIsThePipelinesParse() {
        const auto dev = firstShort(testdata::depDir("dev"), 25, 40);
        const DepModel& m = model1();
        std::vector<std::vector<ArcPruningStage>> configs = {
            {},
            {lengthStage(3)},
            {lengthStage(2), modelMaxMarginalStage(m, 0.4)},
            {rootlessStage()}};
        for (const auto& stages : configs) {
            DepPipeline p(m);
            for (const auto& st : stages)
                p.addStage(st);
            EisnerParser parser(m.eisnerOptions()), parser2(m.eisnerOptions());
            for (const auto& s : dev) {
                const DepSentenceResult want = p.parse(s, parser2);
                const DepInspection got = inspectDepSentence(p, s, parser);
                QCOMPARE(got.heads, want.heads);
                QCOMPARE(got.fallbacks, want.fallbacks);
                QCOMPARE(got.pushes, want.pushes);
                QCOMPARE(got.success, want.success);
                QCOMPARE(got.stageMasks.size(), stages.size() + 1);
                QVERIFY(got.finalMask.keepsTree(got.heads));
                // prunedBy: the first stage whose mask drops the arc
                for (int h = 0; h <= s.size(); ++h)
                    for (int d = 1; d <= s.size(); ++d) {
                        if (h == d) continue;
                        const int k = got.prunedByAt(h, d);
                        if (k < 0) {
                            QVERIFY(got.stageMasks.back().keep(h, d));
                        } else {
                            QVERIFY(got.stageMasks[static_cast<std::size_t>(k)].keep(h, d));
                            QVERIFY(!got.stageMasks[static_cast<std::size_t>(k) + 1].keep(h, d));
                        }
                    }
                // the max-marginals' argmax is the tree (order 1): every predicted arc attains the
                // best
                for (int d = 1; d <= s.size(); ++d)
                    QVERIFY(std::abs(got.maxMarginals(got.heads[static_cast<std::size_t>(d)], d) -
                                     got.maxMarginals.best) < 1e-3);
                QVERIFY(std::abs(got.maxMarginals.best - got.score) <
                        1e-3 * std::max(1.0, std::abs(got.score)));
            }
            if (stages.size() == 1 && stages[0].name == "rootless")
                QVERIFY(inspectDepSentence(p, dev[0], parser).fallbacks == 1);
        }
    }

    void aGivenMaskIsParsedExactly() {
        const auto dev = firstShort(testdata::depDir("dev"), 10, 30);
        const DepModel& m = model1();
        DepPipeline p(m);
        p.addStage(lengthStage(4));
        EisnerParser parser(m.eisnerOptions());
        for (const auto& s : dev) {
            const DepInspection base = inspectDepSentence(p, s, parser);
            // flip off one arc of the predicted tree: the tree must change and avoid it
            ArcMask mask = base.finalMask;
            const int d = s.size() / 2 + 1;
            const int h = base.heads[static_cast<std::size_t>(d)];
            mask.set(h, d, false);
            const DepInspection r = inspectDepSentence(p, s, parser, &mask);
            QVERIFY(r.givenMask);
            QCOMPARE(r.finalMask, mask);
            QCOMPARE(r.fallbacks, 0);
            const DepParse direct = parseWithModel(m, s, &mask, parser);
            QCOMPARE(r.heads, direct.heads);
            if (r.success) QVERIFY(r.heads[static_cast<std::size_t>(d)] != h);
            QVERIFY(!std::isfinite(r.maxMarginals(h, d)));
            // a mask with no tree: no fallback, all heads -1
            ArcMask none = ArcMask::allKeep(s.size());
            for (int x = 1; x <= s.size(); ++x)
                none.set(0, x, false);
            const DepInspection bad = inspectDepSentence(p, s, parser, &none);
            QVERIFY(!bad.success);
            QCOMPARE(bad.heads, std::vector<int>(static_cast<std::size_t>(s.size()) + 1, -1));
            QCOMPARE(bad.fallbacks, 0);
        }
        ArcMask wrong = ArcMask::allKeep(dev[0].size() + 1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 inspectDepSentence(p, dev[0], parser, &wrong));
    }

    void thresholdIsAlphaMaxPlusOneMinusAlphaMean() {
        const auto dev = firstShort(testdata::depDir("dev"), 8, 25);
        const DepModel& m = model1();
        for (const auto& s : dev) {
            const DepScorer sc(m, s);
            const ArcMaxMarginals mm = arcMaxMarginals(sc.arcScores(), nullptr, m.singleRoot);
            double sum = 0;
            int count = 0;
            for (int h = 0; h <= s.size(); ++h)
                for (int d = 1; d <= s.size(); ++d)
                    if (h != d && std::isfinite(mm(h, d))) sum += mm(h, d), ++count;
            for (double a : {0.0, 0.3, 0.8, 1.0}) {
                const double t = a * mm.best + (1 - a) * sum / count;
                QVERIFY(std::abs(maxMarginalThreshold(mm, a) - t) <
                        1e-6 * std::max(1.0, std::abs(t)));
                const ArcMask kept = pruneByMaxMarginals(mm, a);
                for (int h = 0; h <= s.size(); ++h)
                    for (int d = 1; d <= s.size(); ++d)
                        if (h != d) {
                            const double x = mm(h, d), tt = maxMarginalThreshold(mm, a),
                                         eps = 1e-6 * std::max(1.0, std::abs(tt));
                            if (!std::isfinite(x) || (x < tt - eps && x < mm.best - eps))
                                QVERIFY(!kept.keep(h, d));
                            if (std::isfinite(x) && std::abs(x - mm.best) < 1e-12)
                                QVERIFY(kept.keep(h, d));
                            if (std::isfinite(x) && x > tt + eps) QVERIFY(kept.keep(h, d));
                        }
            }
        }
    }

    void theModelsOwnPassKeepsItsTree() {
        const auto dev = firstShort(testdata::depDir("dev"), 15, 40);
        const DepModel& m = model1();
        EisnerParser parser(m.eisnerOptions());
        for (double a : {0.0, 0.5, 0.9, 1.0}) {
            DepPipeline p(m);
            p.addStage(modelMaxMarginalStage(m, a));
            long kept = 0, all = 0;
            for (const auto& s : dev) {
                const DepInspection r = inspectDepSentence(p, s, parser);
                QCOMPARE(r.fallbacks, 0);
                QCOMPARE(r.heads, parseWithModel(m, s, nullptr, parser).heads);
                kept += r.finalMask.keptCount();
                all += ArcMask::totalArcs(s.size());
            }
            if (a >= 0.5)
                QVERIFY2(kept < all / 2,
                         qPrintable(QString("alpha %1 kept %2 of %3").arg(a).arg(kept).arg(all)));
        }
    }

    void jsonHasHeadsAndMatrices() {
        const auto dev = firstShort(testdata::depDir("dev"), 1, 20);
        const DepModel& m = model1();
        DepPipeline p(m);
        p.addStage(lengthStage(2));
        EisnerParser parser(m.eisnerOptions());
        const DepInspection r = inspectDepSentence(p, dev[0], parser);
        const nlohmann::json j = depInspectionJson(dev[0], r);
        const auto n = static_cast<std::size_t>(dev[0].size());
        QCOMPARE(j["heads"].size(), n);
        for (std::size_t d = 1; d <= n; ++d)
            QCOMPARE(j["heads"][d - 1].get<int>(), r.heads[d]);
        QCOMPARE(j["maxMarginals"]["value"].size(), n + 1);
        QCOMPARE(j["maxMarginals"]["value"][0].size(), n + 1);
        QVERIFY(j["maxMarginals"]["value"][0][0].is_null());
        QCOMPARE(j["prunedBy"].size(), n + 1);
        QCOMPARE(j["stages"][0]["name"].get<std::string>(), std::string("length"));
        QVERIFY(j.contains("uas"));
    }

    void stdinLayouts() {
        auto a = readDepParseText("The/DT cat/NN sat/VBD ./.\n\n# comment\nDogs/NNS bark/VBP\n");
        QCOMPARE(a.size(), std::size_t(2));
        QCOMPARE(a[0].size(), 4);
        QCOMPARE(a[1].tags[2], std::string("VBP"));
        auto b = readDepParseText("The\tDT\ncat\tNN\n\nDogs\tNNS\nbark\tVBP\n");
        QCOMPARE(b.size(), std::size_t(2));
        QCOMPARE(b[0].words[2], std::string("cat"));
        QCOMPARE(b[1].line, 4);
        QVERIFY(!b[0].hasTree());
        auto c = readDepParseText("The\tDT\t2\ncat\tNN\t0\n");
        QVERIFY(c[0].hasTree());
        auto e1 = testdata::inputErrorOf([] { readDepParseText("The\tDT\ncat NN\n", "in.txt"); });
        QCOMPARE(e1.file(), std::string("in.txt"));
        QCOMPARE(e1.line(), 2);
        auto e2 = testdata::inputErrorOf([] { readDepParseText("The\tDT\n\tNN\n", "in.txt"); });
        QCOMPARE(e2.line(), 2);
        auto e3 =
            testdata::inputErrorOf([] { readDepParseText("The\tDT\nca\xfft\tNN\n", "in.txt"); });
        QCOMPARE(e3.line(), 2);
        auto e4 = testdata::inputErrorOf([] { readDepParseText("The/DT cat\n", "in.txt"); });
        QCOMPARE(e4.line(), 1);
        auto e5 = testdata::inputErrorOf([] { readDepParseText("The\tDT\r\n", "in.txt"); });
        QCOMPARE(e5.line(), 1);
    }

    // loadArcMaskFile (dep-parse and cube-parse --mask): the mask and the explorer's sentence
    // index come back; a bad value is refused at its own line:column.
    void maskFilesLocateTheirErrors() {
        const std::string path = testdata::tempDir("dep-mask-file") + "/mask.json";
        ArcMask m = ArcMask::allKeep(4);
        m.set(0, 2, false);
        m.set(3, 1, false);
        nlohmann::json j = m.toJson();
        j["sentence"] = 7;
        const std::string text = j.dump(1);
        writeFileAtomically(path, text);
        const ArcMaskFile f = loadArcMaskFile(path);
        QVERIFY(f.mask == m);
        QCOMPARE(f.sentence, 7);
        QCOMPARE(f.sentenceAt, lineColumn(text, text.find("7")));
        const auto load = [](const std::string& p) { (void)loadArcMaskFile(p); };
        QCOMPARE(testdata::errorAtReplacedValue(path, "/sentence", "0", "outside [1, ", load),
                 std::string());
        QCOMPARE(testdata::errorAtReplacedValue(path, "/sentence", "\"7\"", "an integer", load),
                 std::string());
        QCOMPARE(testdata::errorAtReplacedValue(path, "/n", "4.0", "integer field 'n'", load),
                 std::string());
        QCOMPARE(testdata::errorAtReplacedValue(path, "/n", "4096", "outside [1, 4095]", load),
                 std::string());
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestDepInspection)
#include "test_dep_inspection.moc"
