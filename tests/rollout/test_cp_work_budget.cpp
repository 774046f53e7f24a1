// Change propagation with a work budget (issue 45): a flip past the budget is recomputed from its
// undo list and a reparse of the cells containing the flipped span. With budget 0 (every flip
// recomputed) and with the default budget, random flip/undo sequences on dev sentences must leave
// the chart, the FlipResult and the mask exactly as Parser::parse gives them, undo must restore
// them bit for bit, and rCP rollouts must equal naive reparsing.
#include "core/eval/Evalb.h"
#include "core/parse/Parser.h"
#include "core/rollout/ChangePropagator.h"
#include "core/rollout/Rollout.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <cstring>
#include <limits>
#include <random>
#include <tuple>

using namespace prunescope;
using testdata::normalizedTrees;
using testdata::trainGrammar;

namespace {
constexpr std::size_t kStrideForTest = testdata::kSanitizerStride; // 4 under a sanitizer, else 1
// Dev sentences of lo..hi words, at most `count` (a quarter of it, at least 1, under a sanitizer:
// that run looks for memory errors on the same paths, not re-proving the equivalence; 491 s in CI
// before), longest first (the flips with the most work).
std::vector<const Tree*> devTrees(int lo, int hi, int count) {
    count = std::max(1, count / static_cast<int>(kStrideForTest));
    std::vector<const Tree*> out;
    for (const auto& t : normalizedTrees("dev"))
        if (t.size() >= lo && t.size() <= hi) out.push_back(&t);
    std::stable_sort(out.begin(), out.end(),
                     [](const Tree* a, const Tree* b) { return a->size() > b->size(); });
    if (static_cast<int>(out.size()) > count) out.resize(count);
    return out;
}

PruningMask randomMask(int n, std::mt19937& rng) {
    PruningMask m = PruningMask::allKeep(n);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            if (rng() % 100 < 40) m.set(i, i + w, false);
    return m;
}

bool sameFloat(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The chart, the counters and the FlipResult of cp equal a reparse under cp's mask, bit for bit;
// the events are exactly the vertices whose value differs between `before` and the reparse, with
// those values, in (width, layer) order (in (width, layer, i, symbol) order if recomputed).
void checkAgainstReparse(const ChangePropagator& cp, const FlipResult* r, const DenseChart* before,
                         Parser& parser, const Tree& gold, const char* what) {
    const ParseStats st = parser.parse(cp.words(), &cp.mask());
    QVERIFY2(bitIdentical(cp.chart(), parser.chart()), what);
    QCOMPARE(cp.pushes(), st.pushes);
    QCOMPARE(cp.constituents(), st.constituents);
    if (!r) return;
    QCOMPARE(r->success, st.success);
    QVERIFY(sameFloat(static_cast<float>(r->logProb), static_cast<float>(st.logProb)));
    QCOMPARE(r->logProb, st.logProb);
    QCOMPARE(r->pushes, st.pushes);
    QCOMPARE(r->constituents, st.constituents);
    QCOMPARE(r->spansKept, st.spansKept);
    const Tree tree = bestTree(cp.grammar(), parser.chart(), cp.words());
    QCOMPARE(r->tree, tree);
    QCOMPARE(r->f1, sentenceF1(gold, tree));
    const DenseChart after = toDense(parser.chart());
    std::size_t changed = 0;
    for (std::size_t v = 0; v < before->pre.size(); ++v)
        changed += (before->pre[v] != after.pre[v]) + (before->post[v] != after.post[v]);
    changed += before->rootScore != after.rootScore;
    QCOMPARE(r->events.size(), changed);
    for (std::size_t e = 0; e < r->events.size(); ++e) {
        const ChangeEvent& ev = r->events[e];
        if (ev.layer < 2) {
            const std::size_t at = before->at(ev.i, ev.k, ev.symbol);
            QVERIFY(sameFloat(ev.before, ev.layer == 0 ? before->pre[at] : before->post[at]));
            QVERIFY(sameFloat(ev.after, ev.layer == 0 ? after.pre[at] : after.post[at]));
        } else {
            QVERIFY(sameFloat(ev.before, before->rootScore));
            QVERIFY(sameFloat(ev.after, after.rootScore));
        }
        if (e == 0) continue;
        const ChangeEvent& p = r->events[e - 1];
        if (cp.lastRecomputedFlip())
            QVERIFY(std::make_tuple(p.k - p.i, p.layer, p.i, p.symbol) <
                    std::make_tuple(ev.k - ev.i, ev.layer, ev.i, ev.symbol));
        else
            QVERIFY(std::make_pair(p.k - p.i, p.layer) <= std::make_pair(ev.k - ev.i, ev.layer));
    }
}
} // namespace

class TestCpWorkBudget : public QObject {
    Q_OBJECT
  private:
    // Random flips (70 %) and undos (30 %) from the all-keep and a random mask, each state checked
    // against a reparse; finally every flip undone. Counts the flips and those recomputed.
    void flipUndoSequences(double budget, int sentences, int steps, long& flips, long& recomputed) {
        const Grammar& g = trainGrammar();
        Parser parser(g);
        std::mt19937 rng(45);
        flips = recomputed = 0;
        for (const Tree* t : devTrees(20, 40, sentences)) {
            const auto words = t->words();
            const int n = static_cast<int>(words.size());
            for (const PruningMask& start : {PruningMask::allKeep(n), randomMask(n, rng)}) {
                ChangePropagator cp(g, words, start);
                cp.setWorkBudget(budget);
                cp.setGold(*t);
                const DenseChart original = cp.chart();
                long mine = 0;
                for (int step = 0; step < steps; ++step) {
                    if (cp.canUndo() && rng() % 10 < 3) {
                        cp.undo();
                        checkAgainstReparse(cp, nullptr, nullptr, parser, *t, "after undo");
                        if (QTest::currentTestFailed()) return;
                        continue;
                    }
                    // Mostly short spans (whose flips reach the most cells), some long ones.
                    const int w = rng() % 2 ? 2 + static_cast<int>(rng() % 3)
                                            : 2 + static_cast<int>(rng() % (n - 2));
                    const int i = static_cast<int>(rng() % (n - w + 1));
                    const DenseChart before = cp.chart();
                    const FlipResult r = cp.flip(i, i + w);
                    ++flips;
                    recomputed += cp.lastRecomputedFlip();
                    mine += cp.lastRecomputedFlip();
                    if (budget == 0) QVERIFY(cp.lastRecomputedFlip());
                    checkAgainstReparse(cp, &r, &before, parser, *t, "after flip");
                    if (QTest::currentTestFailed()) return;
                }
                QCOMPARE(cp.recomputedFlips(), mine);
                while (cp.canUndo())
                    cp.undo();
                QVERIFY(bitIdentical(cp.chart(), original));
                QVERIFY(cp.mask() == start);
            }
        }
    }

