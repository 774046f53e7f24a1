// The Inspect action's model (core/parse/CellInspection): on real sentences and masks, every built
// symbol of a cell is listed once, best score first, with the chart's values; exactly the spans of
// the best binarized tree carry one best-parse label, the tree's topmost label there; the best
// subtree covers the cell's words.
#include "core/parse/CellInspection.h"
#include "core/parse/Parser.h"
#include "core/treebank/Binarize.h"
#include "core/util/Random.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <map>

using namespace prunescope;

namespace {
// The binarized best tree's topmost label per span of width >= 1 (ROOT excluded).
void topLabels(const Tree& t, int& pos, std::map<std::pair<int, int>, std::string>& out) {
    if (t.isLeaf()) return void(++pos);
    const int begin = pos;
    for (const Tree& c : t.children)
        topLabels(c, pos, out);
    out[{begin, pos}] = t.label; // parents are visited after children: the topmost wins
}
} // namespace

class TestCellInspection : public QObject {
    Q_OBJECT
  private slots:
    void agreesWithTheChartAndTheBestParse() {
        const Grammar& g = testdata::trainGrammar();
        Parser parser(g);
        int sentences = 0, cells = 0, onBest = 0;
        SplitMix64 rng(5);
        for (const Tree& t : testdata::normalizedTrees("dev")) {
            const auto w = t.words();
            const int n = static_cast<int>(w.size());
            if (n < 3 || n > 25) continue;
            PruningMask m = PruningMask::allKeep(n);
            if (sentences % 2 == 1)
                for (int width = 2; width < n; ++width)
                    for (int i = 0; i + width <= n; ++i)
                        if (rng.uniform() < 0.3) m.set(i, i + width, false);
            parser.parse(w, &m);
            const DenseChart chart = toDense(parser.chart());
            std::map<std::pair<int, int>, std::string> best;
            if (chart.parsed()) {
                int pos = 0;
                topLabels(bestBinarizedTree(g, chart, w).children.at(0), pos, best);
            }
            for (int width = 1; width <= n; ++width)
                for (int i = 0; i + width <= n; ++i) {
                    const int k = i + width;
                    const CellInspection c = inspectCell(g, chart, w, i, k);
                    ++cells;
                    int built = 0;
                    for (int x = 0; x < chart.numSymbols; ++x)
                        built += chart.postRow(i, k)[x] != kNegInf;
                    QCOMPARE(static_cast<int>(c.labels.size()), built);
                    int bestCount = 0;
                    for (std::size_t r = 0; r < c.labels.size(); ++r) {
                        const CellLabel& l = c.labels[r];
                        QCOMPARE(l.post, chart.postRow(i, k)[l.symbol]);
                        QCOMPARE(l.pre, chart.preRow(i, k)[l.symbol]);
                        QCOMPARE(l.label, unbinarizedLabel(g.outputLabel(l.symbol)));
                        if (r > 0) QVERIFY(c.labels[r - 1].post >= l.post);
                        if (l.onBest) {
                            ++bestCount;
                            QCOMPARE(g.outputLabel(l.symbol), best.at({i, k}));
                        }
                    }
                    QCOMPARE(bestCount, best.count({i, k}) ? 1 : 0);
                    onBest += bestCount;
                    if (c.labels.empty()) {
                        QVERIFY(c.bestSubtree.label.empty());
                        continue;
                    }
                    QCOMPARE(c.bestSubtree.words(),
                             std::vector<std::string>(w.begin() + i, w.begin() + k));
                    QCOMPARE(c.bestSubtree.label, c.labels[0].label);
                }
            if (++sentences == 16) break;
        }
        QCOMPARE(sentences, 16);
        QVERIFY(onBest > 16 * 3);
        QVERIFY(cells > 1000);
    }

    void outOfRangeSpanIsRefused() {
        const Grammar& g = testdata::trainGrammar();
        const std::vector<std::string> w{"The", "dog", "barked", "."};
        Parser parser(g);
        parser.parse(w, nullptr);
        const DenseChart chart = toDense(parser.chart());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, inspectCell(g, chart, w, 2, 5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, inspectCell(g, chart, w, 2, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, inspectCell(g, chart, w, -1, 2));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestCellInspection)
#include "test_cell_inspection.moc"
