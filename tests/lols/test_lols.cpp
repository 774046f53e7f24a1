// LOLS trainer (Alg. 2): rollouts collected by the trainer against brute-force reparsing on a tiny
// hand-made grammar, the brute-force optimal mask, training progress, thread-count invariance,
// the aggregated dataset (footnote 15), run directories, resume and cancellation.
#include "core/eval/Evalb.h"
#include "core/grammar/PcfgEstimator.h"
#include "core/lols/LolsTrainer.h"
#include "core/lols/RetrainingData.h"
#include "core/lols/RunDirectory.h"
#include "core/parse/Parser.h"
#include "core/policy/GoldSpans.h"
#include "core/policy/ParallelObjective.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <filesystem>
#include <random>
#include <stdexcept>

using namespace prunescope;

namespace {

// Made-up sentences with attachment ambiguity, so that pruning changes the 1-best parse.
const char* kTinyTreebank = R"(
( (S (NP (DT the) (NN cat)) (VP (VBD saw) (NP (DT a) (NN dog)) (PP (IN with) (NP (DT a) (NN hat))))) )
( (S (NP (DT a) (NN dog)) (VP (VBD saw) (NP (NP (DT the) (NN cat)) (PP (IN with) (NP (DT the) (NN hat))))) ) )
( (S (NP (NN cat)) (VP (VBD ate) (NP (NN fish)) (PP (IN with) (NP (NN dog))))) )
( (S (NP (DT the) (NN dog)) (VP (VBD ate))) )
( (S (NP (NP (DT the) (NN cat)) (PP (IN with) (NP (DT a) (NN hat)))) (VP (VBD ate) (NP (NN fish)))) )
( (S (NP (NN dog)) (VP (VBD saw) (NP (NP (NN cat)) (PP (IN with) (NP (NN fish)))))) )
( (S (NP (DT a) (NN cat)) (VP (VBD saw) (NP (DT the) (NN fish)))) )
( (S (NP (NN fish)) (VP (VBD ate) (NP (DT the) (NN hat)) (PP (IN with) (NP (NN cat))))) )
)";

const std::vector<Tree>& tinyTrees() {
    static const std::vector<Tree> trees = [] {
        std::vector<Tree> out;
        for (const auto& t : readTreebankString(kTinyTreebank))
            out.push_back(normalizeTree(t));
        return out;
    }();
    return trees;
}

const Grammar& tinyGrammar() {
    static const Grammar g = [] {
        GrammarOptions opt;
        opt.rareWordThreshold = 0;
        return estimatePcfg(readTreebankString(kTinyTreebank), opt);
    }();
    return g;
}

std::vector<LolsSentence> tinySentences() {
    return lolsSentences(tinyTrees(), 40);
}

// rCP reward pieces of one mask by reparsing from scratch.
std::pair<double, double> reparseCP(const Grammar& g, const LolsSentence& s, const PruningMask& m) {
    Parser p(g);
    const ParseStats st = p.parse(s.words, &m);
    const Tree t = bestTree(g, p.chart(), s.words);
    return {sentenceF1(s.gold, t), static_cast<double>(st.constituents)};
}

// Sentences small enough for brute force over all 2^T masks (T <= 14).
std::vector<LolsSentence> smallSentences() {
    std::vector<LolsSentence> out;
    for (auto& s : tinySentences())
        if (PruningMask::prunableCount(static_cast<int>(s.words.size())) <= 14) out.push_back(s);
    return out;
}

// The best rCP reward of any mask of s, by enumerating all 2^T masks.
double bruteForceBest(const Grammar& g, const LolsSentence& s, double lambda,
                      PruningMask* argmax = nullptr) {
    const int n = static_cast<int>(s.words.size());
    std::vector<std::pair<int, int>> spans;
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            spans.emplace_back(i, i + w);
    const int T = static_cast<int>(spans.size());
    double best = -1e300;
    for (int bits = 0; bits < (1 << T); ++bits) {
        PruningMask m = PruningMask::allKeep(n);
        for (int x = 0; x < T; ++x)
            m.set(spans[x].first, spans[x].second, (bits >> x) & 1);
        const auto [acc, run] = reparseCP(g, s, m);
        if (acc - lambda * run > best) {
            best = acc - lambda * run;
            if (argmax) *argmax = m;
        }
    }
    return best;
}

