// The bias experiment (Bouchard-Côté et al. 2009, sec. 4.1): fixed masks at both ends of the grid,
// the best fixed mask of no greater cost, determinism across thread counts, the statistics, and
// the plot redrawn from JSON; the acceptance command `prunescope-cli randomized ... --json` against
// the core experiment it runs.
#include "core/grammar/GrammarFile.h"
#include "core/mcmc/BiasExperiment.h"
#include "core/mcmc/BiasPlotSvg.h"
#include "core/policy/Policy.h"
#include "core/treebank/Normalize.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"
#include <QProcess>

#include <cmath>

using namespace prunescope;

namespace {
std::vector<std::vector<std::string>> devSentences(int count, int minLen, int maxLen) {
    std::vector<std::vector<std::string>> out;
    for (const Tree& t : testdata::normalizedTrees("dev")) {
        if (t.size() < minLen || t.size() > maxLen) continue;
        out.push_back(t.words());
        if (static_cast<int>(out.size()) == count) break;
    }
    return out;
}
const Policy& policy() {
    static const Policy p =
        loadPolicy(testdata::sourceDir() + "/samples/policies/baseline-w256.json");
    return p;
}
int count(const std::string& s, const std::string& what) {
    int c = 0;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
        ++c;
    return c;
}

struct CliRun {
    int exitCode = -1;
    QByteArray out, err;
};
CliRun runCli(const QStringList& args) {
    QProcess p;
    p.start(QString::fromStdString(testdata::binaryDir() + "/app/prunescope-cli"), args);
    CliRun r;
    if (!p.waitForFinished(120000)) return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}
} // namespace

