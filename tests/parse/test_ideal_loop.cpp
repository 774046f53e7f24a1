// The ideal inner loop of `bench-parse --ideal` (issue 17) and the parser's phase timing
// (`bench-parse --phases`) on real dev sentences: the ideal loops rebuild exactly the parser's pre
// rows of the cells they time, with every kernel this CPU has; phase timing changes no result and
// its counters add up to the parse's own.
#include "core/parse/CkyIdealLoop.h"
#include "core/parse/Parser.h"
#include "support/SharedGrammar.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <cstring>

using namespace prunescope;
using testdata::normalizedTrees;
using testdata::trainGrammar;

namespace {
// The longest dev sentence of at most maxLen words.
std::vector<std::string> devSentence(int maxLen) {
    const Tree* best = nullptr;
    for (const Tree& t : normalizedTrees("dev"))
        if (t.size() <= maxLen && (!best || t.size() > best->size())) best = &t;
    return best ? best->words() : std::vector<std::string>{};
}
} // namespace

class TestIdealLoop : public QObject {
    Q_OBJECT
  private slots:
    void rowsMatchTheParser_data() {
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("maxLen");
        for (CkyKernel k : {CkyKernel::Portable, CkyKernel::Avx2, CkyKernel::Avx512})
            for (int len : {12, 40})
                QTest::newRow((std::string(ckyKernelName(k)) + "-" + std::to_string(len)).c_str())
                    << static_cast<int>(k) << len;
    }
    void rowsMatchTheParser() {
        QFETCH(int, kernel);
        QFETCH(int, maxLen);
        const auto k = static_cast<CkyKernel>(kernel);
        if (!ckyKernelSupported(k)) QSKIP("this CPU does not have that kernel");
        const auto words = devSentence(maxLen);
        QVERIFY(words.size() >= 10);
        const IdealLoopResult r = measureIdealLoop(trainGrammar(), words, k, 0.01);
        QVERIFY(r.rowsMatchParser);
        QVERIFY(r.pushes > 0);
        QVERIFY(r.cells > 0);
        // Every m-th cell of width >= 2, m chosen for about kIdealPushes pushes: all of them when
        // the whole parse has no more pushes than that.
        Parser parser(trainGrammar(), k);
        const long all = parser.parse(words).pushes;
        const int n = static_cast<int>(words.size());
        if (all <= kIdealPushes)
            QCOMPARE(r.cells, n * (n - 1) / 2);
        else
            QVERIFY(r.cells < n * (n - 1) / 2 && r.pushes < all);
        QVERIFY(r.improvementRate > 0 && r.improvementRate < 1);
        QVERIFY(r.withWitnessMpushPerSecond > 0);
        QVERIFY(r.withoutWitnessMpushPerSecond > 0);
        QVERIFY(r.kernelMpushPerSecond > 0);
    }

    void refusesAnEmptySentence() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 measureIdealLoop(trainGrammar(), {}, CkyKernel::Portable, 0.01));
    }

    // Phase timing is observation only: the same pushes and the same chart bit for bit, and its
    // counters agree with the parses it timed.
    void phasesChangeNothing() {
        const Grammar& g = trainGrammar();
        Parser plain(g), timed(g);
        ParsePhases ph;
        timed.setPhases(&ph);
        long pushes = 0, cells = 0;
        int parses = 0;
        for (const Tree& t : normalizedTrees("dev")) {
            if (t.size() > 25) continue;
            const auto words = t.words();
            const ParseStats a = plain.parse(words), b = timed.parse(words);
            QCOMPARE(b.pushes, a.pushes);
            QCOMPARE(b.constituents, a.constituents);
            QCOMPARE(b.success, a.success);
            QVERIFY(std::memcmp(&a.logProb, &b.logProb, sizeof a.logProb) == 0);
            QCOMPARE(plain.chart().memoryBytes(), timed.chart().memoryBytes());
            QVERIFY(bitIdentical(plain.chart(), timed.chart()));
            pushes += a.pushes;
            cells += t.size() * (t.size() + 1) / 2;
            if (++parses == 40) break;
        }
        QCOMPARE(ph.parses, static_cast<long>(parses));
        QCOMPARE(ph.pushes, pushes);
        QCOMPARE(ph.cells, cells);
        QVERIFY(ph.splits > 0 && ph.itemBuilds > 0 && ph.items > 0);
        QVERIFY(ph.itemBuild > 0 && ph.split > 0 && ph.finishCell > 0);
        QVERIFY(ph.itemBuild + ph.split + ph.direct + ph.finishCell <= ph.total);
        // Detached, nothing more is counted.
        timed.setPhases(nullptr);
        timed.parse(normalizedTrees("dev").front().words());
        QCOMPARE(ph.parses, static_cast<long>(parses));
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestIdealLoop)
#include "test_ideal_loop.moc"
