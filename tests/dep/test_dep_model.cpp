// Dependency features, models, training, evaluation and the pruning pipeline (core/dep): feature
// keys; scores under a mask equal unmasked scores bit for bit; model files round-trip and reject
// bad input; perceptron and MIRA learn on a slice of the sample, deterministically; UAS
// conventions; a wrong-typed field of a model file is an error at its file:line:column.
#include "core/dep/BruteForce.h"
#include "core/dep/DepModel.h"
#include "core/dep/DepPipeline.h"
#include "core/dep/DepReader.h"
#include "core/dep/DepTraining.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "support/InputErrors.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>

using namespace prunescope;

namespace {
DepSentence sample() {
    return readDepTreebankString(
        "The\tDT\t2\nold\tJJ\t3\ndog\tNN\t4\nbarks\tVBZ\t0\nat\tIN\t4\nthe\tDT\t8\nbig\tJJ\t8\n"
        "cat\tNN\t5\non\tIN\t4\nTuesday\tNNP\t9\n,\t,\t4\nloudly\tRB\t4\n.\t.\t4\n",
        DepFormat::DepSample, "s.dp")[0];
}
std::vector<DepSentence> slice(const std::vector<DepSentence>& v, std::size_t n) {
    return {v.begin(), v.begin() + static_cast<long>(std::min(n, v.size()))};
}
} // namespace

class TestDepModel : public QObject {
    Q_OBJECT
  private slots:
    void arcFeatureKeysCountAndDeterminism() {
        const DepSentence s = sample();
        const SentenceAtoms a(s);
        std::vector<std::uint64_t> k1, k2;
        arcFeatureKeys(a, 4, 5, k1); // adjacent: no in-between features
        QCOMPARE(k1.size(), std::size_t(50));
        arcFeatureKeys(a, 4, 5, k2);
        QCOMPARE(k1, k2);
        // 0 -> 13: twelve tokens in between (long-gap path); distinct tags DT JJ NN VBZ IN NNP , RB
        k1.clear();
        arcFeatureKeys(a, 0, 13, k1);
        QCOMPARE(k1.size(), std::size_t(50 + 2 * 8 + 2 * 7)); // 7 distinct universal tags
        // 4 -> 1: two tokens in between (short-gap path): JJ NN -> ADJ NOUN
        k1.clear();
        arcFeatureKeys(a, 4, 1, k1);
        QCOMPARE(k1.size(), std::size_t(50 + 2 * 2 + 2 * 2));
        // 8 -> 6: 'big' in between, distinct from 'the'
        k2.clear();
        arcFeatureKeys(a, 8, 6, k2);
        QCOMPARE(std::set<std::uint64_t>(k2.begin(), k2.end()).size(), k2.size());
        QCOMPARE(universalTag("VBZ"), std::string("VERB"));
        QCOMPARE(universalTag("-LRB-"), std::string("."));
        QCOMPARE(distanceBucket(-7), 6);
        QCOMPARE(distanceBucket(40), 8);
    }

