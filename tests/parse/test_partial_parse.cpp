// The best partial parse of a chart built part way (core/parse/PartialParse.h) against the
// enumeration of every segmentation, on ptb-sample/dev replays (keep-all and random masks) at
// several steps; fragment trees cover the sentence; the count never grows as cells are built.
#include "core/parse/CkyReplay.h"
#include "core/parse/Parser.h"
#include "core/parse/PartialParse.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <random>

using namespace prunescope;
using testdata::normalizedTrees;
using testdata::trainGrammar;

namespace {
std::vector<const Tree*> devTreesBetween(int minLen, int maxLen, std::size_t limit) {
    std::vector<const Tree*> out;
    for (const auto& t : normalizedTrees("dev"))
        if (t.size() >= minLen && t.size() <= maxLen && out.size() < limit) out.push_back(&t);
    return out;
}

// Steps worth checking: none built, the words, part way through each width band, all but the root,
// all.
std::vector<int> stepsOf(const ReplayTrace& t) {
    const int total = static_cast<int>(t.cells.size()), n = t.n;
    std::vector<int> s{
        0,         1,         n,    n + 1, n + (n - 1) / 2, 2 * n - 1, total / 2, (3 * total) / 4,
        total - 2, total - 1, total};
    std::erase_if(s, [&](int x) { return x < 0 || x > total; });
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
}

// bestPartialParse == naivePartialParse (count, score) and the fragments are a valid segmentation.
int checkStep(const Grammar& g, const ReplayTrace& t, const std::vector<std::string>& w, int step) {
    const std::vector<std::uint8_t> built = builtAfter(t, t.chart, step);
    const PartialParse fast = bestPartialParse(t.chart, built);
    const PartialParse naive = naivePartialParse(t.chart, built);
    [&] {
        QCOMPARE(fast.size(), naive.size());
        QVERIFY2(
            std::abs(fast.score - naive.score) <= 1e-6 * (1 + std::abs(naive.score)),
            qPrintable(QString("step %1: %2 vs %3").arg(step).arg(fast.score).arg(naive.score)));
        int at = 0;
        double sum = 0;
        for (const PartialFragment& f : fast.fragments) {
            QCOMPARE(f.i, at);
            QVERIFY(f.k > f.i);
            at = f.k;
            sum += f.score;
            const ReplayCell& c = t.cells[static_cast<std::size_t>(t.order(f.i, f.k))];
            if (f.symbol < 0) { // a bare word: its cell is not built yet (or has no tag)
                QCOMPARE(f.k - f.i, 1);
                QVERIFY(t.order(f.i, f.k) >= step || c.bestSymbol < 0);
                continue;
            }
            QVERIFY(t.order(f.i, f.k) < step); // built by this step, not pruned, its best symbol
            QVERIFY(!c.pruned);
            QCOMPARE(f.symbol, c.bestSymbol);
            QCOMPARE(f.score, static_cast<double>(c.bestScore));
        }
        QCOMPARE(at, t.n);
        QCOMPARE(fast.score, sum);
        // The trees: one per fragment, their words the sentence's in order.
        const std::vector<Tree> trees = fragmentTrees(g, t.chart, w, fast);
        QCOMPARE(static_cast<int>(trees.size()), fast.size());
        std::vector<std::string> words;
        for (std::size_t f = 0; f < trees.size(); ++f) {
            const auto ws = trees[f].words();
            QCOMPARE(static_cast<int>(ws.size()), fast.fragments[f].k - fast.fragments[f].i);
            QVERIFY(trees[f].label.empty() || trees[f].label[0] != '@');
            words.insert(words.end(), ws.begin(), ws.end());
        }
        QCOMPARE(words, w);
    }();
    return fast.size();
}

void checkReplay(const Grammar& g, const std::vector<std::string>& w, const PruningMask* m,
                 int& checked) {
    const ReplayTrace t = replayCky(g, w, m);
    int last = t.n + 1;
    for (int step : stepsOf(t)) {
        const int count = checkStep(g, t, w, step);
        if (QTest::currentTestFailed()) return;
        QVERIFY(count <= last); // building cells only adds offers
        last = count;
        ++checked;
    }
    // Before any cell: every word bare; after the words: one tag each; after all, one piece if
    // parsed.
    QCOMPARE(bestPartialParse(t.chart, builtAfter(t, t.chart, 0)).size(), t.n);
    if (t.success)
        QCOMPARE(bestPartialParse(t.chart, builtAfter(t, t.chart, static_cast<int>(t.cells.size())))
                     .size(),
                 1);
}
} // namespace

