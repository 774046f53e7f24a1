// The bottom-up CKY replay (core/parse/CkyReplay.h) against the Parser on ptb-sample/dev: the same
// chart bit for bit and the same counters, under keep-all, gold-span and random masks.
#include "core/grammar/PcfgEstimator.h"
#include "core/parse/CkyReplay.h"
#include "core/parse/Parser.h"
#include "core/policy/GoldSpans.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <random>

using namespace prunescope;
using testdata::normalizedTrees;
using testdata::trainGrammar;

namespace {
// The first `limit` dev sentences of 2..maxLen words; under a sanitizer every 4th of them unless
// `whole` (the random-mask check counts its sentences, so it always takes all of them).
std::vector<const Tree*> devTrees(int maxLen, std::size_t limit, bool whole = false) {
    std::vector<const Tree*> out;
    for (const auto& t : normalizedTrees("dev"))
        if (t.size() >= 2 && t.size() <= maxLen && out.size() < limit) out.push_back(&t);
    return whole ? out : testdata::sanitizerSubset(out);
}

// Replay and parse agree: chart, totals, and the trace's own bookkeeping.
void checkAgainstParser(Parser& p, const std::vector<std::string>& w, const PruningMask* m) {
    const Grammar& g = p.grammar();
    const ParseStats st = p.parse(w, m);
    const ReplayTrace t = replayCky(g, w, m);
    const int n = static_cast<int>(w.size());
    QVERIFY(bitIdentical(t.chart, p.chart()));
    QCOMPARE(t.pushes, st.pushes);
    QCOMPARE(t.constituents, st.constituents);
    QCOMPARE(t.spansKept, st.spansKept);
    QCOMPARE(t.success, st.success);
    QCOMPARE(t.logProb, st.logProb);
    // Bottom-up order: width 1..n, left to right; every cell once.
    QCOMPARE(static_cast<int>(t.cells.size()), n * (n + 1) / 2);
    long sum = 0, consts = 0;
    int pos = 0;
    for (int wd = 1; wd <= n; ++wd)
        for (int i = 0; i + wd <= n; ++i, ++pos) {
            const ReplayCell& c = t.cells[pos];
            QCOMPARE(c.i, i);
            QCOMPARE(c.k, i + wd);
            QCOMPARE(t.order(i, i + wd), pos);
            QCOMPARE(c.splitPoints, wd - 1);
            QCOMPARE(c.pushes, c.lexicalPushes + c.binaryPushes + c.unaryPushes + c.rootPushes);
            const bool kept = wd == 1 || !m || m->keep(i, i + wd);
            QCOMPARE(c.pruned, !kept);
            if (c.pruned) {
                QCOMPARE(c.pushes, 0L);
                QCOMPARE(c.constituents, 0);
                QVERIFY(c.splits.empty());
            }
            if (wd == 1)
                QVERIFY(c.lexicalPushes > 0);
            else
                QCOMPARE(c.lexicalPushes, 0L);
            if (wd < n) QCOMPARE(c.rootPushes, 0L);
            // A split is tried iff both children were built (they came earlier in the order).
            for (int j : c.splits) {
                QVERIFY(j > i && j < i + wd);
                QVERIFY(t.cells[t.order(i, j)].constituents > 0);
                QVERIFY(t.cells[t.order(j, i + wd)].constituents > 0);
            }
            if (c.binaryPushes > 0) QVERIFY(!c.splits.empty());
            // The best label is the highest post value of the final chart's cell.
            if (c.constituents > 0) {
                QVERIFY(c.bestSymbol >= 0);
                const float* post = t.chart.postRow(i, i + wd);
                for (int x = 0; x < t.chart.numSymbols; ++x)
                    QVERIFY(post[x] <= c.bestScore);
                if (wd > 1 && c.bestSplit >= 0)
                    QVERIFY(std::count(c.splits.begin(), c.splits.end(), c.bestSplit) == 1);
            } else {
                QCOMPARE(c.bestSymbol, -1);
            }
            sum += c.pushes;
            consts += c.constituents;
        }
    QCOMPARE(sum, st.pushes);
    QCOMPARE(consts, st.constituents);
}
} // namespace

class TestCkyReplay : public QObject {
    Q_OBJECT
  private slots:
    void keepAllEqualsParser() {
        Parser p(trainGrammar());
        for (const Tree* t : devTrees(20, 25))
            checkAgainstParser(p, t->words(), nullptr);
        // An explicit keep-all mask is the same as none.
        const auto w = devTrees(20, 1).front()->words();
        const PruningMask all = PruningMask::allKeep(static_cast<int>(w.size()));
        checkAgainstParser(p, w, &all);
    }
    void randomMasksEqualParser() {
        // Masks like a policy's: most wide spans pruned, some failing parses among them.
        Parser p(trainGrammar());
        std::mt19937 rng(18);
        int failed = 0, checked = 0;
        for (double keepRate : {0.7, 0.3, 0.1})
            for (const Tree* t : devTrees(18, 12, /*whole=*/true)) {
                const auto w = t->words();
                const int n = static_cast<int>(w.size());
                PruningMask m = PruningMask::allKeep(n);
                std::bernoulli_distribution keep(keepRate);
                for (int wd = 2; wd < n; ++wd)
                    for (int i = 0; i + wd <= n; ++i)
                        m.set(i, i + wd, keep(rng));
                checkAgainstParser(p, w, &m);
                failed += !replayCky(p.grammar(), w, &m).success;
                ++checked;
            }
        QVERIFY(checked >= 30);
        QVERIFY(failed > 0); // the pruned-root path was exercised
    }
    void goldMaskEqualsParser() {
        const Grammar& g = trainGrammar();
        Parser p(g);
        for (const Tree* t : devTrees(25, 15)) {
            const PruningMask m = spanMask(binarizeLike(g, *t));
            checkAgainstParser(p, t->words(), &m);
        }
    }
    void badInput() {
        const Grammar& g = trainGrammar();
        const std::vector<std::string> none;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, replayCky(g, none));
        const std::vector<std::string> w{"the", "dog", "barks"};
        const PruningMask m = PruningMask::allKeep(4);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, replayCky(g, w, &m));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestCkyReplay)
#include "test_cky_replay.moc"