    // The contract of the per-token template prefixes: arcFeatureKeys = arcFeatureKeysNaive, key
    // for key, on every arc of dev sentences (long and short gaps, the root, both sentence edges)
    // and of a one-word sentence; and arcFeatureKeysBound bounds the keys of each.
    void arcKeysEqualTheNaiveTemplates() {
        auto dev = slice(readDepTreebank(testdata::depDir("dev")), 40);
        dev.push_back(sample());
        DepSentence one;
        one.addToken("Go", "VB", 0);
        dev.push_back(one);
        long arcs = 0;
        std::vector<std::uint64_t> fast, naive;
        for (const auto& s : dev) {
            const SentenceAtoms a(s);
            for (int h = 0; h <= s.size(); ++h)
                for (int m = 1; m <= s.size(); ++m) {
                    if (h == m) continue;
                    fast.assign(1, 7u); // appends after what is there
                    naive.assign(1, 7u);
                    arcFeatureKeys(a, h, m, fast);
                    arcFeatureKeysNaive(a, h, m, naive);
                    if (fast != naive)
                        QFAIL(qPrintable(QStringLiteral("arc %1 -> %2 of a %3-word sentence")
                                             .arg(h)
                                             .arg(m)
                                             .arg(s.size())));
                    // arcFeatureKeys writes into room of arcFeatureKeysBound keys: never more keys
                    // than that, and exactly that many when nothing lies between h and m.
                    const std::size_t bound = arcFeatureKeysBound(a, h, m),
                                      written = fast.size() - 1;
                    if (written > bound || (std::abs(h - m) == 1 && written != bound))
                        QFAIL(qPrintable(QStringLiteral("arc %1 -> %2: %3 keys, bound %4")
                                             .arg(h)
                                             .arg(m)
                                             .arg(written)
                                             .arg(bound)));
                    ++arcs;
                }
        }
        QVERIFY(arcs > 10000);
    }

    void maskedScoresEqualUnmaskedBitForBit() {
        const DepSentence s = sample();
        DepModel m;
        m.weights = HashedWeights::zeros(16);
        for (std::size_t i = 0; i < m.weights.w.size(); ++i)
            m.weights.w[i] = static_cast<float>((i * 2654435761u) % 1000) / 997.0f - 0.5f;
        const DepScorer sc(m, s);
        ArcMask mask = ArcMask::allKeep(s.size());
        for (int h = 0; h <= s.size(); ++h)
            for (int d = 1; d <= s.size(); ++d)
                if (h != d && (h + d) % 3 == 0) mask.set(h, d, false);
        const ArcScores full = sc.arcScores(), part = sc.arcScores(&mask);
        for (int h = 0; h <= s.size(); ++h)
            for (int d = 1; d <= s.size(); ++d) {
                if (h == d) continue;
                if (mask.keep(h, d))
                    QVERIFY(std::memcmp(&full.s[static_cast<std::size_t>(h * (s.size() + 1) + d)],
                                        &part.s[static_cast<std::size_t>(h * (s.size() + 1) + d)],
                                        sizeof(float)) == 0);
                else
                    QCOMPARE(part(h, d), kDepNegInf);
            }
        // the parse under the mask keeps to it; second order too
        m.order = 2;
        EisnerParser p(m.eisnerOptions());
        QVERIFY(mask.keepsTree(parseWithModel(m, s, &mask, p).heads));
    }

