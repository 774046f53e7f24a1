// The rollout seam of distributed LOLS (Alg. 2 lines 5-11; core/lols/RolloutDistributor.h): a
// distributor that spreads a minibatch over simulated ranks the way core/lols_mpi does (round-robin
// shares, the policy and the results through RolloutWire's bytes) trains bit-identically to the
// single-process trainer on real data; the wire format round-trips and refuses malformed input.
#include "core/grammar/GrammarFile.h"
#include "core/lols/LolsTrainer.h"
#include "core/lols/RolloutDistributor.h"
#include "core/lols/RolloutWire.h"
#include "core/treebank/Normalize.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <cmath>
#include <cstring>

using namespace prunescope;

namespace {

// What core/lols_mpi does with `ranks` ranks, in one process: rank 0 rolls out its share with
// `local`; every other rank decodes the broadcast policy, runs trainer.rollOut on its share and
// sends the encoded results, which rank 0 decodes into position order.
RolloutDistributor simulatedRanks(const LolsTrainer& trainer, int ranks, int* calls) {
    RolloutDistributor d;
    d.collect = [&trainer, ranks, calls](int t, const Policy& rollIn, int count,
                                         const LocalRollouts& local) {
        ++*calls;
        std::vector<SentenceRollouts> out(static_cast<std::size_t>(count));
        const std::vector<int> mine = rolloutShare(count, 0, ranks);
        const auto own = local(mine);
        for (std::size_t x = 0; x < mine.size(); ++x)
            out[static_cast<std::size_t>(mine[x])] = own[x];
        const Policy received = decodeRollInPolicy(encodeRollInPolicy(rollIn), "policy");
        for (int r = 1; r < ranks; ++r) {
            const std::vector<int> share = rolloutShare(count, r, ranks);
            decodeSentenceRollouts(
                encodeSentenceRollouts(share, trainer.rollOut(t, received, share)), out, "rank");
        }
        return out;
    };
    return d;
}

nlohmann::json withoutTimings(const LolsIterationRecord& r) {
    nlohmann::json j = r.toJson();
    j.erase("seconds");
    j["dev"].erase("seconds");
    return j;
}

} // namespace

class TestRolloutDistributor : public QObject {
    Q_OBJECT
  private slots:
    void sharesCoverEveryPositionOnce() {
        for (int count : {0, 1, 7, 12})
            for (int ranks : {1, 2, 3, 5}) {
                std::vector<int> seen(static_cast<std::size_t>(count), 0);
                for (int r = 0; r < ranks; ++r)
                    for (int j : rolloutShare(count, r, ranks))
                        ++seen[static_cast<std::size_t>(j)];
                for (int c : seen)
                    QCOMPARE(c, 1);
            }
        QCOMPARE(rolloutShare(7, 1, 3), (std::vector<int>{1, 4}));
    }

    // rDP and rCP (sampled spans) on PTB sentences, 2 and 3 simulated ranks: datasets, policies
    // (weights and files) and log records equal the single-process run's bit for bit.
    void simulatedRanksTrainBitIdentically() {
        const Grammar g = loadGrammar(testdata::samplePath("grammar.gram"));
        const auto train = lolsSentences(readNormalizedTreebank(testdata::ptbDir("train"), 60), 15);
        const auto dev = lolsSentences(readNormalizedTreebank(testdata::ptbDir("dev"), 12), 15);
        const Policy init = loadPolicy(testdata::samplePath("policies/baseline-w16.json"));
        for (Surrogate s : {Surrogate::DP, Surrogate::CP}) {
            LolsConfig cfg;
            cfg.surrogate = s;
            cfg.lambda = s == Surrogate::DP ? 0.002 : 0.01;
            cfg.minibatch = 10;
            cfg.cpRolloutsPerWord = 1;
            cfg.threads = 2;
            auto run = [&](int ranks, int* calls) {
                LolsTrainer trainer(g, train, dev, cfg);
                if (ranks > 0) trainer.setDistributor(simulatedRanks(trainer, ranks, calls));
                LolsState st = trainer.start(init, AggregatedDataset{});
                while (st.iteration < 2)
                    if (!trainer.step(st)) qFatal("a step was cancelled");
                return st;
            };
            int unused = 0, calls = 0;
            const LolsState single = run(0, &unused);
            QVERIFY(single.log.at(1).newStates > 0);
            for (int ranks : {2, 3}) {
                calls = 0;
                const LolsState d = run(ranks, &calls);
                QCOMPARE(calls, 2);
                QVERIFY(d.data == single.data);
                QVERIFY(d.policy.weights == single.policy.weights);
                QCOMPARE(policyToJson(d.policy), policyToJson(single.policy));
                QCOMPARE(d.log.size(), single.log.size());
                for (std::size_t x = 0; x < d.log.size(); ++x)
                    QCOMPARE(withoutTimings(d.log[x]).dump(), withoutTimings(single.log[x]).dump());
            }
        }
    }

