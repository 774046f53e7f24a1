// LOLS evaluates a policy on the frontier's evaluation set (issue 42: "evaluates on the frontier's
// set exactly as the baselines were evaluated (same sentence filter)"): on WSJ dev <= 40 words,
// 1- and 2-word sentences included, the dev evaluation of a bundled baseline policy counts the
// sentences evaluateCorpus counts and gives its F1 and mean pushes exactly, for both surrogates; a
// sentence without a prunable span gets its expected recall from one inside pass and ||m||_0 = 0.
#include "core/eval/CorpusEvaluator.h"
#include "core/grammar/GrammarFile.h"
#include "core/lols/LolsRun.h"
#include "core/lols/LolsTrainer.h"
#include "core/policy/Policy.h"
#include "core/policy/PolicyMask.h"
#include "core/rollout/InsideOutside.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <algorithm>

using namespace prunescope;

class TestLolsEvaluationSet : public QObject {
    Q_OBJECT
  private slots:
    void devEvaluationIsTheBaselinesEvaluation() {
        const Grammar g = loadGrammar(testdata::sourceDir() + "/samples/grammar.gram");
        const Policy p = loadPolicy(testdata::sourceDir() + "/samples/policies/baseline-w128.json");
        const std::vector<Tree>& dev = testdata::normalizedTrees("dev");
        EvaluationOptions opt;
        opt.maxLength = 40;
        opt.threads = 2;
        const CorpusResult corpus = evaluateCorpus(g, dev, policyMaskFunction(p), opt);
        const std::vector<LolsSentence> sentences = evaluationSentences(dev, 40);
        QCOMPARE(sentences.size(), corpus.sentences.size());
        const auto shortOnes =
            std::count_if(sentences.begin(), sentences.end(),
                          [](const LolsSentence& s) { return s.words.size() < 3; });
        QVERIFY2(shortOnes > 0, "dev <= 40 holds 1- and 2-word sentences");
        QCOMPARE(lolsSentences(dev, 40).size() + static_cast<std::size_t>(shortOnes),
                 sentences.size());
        // What a run directory's LOLS evaluates on (CLI, GUI and MPI read it this way).
        const nlohmann::json config{{"grammar", testdata::sourceDir() + "/samples/grammar.gram"},
                                    {"train", testdata::ptbDir("dev")},
                                    {"dev", testdata::ptbDir("dev")},
                                    {"maxLength", 40}};
        const LolsRunInputs in = loadLolsRunInputs(config);
        QCOMPARE(in.dev.size(), corpus.sentences.size());
        QCOMPARE(in.train.size(), lolsSentences(dev, 40).size()); // training needs spans: n >= 3
        for (const Surrogate s : {Surrogate::DP, Surrogate::CP}) {
            const PolicyEvaluation e = evaluatePolicy(g, sentences, p, s, 0.01,
                                                      rolloutFunction(s, RolloutEngine::Fast), 2);
            QCOMPARE(e.sentences, static_cast<int>(corpus.sentences.size()));
            QCOMPARE(e.f1, 100.0 * corpus.f1());
            QCOMPARE(e.mpush, corpus.meanPushes() / 1e6);
            QCOMPARE(e.failures, corpus.failures);
            QVERIFY(e.accuracy > 0 && e.accuracy <= 1);
        }
        // A short sentence's DP accuracy: r̄ of its only mask, from one inside pass.
        const auto it = std::find_if(sentences.begin(), sentences.end(),
                                     [](const LolsSentence& s) { return s.words.size() < 3; });
        const std::vector<LolsSentence> one{*it};
        const PolicyEvaluation e = evaluatePolicy(
            g, one, p, Surrogate::DP, 0.5, rolloutFunction(Surrogate::DP, RolloutEngine::Fast), 1);
        const int n = static_cast<int>(it->words.size());
        const double recall =
            InsideOutside(g)
                .inside(it->words, PruningMask::allKeep(n), recallGold(g, it->gold))
                .recall;
        QCOMPARE(e.accuracy, recall);
        QCOMPARE(e.runtime, 0.0);
        QCOMPARE(e.reward, recall);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestLolsEvaluationSet)
#include "test_lols_evaluation_set.moc"