class TestBiasExperiment : public QObject {
    Q_OBJECT
  private slots:
    void fixedMasksAndBudget() {
        const Grammar& g = testdata::trainGrammar();
        auto sentences = devSentences(4, 6, 14);
        sentences.push_back({"a", "b"}); // two unknown words: parses, no prunable span
        BiasExperimentOptions opt;
        opt.iterations = 8;
        opt.repeats = 2;
        opt.thresholds = {0.0, 0.5, 2.0};
        opt.oracleThresholds = {1e-9, 2.0};
        const BiasExperimentResult r = runBiasExperiment(g, sentences, policy(), {&policy()}, opt);
        QCOMPARE(r.options.checkpoints, (std::vector<int>{1, 2, 4, 8}));
        QCOMPARE(static_cast<int>(r.sentences.size()) + r.skipped, 5);
        const auto fixed = r.fixedMasks();
        QCOMPARE(fixed.size(), std::size_t(4));     // three thresholds and the policy's mask
        QCOMPARE(fixed[0].pushes, r.exactPushes()); // threshold 0 keeps every span: exact
        QCOMPARE(fixed[0].spanL1, 0.0);
        QCOMPARE(fixed[0].ruleL1, 0.0);
        QVERIFY(fixed[2].spanL1 > fixed[1].spanL1); // pruning everything is the most biased
        QVERIFY(fixed[2].pushes < fixed[1].pushes);
        QCOMPARE(fixed[3].method, std::string("policy-mask"));
        QCOMPARE(fixed[3].pushes, fixed[1].pushes); // the policy's own mask: its threshold 0.5
        QCOMPARE(r.oracleMasks()[0].spanL1, 0.0);   // keeping every span with posterior > 1e-9
        // The best fixed mask of no greater cost respects the budget and is the least biased such.
        for (std::size_t c = 0; c < r.options.checkpoints.size(); ++c) {
            const BiasSummary rs = r.randomized(c);
            const auto best = r.bestFixedMask(rs.pushes);
            QVERIFY(best.has_value());
            QVERIFY(best->pushes <= rs.pushes);
            for (const auto& f : fixed)
                if (f.pushes <= rs.pushes) QVERIFY(best->spanL1 <= f.spanL1);
            QVERIFY(rs.spanL1Sd >= 0);
        }
        QVERIFY(!r.bestFixedMask(-1).has_value());
        // Comparisons: one row per checkpoint, p-values in (0, 1], Holm >= raw.
        const auto cmp = r.comparisons(200);
        QCOMPARE(cmp.size(), r.options.checkpoints.size());
        for (const auto& c : cmp) {
            QVERIFY(c.pValue > 0 && c.pValue <= 1);
            QVERIFY(c.pHolm >= c.pValue);
        }
        // Deterministic for any thread count.
        opt.threads = 2;
        const BiasExperimentResult r2 = runBiasExperiment(g, sentences, policy(), {&policy()}, opt);
        QCOMPARE(r2.randomized(3).spanL1, r.randomized(3).spanL1);
        QCOMPARE(r2.randomized(3).pushes, r.randomized(3).pushes);
        // The plot, from the result and redrawn from its JSON, is the same picture.
        const std::string svg = biasPlotSvg(BiasPlotData::from(r));
        QCOMPARE(biasPlotSvg(BiasPlotData::fromJson(r.toJson())), svg);
        QCOMPARE(count(svg, "class=\"series\""),
                 3); // randomized, tic-tac-toe, oracle (the policy: points only)
        QVERIFY(count(svg, "class=\"point\"") >= 4 + 3 + 1 + 2);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 BiasPlotData::fromJson(nlohmann::json{{"exactPushes", 1}}));
        opt.iterations = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 runBiasExperiment(g, sentences, policy(), {}, opt));
    }

    // The interface the acceptance checks use: `randomized --grammar G --treebank DIR --max-len N
    // --iterations K --seed S --json` prints pushes and biasL1 of the randomized run and
    // fixedMaskPushes and fixedMaskBiasL1 of the best fixed mask of no greater cost, equal to the
    // core experiment on the same sentences (bundled grammar and figure-of-merit policy); with
    // --repeats, the same keys per run; a missing treebank is an error naming it.
    void acceptanceCommand() {
        const std::string grammarPath = testdata::sourceDir() + "/samples/grammar.gram";
        const QString dev = QString::fromStdString(testdata::ptbDir("dev"));
        const QStringList base = {"randomized",
                                  "--grammar",
                                  QString::fromStdString(grammarPath),
                                  "--treebank",
                                  dev,
                                  "--max-len",
                                  "12",
                                  "--iterations",
                                  "4",
                                  "--seed",
                                  "3",
                                  "--limit",
                                  "3",
                                  "--permutations",
                                  "100"};
        const CliRun run = runCli(base + QStringList{"--json"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const auto j = nlohmann::json::parse(run.out.toStdString(), nullptr, false);
        QVERIFY(!j.is_discarded());
        for (const char* key : {"pushes", "biasL1", "fixedMaskPushes", "fixedMaskBiasL1"})
            QVERIFY2(j.contains(key) && j[key].is_number(), key);

        const Grammar g = loadGrammar(grammarPath);
        std::vector<std::vector<std::string>> sentences;
        for (const Tree& t : readNormalizedTreebank(testdata::ptbDir("dev"))) {
            if (t.size() > 12) continue;
            sentences.push_back(t.words());
            if (sentences.size() == 3) break;
        }
        BiasExperimentOptions opt;
        opt.iterations = 4;
        opt.chain.seed = 3;
        const BiasExperimentResult r = runBiasExperiment(g, sentences, policy(), {&policy()}, opt);
        const BiasSummary last = r.randomized(r.options.checkpoints.size() - 1);
        const auto best = r.bestFixedMask(last.pushes);
        QVERIFY(best.has_value());
        QCOMPARE(j["sentences"].get<int>(), 3);
        QCOMPARE(j["iterations"].get<int>(), 4);
        QCOMPARE(j["seed"].get<int>(), 3);
        QCOMPARE(j["pushes"].get<double>(), last.pushes);
        QCOMPARE(j["biasL1"].get<double>(), last.spanL1);
        QCOMPARE(j["fixedMaskPushes"].get<double>(), best->pushes);
        QCOMPARE(j["fixedMaskBiasL1"].get<double>(), best->spanL1);
        QVERIFY(j["fixedMaskPushes"].get<double>() <= j["pushes"].get<double>());
        QCOMPARE(j["exactPushes"].get<double>(), r.exactPushes());

        const CliRun two = runCli(base + QStringList{"--repeats", "2", "--json"});
        QVERIFY2(two.exitCode == 0, two.err.constData());
        const auto j2 = nlohmann::json::parse(two.out.toStdString(), nullptr, false);
        QVERIFY(!j2.is_discarded() && j2.contains("runs") && j2["runs"].size() == 2);
        QCOMPARE(j2["runs"][0]["seed"].get<int>(), 3);
        QCOMPARE(j2["runs"][1]["seed"].get<int>(), 4);
        for (const auto& run1 : j2["runs"])
            for (const char* key : {"pushes", "biasL1", "fixedMaskPushes", "fixedMaskBiasL1"})
                QVERIFY2(run1.contains(key) && run1[key].is_number(), key);

        const CliRun missing =
            runCli({"randomized", "--grammar", QString::fromStdString(grammarPath), "--treebank",
                    "/nonexistent-treebank", "--json"});
        QVERIFY(missing.exitCode > 0);
        QVERIFY2(missing.err.contains("/nonexistent-treebank"), missing.err.constData());
    }

    void statistics() {
        // Holm: sorted p (0.01, 0.02, 0.04) x (3, 2, 1) = (0.03, 0.04, 0.04), monotone.
        const auto h = holmAdjust({0.04, 0.01, 0.02});
        QVERIFY(std::abs(h[1] - 0.03) < 1e-12);
        QVERIFY(std::abs(h[2] - 0.04) < 1e-12);
        QVERIFY(std::abs(h[0] - 0.04) < 1e-12);
        // Sign-flip test: identical samples give p = 1; a consistent large shift a small p.
        std::vector<double> a(40), b(40);
        for (int i = 0; i < 40; ++i)
            a[i] = b[i] = i;
        QCOMPARE(pairedSignFlipTest(a, b, 500, 1), 1.0);
        for (int i = 0; i < 40; ++i)
            a[i] = b[i] + 1 + 0.1 * (i % 3);
        QVERIFY(pairedSignFlipTest(a, b, 500, 1) < 0.01);
        QCOMPARE(pairedSignFlipTest(a, b, 500, 7), pairedSignFlipTest(a, b, 500, 7));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestBiasExperiment)
#include "test_bias_experiment.moc"
