// Where the violation-fixing perceptron updates (core/cube/MaxViolation.h, CubeUpdate.h): the s-max
// node and the p-max frontier ft(root) on hand-built hypergraphs with known violations (the shape
// of the paper's Figure 1), their invariants on random trees, and on real charts: the violation at
// the chosen nodes is >= 0, the four strategies pick what sec. 2 says.
#include "core/cube/CubeTraining.h"
#include "core/cube/CubeUpdate.h"
#include "core/dep/DepReader.h"
#include "core/util/Random.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <functional>

using namespace prunescope;

namespace {

// The gold tree of Figure 1 (leaves A..F; G..J; K, L; N the root) as used here:
//   N -> K L,  K -> A H,  H -> B C,  L -> I F,  I -> D E.  (G, J, M are Viterbi-only nodes.)
enum { A, B, C, D, E, F, H, I, K, L, N, kNodes };

std::vector<ViolationNode> figure1(double vN, double vK, double vL, double vH, double vI) {
    std::vector<ViolationNode> t(kNodes);
    t[N].children = {K, L};
    t[K].children = {A, H};
    t[H].children = {B, C};
    t[L].children = {I, F};
    t[I].children = {D, E};
    const double v[kNodes] = {0, 0, 0, 0, 0, 0, vH, vI, vK, vL, vN};
    for (int x = 0; x < kNodes; ++x) {
        t[static_cast<std::size_t>(x)].violation = v[x];
        t[static_cast<std::size_t>(x)].differs = x >= H;
    }
    return t;
}

std::vector<int> leavesUnder(const std::vector<ViolationNode>& t, int v) {
    if (t[static_cast<std::size_t>(v)].children.empty()) return {v};
    std::vector<int> out;
    for (int c : t[static_cast<std::size_t>(v)].children) {
        const auto l = leavesUnder(t, c);
        out.insert(out.end(), l.begin(), l.end());
    }
    return out;
}

} // namespace

class TestMaxViolation : public QObject {
    Q_OBJECT
  private slots:
    void figure1NonViolatingRoot() {
        // The root is not a violation (search lost gold); K and I violate, I the most.
        const auto t = figure1(-1, 3, 2, 1, 4);
        const auto maxv = maxViolationNodes(t, N);
        QCOMPARE(maxv[H], static_cast<int>(H));
        QCOMPARE(maxv[K], static_cast<int>(K));
        QCOMPARE(maxv[I], static_cast<int>(I));
        QCOMPARE(maxv[L], static_cast<int>(I));
        QCOMPARE(maxv[N], static_cast<int>(I));
        QCOMPARE(singleMaxViolation(t, N), static_cast<int>(I));
        // ft(N) = ft(K) U ft(L) = {K} U ft(I) U ft(F) = {K, I, F}: the left half by K, as the
        // paper's example
        QCOMPARE(maxViolationFrontier(t, N), (std::vector<int>{K, I, F}));
    }

    void figure1ViolatingRootWins() {
        const auto t = figure1(5, 3, 2, 1, 4);
        QCOMPARE(singleMaxViolation(t, N), static_cast<int>(N));
        QCOMPARE(maxViolationFrontier(t, N), (std::vector<int>{N}));
    }

    void figure1LeftHalf() {
        // The paper's text: the max violation at K, the node covering the left half.
        const auto t = figure1(0.5, 6, 0.25, 1, -2);
        QCOMPARE(singleMaxViolation(t, N), static_cast<int>(K));
        // ft(L): L (0.25) beats I (-2) and F (0) -> {L}; ft = {K, L}, "the union of K and L"
        QCOMPARE(maxViolationFrontier(t, N), (std::vector<int>{K, L}));
    }

    void tiesPreferTheHigherNodeThenAFixableOne() {
        auto t = figure1(2, 2, 0, 0, 2);
        QCOMPARE(singleMaxViolation(t, N), static_cast<int>(N)); // N ties K and I: the node itself
        t = figure1(-1, 2, 0, 0, 2);
        QCOMPARE(singleMaxViolation(t, N), static_cast<int>(K)); // K ties I: the earlier child
        t = figure1(0, -1, -1, -1, -1);
        t[N].differs = false; // the root is right: nothing to fix anywhere
        QCOMPARE(singleMaxViolation(t, N), static_cast<int>(N));
        QCOMPARE(maxViolationFrontier(t, N), (std::vector<int>{N}));
        t = figure1(0, 0, -1, -1, -1);
        t[N].differs = false;
        QCOMPARE(singleMaxViolation(t, N),
                 static_cast<int>(K)); // a tie with a differing subtree is a violation
    }

