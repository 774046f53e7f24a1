// The online-learning driver shared by dep-train, cube-train and vine-train
// (core/dep/OnlineLearning.h): which sentences train and the errors for those that cannot, the
// seeded per-epoch order, one averaging tick per sentence, the step shown as users count epochs,
// stopping when the trainer's dev selection says so, and a cancel that ends no epoch.
#include "core/dep/OnlineLearning.h"
#include "core/util/Random.h"

#include "support/TestSuite.h"

using namespace prunescope;

namespace {

DepSentence chain(int n, const std::string& file, int line) {
    DepSentence s;
    for (int i = 1; i <= n; ++i)
        s.addToken("w" + std::to_string(i), "NN", i - 1); // each token headed by the previous
    s.file = file;
    s.line = line;
    return s;
}

} // namespace

class TestOnlineLearning : public QObject {
    Q_OBJECT
  private slots:
    void usableSentences() {
        std::vector<DepSentence> train{chain(3, "a.dp", 1), chain(9, "a.dp", 5),
                                       chain(2, "a.dp", 16)};
        const TrainingSentences all = usableTrainingSentences(train, 0, "x");
        QCOMPARE(all.indices, (std::vector<int>{0, 1, 2}));
        QVERIFY(all.singleRoot);
        QCOMPARE(usableTrainingSentences(train, 3, "x").indices, (std::vector<int>{0, 2}));
        try {
            usableTrainingSentences(train, 1, "cube training");
            QFAIL("no sentence within the limit");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("cube training: every training sentence "
                                 "is longer than the length limit (1 words)"));
        }
        try {
            usableTrainingSentences({}, 0, "dependency training");
            QFAIL("empty");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("dependency training: no training sentences"));
        }
        train[1].heads[4] = -1; // a sentence without its tree is named by file:line
        try {
            usableTrainingSentences(train, 0, "x");
            QFAIL("no tree");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()), std::string("x: sentence at a.dp:5 has no tree"));
        }
        train[1] = chain(2, "a.dp", 5);
        train[1].heads[2] = 0; // two roots
        QVERIFY(!usableTrainingSentences(train, 0, "x").singleRoot);
        QCOMPARE(usableTrainingSentences(train, 0, "x").nonProjective, 0L);
        // Crossing arcs (issue 41): 1 <- 0, 3 <- 1, 2 <- 4, 4 <- 1: arc 4->2 crosses 1->3.
        DepSentence np = chain(4, "b.conllu", 1);
        np.heads = {-1, 0, 4, 1, 1};
        QVERIFY(!isProjective(np.heads));
        train.push_back(np);
        train.push_back(np);
        const TrainingSentences withCrossing = usableTrainingSentences(train, 0, "x");
        QCOMPARE(withCrossing.nonProjective, 2L);
        QCOMPARE(withCrossing.indices.size(), train.size()); // trained on, not skipped
        QCOMPARE(usableTrainingSentences(train, 3, "x").nonProjective, 0L); // only usable ones
    }
    void epochsOrderTicksAndStop() {
        const std::vector<int> sentences{0, 1, 2, 3, 4, 5, 6};
        AveragedWeights w(4);
        std::vector<std::vector<int>> visits;
        std::vector<int> steps;
        const Progress progress([&](const ProgressUpdate& u) { steps.push_back(u.step); },
                                std::chrono::milliseconds(0));
        OnlineEpochHooks hooks;
        hooks.begin = [&](int) { visits.emplace_back(); };
        hooks.visit = [&](int i) { visits.back().push_back(i); };
        int ended = 0;
        hooks.endEpoch = [&](int epoch, double) {
            ++ended;
            return epoch < 2; // the trainer's patience runs out after epoch 2
        };
        QVERIFY(runOnlineEpochs(sentences, 5, 42, w, progress, hooks));
        QCOMPARE(ended, 2);
        QCOMPARE(visits.size(), std::size_t{2});
        for (int e = 1; e <= 2; ++e) { // the documented order: shuffleInPlace(SplitMix64(seed, e))
            std::vector<int> expect = sentences;
            SplitMix64 rng(42, static_cast<std::uint64_t>(e));
            shuffleInPlace(expect, rng);
            QCOMPARE(visits[static_cast<std::size_t>(e - 1)], expect);
        }
        QVERIFY(!steps.empty() && steps.front() == 1 && steps.back() == 2); // epochs from 1
    }
    void cancelEndsNoEpoch() {
        AveragedWeights w(4);
        const Progress progress([](const ProgressUpdate&) {}); // a default one never cancels
        int seen = 0, ended = 0;
        OnlineEpochHooks hooks;
        hooks.visit = [&](int) {
            if (++seen == 3) progress.requestCancel();
        };
        hooks.endEpoch = [&](int, double) {
            ++ended;
            return true;
        };
        QVERIFY(!runOnlineEpochs({0, 1, 2, 3, 4}, 3, 1, w, progress, hooks));
        QCOMPARE(seen, 3);
        QCOMPARE(ended, 0);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestOnlineLearning)
#include "test_online_learning.moc"