Policy randomPolicy(unsigned seed, float scale) {
    Policy p;
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0, scale);
    // Only the buckets the tiny sentences use matter; set them all.
    for (const auto& s : tinySentences()) {
        const SentenceFeatures f(s.words);
        const int n = static_cast<int>(s.words.size());
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i)
                for (uint32_t b : f.features(i, i + w))
                    p.weights[b] = nd(rng);
    }
    return p;
}

LolsConfig tinyConfig(Surrogate s, double lambda) {
    LolsConfig c;
    c.surrogate = s;
    c.engine = RolloutEngine::Naive;
    c.lambda = lambda;
    c.iterations = 4;
    c.minibatch = 100; // all tiny sentences
    c.trainEvalSentences = 100;
    c.threads = 1;
    return c;
}

// A complete config.json for a run directory the test drives itself (RunDirectory reads configs
// strictly, RunConfig.h): the paths are never opened.
nlohmann::json runConfig(const LolsConfig& cfg) {
    return {{"lols", cfg.toJson()}, {"grammar", "tiny.gram"}, {"init", "init.json"},
            {"train", "train.mrg"}, {"dev", "dev.mrg"},       {"maxLength", 40}};
}

bool sameRecords(const std::vector<LolsIterationRecord>& a,
                 const std::vector<LolsIterationRecord>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t x = 0; x < a.size(); ++x) {
        auto ja = a[x].toJson(), jb = b[x].toJson();
        ja.erase("seconds");
        jb.erase("seconds");
        ja["dev"].erase("seconds");
        jb["dev"].erase("seconds");
        if (ja.contains("train") && ja["train"].is_object()) ja["train"].erase("seconds");
        if (jb.contains("train") && jb["train"].is_object()) jb["train"].erase("seconds");
        if (ja != jb) {
            qWarning("%s\n%s", ja.dump().c_str(), jb.dump().c_str());
            return false;
        }
    }
    return true;
}

} // namespace

class TestLols : public QObject {
    Q_OBJECT
  private slots:
    void collectedRewardsEqualBruteForceReparsing() {
        const Grammar& g = tinyGrammar();
        const auto sentences = tinySentences();
        QVERIFY(sentences.size() >= 7);
        const double lambda = 0.01;
        for (Surrogate surr : {Surrogate::CP, Surrogate::DP}) {
            for (RolloutEngine eng : {RolloutEngine::Naive, RolloutEngine::Fast}) {
                LolsConfig cfg = tinyConfig(surr, lambda);
                cfg.engine = eng;
                cfg.cpRolloutsPerWord = 0;
                const Policy pol = randomPolicy(7, 1.0f);
                const auto fn = rolloutFunction(surr, eng);
                int checked = 0;
                for (std::uint32_t s = 0; s < sentences.size(); ++s) {
                    const auto r = collectSentenceRollouts(g, sentences[s], s, pol, cfg, 1, fn);
                    const int n = static_cast<int>(sentences[s].words.size());
                    QCOMPARE(r.states, PruningMask::prunableCount(n));
                    QCOMPARE(static_cast<int>(r.entries.size()), r.states);
                    QCOMPARE(r.weight, 1.0);
                    const PruningMask rollIn = lolsPolicyMask(pol, sentences[s].words);
                    for (std::size_t x = 0; x < r.entries.size(); ++x) {
                        const RewardEntry& e = r.entries[x];
                        QCOMPARE(r.rollouts[x].rollInKeep, rollIn.keep(e.i, e.k));
                        PruningMask keep = rollIn, prune = rollIn;
                        keep.set(e.i, e.k, true);
                        prune.set(e.i, e.k, false);
                        if (surr == Surrogate::CP) {
                            const auto [ak, rk] = reparseCP(g, sentences[s], keep);
                            const auto [ap, rp] = reparseCP(g, sentences[s], prune);
                            QCOMPARE(e.rewardKeep, ak - lambda * rk);
                            QCOMPARE(e.rewardPrune, ap - lambda * rp);
                        } else { // runtime ||m||_0; accuracy equal to the reference naive DP
                            QCOMPARE(r.rollouts[x].runtimeKeep,
                                     static_cast<double>(keep.keptCount()));
                            QCOMPARE(r.rollouts[x].runtimePrune,
                                     static_cast<double>(prune.keptCount()));
                            RolloutRequest req{
                                &g, sentences[s].words, sentences[s].gold, rollIn, {{e.i, e.k}}};
                            const auto ref = naiveRollouts(req, Surrogate::DP).at(0);
                            QVERIFY(std::abs(ref.rewardKeep(lambda) - e.rewardKeep) < 1e-9);
                            QVERIFY(std::abs(ref.rewardPrune(lambda) - e.rewardPrune) < 1e-9);
                        }
                        ++checked;
                    }
                }
                QVERIFY(checked > 50);
            }
        }
    }