  private slots:
    // Budget 0: every flip is recomputed.
    void everyFlipRecomputedEqualsReparse() {
        long flips = 0, recomputed = 0;
        flipUndoSequences(0.0, 4, 40, flips, recomputed);
        if (QTest::currentTestFailed()) return;
        qInfo("budget 0: %ld flips, %ld recomputed", flips, recomputed);
        QCOMPARE(recomputed, flips);
        QVERIFY(flips > (kStrideForTest > 1 ? 40 : 200));
    }

    // The default budget: both paths are taken, and mixed in one undo stack.
    void defaultBudgetEqualsReparse() {
        long flips = 0, recomputed = 0;
        flipUndoSequences(ChangePropagator::kDefaultWorkBudget, 4, 60, flips, recomputed);
        if (QTest::currentTestFailed()) return;
        qInfo("default budget %.2f: %ld flips, %ld recomputed",
              ChangePropagator::kDefaultWorkBudget, flips, recomputed);
        QVERIFY(recomputed > 0);
        QVERIFY(recomputed < flips);
    }

    // A budget past which the propagation stops mid-agenda (not before it starts), on all-keep
    // charts, where flips of short spans change tens of thousands of values.
    void abandonedMidAgendaEqualsReparse() {
        long flips = 0, recomputed = 0;
        flipUndoSequences(0.02, 2, 40, flips, recomputed);
        if (QTest::currentTestFailed()) return;
        qInfo("budget 0.02: %ld flips, %ld recomputed", flips, recomputed);
        QVERIFY(recomputed > 0);
    }