    // DepSentenceFeatures (the pipeline's shared arc keys) scores every arc as DepScorer does,
    // cached or not, and its parse equals parseWithModel's on real dev sentences.
    void sentenceFeaturesScoreAsDepScorerBitForBit() {
        const auto dev = slice(readDepTreebank(testdata::depDir("dev")), 12);
        DepModel m;
        m.order = 2;
        m.weights = HashedWeights::zeros(18);
        for (std::size_t i = 0; i < m.weights.w.size(); ++i)
            m.weights.w[i] = static_cast<float>((i * 2654435761u) % 1000) / 997.0f - 0.5f;
        EisnerParser p1(m.eisnerOptions()), p2(m.eisnerOptions());
        long arcs = 0;
        for (const auto& s : dev) {
            const int n = s.size();
            const DepScorer sc(m, s);
            DepSentenceFeatures f(s);
            ArcMask mask = ArcMask::allKeep(n);
            for (int h = 0; h <= n; ++h)
                for (int d = 1; d <= n; ++d)
                    if (h != d && (h * 7 + d * 3) % 5 == 0) mask.set(h, d, false);
            // an uncached arc is scored without being stored; the first cached call stores it
            const float u = f.arcScore(m.weights, 0, 1, false);
            QCOMPARE(f.cachedArcs(), 0L);
            for (int pass = 0; pass < 2; ++pass) // build, then read back from the cache
                for (int h = 0; h <= n; ++h)
                    for (int d = 1; d <= n; ++d) {
                        if (h == d || (h + d) % 2 != pass) continue;
                        const float a = sc.arc(h, d), b = f.arcScore(m.weights, h, d),
                                    c = f.arcScore(m.weights, h, d, false);
                        QVERIFY(std::memcmp(&a, &b, sizeof(float)) == 0 &&
                                std::memcmp(&a, &c, sizeof(float)) == 0);
                        ++arcs;
                    }
            const float u0 = sc.arc(0, 1);
            QVERIFY(std::memcmp(&u, &u0, sizeof(float)) == 0);
            ArcScores viaFeatures;
            f.arcScores(m.weights, &mask, viaFeatures, false);
            QVERIFY(viaFeatures.s == sc.arcScores(&mask).s);
            QCOMPARE(f.cachedArcs(), static_cast<long>(n * n));
            DepSentenceFeatures fresh(s);
            const DepParse a = parseWithModel(m, s, &mask, p1),
                           b = parseWithModel(m, fresh, &mask, p2);
            QCOMPARE(b.heads, a.heads);
            QCOMPARE(b.stats.pushes, a.stats.pushes);
            QVERIFY(std::memcmp(&a.stats.score, &b.stats.score, sizeof(double)) == 0);
            QCOMPARE(fresh.cachedArcs(), 0L); // the final parse caches nothing
            // Batches that mix cached arcs and arcs built into the look-ahead buffers (cache =
            // false), and a caching batch on a fresh object: the same floats as DepScorer, the same
            // caching.
            DepSentenceFeatures mixed(s);
            long some = 0;
            for (int h = 0; h <= n; ++h)
                for (int d = 1; d <= n; ++d)
                    if (h != d && (h + 2 * d) % 3 == 0) {
                        mixed.arcScore(m.weights, h, d);
                        ++some;
                    }
            ArcScores viaMixed;
            mixed.arcScores(m.weights, &mask, viaMixed, false);
            QVERIFY(viaMixed.s == sc.arcScores(&mask).s);
            QCOMPARE(mixed.cachedArcs(), some);
            DepSentenceFeatures batch(s);
            std::vector<std::uint32_t> ids;
            for (int d = 1; d <= n; ++d)
                ids.push_back(batch.arcId(0, d));
            ArcScores viaBatch;
            viaBatch.reset(n);
            batch.scoreArcs(m.weights, ids, viaBatch);
            QCOMPARE(batch.cachedArcs(), static_cast<long>(n));
            for (int d = 1; d <= n; ++d) {
                const float a = sc.arc(0, d), b = viaBatch(0, d);
                QVERIFY(std::memcmp(&a, &b, sizeof(float)) == 0);
            }
        }
        QVERIFY(arcs > 2000);
    }