    void cpSamplingUpweightsByTOver2n() {
        const Grammar& g = tinyGrammar();
        // A made-up 6-word sentence: T = 14 > 2n = 12, so footnote 10's sampling applies.
        LolsSentence s{{"the", "cat", "saw", "a", "dog", "fish"}, {}};
        s.gold = normalizeTree(
            readTreebankString(
                "( (S (NP (DT the) (NN cat)) (VP (VBD saw) (NP (DT a) (NN dog) (NN fish)))) )")
                .at(0));
        LolsConfig cfg = tinyConfig(Surrogate::CP, 0.02);
        cfg.cpRolloutsPerWord = 1; // 6 of 14
        const Policy pol = randomPolicy(3, 1.0f);
        const auto fn = rolloutFunction(Surrogate::CP, RolloutEngine::Naive);
        const auto a = collectSentenceRollouts(g, s, 5, pol, cfg, 2, fn);
        QCOMPARE(a.states, 14);
        QCOMPARE(a.entries.size(), std::size_t(6));
        QCOMPARE(a.weight, 14.0 / 6.0);
        const PruningMask rollIn = lolsPolicyMask(pol, s.words);
        for (const auto& e : a.entries) {
            PruningMask keep = rollIn;
            keep.set(e.i, e.k, true);
            const auto [acc, run] = reparseCP(g, s, keep);
            QVERIFY(std::abs(e.rewardKeep - (14.0 / 6.0) * (acc - 0.02 * run)) < 1e-12);
        }
        // The sample depends on (seed, iteration, sentence) only.
        const auto b = collectSentenceRollouts(g, s, 5, pol, cfg, 2, fn);
        const auto c = collectSentenceRollouts(g, s, 5, pol, cfg, 3, fn);
        auto spans = [](const SentenceRollouts& r) {
            std::vector<std::pair<int, int>> v;
            for (const auto& e : r.entries)
                v.emplace_back(e.i, e.k);
            return v;
        };
        QCOMPARE(spans(a), spans(b));
        QVERIFY(spans(a) != spans(c));
    }

    void bruteForceOptimumIsLocallyOptimalForRollouts() {
        // At the optimal mask (enumerating every mask), no single rollout may find a better
        // action: LOLS's oracle agrees with the brute-force optimum.
        const Grammar& g = tinyGrammar();
        const double lambda = 0.004;
        const auto small = smallSentences();
        QVERIFY(small.size() >= 5);
        for (const auto& s : small) {
            PruningMask bestMask;
            const double best = bruteForceBest(g, s, lambda, &bestMask);
            RolloutRequest req{&g, s.words, s.gold, bestMask, {}};
            for (const auto& r : changePropagationRollouts(req)) {
                const double mine = r.rollInKeep ? r.rewardKeep(lambda) : r.rewardPrune(lambda);
                const double other = r.rollInKeep ? r.rewardPrune(lambda) : r.rewardKeep(lambda);
                QCOMPARE(mine, best);
                QVERIFY(other <= best);
            }
        }
    }

