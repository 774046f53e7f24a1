// The violation-fixing perceptron (core/cube/CubeTraining.h): deterministic given a seed for every
// strategy; the averaged weights are the mean of the weight vectors seen (replayed naively); the
// per-epoch counters add up; learning works; cancel keeps finished epochs. Also the model file
// (validated JSON, a wrong-typed field refused at its line:column) and the UAS significance test
// with Holm's correction.
#include "core/cube/CubeTraining.h"
#include "core/dep/DepReader.h"
#include "core/dep/UasSignificance.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "core/util/Random.h"
#include "support/InputErrors.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <cmath>
#include <fstream>

using namespace prunescope;

namespace {

std::vector<DepSentence> shortSentences(const std::string& split, int maxLen, std::size_t count) {
    std::vector<DepSentence> out;
    for (auto& s : readDepTreebank(testdata::depDir(split)))
        if (s.size() <= maxLen && out.size() < count) out.push_back(std::move(s));
    return out;
}

CubeTrainOptions smallOptions(CubeUpdateStrategy u) {
    CubeTrainOptions o;
    o.update = u;
    o.beam = 2;
    o.epochs = 2;
    o.hashBits = 16;
    o.seed = 7;
    return o;
}

const std::vector<DepSentence>& train() {
    static const auto t = shortSentences("train", 12, 60);
    return t;
}
const std::vector<DepSentence>& dev() {
    static const auto d = shortSentences("dev", 15, 20);
    return d;
}

} // namespace

class TestCubeTraining : public QObject {
    Q_OBJECT
  private slots:
    void deterministicGivenTheSeed() {
        for (auto u : {CubeUpdateStrategy::Standard, CubeUpdateStrategy::Skip,
                       CubeUpdateStrategy::SMax, CubeUpdateStrategy::PMax}) {
            const auto a = trainCubeModel(train(), dev(), smallOptions(u));
            const auto b = trainCubeModel(train(), dev(), smallOptions(u));
            QCOMPARE(a.model.weights.w, b.model.weights.w);
            QCOMPARE(a.epochs.size(), b.epochs.size());
            for (std::size_t e = 0; e < a.epochs.size(); ++e) {
                auto ja = a.epochs[e].toJson(), jb = b.epochs[e].toJson();
                ja.erase("seconds");
                jb.erase("seconds");
                ja.erase("devTokensPerSecond");
                jb.erase("devTokensPerSecond");
                QCOMPARE(ja.dump(), jb.dump());
            }
            auto other = smallOptions(u);
            other.seed = 8;
            QVERIFY(trainCubeModel(train(), dev(), other).model.weights.w != a.model.weights.w);
        }
    }

    void countersAddUp() {
        for (auto u : {CubeUpdateStrategy::Standard, CubeUpdateStrategy::Skip,
                       CubeUpdateStrategy::SMax, CubeUpdateStrategy::PMax}) {
            auto o = smallOptions(u);
            o.beam = 1;
            o.epochs = 3;
            const auto r = trainCubeModel(train(), dev(), o);
            QCOMPARE(static_cast<int>(r.epochs.size()), 3);
            long nonViolations = 0;
            for (const auto& e : r.epochs) {
                QCOMPARE(e.sentences, static_cast<long>(train().size()));
                QCOMPARE(e.unreachable, 0L);
                QVERIFY(e.nonViolations <= e.rootWrong);
                QVERIFY(e.goldFellOff <= e.sentences);
                QVERIFY(e.goldNodesFellOff <= e.goldNodes);
                QVERIFY(e.violationSum >= 0 || u == CubeUpdateStrategy::Standard);
                nonViolations += e.nonViolations;
                if (u == CubeUpdateStrategy::Standard) {
                    QCOMPARE(e.invalidForced, e.nonViolations);
                    QCOMPARE(e.invalidAvoided, 0L);
                    QVERIFY(e.updates <= e.rootWrong);
                } else {
                    QCOMPARE(e.invalidForced, 0L);
                    QCOMPARE(e.invalidAvoided, e.nonViolations);
                }
                if (u == CubeUpdateStrategy::Skip)
                    QCOMPARE(e.updates + e.wrongWithoutUpdate, e.rootWrong);
                if (u == CubeUpdateStrategy::SMax) QCOMPARE(e.updateNodes, e.updates);
                if (u == CubeUpdateStrategy::PMax) QVERIFY(e.updateNodes >= e.updates);
            }
            QVERIFY2(nonViolations > 0,
                     cubeUpdateName(u)); // beam 1 with higher-order parts: search loses gold
            QVERIFY(r.bestEpoch >= 1);
            QCOMPARE(r.model.training["update"].get<std::string>(), std::string(cubeUpdateName(u)));
            QCOMPARE(r.model.training["curve"].size(), std::size_t(3));
        }
    }