    void modelFileRoundTripAndValidation() {
        const std::string dir = testdata::tempDir("depmodel");
        DepModel m;
        m.order = 2;
        m.singleRoot = false;
        m.weights = HashedWeights::zeros(12);
        m.weights.w[5] = 0.1f;
        m.weights.w[4000] = -3.25e-7f;
        m.training = {{"learner", "mira"}};
        saveDepModel(m, dir + "/m.json");
        const DepModel r = loadDepModel(dir + "/m.json");
        QCOMPARE(r.order, 2);
        QCOMPARE(r.singleRoot, false);
        QCOMPARE(r.weights.w, m.weights.w); // floats survive JSON exactly
        QCOMPARE(r.training["learner"], nlohmann::json("mira"));
        auto expectBad = [&](const std::string& text, const std::string& what, int line = 0) {
            std::ofstream(dir + "/bad.json") << text;
            try {
                loadDepModel(dir + "/bad.json");
                QFAIL(("accepted: " + what).c_str());
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find(what) != std::string::npos, e.what());
                if (line) QCOMPARE(e.line(), line);
            }
        };
        nlohmann::json j = depModelToJson(m);
        auto with = [&](const char* key, nlohmann::json v) {
            nlohmann::json c = j;
            c[key] = std::move(v);
            return c.dump();
        };
        expectBad("{\n \"format\": \"prunescope-dep-model\",\n oops }", "invalid JSON", 3);
        expectBad(with("format", "x"), "'format'");
        expectBad(with("order", 4), "'order' must be 1, 2 or 3");
        expectBad(with("order", 0), "'order' must be 1, 2 or 3");
        expectBad(with("featureSet", "dep-v0"), "featureSet");
        expectBad(with("singleRoot", 1), "singleRoot");
        nlohmann::json w = j["weights"];
        w["index"] = {5, 4};
        w["value"] = {1.0, 2.0};
        expectBad(with("weights", w), "strictly ascending");
        w["index"] = {5, 4096};
        expectBad(with("weights", w), ">= 2^hashBits");
        w["index"] = {5};
        expectBad(with("weights", w), "'index' has 1 entries");
        w["value"] = {"x"};
        expectBad(with("weights", w), "not a number");
        w["hashBits"] = 40;
        expectBad(with("weights", w), "hashBits");
        QVERIFY_THROWS_EXCEPTION(InputError, loadDepModel(dir + "/missing.json"));
    }

    // Issue 44: the sample model, written again by saveDepModel (one line) and pretty-printed;
    // each value replaced by one of the wrong type is refused at its own line:column.
    void wrongTypedFieldsNameTheirLineAndColumn() {
        const std::string dir = testdata::tempDir("dep-model-typed");
        const std::string path = dir + "/m.json", pretty = dir + "/pretty.json";
        const DepModel sample = loadDepModel(testdata::samplePath("dep/model.json"));
        saveDepModel(sample, path, WeightsForm::Json);
        writeFileAtomically(pretty, nlohmann::json::parse(readFile(path)).dump(1));
        const auto load = [](const std::string& p) { (void)loadDepModel(p); };
        const std::vector<std::array<std::string, 3>> cases = {
            {"/order", "\"2\"", "must be an integer"},
            {"/singleRoot", "1", "true or false"},
            {"/version", "\"1\"", "must be an integer"},
            {"/format", "7", "must be a string"},
            {"/featureSet", "\"dep-v0\"", "'featureSet' must be"},
            {"/weights/hashBits", "\"18\"", "'hashBits' must be an integer"},
            {"/weights/index/1", "-1", "not a non-negative integer"},
            {"/weights/value/0", "\"x\"", "not a number"},
        };
        for (const auto& [pointer, replacement, message] : cases)
            QCOMPARE(testdata::errorAtReplacedValue(path, pointer, replacement, message, load),
                     std::string());
        // The binary form (what saveDepModel writes by default): the header's values, and the
        // weights block's descriptor, are located the same way.
        const std::string bin = dir + "/bin.json";
        saveDepModel(sample, bin);
        const std::vector<std::array<std::string, 3>> binaryCases = {
            {"/order", "\"2\"", "must be an integer"},
            {"/singleRoot", "1", "true or false"},
            {"/weights/hashBits", "27", "outside [1, 26]"},
            {"/weights/encoding", "\"f16\"", "unknown encoding"},
            {"/weights/offset", "-1", "must be a non-negative integer"},
            {"/weights/count", "3", "count must be 65536, not 3"},
            {"/binarySection/bytes", "5", "the header says 5"},
            {"/binarySection/checksum", "\"0\"", "checksum does not match"},
        };
        for (const auto& [pointer, replacement, message] : binaryCases) {
            const std::string r =
                testdata::errorAtReplacedValue(bin, pointer, replacement, message, load);
            QVERIFY2(r.empty(), r.c_str());
        }
        for (const auto& [pointer, replacement, message] : cases)
            QCOMPARE(testdata::errorAtReplacedValue(pretty, pointer, replacement, message, load),
                     std::string());
        QCOMPARE(loadDepModel(path).order, 1); // put back as it was
    }

    void attachmentScoresFollowThePunctuationConvention() {
        const DepSentence s = sample();
        std::vector<int> pred = s.heads;
        pred[11] = 10; // ',' wrong: punctuation, excluded from uas
        pred[1] = 3;   // 'The' wrong
        const AttachmentScore a = scoreAttachment(s, pred);
        QCOMPARE(a.tokens, 13L);
        QCOMPARE(a.scoredTokens, 11L); // ',' and '.' excluded
        QCOMPARE(a.scoredCorrect, 10L);
        QCOMPARE(a.correct, 11L);
        QCOMPARE(a.rootsCorrect, 1L);
        QCOMPARE(a.complete, 0L);
        pred[1] = 2;
        QCOMPARE(scoreAttachment(s, pred).complete, 1L); // only punctuation wrong
        QCOMPARE(scoreAttachment(s, pred).completeWithPunct, 0L);
        QVERIFY(isPunctuationTag("``") && isPunctuationTag("''") && isPunctuationTag(":") &&
                !isPunctuationTag("-LRB-") && !isPunctuationTag("$") && !isPunctuationTag("#"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scoreAttachment(s, std::vector<int>(3, 0)));
    }

    void perceptronAndMiraLearnDeterministically() {
        const auto train = slice(readDepTreebank(testdata::depDir("train")), 150);
        const auto dev = slice(readDepTreebank(testdata::depDir("dev")), 40);
        for (DepLearner l : {DepLearner::Perceptron, DepLearner::Mira}) {
            DepTrainOptions o;
            o.learner = l;
            o.epochs = 2;
            o.patience = 0;
            o.hashBits = 18;
            o.order = l == DepLearner::Mira ? 2 : 1;
            int epochsSeen = 0;
            const DepTrainResult a =
                trainDepModel(train, dev, o, {}, [&](const DepTrainResult&) { ++epochsSeen; });
            QCOMPARE(epochsSeen, 2);
            QCOMPARE(a.epochs.size(), std::size_t(2));
            QVERIFY2(a.epochs.back().devUas > 60.0,
                     qPrintable(QString::number(a.epochs.back().devUas)));
            QCOMPARE(a.model.order, o.order);
            QVERIFY(a.model.singleRoot);
            QCOMPARE(depModelUas(a.model, dev),
                     a.epochs[static_cast<std::size_t>(a.bestEpoch - 1)].devUas);
            const DepTrainResult b = trainDepModel(train, dev, o);
            QCOMPARE(b.model.weights.w, a.model.weights.w);
        }
    }

    // A third-order model's tree score from the parser's parts equals its weights' dot product with
    // treeFeatureKeys (what training adds and subtracts), on real dev sentences; the parse is the
    // best tree by brute force on the short ones.
    void thirdOrderScoresAreItsFeatureKeys() {
        const auto all = readDepTreebank(testdata::depDir("dev"));
        auto dev = slice(all, 30);
        for (const DepSentence& s : all)
            if (s.size() <= 8 && dev.size() < 45) dev.push_back(s);
        DepModel m;
        m.order = 3;
        m.weights = HashedWeights::zeros(18);
        for (std::size_t i = 0; i < m.weights.w.size(); ++i)
            m.weights.w[i] = static_cast<float>((i * 2654435761u) % 1000) / 997.0f - 0.5f;
        EisnerParser parser(m.eisnerOptions());
        std::vector<std::uint64_t> keys;
        int bruteForced = 0;
        for (const DepSentence& s : dev) {
            const DepScorer sc(m, s);
            const ArcScores arcs = sc.arcScores();
            keys.clear();
            treeFeatureKeys(sc.atoms(), s.heads, 3, keys);
            const double byKeys = m.weights.score(keys);
            const double byParts = thirdOrderTreeScore(arcs, s.heads, sc);
            QVERIFY2(std::abs(byKeys - byParts) < 1e-3 * (1 + std::abs(byParts)),
                     qPrintable(QString("%1 vs %2").arg(byKeys).arg(byParts)));
            // the batched scores the parser uses are the single calls' floats, bit for bit
            const int n = s.size();
            std::vector<int> gs;
            for (int g = 0; g <= n; ++g)
                if (g != 2) gs.push_back(g);
            std::vector<float> batch(gs.size());
            if (n >= 3) {
                sc.grandSiblings(gs, 2, 2, 3, batch.data());
                for (std::size_t i = 0; i < gs.size(); ++i) {
                    const float one = sc.grandSibling(gs[i], 2, 2, 3);
                    QVERIFY(std::memcmp(&one, &batch[i], sizeof(float)) == 0);
                }
                sc.grandparents(gs, 2, 3, batch.data());
                for (std::size_t i = 0; i < gs.size(); ++i) {
                    const float one = sc.grandparent(gs[i], 2, 3);
                    QVERIFY(std::memcmp(&one, &batch[i], sizeof(float)) == 0);
                }
            }
            const DepParse p = parseWithModel(m, s, nullptr, parser);
            QVERIFY(p.stats.success);
            const double got = thirdOrderTreeScore(arcs, p.heads, sc);
            QVERIFY(got >= byParts - 1e-3); // nothing beats the parser's tree, gold included
            if (s.size() > 8) continue;
            double best = -1e30;
            forEachProjectiveTree(s.size(), nullptr, true, [&](const std::vector<int>& h) {
                best = std::max(best, thirdOrderTreeScore(arcs, h, sc));
            });
            QVERIFY(std::abs(best - got) < 1e-3);
            ++bruteForced;
        }
        QVERIFY(bruteForced >= 10);
    }

    void thirdOrderPerceptronLearns() {
        const auto train = slice(readDepTreebank(testdata::depDir("train")), 80);
        const auto dev = slice(readDepTreebank(testdata::depDir("dev")), 20);
        DepTrainOptions o;
        o.order = 3;
        o.learner = DepLearner::Perceptron;
        o.epochs = 2;
        o.patience = 0;
        o.hashBits = 18;
        o.maxLength = 30;
        const DepTrainResult r = trainDepModel(train, dev, o);
        QCOMPARE(r.model.order, 3);
        QVERIFY2(r.epochs.back().devUas > 55.0,
                 qPrintable(QString::number(r.epochs.back().devUas)));
        QVERIFY(r.epochs.back().trainUas > r.epochs.front().trainUas);
        QCOMPARE(r.model.training["maxLength"].get<int>(), 30);
        // the model round-trips through its file with its order
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/o3.json").toStdString();
        saveDepModel(r.model, path);
        const DepModel back = loadDepModel(path);
        QCOMPARE(back.order, 3);
        QCOMPARE(depModelUas(back, dev), depModelUas(r.model, dev));
    }

    void cancelKeepsFinishedEpochs() {
        const auto train = slice(readDepTreebank(testdata::depDir("train")), 60);
        const auto dev = slice(readDepTreebank(testdata::depDir("dev")), 10);
        DepTrainOptions o;
        o.epochs = 5;
        o.patience = 0;
        o.hashBits = 16;
        Progress progress([](const ProgressUpdate&) {});
        const DepTrainResult r =
            trainDepModel(train, dev, o, progress, [&](const DepTrainResult& x) {
                if (x.epochs.size() == 2) progress.requestCancel();
            });
        QVERIFY(r.cancelled);
        QCOMPARE(r.epochs.size(), std::size_t(2));
        QVERIFY(r.bestEpoch >= 1);
    }

    // dep-eval's path: the pipeline's decoder with the Progress's cancel flag stops inside a
    // sentence's final parse (a stage requests the cancel after evaluateDepCorpus's own poll), and
    // evaluateDepCorpus returns the sentences finished before it, marked cancelled.
    void aCancelStopsTheFinalParseMidSentence() {
        const auto dev = slice(readDepTreebank(testdata::depDir("dev")), 6);
        DepModel m;
        m.order = 3;
        m.weights = HashedWeights::zeros(12);
        Progress progress([](const ProgressUpdate&) {});
        int seen = 0;
        DepPipeline p(m);
        p.addStage({"cancel at the third sentence", false,
                    [&](const DepSentence& s, const ArcMask&, DepSentenceFeatures&) {
                        if (++seen == 3) progress.requestCancel();
                        return StageResult{ArcMask::allKeep(s.size()), 0};
                    }});
        const DepCorpusResult r =
            evaluateDepCorpus(dev, p.decoder(progress.cancelFlag()), progress);
        QVERIFY(r.cancelled);
        QCOMPARE(r.sentences.size(), std::size_t(2));
        QCOMPARE(seen, 3);
        // without the flag the same decoder finishes the sentence it is in
        Progress other([](const ProgressUpdate&) {});
        seen = 0;
        const DepCorpusResult full = evaluateDepCorpus(dev, p.decoder(), other);
        QVERIFY(!full.cancelled);
        QCOMPARE(full.sentences.size(), dev.size());
    }

    void pipelineCountsArcsAndFallsBack() {
        const auto dev = slice(readDepTreebank(testdata::depDir("dev")), 8);
        DepModel m;
        m.weights = HashedWeights::zeros(12);
        DepPipeline goldOnly(m);
        goldOnly.addStage(
            {"gold", false, [&](const DepSentence& s, const ArcMask&, DepSentenceFeatures&) {
                 StageResult r{ArcMask::none(s.size()), 0};
                 for (int d = 1; d <= s.size(); ++d)
                     r.mask.set(s.heads[static_cast<std::size_t>(d)], d, true);
                 return r;
             }});
        const DepCorpusResult a = evaluateDepCorpus(dev, goldOnly.decoder());
        QCOMPARE(a.total.uas(), 100.0);
        QCOMPARE(a.arcsAtFirstExact, a.tokens); // exactly the gold arcs reach the parser
        QCOMPARE(a.fallbacks, 0);
        DepPipeline nothing(m);
        nothing.addStage(
            {"none", false, [](const DepSentence& s, const ArcMask&, DepSentenceFeatures&) {
                 return StageResult{ArcMask::none(s.size()), 0};
             }});
        const DepCorpusResult b = evaluateDepCorpus(dev, nothing.decoder());
        QCOMPARE(b.fallbacks, static_cast<int>(dev.size()));
        QCOMPARE(b.failures, 0);
        QCOMPARE(b.arcsKeptFraction(), 0.0);
        QCOMPARE(b.summaryJson()["sentences"].get<int>(), 8);
    }

    // A weight beyond float range (1e39) used to load as inf; it is refused at its line:column.
    void weightsOverflowingFloatAreLocated() {
        DepModel m;
        m.weights = HashedWeights::zeros(10);
        m.weights.w[3] = 0.5f;
        m.weights.w[7] = 0.25f;
        nlohmann::json j = depModelToJson(m);
        j["weights"]["value"][1] = 1e39;
        const std::string text = j.dump(1);
        const std::string path = testdata::tempDir("dep-model-overflow") + "/m.json";
        { std::ofstream(path) << text; }
        const std::size_t at = text.find("1e+39");
        QVERIFY(at != std::string::npos);
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
        try {
            (void)loadDepModel(path);
            QFAIL("a weight of 1e39 was accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), path);
            QCOMPARE(e.line(), line);
            QVERIFY(e.column() > 0);
            QVERIFY2(std::string(e.what()).find("overflows a float") != std::string::npos,
                     e.what());
        }
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestDepModel)
#include "test_dep_model.moc"