    void trainRewardVersusBruteForceOptimum() {
        // Sentences small enough for brute force; rCP, every state rolled out, minibatch = all.
        // (a) From the gold-supervised start (optimal here) the train reward never decreases and
        //     stays at the brute-force optimum: LOLS's oracle keeps an optimal policy.
        // (b) From other starts the reward never exceeds the optimum (rewards are real) and ends
        //     at least as high as it started. It can dip in iteration 1 when the start is far from
        //     a local optimum (every state's best action is changed at once; docs/lols.md).
        const Grammar& g = tinyGrammar();
        const auto small = smallSentences();
        for (double lambda : {0.002, 0.01, 0.03}) {
            double optimum = 0;
            for (const auto& s : small)
                optimum += bruteForceBest(g, s, lambda);
            optimum /= static_cast<double>(small.size());
            for (int variant = 0; variant < 4; ++variant) {
                LolsConfig cfg = tinyConfig(Surrogate::CP, lambda);
                cfg.cpRolloutsPerWord = 0;
                cfg.iterations = 5;
                LolsTrainer tr(g, small, small, cfg);
                AggregatedDataset q0;
                Policy init;        // variant 0: zero weights = keep everything
                if (variant == 1) { // gold-supervised start with its Q0
                    std::vector<RewardEntry> e;
                    for (std::uint32_t s = 0; s < small.size(); ++s) {
                        const int n = static_cast<int>(small[s].words.size());
                        const auto gold = spanIndicator(binarizeLike(g, small[s].gold));
                        for (int w = 2; w < n; ++w)
                            for (int i = 0; i + w <= n; ++i) {
                                RewardEntry x{s, static_cast<std::uint16_t>(i),
                                              static_cast<std::uint16_t>(i + w), 0, 0};
                                (gold[i * (n + 1) + i + w] ? x.rewardKeep : x.rewardPrune) = 0.05;
                                e.push_back(x);
                            }
                    }
                    q0.add(e);
                    init.weights =
                        trainLogisticRegression(q0.examples(small), LogRegOptions{}).weights;
                }
                if (variant >= 2) init = randomPolicy(variant, 1.0f);
                LolsState st = tr.start(init, q0);
                while (st.iteration < cfg.iterations)
                    QVERIFY(tr.step(st));
                QString seq;
                for (const auto& r : st.log)
                    seq += QString::number(r.train.reward, 'f', 6) + " ";
                const QString what = QString("lambda %1 start %2 optimum %3: %4")
                                         .arg(lambda)
                                         .arg(variant)
                                         .arg(optimum, 0, 'f', 6)
                                         .arg(seq);
                for (std::size_t x = 0; x < st.log.size(); ++x) {
                    QVERIFY2(st.log[x].train.reward <= optimum + 1e-12, qPrintable(what));
                    if (variant == 1) {
                        QVERIFY2(std::abs(st.log[x].train.reward - optimum) < 1e-12,
                                 qPrintable(what));
                        if (x > 0)
                            QVERIFY2(st.log[x].train.reward >= st.log[x - 1].train.reward,
                                     qPrintable(what));
                    }
                }
                QVERIFY2(st.log.back().train.reward >= st.log.front().train.reward,
                         qPrintable(what));
                if (variant != 1)
                    QVERIFY2(st.log.back().train.reward > st.log.front().train.reward,
                             qPrintable(what));
            }
        }
        // Re-visited states are consolidated (footnote 15): one entry per (sentence, i, k).
        LolsConfig cfg = tinyConfig(Surrogate::DP, 0.02);
        LolsTrainer tr(g, tinySentences(), tinySentences(), cfg);
        LolsState st = tr.start(Policy{}, AggregatedDataset{});
        while (st.iteration < 3)
            QVERIFY(tr.step(st));
        long T = 0;
        for (const auto& s : tinySentences())
            T += PruningMask::prunableCount(static_cast<int>(s.words.size()));
        QCOMPARE(static_cast<long>(st.data.size()), T);
        QCOMPARE(st.log[3].newStates, T);
    }

    void resultsIndependentOfThreadCount() {
        QFETCH(double, gradientReduction);
        QFETCH(int, maxIterations);
        const Grammar& g = tinyGrammar();
        auto run = [&](int threads) {
            LolsConfig cfg = tinyConfig(Surrogate::CP, 0.004);
            cfg.threads = threads; // also the retraining's gradient threads (ParallelObjective.h)
            cfg.logreg.gradientReduction = gradientReduction;
            cfg.logreg.maxIterations = maxIterations;
            cfg.minibatch = 5;
            cfg.cpRolloutsPerWord = 1;
            LolsTrainer tr(g, tinySentences(), tinySentences(), cfg);
            LolsState st = tr.start(randomPolicy(11, 0.5f), AggregatedDataset{});
            while (st.iteration < 3)
                tr.step(st);
            return st;
        };
        const LolsState a = run(1), b = run(3);
        QVERIFY(a.data == b.data);
        QVERIFY(a.policy.weights == b.policy.weights);
        // The policy files too: their recorded config once held the thread count (issue 16).
        QCOMPARE(policyToJson(a.policy), policyToJson(b.policy));
        QVERIFY(sameRecords(a.log, b.log));
    }
    void resultsIndependentOfThreadCount_data() {
        QTest::addColumn<double>("gradientReduction");
        QTest::addColumn<int>("maxIterations");
        QTest::newRow("stop at epsilon") << 0.0 << LogRegOptions{}.maxIterations;
        QTest::newRow("stop at gradient / 100") << 0.01 << LogRegOptions{}.maxIterations;
        QTest::newRow("stop after 3 L-BFGS iterations") << 0.0 << 3;
    }