    void averagingIsTheMeanOfTheWeightsSeen() {
        // Replay one epoch naively: plain weights, updated by the same steps, summed after each
        // example (and the initial zero vector); the trainer's averaged weights must equal the
        // mean.
        auto o = smallOptions(CubeUpdateStrategy::PMax);
        o.epochs = 1;
        const auto r = trainCubeModel(train(), dev(), o);
        std::vector<int> order(train().size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = static_cast<int>(i);
        SplitMix64 rng(o.seed, 1);
        shuffleInPlace(order, rng);
        HashedWeights w = HashedWeights::zeros(o.hashBits);
        std::vector<double> sum(w.dim(), 0.0);
        CubeOptions co;
        co.beam = o.beam;
        CubePruner pruner(co);
        for (int idx : order) {
            const DepSentence& s = train()[static_cast<std::size_t>(idx)];
            const CubeScorer sc(w, s, o.features);
            pruner.parse(sc);
            const GoldDerivation g = goldDerivation(pruner, sc, s.heads);
            const CubeUpdateChoice c = chooseCubeUpdate(g, o.update);
            if (c.update) applyCubeUpdate(w, cubeUpdatePairs(pruner.chart(), sc, g, c.nodes));
            for (std::size_t i = 0; i < w.dim(); ++i)
                sum[i] += w.w[i];
        }
        const double states = static_cast<double>(order.size()) + 1.0;
        double maxErr = 0;
        long nonZero = 0;
        for (std::size_t i = 0; i < w.dim(); ++i) {
            maxErr = std::max(maxErr, std::abs(sum[i] / states - r.model.weights.w[i]));
            nonZero += r.model.weights.w[i] != 0.0f;
        }
        QVERIFY(nonZero > 100);
        QVERIFY2(maxErr < 1e-4, qPrintable(QString::number(maxErr)));
    }

    void learningImprovesDevUas() {
        auto o = smallOptions(CubeUpdateStrategy::SMax);
        o.epochs = 2;
        const auto r = trainCubeModel(shortSentences("train", 15, 300), dev(), o);
        QVERIFY2(r.epochs.back().devUas > 50.0,
                 qPrintable(QString::number(r.epochs.back().devUas)));
    }

    void cancelKeepsFinishedEpochs() {
        Progress progress([](const ProgressUpdate&) {});
        auto o = smallOptions(CubeUpdateStrategy::Skip);
        o.epochs = 5;
        const auto r = trainCubeModel(train(), dev(), o, progress, [&](const CubeTrainResult& so) {
            if (so.epochs.size() == 2) progress.requestCancel();
        });
        QVERIFY(r.cancelled);
        QCOMPARE(static_cast<int>(r.epochs.size()), 2);
        QVERIFY(r.bestEpoch >= 1);
    }

    void badOptions() {
        auto o = smallOptions(CubeUpdateStrategy::Skip);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainCubeModel({}, dev(), o));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainCubeModel(train(), {}, o));
        o.beam = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainCubeModel(train(), dev(), o));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseCubeUpdate("max"));
        QCOMPARE(parseCubeUpdate("pmax"), CubeUpdateStrategy::PMax);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseCubeFeatureSet("arc+trisib"));
        QCOMPARE(cubeFeatureSetName(parseCubeFeatureSet("arc+gp")), std::string("arc+gp"));
    }

    void modelFileRoundTripAndValidation() {
        auto o = smallOptions(CubeUpdateStrategy::PMax);
        o.epochs = 1;
        const auto r = trainCubeModel(train(), dev(), o);
        const std::string dir = testdata::tempDir("cube-model");
        const std::string path = dir + "/m.json";
        saveCubeModel(r.model, path);
        const CubeModel back = loadCubeModel(path);
        QCOMPARE(back.weights.w, r.model.weights.w);
        QCOMPARE(back.beam, r.model.beam);
        QCOMPARE(back.features, r.model.features);
        // the decoder reproduces the training-time dev score
        const auto d = evaluateDepCorpus(dev(), cubeDecoder(back, back.beam));
        QCOMPARE(d.total.uas(), r.epochs.back().devUas);
        // validation names the field
        auto j = cubeModelToJson(r.model);
        auto expectError = [&](nlohmann::json doc, const char* needle) {
            try {
                cubeModelFromText(doc.dump(), "m.json");
                QFAIL("no error");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find(needle) != std::string::npos, e.what());
                QVERIFY(std::string(e.what()).find("m.json") != std::string::npos);
            }
        };
        auto k = j;
        k["format"] = "prunescope-dep-model";
        expectError(k, "format");
        k = j;
        k["beam"] = 0;
        expectError(k, "beam");
        k = j;
        k["parts"] = "arc+x";
        expectError(k, "parts");
        k = j;
        k.erase("singleRoot");
        expectError(k, "singleRoot");
        k = j;
        k["weights"]["index"][0] = -3;
        expectError(k, "index");
        k = j;
        k["version"] = 2;
        expectError(k, "version");
        {
            std::ofstream f(dir + "/broken.json");
            f << "{\n  \"format\": \"prunescope-cube-model\",\n  oops\n}\n";
        }
        try {
            loadCubeModel(dir + "/broken.json");
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.line(), 3);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, loadCubeModel(dir + "/missing.json"));
    }

    // Issue 44: a trained model as saveCubeModel writes it (one line) and pretty-printed; each
    // value replaced by one of the wrong type is refused at its own line:column.
    void wrongTypedFieldsNameTheirLineAndColumn() {
        auto o = smallOptions(CubeUpdateStrategy::PMax);
        o.epochs = 1;
        const std::string dir = testdata::tempDir("cube-model-typed");
        const std::string path = dir + "/m.json", pretty = dir + "/pretty.json";
        saveCubeModel(trainCubeModel(train(), dev(), o).model, path, WeightsForm::Json);
        writeFileAtomically(pretty, nlohmann::json::parse(readFile(path)).dump(1));
        const auto refusedAt = [&](const char* pointer, const char* replacement,
                                   const char* message) {
            const auto load = [](const std::string& p) { (void)loadCubeModel(p); };
            for (const std::string& file : {path, pretty}) {
                const std::string r =
                    testdata::errorAtReplacedValue(file, pointer, replacement, message, load);
                QVERIFY2(r.empty(), r.c_str());
            }
        };
        refusedAt("/beam", "\"2\"", "must be an integer");
        refusedAt("/beam", "2.5", "must be an integer");
        refusedAt("/parts", "3", "must be a string");
        refusedAt("/singleRoot", "\"true\"", "true or false");
        refusedAt("/featureTemplates", "null", "must be a string");
        refusedAt("/version", "1.0", "must be an integer");
        refusedAt("/weights/hashBits", "16.0", "'hashBits' must be an integer");
        refusedAt("/weights/value/2", "null", "not a number");
        QCOMPARE(loadCubeModel(pretty).beam, 2); // put back as it was
    }

    void oversizedSentencesAreInputErrors() {
        auto o = smallOptions(CubeUpdateStrategy::PMax);
        o.epochs = 1;
        const CubeModel model = trainCubeModel(train(), dev(), o).model;
        DepSentence longOne;
        for (int i = 0; i < 600; ++i)
            longOne.addToken("word", "NN", i == 0 ? 0 : 1);
        longOne.file = "long.dp";
        longOne.line = 7;
        try {
            cubeDecoder(model, 64)(longOne);
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("long.dp:7") != std::string::npos, e.what());
            QVERIFY(std::string(e.what()).find("beam") != std::string::npos);
        }
        DepSentence empty;
        empty.file = "empty.dp";
        QVERIFY_THROWS_EXCEPTION(InputError, cubeDecoder(model, 4)(empty));
        // a long sentence at a small beam is fine
        DepSentence shorter;
        for (int i = 0; i < 120; ++i)
            shorter.addToken("word", "NN", i == 0 ? 0 : 1);
        QVERIFY(cubeDecoder(model, 1)(shorter).success);
    }

    void pairedUasTestAndHolm() {
        std::vector<AttachmentScore> a(50), b(50);
        for (int i = 0; i < 50; ++i) {
            a[static_cast<std::size_t>(i)].scoredTokens =
                b[static_cast<std::size_t>(i)].scoredTokens = 20;
            a[static_cast<std::size_t>(i)].scoredCorrect = 18;
            b[static_cast<std::size_t>(i)].scoredCorrect = i % 5 == 0 ? 18 : 15;
        }
        const auto same = pairedUasPermutationTest(a, a, 2000, 3);
        QCOMPARE(same.pValue, 1.0);
        QCOMPARE(same.difference, 0.0);
        const auto diff = pairedUasPermutationTest(a, b, 2000, 3);
        QVERIFY(diff.pValue < 0.001);
        QVERIFY(std::abs(diff.uasA - 90.0) < 1e-9);
        QCOMPARE(diff.pValue, pairedUasPermutationTest(a, b, 2000, 3).pValue);
        // a one-sentence difference of one token is not significant
        auto c = a;
        c[0].scoredCorrect = 17;
        QVERIFY(pairedUasPermutationTest(a, c, 2000, 3).pValue > 0.5);
        b.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pairedUasPermutationTest(a, b));
        // Holm: sorted p (0.01, 0.02, 0.03, 0.5) * (4, 3, 2, 1) = (0.04, 0.06, 0.06, 0.5)
        const auto h = holmAdjust({0.03, 0.5, 0.01, 0.02});
        const std::vector<double> expect{0.06, 0.5, 0.04, 0.06};
        for (std::size_t i = 0; i < h.size(); ++i)
            QVERIFY(std::abs(h[i] - expect[i]) < 1e-12);
        QCOMPARE(holmAdjust({0.9, 0.8})[0], 1.0);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestCubeTraining)
#include "test_cube_training.moc"