    // probeFlip under small budgets (the propagation or the lazy exact best tree stops
    // part way) against flip() + currentF1() + constituents() + undo() without a budget.
    void probesUnderSmallBudgetsEqualFlips() {
        const Grammar& g = trainGrammar();
        std::mt19937 rng(3);
        long probes = 0, recomputed = 0;
        for (const Tree* t : devTrees(25, 40, 2)) {
            const auto words = t->words();
            const int n = static_cast<int>(words.size());
            for (const PruningMask& m : {PruningMask::allKeep(n), randomMask(n, rng)}) {
                ChangePropagator ref(g, words, m);
                ref.setWorkBudget(std::numeric_limits<double>::infinity());
                ref.setGold(*t);
                ref.setTrackPushes(false);
                std::vector<std::pair<double, long>> want;
                for (int w = 2; w < n; ++w)
                    for (int i = 0; i + w <= n; ++i) {
                        ref.flipOnly(i, i + w);
                        want.emplace_back(ref.currentF1(), ref.constituents());
                        ref.undo();
                    }
                QCOMPARE(ref.recomputedFlips(), 0L);
                for (const double budget : {0.001, 0.003, 0.01}) {
                    ChangePropagator cp(g, words, m);
                    cp.setWorkBudget(budget);
                    cp.setGold(*t);
                    cp.setTrackPushes(false);
                    std::size_t s = 0;
                    for (int w = 2; w < n; ++w)
                        for (int i = 0; i + w <= n; ++i, ++s) {
                            const ChangePropagator::Probe p = cp.probeFlip(i, i + w);
                            QCOMPARE(p.constituents, want[s].second);
                            if (p.full) QCOMPARE(p.f1, want[s].first);
                            ++probes;
                        }
                    recomputed += cp.recomputedFlips();
                }
            }
        }
        qInfo("%ld probes, %ld recomputed", probes, recomputed);
        QVERIFY(recomputed > 0);
    }

    // rCP rollouts (probeFlip, the rollout fast path) with budget 0 and the default equal naive
    // reparsing exactly.
    void rolloutsEqualNaive() {
        const Grammar& g = trainGrammar();
        std::mt19937 rng(7);
        long rollouts = 0;
        for (const Tree* t : devTrees(12, 22, 6)) {
            const int n = t->size();
            for (const PruningMask& m : {PruningMask::allKeep(n), randomMask(n, rng)}) {
                RolloutRequest req{&g, t->words(), *t, m, {}};
                const auto naive = naiveRollouts(req, Surrogate::CP);
                for (const double budget : {0.0, 0.02, ChangePropagator::kDefaultWorkBudget,
                                            ChangePropagator::kDefaultRolloutWorkBudget}) {
                    req.cpWorkBudget = budget;
                    const auto cp = changePropagationRollouts(req);
                    QCOMPARE(cp.size(), naive.size());
                    for (std::size_t s = 0; s < cp.size(); ++s) {
                        QCOMPARE(cp[s].i, naive[s].i);
                        QCOMPARE(cp[s].k, naive[s].k);
                        QCOMPARE(cp[s].accuracyKeep, naive[s].accuracyKeep);
                        QCOMPARE(cp[s].accuracyPrune, naive[s].accuracyPrune);
                        QCOMPARE(cp[s].runtimeKeep, naive[s].runtimeKeep);
                        QCOMPARE(cp[s].runtimePrune, naive[s].runtimePrune);
                    }
                    rollouts += static_cast<long>(cp.size());
                }
            }
        }
        QVERIFY(rollouts > 3000 / static_cast<long>(kStrideForTest));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestCpWorkBudget)
#include "test_cp_work_budget.moc"