    // The cap on L-BFGS iterations per retraining (issue 16, --lbfgs-max-iterations) bounds every
    // iteration's retraining, and changes the result only where the uncapped run needed more.
    void lbfgsCapBoundsRetraining() {
        const Grammar& g = tinyGrammar();
        auto run = [&](int maxIterations, int afterFirst = 0) {
            LolsConfig cfg = tinyConfig(Surrogate::DP, 0.002);
            cfg.logreg.maxIterations = maxIterations;
            cfg.lbfgsMaxIterationsAfterFirst = afterFirst;
            cfg.minibatch =
                2; // new sentences every iteration, so later retrainings have work to do
            LolsTrainer tr(g, tinySentences(), tinySentences(), cfg);
            LolsState st = tr.start(randomPolicy(5, 0.5f), AggregatedDataset{});
            while (st.iteration < 3)
                if (!tr.step(st)) throw std::runtime_error("a LOLS step was cancelled");
            return st;
        };
        const LolsState free = run(LogRegOptions{}.maxIterations), capped = run(2);
        int most = 0;
        for (int t = 1; t <= 3; ++t) {
            most = std::max(most, free.log[t].lbfgsIterations);
            QVERIFY2(capped.log[t].lbfgsIterations <= 2,
                     qPrintable(QString::number(capped.log[t].lbfgsIterations)));
        }
        QVERIFY(most > 2); // else the cap could not have bitten
        QVERIFY(!(capped.policy.weights == free.policy.weights));
        // A cap no iteration reaches leaves every result bit-identical.
        const LolsState loose = run(most);
        QVERIFY(loose.policy.weights == free.policy.weights);
        QVERIFY(sameRecords(loose.log, free.log));
        // The cap after the first iteration: iteration 1 exactly as without it, later ones capped.
        const int mostLater = std::max(free.log[2].lbfgsIterations, free.log[3].lbfgsIterations);
        qInfo("L-BFGS iterations without a cap: %d, %d, %d", free.log[1].lbfgsIterations,
              free.log[2].lbfgsIterations, free.log[3].lbfgsIterations);
        QVERIFY(mostLater >= 2); // else a cap after the first cannot bite
        const int cap = mostLater - 1;
        QVERIFY(free.log[1].lbfgsIterations >
                cap); // so iteration 1 would change if it were capped too
        const LolsState later = run(LogRegOptions{}.maxIterations, cap);
        QVERIFY(sameRecords({free.log[0], free.log[1]}, {later.log[0], later.log[1]}));
        for (int t = 2; t <= 3; ++t)
            QVERIFY(later.log[t].lbfgsIterations <= cap);
        QVERIFY(!(later.policy.weights == free.policy.weights));
        // Configured like any LOLS setting and always written. On by default (5, chosen on dev);
        // a config without the key, from a run made when the cap was opt-in, reads as off, so
        // resuming it keeps its results.
        LolsConfig c = tinyConfig(Surrogate::DP, 0.002);
        QCOMPARE(LolsConfig{}.lbfgsMaxIterationsAfterFirst, 5);
        QCOMPARE(c.toJson().at("lbfgsMaxIterationsAfterFirst").get<int>(),
                 c.lbfgsMaxIterationsAfterFirst);
        nlohmann::json legacy = c.toJson();
        legacy.erase("lbfgsMaxIterationsAfterFirst");
        QCOMPARE(LolsConfig::fromJson(legacy).lbfgsMaxIterationsAfterFirst, 0);
        QCOMPARE(LolsConfig::fromJson(legacy).retrainingOptions(2).maxIterations,
                 c.logreg.maxIterations);
        c.lbfgsMaxIterationsAfterFirst = 0;
        QCOMPARE(c.retrainingOptions(2).maxIterations, c.logreg.maxIterations);
        QCOMPARE(LolsConfig::fromJson(c.toJson()).lbfgsMaxIterationsAfterFirst, 0);
        c.logreg.maxIterations = 7;
        c.lbfgsMaxIterationsAfterFirst = 3;
        QCOMPARE(c.toJson().at("lbfgsMaxIterations").get<int>(), 7);
        QCOMPARE(c.toJson().at("lbfgsMaxIterationsAfterFirst").get<int>(), 3);
        const LolsConfig back = LolsConfig::fromJson(c.toJson());
        QCOMPARE(back.logreg.maxIterations, 7);
        QCOMPARE(back.lbfgsMaxIterationsAfterFirst, 3);
        QCOMPARE(back.retrainingOptions(1).maxIterations, 7);
        QCOMPARE(back.retrainingOptions(2).maxIterations, 3);
        c.lbfgsMaxIterationsAfterFirst = 50; // a cap, never a raise
        QCOMPARE(c.retrainingOptions(5).maxIterations, 7);
    }

