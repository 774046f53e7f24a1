// Stepwise EM with exact, randomized and fixed-mask expectations (core/mcmc/EmStep.h).
#include "core/mcmc/EmStep.h"
#include "core/mcmc/FigureOfMerit.h"
#include "core/policy/Policy.h"
#include "support/SharedGrammar.h"
#include "support/TestData.h"
#include "support/TinyPcfg.h"

#include "support/TestSuite.h"

#include <cmath>

using namespace prunescope;

namespace {
std::vector<std::vector<std::string>> tinyCorpus() {
    return {{"a", "cat", "saw", "a", "dog"},
            {"a", "dog", "saw", "a", "cat", "with", "a", "fish"},
            {"fish", "saw", "cat"},
            {"a", "cat", "with", "a", "dog", "saw", "fish"}};
}
std::vector<std::vector<std::string>> devCorpus(int count, int maxLen) {
    std::vector<std::vector<std::string>> out;
    for (const Tree& t : testdata::normalizedTrees("dev")) {
        if (t.size() > maxLen || t.size() < 3) continue;
        out.push_back(t.words());
        if (static_cast<int>(out.size()) == count) break;
    }
    return out;
}
double prob(float lp) {
    return std::exp(static_cast<double>(lp));
}
} // namespace

class TestEmStep : public QObject {
    Q_OBJECT
  private slots:
    // η = 1: the new probabilities are the expected counts normalized per left-hand side; EM never
    // lowers the likelihood of its corpus (once the grammar is proper).
    void exactEmIsClassicalEm() {
        Grammar g = testdata::tinyPcfg();
        const auto corpus = tinyCorpus();
        const Policy none;
        EStepOptions opt;
        const CorpusCounts c = expectedCounts(g, corpus, none, opt);
        QCOMPARE(c.sentences, 4);
        QCOMPARE(c.failures, 0);
        const Grammar g1 = emUpdate(g, c, 1.0);
        double sTot = 0; // S's expansions: binary rules with parent S and the unary S -> VP
        for (std::size_t r = 0; r < g.binary.size(); ++r)
            if (g.binary[r].parent == 1) sTot += c.binary[r];
        for (std::size_t r = 0; r < g.unary.size(); ++r)
            if (g.unary[r].parent == 1) sTot += c.unary[r];
        for (std::size_t r = 0; r < g.binary.size(); ++r)
            if (g.binary[r].parent == 1)
                QVERIFY(std::abs(prob(g1.binary[r].logProb) - c.binary[r] / sTot) < 1e-6);
        double ll = corpusLikelihood(g1, corpus).logLikelihood;
        Grammar cur = g1;
        for (int it = 0; it < 4; ++it) {
            cur = emUpdate(cur, expectedCounts(cur, corpus, none, opt), 1.0);
            const double next = corpusLikelihood(cur, corpus).logLikelihood;
            QVERIFY2(next >= ll - 1e-5, qPrintable(QString("%1 -> %2").arg(ll).arg(next)));
            ll = next;
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, emUpdate(g, c, 0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, emUpdate(testdata::trainGrammar(), c, 0.5));
    }

    // Stepwise EM keeps every left-hand side's distribution normalized (treebank grammar, η = 0.5),
    // and a rule the pruned E-step never counts shrinks by exactly (1 − η).
    void stepwiseKeepsNormalization() {
        const Grammar& g = testdata::trainGrammar();
        const auto corpus = devCorpus(10, 15);
        EStepOptions opt;
        opt.method = ExpectationMethod::FixedMask;
        opt.fixedThreshold = 0.3;
        const CorpusCounts c = expectedCounts(g, corpus, testdata::bundledPolicy(), opt);
        const Grammar g1 = emUpdate(g, c, 0.5);
        std::vector<double> before(g.symbols.size(), 0.0), after(g.symbols.size(), 0.0);
        for (std::size_t r = 0; r < g.binary.size(); ++r) {
            before[g.binary[r].parent] += prob(g.binary[r].logProb);
            after[g.binary[r].parent] += prob(g1.binary[r].logProb);
        }
        for (std::size_t r = 0; r < g.unary.size(); ++r) {
            before[g.unary[r].parent] += prob(g.unary[r].logProb);
            after[g.unary[r].parent] += prob(g1.unary[r].logProb);
        }
        int shrunk = 0;
        for (std::size_t x = 0; x < before.size(); ++x)
            if (before[x] > 0)
                QVERIFY2(std::abs(after[x] - before[x]) < 1e-4, g.symbols[x].c_str());
        for (std::size_t r = 0; r < g.binary.size(); ++r) {
            double tot = 0;
            for (std::size_t q = 0; q < g.binary.size(); ++q)
                if (g.binary[q].parent == g.binary[r].parent) tot += c.binary[q];
            if (c.binary[r] == 0 && tot > 0) {
                QVERIFY(std::abs(prob(g1.binary[r].logProb) - 0.5 * prob(g.binary[r].logProb)) <
                        1e-6 * prob(g.binary[r].logProb) + 1e-12);
                if (++shrunk > 50) break;
            }
        }
        QVERIFY(shrunk > 0);
        QCOMPARE(grammarDistance(g, g), 0.0);
        QVERIFY(grammarDistance(g, g1) > 0);
        QCOMPARE(grammarDistance(g, g1), grammarDistance(g1, g));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, grammarDistance(g, testdata::tinyPcfg()));
    }

    // Randomized E-step with nothing selectable is the exact E-step; results do not depend on
    // the number of threads; randomized counts approach exact ones with more iterations.
    void randomizedEStep() {
        const Grammar& g = testdata::trainGrammar();
        const auto corpus = devCorpus(6, 14);
        EStepOptions exact;
        const CorpusCounts ce = expectedCounts(g, corpus, testdata::bundledPolicy(), exact);
        EStepOptions none;
        none.method = ExpectationMethod::Randomized;
        none.chain.selection = SelectionKind::None;
        none.iterations = 1;
        const CorpusCounts cn = expectedCounts(g, corpus, testdata::bundledPolicy(), none);
        QCOMPARE(cn.binary, ce.binary);
        QCOMPARE(cn.lexicon, ce.lexicon);
        EStepOptions rnd;
        rnd.method = ExpectationMethod::Randomized;
        rnd.iterations = 8;
        const CorpusCounts c1 = expectedCounts(g, corpus, testdata::bundledPolicy(), rnd);
        rnd.threads = 2;
        const CorpusCounts c2 = expectedCounts(g, corpus, testdata::bundledPolicy(), rnd);
        QCOMPARE(c1.binary, c2.binary);
        QCOMPARE(c1.pushes, c2.pushes);
        QVERIFY(c1.pushes < 8 * ce.pushes);
        double tot = 0;
        for (double v : c1.binary)
            tot += v;
        double expect = 0;
        for (const auto& w : corpus)
            expect += static_cast<double>(w.size()) - 1; // n − 1 binary nodes
        QVERIFY(std::abs(tot - expect) < 1e-6);
    }

    void matchedThresholdRespectsBudget() {
        const Grammar& g = testdata::trainGrammar();
        const auto corpus = devCorpus(4, 14);
        const double t =
            matchedFixedThreshold(g, corpus, testdata::bundledPolicy(), 1e12, {0.1, 0.0, 0.5});
        QCOMPARE(t, 0.0); // any cost allowed: keep everything
        const double t2 =
            matchedFixedThreshold(g, corpus, testdata::bundledPolicy(), 0, {0.1, 0.0, 0.5});
        QCOMPARE(t2, 0.5); // nothing fits: the most aggressive
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestEmStep)
#include "test_em_step.moc"