    void wireRoundTripsBitForBit() {
        Policy p;
        p.threshold = 0.375f;
        p.weights[3] = 1.5f;
        p.weights[70000] = -0.0f; // sent: only +0.0 is left out
        p.weights[kFeatureDim - 1] = -2.25f;
        const Policy q = decodeRollInPolicy(encodeRollInPolicy(p), "p");
        QCOMPARE(q.threshold, p.threshold);
        QCOMPARE(std::memcmp(q.weights.data(), p.weights.data(), sizeof(float) * kFeatureDim), 0);
        QVERIFY(std::signbit(q.weights[70000]));
        QCOMPARE(encodeRollInPolicy(p).size(), std::size_t(4 + 4 + 4 + 3 * 8));

        SentenceRollouts a;
        a.entries = {{5, 0, 2, 0.25, -1.0}, {5, 1, 4, 3.0, 0.0}};
        a.states = 6;
        a.weight = 1.5;
        a.rollInAccuracy = 0.1;
        a.rollInRuntime = 12;
        SentenceRollouts b;
        b.skipped = true;
        const std::vector<int> positions{2, 0};
        const std::vector<SentenceRollouts> results{a, b};
        const std::string bytes = encodeSentenceRollouts(positions, results);
        QCOMPARE(bytes.size(), std::size_t(8 + 2 * 40 + 2 * 24));
        std::vector<SentenceRollouts> out(3);
        decodeSentenceRollouts(bytes, out, "rank 1");
        QCOMPARE(out[2].entries.size(), std::size_t(2));
        QCOMPARE(out[2].entries[1].k, std::uint16_t(4));
        QCOMPARE(out[2].entries[0].rewardKeep, -1.0);
        QCOMPARE(out[2].weight, 1.5);
        QCOMPARE(out[2].rollInRuntime, 12.0);
        QCOMPARE(out[2].states, 6);
        QVERIFY(out[0].skipped);
        QVERIFY(!out[2].skipped);

        // Malformed: truncated, a position outside the minibatch, trailing bytes, wrong magic.
        auto refuses = [](const std::string& b, std::size_t positions, const char* what) {
            std::vector<SentenceRollouts> o(positions);
            try {
                decodeSentenceRollouts(b, o, "rank 2");
            } catch (const std::runtime_error& e) {
                const std::string m = e.what();
                QVERIFY2(m.rfind("rank 2: ", 0) == 0 && m.find(what) != std::string::npos,
                         e.what());
                return;
            }
            QFAIL("a malformed rollout message was accepted");
        };
        refuses(bytes.substr(0, bytes.size() - 1), 3, "truncated");
        refuses(bytes, 2, "position 2");
        refuses(bytes + "x", 3, "trailing");
        refuses("XXXX" + bytes.substr(4), 3, "not a rollout message");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 decodeRollInPolicy(encodeRollInPolicy(p).substr(0, 20), "p"));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestRolloutDistributor)
#include "test_rollout_distributor.moc"