    // The stopping rule is part of the run's config (written only when on, so older runs keep
    // their config.json and policy files byte for byte).
    void gradientReductionIsConfigured() {
        LolsConfig c = tinyConfig(Surrogate::DP, 0.002);
        QVERIFY(!c.toJson().contains("lbfgsGradientReduction"));
        c.logreg.gradientReduction = 0.01;
        QCOMPARE(c.toJson().at("lbfgsGradientReduction").get<double>(), 0.01);
        QCOMPARE(LolsConfig::fromJson(c.toJson()).logreg.gradientReduction, 0.01);
        QCOMPARE(LolsConfig::fromJson(tinyConfig(Surrogate::DP, 0.002).toJson())
                     .logreg.gradientReduction,
                 0.0);
        // (A bad value in config.json: test_run_integrity badConfigValues.)
    }

    // The trainer's compact training data (no vector per example) is exactly compactify() of the
    // aggregate's examples, so retraining on it gives the same weights bit for bit.
    void trainingDataEqualsCompactifiedExamples() {
        const Grammar& g = tinyGrammar();
        LolsConfig cfg = tinyConfig(Surrogate::DP, 0.002);
        LolsTrainer tr(g, tinySentences(), tinySentences(), cfg);
        LolsState st = tr.start(randomPolicy(5, 0.5f), AggregatedDataset{});
        while (st.iteration < 2)
            QVERIFY(tr.step(st));
        const CompactData a = st.data.trainingData(tr.train());
        const CompactData b = compactify(st.data.examples(tr.train()), true);
        QVERIFY(a.numExamples() > 100);
        QVERIFY(a.globalId == b.globalId);
        QVERIFY(a.offsets == b.offsets);
        QVERIFY(a.index == b.index);
        QVERIFY(a.target == b.target);
        QVERIFY(a.weight == b.weight);
        const auto wa = trainLogisticRegression(a, cfg.logreg, &st.policy.weights).weights;
        const auto wb =
            trainLogisticRegression(st.data.examples(tr.train()), cfg.logreg, &st.policy.weights)
                .weights;
        QVERIFY(wa == wb);
    }

    void aggregatedDatasetConsolidatesAndSerializes() {
        AggregatedDataset d;
        d.add({{2, 0, 3, 1.0, 0.5}, {0, 1, 3, 0.25, 0.75}});
        d.add({{2, 0, 3, 0.5, 2.0}, {1, 0, 2, 0.0, 0.0}, {0, 1, 3, 0.25, 0.0}});
        QCOMPARE(d.size(), std::size_t(3));
        QCOMPARE(d.entries()[0].sentence, 0u);
        QCOMPARE(d.entries()[0].rewardPrune, 0.5);
        QCOMPARE(d.entries()[0].rewardKeep, 0.75);
        QCOMPARE(d.entries()[2].rewardPrune, 1.5);
        QCOMPARE(d.entries()[2].rewardKeep, 2.5);
        std::vector<LolsSentence> s(3, LolsSentence{{"a", "b", "c", "d"}, {}});
        const auto ex = d.examples(s);
        QCOMPARE(ex.size(), std::size_t(2)); // (1,0,2) has weight 0
        QCOMPARE(ex[0].label, 1);
        QCOMPARE(ex[0].weight, 0.25);
        QCOMPARE(ex[1].label, 1);
        QCOMPARE(ex[1].weight, 1.0);
        const SentenceFeatures features(s[2].words);
        const auto f = features.features(0, 3);
        QVERIFY(std::equal(f.begin(), f.end(), ex[1].features.begin(), ex[1].features.end()));
        const AggregatedDataset back = AggregatedDataset::deserialize(d.serialize(), "x.bin");
        QVERIFY(back == d);
        std::string bad = d.serialize();
        bad.pop_back();
        QVERIFY_THROWS_EXCEPTION(InputError, AggregatedDataset::deserialize(bad, "x.bin"));
        // Q0 in reward-vector form.
        std::vector<WeightedExample> q{{{1}, 1, 4.0}, {{2}, 0, 1.0}, {{3}, 0, 1.0}};
        std::vector<SpanOrigin> o{{5, 0, 2}, {5, 1, 3}, {6, 0, 2}};
        std::vector<int> map(7, -1);
        map[5] = 0;
        const auto q0 = datasetFromExamples(q, o, map, 0.5);
        QCOMPARE(q0.size(), std::size_t(2));
        QCOMPARE(q0.entries()[0].rewardKeep, 2.0);
        QCOMPARE(q0.entries()[1].rewardPrune, 0.5);
    }