class TestPartialParse : public QObject {
    Q_OBJECT
  private slots:
    void keepAllEqualsEnumeration() {
        const Grammar& g = trainGrammar();
        int checked = 0;
        for (const Tree* t : devTreesBetween(4, 16, 12)) {
            checkReplay(g, t->words(), nullptr, checked);
            if (QTest::currentTestFailed()) return;
        }
        QVERIFY(checked >= 100);
    }
    void randomMasksEqualEnumeration() {
        // Policy-like masks: many fragments stay apart until the end, some parses fail.
        const Grammar& g = trainGrammar();
        std::mt19937 rng(18);
        int checked = 0, failed = 0, multi = 0;
        for (double keepRate : {0.5, 0.2})
            for (const Tree* t : devTreesBetween(4, 16, 10)) {
                const auto w = t->words();
                const int n = static_cast<int>(w.size());
                PruningMask m = PruningMask::allKeep(n);
                std::bernoulli_distribution keep(keepRate);
                for (int wd = 2; wd < n; ++wd)
                    for (int i = 0; i + wd <= n; ++i)
                        m.set(i, i + wd, keep(rng));
                checkReplay(g, w, &m, checked);
                if (QTest::currentTestFailed()) return;
                const ReplayTrace tr = replayCky(g, w, &m);
                failed += !tr.success;
                const PartialParse end = bestPartialParse(
                    tr.chart, builtAfter(tr, tr.chart, static_cast<int>(tr.cells.size())));
                multi += end.size() > 1;
            }
        QVERIFY(checked >= 100);
        QVERIFY(failed > 0 && multi > 0); // failed parses end in several fragments
    }
    // Why the fewest fragments come first: a built constituent's inside score is never above the
    // sum of its words' best tags, so the highest score alone would always be one tag per word.
    void insideScoreNeverBeatsTags() {
        const Grammar& g = trainGrammar();
        for (const Tree* t : devTreesBetween(4, 16, 8)) {
            const ReplayTrace tr = replayCky(g, t->words());
            for (const ReplayCell& c : tr.cells) {
                if (c.k - c.i < 2 || c.bestSymbol < 0) continue;
                double tags = 0;
                for (int i = c.i; i < c.k; ++i)
                    tags += tr.cells[static_cast<std::size_t>(tr.order(i, i + 1))].bestScore;
                QVERIFY(c.bestScore <= tags + 1e-4);
            }
        }
    }
    void longSentence() {
        // 40 words: the Viterbi runs where the enumeration cannot; still a valid covering.
        const Grammar& g = trainGrammar();
        const auto long40 = devTreesBetween(35, 60, 1);
        QVERIFY(!long40.empty());
        const auto w = long40.front()->words();
        const ReplayTrace tr = replayCky(g, w);
        for (int step : stepsOf(tr)) {
            const PartialParse p = bestPartialParse(tr.chart, builtAfter(tr, tr.chart, step));
            QCOMPARE(p.fragments.front().i, 0);
            QCOMPARE(p.fragments.back().k, tr.n);
            QCOMPARE(static_cast<int>(fragmentTrees(g, tr.chart, w, p).size()), p.size());
        }
    }
    void badInput() {
        const Grammar& g = trainGrammar();
        const std::vector<std::string> w{"the", "dog", "barks"};
        const ReplayTrace t = replayCky(g, w);
        const std::vector<std::uint8_t> shortBuilt(2, 1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bestPartialParse(t.chart, shortBuilt));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, builtAfter(t, t.chart, 7));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, builtAfter(t, DenseChart{}, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, builtAfter(t, t.chart, -1));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestPartialParse)
#include "test_partial_parse.moc"
