// Pruning policy: evaluation, the versioned JSON file (round trip and every validation error),
// and atomic file writing.
#include "core/policy/LogisticRegression.h"
#include "core/policy/Policy.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>

using namespace prunescope;
using nlohmann::json;

namespace {

Policy samplePolicy() {
    Policy p;
    p.meta.training = {{"l2", 0.0001220703125},
                       {"sentences", 2901},
                       {"asymmetricWeight", 8.5},
                       {"nested", {{"list", {1, 2, 3}}, {"s", "x\"y\n"}}}};
    p.meta.lambda = 0.00123456789012345;
    p.meta.lambdaUnit = "F1 per constituent built";
    p.meta.devMetrics = {{"f1", 0.8123}, {"constituentsBuilt", 1234.5}};
    p.meta.grammar = "coarse-ptb-sample";
    p.meta.name = "baseline-w8.5";
    p.meta.kind = "baseline";
    p.threshold = 0.3f;
    std::mt19937 rng(42);
    std::normal_distribution<float> g(0, 2);
    for (int i = 0; i < 5000; ++i)
        p.weights[rng() % kFeatureDim] = g(rng);
    // Awkward values: subnormal, extremes, negative zero, values with long decimal forms.
    p.weights[0] = 1e-40f;
    p.weights[1] = -std::numeric_limits<float>::max();
    p.weights[2] = std::numeric_limits<float>::min();
    p.weights[3] = -0.0f;
    p.weights[4] = 0.1f;
    p.weights[kFeatureDim - 1] = 1.0f / 3.0f;
    return p;
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// Loads `text` as a policy file and returns the InputError message (fails the test if none).
std::string loadError(const std::string& text, const std::string& path, int* line = nullptr) {
    writeText(path, text);
    try {
        loadPolicy(path);
    } catch (const InputError& e) {
        if (e.file() != path) return "wrong file in error: " + e.file();
        if (line) *line = e.line();
        return e.what();
    }
    return "NO ERROR";
}

} // namespace

class TestPolicy : public QObject {
    Q_OBJECT
    std::string dir_;
    std::string good_; // text of a valid policy file
  private slots:
    void initTestCase() {
        dir_ = testdata::tempDir("policy");
        good_ = policyToJson(samplePolicy());
    }
    void keepProbabilityAndThreshold() {
        Policy p;
        p.weights[1] = 0.5f;
        p.weights[2] = -0.2f;
        const std::vector<uint32_t> f = {1, 2, 7};
        QVERIFY(std::abs(p.score(f) - 0.3) < 1e-7);
        QVERIFY(std::abs(p.keepProbability(f) - 1 / (1 + std::exp(-0.3))) < 1e-7); // 0.5744
        QVERIFY(p.keep(f));
        p.threshold = 0.6f;
        QVERIFY(!p.keep(f));
        p.weights[2] = -1000.0f; // no overflow far out in the tails
        QVERIFY(p.keepProbability(f) >= 0.0 && p.keepProbability(f) < 1e-300);
    }
    void roundTripIsBitIdentical() {
        const Policy p = samplePolicy();
        const std::string path = dir_ + "/p.json";
        savePolicy(p, path);
        const Policy q = loadPolicy(path);
        QCOMPARE(q.weights.size(), p.weights.size());
        QVERIFY(std::memcmp(q.weights.data(), p.weights.data(), sizeof(float) * kFeatureDim) == 0);
        QVERIFY(std::signbit(q.weights[3]));
        QVERIFY(q.meta == p.meta);
        QCOMPARE(q.meta.training["nested"]["s"].get<std::string>(), std::string("x\"y\n"));
        QCOMPARE(q.meta.lambda, p.meta.lambda);
        QCOMPARE(q.threshold, p.threshold);
        // Saving what was loaded reproduces the file byte for byte.
        QCOMPARE(policyFileText(q), readFile(path));
        // The file is sparse: about 5000 entries of 8 bytes, not 2^22.
        QVERIFY(readFile(path).size() < 60000);
        // The JSON form holds the same policy, and is still read.
        savePolicy(p, path, WeightsForm::Json);
        QCOMPARE(policyToJson(q), readFile(path));
        const Policy r = loadPolicy(path);
        QVERIFY(std::memcmp(r.weights.data(), p.weights.data(), sizeof(float) * kFeatureDim) == 0);
        QVERIFY(r.meta == p.meta && r.threshold == p.threshold);
    }
    void unknownLambdaIsNull() {
        Policy p;
        QVERIFY(std::isnan(p.meta.lambda));
        const json j = json::parse(policyToJson(p));
        QVERIFY(j["meta"]["lambda"].is_null());
        QVERIFY(j["weights"]["index"].empty());
        const Policy q = policyFromJson(policyToJson(p), "mem");
        QVERIFY(std::isnan(q.meta.lambda));
        QVERIFY(q.meta == p.meta);
    }
    void fileLayout() {
        const json j = json::parse(good_);
        QCOMPARE(j["format"].get<std::string>(), std::string("prunescope-policy"));
        QCOMPARE(j["version"].get<int>(), 1);
        QCOMPARE(j["meta"]["hashBits"].get<int>(), 22);
        QCOMPARE(j["meta"]["featureSetVersion"].get<int>(), 1);
        QCOMPARE(j["meta"]["kind"].get<std::string>(), std::string("baseline"));
        const auto& idx = j["weights"]["index"];
        QVERIFY(idx.size() > 4000);
        for (size_t i = 1; i < idx.size(); ++i)
            QVERIFY(idx[i - 1].get<int64_t>() < idx[i].get<int64_t>());
        QCOMPARE(static_cast<float>(j["weights"]["value"][4].get<double>()), 0.1f);
        QVERIFY(good_.find(",0.1,") != std::string::npos); // shortest float text, not 0.100000001
    }
    void validationErrors_data() {
        QTest::addColumn<QString>("pointer");  // JSON pointer to change ("" = none)
        QTest::addColumn<QString>("newValue"); // JSON text, or "DELETE"
        QTest::addColumn<QString>("expected"); // substring of the message
        QTest::newRow("format") << "/format"
                                << "\"other\""
                                << "format is 'other'";
        QTest::newRow("version") << "/version"
                                 << "2"
                                 << "unsupported version 2";
        QTest::newRow("version type") << "/version"
                                      << "\"1\""
                                      << "'version' must be an integer";
        QTest::newRow("hashBits") << "/meta/hashBits"
                                  << "20"
                                  << "meta.hashBits is 20, expected 22";
        QTest::newRow("featureSet") << "/meta/featureSetVersion"
                                    << "7"
                                    << "featureSetVersion is 7";
        QTest::newRow("threshold range") << "/threshold"
                                         << "1.5"
                                         << "'threshold' must be a number in [0, 1]";
        QTest::newRow("name type") << "/meta/name"
                                   << "3"
                                   << "'meta.name' must be a string";
        QTest::newRow("lambda type") << "/meta/lambda"
                                     << "\"big\""
                                     << "'meta.lambda' must be a number or null";
        QTest::newRow("meta type") << "/meta"
                                   << "[]"
                                   << "'meta' must be an object";
        QTest::newRow("index range") << "/weights/index/3"
                                     << "4194304"
                                     << "weights.index[3] = 4194304 is not in";
        QTest::newRow("index negative") << "/weights/index/0"
                                        << "-1"
                                        << "weights.index[0] = -1 is not in";
        QTest::newRow("index float") << "/weights/index/0"
                                     << "1.5"
                                     << "weights.index[0] = 1.5 is not in";
        QTest::newRow("duplicate") << "/weights/index/1"
                                   << "0"
                                   << "repeats feature 0";
        QTest::newRow("value null") << "/weights/value/2"
                                    << "null"
                                    << "weights.value[2] is not a finite number";
        QTest::newRow("mismatch") << "/weights/value/0"
                                  << "DELETE"
                                  << "but weights.value has";
        QTest::newRow("index type") << "/weights/index"
                                    << "{}"
                                    << "'weights.index' must be an array";
        for (const char* f :
             {"/format", "/version", "/threshold", "/meta", "/weights", "/weights/index",
              "/weights/value", "/meta/featureSetVersion", "/meta/hashBits", "/meta/training",
              "/meta/lambda", "/meta/lambdaUnit", "/meta/devMetrics", "/meta/grammar", "/meta/name",
              "/meta/kind"}) {
            std::string field = std::string(f).substr(1);
            std::replace(field.begin(), field.end(), '/', '.');
            QTest::newRow(("missing " + field).c_str())
                << f << "DELETE" << QString::fromStdString("missing field '" + field + "'");
        }
    }
    void validationErrors() {
        QFETCH(QString, pointer);
        QFETCH(QString, newValue);
        QFETCH(QString, expected);
        json j = json::parse(good_);
        const json::json_pointer ptr(pointer.toStdString());
        if (newValue == "DELETE")
            j[ptr.parent_pointer()].erase(j[ptr.parent_pointer()].is_array()
                                              ? j[ptr.parent_pointer()].begin() +
                                                    std::stoi(ptr.back())
                                              : j[ptr.parent_pointer()].find(ptr.back()));
        else
            j[ptr] = json::parse(newValue.toStdString());
        const std::string path = dir_ + "/bad.json";
        const std::string msg = loadError(j.dump(1), path);
        QVERIFY2(msg.find(expected.toStdString()) != std::string::npos, msg.c_str());
        QVERIFY2(msg.rfind(path, 0) == 0, msg.c_str()); // names the file first
    }
    void badJsonReportsLine() {
        std::string text = good_;
        const auto pos = text.find("\"version\": 1,");
        QVERIFY(pos != std::string::npos);
        text.insert(pos + 13, ","); // "version": 1,, on line 3
        int line = 0;
        const std::string path = dir_ + "/broken.json";
        const std::string msg = loadError(text, path, &line);
        QCOMPARE(line, 3);
        QVERIFY2(msg.rfind(path + ":3:", 0) == 0, msg.c_str());
        QVERIFY2(msg.find("invalid JSON") != std::string::npos, msg.c_str());
        // Truncated file: error at the end, line = last line.
        int line2 = 0;
        loadError(good_.substr(0, good_.size() / 2), path, &line2);
        QVERIFY(line2 >= 5);
        QVERIFY(loadError("[1, 2]", path).find("top level must be a JSON object") !=
                std::string::npos);
        QVERIFY(loadError("", path).find("invalid JSON") != std::string::npos);
    }
    void missingFileNamesIt() {
        const std::string path = dir_ + "/does-not-exist.json";
        try {
            loadPolicy(path);
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), path);
            QVERIFY(std::string(e.what()).find("cannot open") != std::string::npos);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, readFile(dir_)); // a directory
    }
    void atomicWriteReplacesAndLeavesNoTemporaries() {
        const std::string path = dir_ + "/atomic/file.txt";
        std::filesystem::create_directories(dir_ + "/atomic");
        writeFileAtomically(path, "first");
        writeFileAtomically(path, std::string(100000, 'x'));
        QCOMPARE(readFile(path), std::string(100000, 'x'));
        writeFileAtomically(path, "");
        QCOMPARE(readFile(path), std::string());
        int entries = 0;
        for (const auto& e : std::filesystem::directory_iterator(dir_ + "/atomic")) {
            (void)e;
            ++entries;
        }
        QCOMPARE(entries, 1);
        QVERIFY_THROWS_EXCEPTION(InputError, writeFileAtomically(dir_ + "/no/such/dir/f", "x"));
        QVERIFY_THROWS_EXCEPTION(InputError, savePolicy(Policy{}, dir_ + "/no/such/dir/p.json"));
    }
    void refusesUnsavablePolicies() {
        Policy p;
        p.weights[5] = std::numeric_limits<float>::infinity();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, policyToJson(p));
        Policy q;
        q.weights.resize(10);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, policyToJson(q));
    }
    void trainedPolicyDecisionsSurviveSaveLoad() {
        // A real policy: logistic regression on dev-set spans; decisions identical after reload.
        const auto trees = readNormalizedTreebank(testdata::ptbDir("dev"), 120);
        std::vector<WeightedExample> data;
        std::vector<SentenceFeatures> sents;
        for (size_t s = 0; s < trees.size() && s < 120; ++s) {
            const Tree& t = trees[s];
            std::set<std::pair<int, int>> gold;
            for (const auto& sp : labeledSpans(t))
                gold.insert({sp.begin, sp.end});
            sents.emplace_back(t.words());
            const int n = sents.back().length();
            for (int i = 0; i < n; ++i)
                for (int k = i + 2; k <= n && k - i < n; ++k) {
                    const auto f = sents.back().features(i, k);
                    const int y = gold.count({i, k}) ? 1 : 0;
                    data.push_back({std::vector<uint32_t>(f.begin(), f.end()), y, y ? 5.0 : 1.0});
                }
        }
        Policy p;
        p.weights = trainLogisticRegression(data, LogRegOptions{}).weights;
        p.meta.kind = "baseline";
        p.meta.name = "dev120";
        const std::string path = dir_ + "/trained.json";
        savePolicy(p, path);
        const Policy q = loadPolicy(path);
        long kept = 0, total = 0;
        for (const auto& sf : sents)
            for (int i = 0; i < sf.length(); ++i)
                for (int k = i + 2; k <= sf.length() && k - i < sf.length(); ++k) {
                    const auto f = sf.features(i, k);
                    QCOMPARE(q.keepProbability(f), p.keepProbability(f));
                    kept += q.keep(f);
                    ++total;
                }
        QVERIFY(kept > total / 50 && kept < total / 2); // a real pruner: prunes most, keeps some
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestPolicy)
#include "test_policy.moc"