    void corruptConfigNamesLine() {
        // A hand-edited config.json with a syntax error on line 3: the error names file, line
        // and column (it used to say line 1 with the byte offset as the column).
        const std::string dir = testdata::tempDir("lols-badconfig") + "/run";
        RunDirectory::create(dir, runConfig(tinyConfig(Surrogate::CP, 0.004)));
        const std::string path = dir + "/config.json";
        writeFileAtomically(path,
                            "{\n  \"format\": \"prunescope-lols-run\",\n  \"version\": 1,,\n}\n");
        try {
            (void)RunDirectory::open(dir).config();
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), path);
            QCOMPARE(e.line(), 3);
            QVERIFY(e.column() > 1);
            QVERIFY(std::string(e.what()).find("invalid JSON") != std::string::npos);
        }
    }

    // RetrainingData keeps the features across iterations and refreshes labels and weights: its
    // data always equals the aggregate's trainingData rebuilt from scratch, bit for bit, and
    // training on it (with its kept transpose) gives the same weights as training on the rebuilt
    // data.
    void retrainingDataEqualsRebuilding() {
        const std::vector<LolsSentence> sentences = tinySentences();
        auto same = [](const CompactData& a, const CompactData& b) {
            return a.globalId == b.globalId && a.offsets == b.offsets && a.index == b.index &&
                   a.target == b.target && a.weight == b.weight;
        };
        std::mt19937 rng(5);
        std::uniform_real_distribution<double> u(-1, 1);
        std::vector<RewardEntry> all; // every prunable span of every sentence: a Q0-like aggregate
        for (std::uint32_t s = 0; s < sentences.size(); ++s) {
            const int n = static_cast<int>(sentences[s].words.size());
            for (int i = 0; i < n; ++i)
                for (int k = i + 2; k <= n; ++k)
                    if (PruningMask::prunable(n, i, k))
                        all.push_back({s, static_cast<std::uint16_t>(i),
                                       static_cast<std::uint16_t>(k), std::abs(u(rng)),
                                       std::abs(u(rng))});
        }
        QVERIFY(all.size() > 50);
        AggregatedDataset d;
        d.add(all);
        RetrainingData cache;
        QVERIFY(same(cache.update(d, sentences), d.trainingData(sentences)));
        QVERIFY(!cache.lastUpdateReused());
        LogRegOptions opt;
        opt.maxIterations = 30;
        ParallelObjective* first = &cache.objective(2);
        for (int round = 0; round < 3; ++round) {
            // New rollouts on the same states: labels flip, weights change; no state appears or
            // vanishes.
            std::vector<RewardEntry> more;
            for (const RewardEntry& e : all)
                more.push_back({e.sentence, e.i, e.k, u(rng) * 0.5, u(rng) * 0.5});
            d.add(more);
            const CompactData rebuilt = d.trainingData(sentences);
            QVERIFY(same(cache.update(d, sentences), rebuilt));
            QVERIFY(cache.lastUpdateReused());
            QCOMPARE(&cache.objective(2), first); // the transpose is kept
            const LogRegResult kept = trainLogisticRegression(cache.objective(2), opt);
            const LogRegResult fresh = trainLogisticRegression(rebuilt, opt);
            QVERIFY(kept.weights == fresh.weights);
            QCOMPARE(kept.iterations, fresh.iterations);
        }
        // A state whose reward difference becomes 0 leaves the examples: rebuilt, still equal.
        RewardEntry cancel = d.entries()[7];
        std::swap(cancel.rewardKeep, cancel.rewardPrune);
        d.add({cancel});
        QCOMPARE(d.entries()[7].rewardKeep - d.entries()[7].rewardPrune, 0.0);
        QVERIFY(same(cache.update(d, sentences), d.trainingData(sentences)));
        QVERIFY(!cache.lastUpdateReused());
        QVERIFY(trainLogisticRegression(cache.objective(1), opt).weights ==
                trainLogisticRegression(d.trainingData(sentences), opt).weights);
        // A bad aggregate (a sentence the training set lacks) is an error, and leaves the cache
        // empty.
        AggregatedDataset bad = d;
        bad.add({{static_cast<std::uint32_t>(sentences.size()), 0, 2, 0, 1}});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cache.update(bad, sentences));
        QCOMPARE(cache.data().numExamples(), 0);
        QVERIFY(same(cache.update(d, sentences), d.trainingData(sentences)));
    }

    void resumeContinuesIdentically() {
        const Grammar& g = tinyGrammar();
        LolsConfig cfg = tinyConfig(Surrogate::CP, 0.004);
        cfg.minibatch = 4;
        cfg.cpRolloutsPerWord = 1;
        const Policy init = randomPolicy(5, 0.5f);
        const nlohmann::json config = runConfig(cfg);
        // Uninterrupted: 3 iterations.
        const std::string dirA = testdata::tempDir("lols-resume-a") + "/run";
        RunDirectory a = RunDirectory::create(dirA, config);
        LolsTrainer tr(g, tinySentences(), tinySentences(), cfg);
        LolsState sa = tr.start(init, AggregatedDataset{});
        a.commit(sa);
        while (sa.iteration < 3) {
            QVERIFY(tr.step(sa));
            a.commit(sa);
        }
        // Interrupted after 1 iteration, then resumed from the directory by a fresh trainer.
        const std::string dirB = testdata::tempDir("lols-resume-b") + "/run";
        {
            RunDirectory b = RunDirectory::create(dirB, config);
            LolsState sb = tr.start(init, AggregatedDataset{});
            b.commit(sb);
            QVERIFY(tr.step(sb));
            b.commit(sb);
        }
        RunDirectory b = RunDirectory::open(dirB);
        LolsTrainer tr2(g, tinySentences(), tinySentences(),
                        LolsConfig::fromJson(b.config().at("lols")));
        LolsState sb = b.restore();
        QCOMPARE(sb.iteration, 1);
        while (sb.iteration < 3) {
            QVERIFY(tr2.step(sb));
            b.commit(sb);
        }
        QVERIFY(sa.data == sb.data);
        QVERIFY(sa.policy.weights == sb.policy.weights);
        QCOMPARE(sa.bestIteration, sb.bestIteration);
        QVERIFY(sameRecords(RunDirectory::open(dirA).log(), b.log()));
        QVERIFY(loadPolicy(a.policyPath(3)).weights == loadPolicy(b.policyPath(3)).weights);
        QCOMPARE(readFile(a.bestPath()), readFile(b.bestPath()));
        QVERIFY(!std::filesystem::exists(b.statePath(2))); // only the last state is kept
        const auto snap = readRunDirectory(dirB);
        QCOMPARE(snap.log.size(), std::size_t(4));
        QCOMPARE(snap.bestIteration, sb.bestIteration);
        QVERIFY_THROWS_EXCEPTION(InputError, RunDirectory::create(dirB, config)); // not empty
    }

    void cancellationKeepsFinishedIterations() {
        const Grammar& g = tinyGrammar();
        LolsConfig cfg = tinyConfig(Surrogate::CP, 0.004);
        cfg.minibatch = 6;
        const std::string dir = testdata::tempDir("lols-cancel") + "/run";
        RunDirectory rd = RunDirectory::create(dir, runConfig(cfg));
        LolsTrainer tr(g, tinySentences(), tinySentences(), cfg);
        const Progress none;
        LolsState st = tr.start(Policy{}, AggregatedDataset{}, none);
        rd.commit(st);
        QVERIFY(tr.step(st, none));
        rd.commit(st);
        const LolsState before = st;
        // Cancel in the middle of iteration 2's rollouts (every update delivered: interval 0).
        Progress progress;
        progress = Progress(
            [&](const ProgressUpdate& p) {
                if (p.phase == "rollouts" && p.done == 3) progress.requestCancel();
            },
            std::chrono::milliseconds(0));
        QVERIFY(!tr.step(st, progress));
        QCOMPARE(st.iteration, 1);
        QVERIFY(st.data == before.data);
        QVERIFY(st.policy.weights == before.policy.weights);
        QCOMPARE(st.log.size(), std::size_t(2));
        const LolsState restored = RunDirectory::open(dir).restore();
        QCOMPARE(restored.iteration, 1);
        QVERIFY(restored.data == before.data);
        QVERIFY(std::filesystem::exists(rd.policyPath(1)));
        QVERIFY(!std::filesystem::exists(rd.policyPath(2)));
        // Continuing after the cancellation gives the uninterrupted result.
        QVERIFY(tr.step(st, none));
        LolsState ref = tr.start(Policy{}, AggregatedDataset{});
        QVERIFY(tr.step(ref));
        QVERIFY(tr.step(ref));
        QVERIFY(ref.data == st.data);
        QVERIFY(ref.policy.weights == st.policy.weights);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestLols)
#include "test_lols.moc"