    void invariantsOnRandomTrees() {
        SplitMix64 rng(3);
        for (int c = 0; c < 300; ++c) {
            // a random binary tree with leaves of violation 0
            std::vector<ViolationNode> t;
            std::function<int(int)> grow = [&](int depth) -> int {
                ViolationNode v;
                if (depth > 0 && rng.uniform() < 0.8) {
                    const int a = grow(depth - 1), b = grow(depth - 1);
                    v.children = {a, b};
                    v.violation = std::floor(rng.uniform() * 9.0) - 4.0; // ties are common
                    v.differs = rng.uniform() < 0.8;
                    if (!v.differs) v.violation = 0;
                }
                t.push_back(v);
                return static_cast<int>(t.size()) - 1;
            };
            const int root = grow(5);
            const auto maxv = maxViolationNodes(t, root);
            const int s = singleMaxViolation(t, root);
            double best = -1e9;
            for (std::size_t i = 0; i < t.size(); ++i)
                best = std::max(best, t[i].violation);
            QCOMPARE(t[static_cast<std::size_t>(s)].violation, best);
            QVERIFY(t[static_cast<std::size_t>(s)].violation >= 0); // the leaves bound it below
            const auto ft = maxViolationFrontier(t, root);
            std::vector<int> covered;
            for (int f : ft) {
                QCOMPARE(maxv[static_cast<std::size_t>(f)], f);
                QVERIFY(t[static_cast<std::size_t>(f)].violation >= 0);
                const auto l = leavesUnder(t, f);
                covered.insert(covered.end(), l.begin(), l.end());
            }
            QCOMPARE(covered, leavesUnder(t, root)); // non-overlapping, covering, in order
        }
    }

    void badInput() {
        std::vector<ViolationNode> t(2);
        t[0].children = {1};
        t[1].children = {0};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maxViolationNodes(t, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, maxViolationNodes(t, 5));
    }

    void strategiesOnRealCharts() {
        // A briefly trained model on real sentences at small beams with higher-order parts: search
        // errors, non-violations and fallen-off gold items all occur, and each strategy behaves as
        // sec. 2 says.
        std::vector<DepSentence> train;
        for (auto& s : readDepTreebank(testdata::depDir("train")))
            if (s.size() <= 15 && train.size() < 300) train.push_back(std::move(s));
        const auto dev = readDepTreebank(testdata::depDir("dev"));
        CubeTrainOptions to;
        to.beam = 4;
        to.epochs = 2;
        to.hashBits = 18;
        const std::vector<DepSentence> dev10(dev.begin(), dev.begin() + 10);
        const HashedWeights w = trainCubeModel(train, dev10, to).model.weights;
        int nonViolations = 0, fellOff = 0, smaxBelowRoot = 0, sentences = 0;
        for (int k : {1, 2}) {
            CubeOptions o;
            o.beam = k;
            CubePruner cube(o);
            for (const auto& s : dev) {
                if (s.size() > 20) continue;
                ++sentences;
                const CubeScorer sc(w, s, CubeFeatureSet{});
                cube.parse(sc);
                const GoldDerivation g = goldDerivation(cube, sc, s.heads);
                QVERIFY(g.reachable());
                fellOff += g.fellOffCount() > 0;
                const auto standard = chooseCubeUpdate(g, CubeUpdateStrategy::Standard);
                const auto skip = chooseCubeUpdate(g, CubeUpdateStrategy::Skip);
                const auto smax = chooseCubeUpdate(g, CubeUpdateStrategy::SMax);
                const auto pmax = chooseCubeUpdate(g, CubeUpdateStrategy::PMax);
                const GoldNode& root = g.nodes.back();
                QCOMPARE(standard.update, !root.correct());
                QCOMPARE(standard.invalid, !root.correct() && root.violation < 0);
                QCOMPARE(skip.update, !root.correct() && root.violation >= 0);
                nonViolations += standard.invalid;
                // the violation at every chosen node of the valid strategies is >= 0
                for (const auto* ch : {&skip, &smax, &pmax})
                    for (int n : ch->nodes)
                        QVERIFY(g.nodes[static_cast<std::size_t>(n)].violation >= 0);
                QVERIFY(g.nodes[static_cast<std::size_t>(smax.smaxNode)].violation >= 0);
                for (const auto& node : g.nodes)
                    QVERIFY(node.violation <=
                            g.nodes[static_cast<std::size_t>(smax.smaxNode)].violation);
                smaxBelowRoot += smax.update && smax.nodes[0] != g.root();
                // a wrong root that is a violation is always updated by s-max and p-max
                if (skip.update) {
                    QVERIFY(smax.update);
                    QVERIFY(pmax.update);
                }
                // p-max frontier: disjoint, covers the sentence
                std::vector<int> covered(static_cast<std::size_t>(s.size()) + 1, 0);
                for (int f : pmax.frontier) {
                    const CubeCell c = g.nodes[static_cast<std::size_t>(f)].cell;
                    for (int x = std::min(c.head, c.end); x <= std::max(c.head, c.end); ++x)
                        ++covered[static_cast<std::size_t>(x)];
                }
                // adjacent frontier nodes share their boundary position (Eisner's split heads)
                for (int x = 0; x <= s.size(); ++x)
                    QVERIFY(covered[static_cast<std::size_t>(x)] >= 1 &&
                            covered[static_cast<std::size_t>(x)] <= 2);
                // update pairs: the gold side and Viterbi side of every chosen node differ
                const auto pairs = cubeUpdatePairs(cube.chart(), sc, g, pmax.nodes);
                if (pmax.update) QVERIFY(pairs.plus != pairs.minus);
                const double dv =
                    sc.partsScore(pairs.viterbiParts) - sc.partsScore(pairs.goldParts);
                QVERIFY(std::abs(dv - pmax.violation) < 1e-2 * std::max(1.0, std::abs(dv)));
            }
        }
        QVERIFY(sentences > 100);
        QVERIFY(nonViolations > 0);
        QVERIFY(fellOff > 0);
        QVERIFY(smaxBelowRoot > 0);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestMaxViolation)
#include "test_max_violation.moc"
