// Cube pruning (core/cube/CubePruner.h) held to its contract: with first-order features the 1-best
// equals Eisner's for every k (bit-identical score, same heads), each beam holds the exact k best,
// and at k = infinity the root beam is every projective tree, best first (brute force); with
// siblings and grandparents at k = infinity it is exact too, and every item's score is the model
// score of its parts. Masks restrict it; gold derivations are rebuilt exactly.
#include "core/cube/CubeModel.h"
#include "core/cube/GoldDerivation.h"
#include "core/dep/BruteForce.h"
#include "core/dep/DepModel.h"
#include "core/dep/DepReader.h"
#include "core/util/Random.h"
#include "support/RandomDep.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <algorithm>
#include <cmath>

using namespace prunescope;

namespace {

constexpr CubeFeatureSet kFirstOrder{false, false};
constexpr CubeFeatureSet kAll{true, true};

struct RandomModel {
    ArcScores arcs;
    std::uint64_t seed;
    float triple(int a, int b, int c, int salt) const {
        SplitMix64 r(seed, static_cast<std::uint64_t>((a * 131 + b) * 131 + c),
                     static_cast<std::uint64_t>(salt));
        return static_cast<float>(r.uniform() * 4.0 - 2.0);
    }
    CubeScorer scorer(CubeFeatureSet f, const ArcMask* mask = nullptr) const {
        return CubeScorer(
            arcs.n, f, [this](int h, int m) { return arcs(h, m); },
            [this](int h, int s, int m) { return triple(h, s, m, 1); },
            [this](int g, int h, int m) { return triple(g, h, m, 2); }, mask);
    }
};

RandomModel randomModel(int n, SplitMix64& rng) {
    RandomModel r;
    r.arcs = testdata::randomArcScores(n, rng);
    r.seed = rng.next();
    return r;
}

ArcMask randomMask(int n, double keep, SplitMix64& rng) {
    return testdata::randomArcMask(n, keep, rng);
}

template <typename T> std::vector<T> sorted(std::vector<T> v) {
    std::sort(v.begin(), v.end());
    return v;
}

CubeOptions options(int beam, bool singleRoot) {
    CubeOptions o;
    o.beam = beam;
    o.singleRoot = singleRoot;
    return o;
}

} // namespace

class TestCubePruner : public QObject {
    Q_OBJECT
  private slots:
    void firstOrderEqualsEisnerForEveryBeam() {
        SplitMix64 rng(21);
        for (int c = 0; c < 240; ++c) {
            const bool oneRoot = c % 2 == 0;
            const int n = 1 + static_cast<int>(rng.below(25));
            const RandomModel rm = randomModel(n, rng);
            const ArcMask mask = randomMask(n, c % 3 == 0 ? 1.0 : 0.5 + 0.5 * rng.uniform(), rng);
            EisnerOptions eo;
            eo.singleRoot = oneRoot;
            EisnerParser eisner(eo);
            const DepParse e = eisner.parse(rm.arcs, &mask);
            const CubeScorer sc = rm.scorer(kFirstOrder, &mask);
            for (int k : {1, 2, 4, 16}) {
                CubePruner cube(options(k, oneRoot));
                const CubeParse p = cube.parse(sc);
                QCOMPARE(p.stats.success, e.stats.success);
                QCOMPARE(p.heads, e.heads);
                if (e.stats.success)
                    QCOMPARE(static_cast<float>(p.stats.score), static_cast<float>(e.stats.score));
                QCOMPARE(p.stats.arcsKept, e.stats.arcsKept);
            }
        }
    }

    void firstOrderEqualsEisnerOnRealSentences() {
        // Random weights over the real feature templates, dev sentences of the dependency sample.
        const auto dev = readDepTreebank(testdata::depDir("dev"));
        HashedWeights w = HashedWeights::zeros(16);
        SplitMix64 rng(4);
        for (float& x : w.w)
            x = static_cast<float>(rng.uniform() - 0.5);
        EisnerParser eisner;
        CubePruner cube(options(4, true));
        for (std::size_t i = 0; i < 40; ++i) {
            const DepScorer ds(w, dev[i]);
            const DepParse e = eisner.parse(ds.arcScores());
            const CubeParse p = cube.parse(CubeScorer(w, dev[i], kFirstOrder));
            QCOMPARE(p.heads, e.heads);
            QCOMPARE(static_cast<float>(p.stats.score), static_cast<float>(e.stats.score));
        }
    }

    void infiniteBeamIsEveryTreeBestFirst() {
        SplitMix64 rng(22);
        for (int c = 0; c < 60; ++c) {
            const bool oneRoot = c % 2 == 0;
            const int n = 1 + static_cast<int>(rng.below(6));
            const RandomModel rm = randomModel(n, rng);
            const ArcMask mask = randomMask(n, c % 4 == 0 ? 1.0 : 0.6, rng);
            std::vector<std::pair<double, std::vector<int>>> trees;
            const ArcScores& arcs =
                rm.arcs; // a lambda must not capture a type of the anonymous namespace
            forEachProjectiveTree(n, &mask, oneRoot, [&](const std::vector<int>& h) {
                trees.push_back({treeScore(arcs, h), h});
            });
            std::sort(trees.begin(), trees.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
            CubePruner cube(options(kCubeUnboundedBeam, oneRoot));
            cube.parse(rm.scorer(kFirstOrder, &mask));
            const CubeChart& ch = cube.chart();
            const auto beam = ch.beamOf(ch.rootCell());
            QCOMPARE(beam.size(), trees.size());
            std::vector<std::vector<int>> got, expect;
            for (std::size_t r = 0; r < beam.size(); ++r) {
                QVERIFY(std::abs(beam[r].score - trees[r].first) < 1e-3);
                if (r > 0) QVERIFY(beam[r - 1].score >= beam[r].score);
                got.push_back(ch.heads(ch.beamItem(ch.rootCell(), static_cast<int>(r))));
                expect.push_back(trees[r].second);
            }
            QCOMPARE(sorted(got), sorted(expect));
        }
    }

    void firstOrderBeamsAreTheExactKBest() {
        SplitMix64 rng(23);
        for (int c = 0; c < 40; ++c) {
            const int n = 3 + static_cast<int>(rng.below(4));
            const RandomModel rm = randomModel(n, rng);
            std::vector<double> all;
            const ArcScores& arcs = rm.arcs;
            forEachProjectiveTree(n, nullptr, true, [&](const std::vector<int>& h) {
                all.push_back(treeScore(arcs, h));
            });
            std::sort(all.rbegin(), all.rend());
            for (int k : {1, 3, 7}) {
                CubePruner cube(options(k, true));
                cube.parse(rm.scorer(kFirstOrder));
                const auto beam = cube.chart().beamOf(cube.chart().rootCell());
                QCOMPARE(static_cast<int>(beam.size()),
                         std::min<int>(k, static_cast<int>(all.size())));
                for (std::size_t r = 0; r < beam.size(); ++r)
                    QVERIFY(std::abs(beam[r].score - all[r]) < 1e-3);
            }
        }
    }

    void higherOrderAtInfiniteBeamIsExactAndScoresItsParts() {
        SplitMix64 rng(24);
        for (int c = 0; c < 40; ++c) {
            const bool oneRoot = c % 2 == 0;
            const int n = 1 + static_cast<int>(rng.below(6));
            const RandomModel rm = randomModel(n, rng);
            const CubeScorer sc = rm.scorer(kAll);
            double best = -INFINITY;
            long trees = 0;
            forEachProjectiveTree(n, nullptr, oneRoot, [&](const std::vector<int>& h) {
                best = std::max(best, sc.partsScore(treeParts(h, kAll)));
                ++trees;
            });
            CubePruner cube(options(kCubeUnboundedBeam, oneRoot));
            const CubeParse p = cube.parse(sc);
            QVERIFY(std::abs(p.stats.score - best) < 1e-3);
            const CubeChart& ch = cube.chart();
            QCOMPARE(static_cast<long>(ch.beamOf(ch.rootCell()).size()), trees);
            for (int r = 0; r < static_cast<int>(trees); ++r) {
                const int id = ch.beamItem(ch.rootCell(), r);
                const std::vector<int> heads = ch.heads(id);
                const CubeParts got = ch.parts(id, kAll), expect = treeParts(heads, kAll);
                QCOMPARE(sorted(got.arcs), sorted(expect.arcs));
                QCOMPARE(sorted(got.siblings), sorted(expect.siblings));
                QCOMPARE(sorted(got.grandparents), sorted(expect.grandparents));
                QVERIFY(std::abs(ch.item(id).score - sc.partsScore(expect)) < 1e-3);
            }
        }
    }

    void smallBeamsWithHigherOrderFeaturesMakeSearchErrors() {
        // The reason for the paper: with non-local features a small beam loses the best tree.
        SplitMix64 rng(25);
        int worse = 0, cases = 0;
        for (int c = 0; c < 60; ++c) {
            const int n = 5 + static_cast<int>(rng.below(3));
            const RandomModel rm = randomModel(n, rng);
            const CubeScorer sc = rm.scorer(kAll);
            CubePruner exact(options(kCubeUnboundedBeam, true)), narrow(options(1, true));
            const double e = exact.parse(sc).stats.score, b = narrow.parse(sc).stats.score;
            QVERIFY(b <= e + 1e-4);
            worse += b < e - 1e-4;
            ++cases;
        }
        QVERIFY(worse > 0);
        QVERIFY(worse < cases);
    }

    void masksRestrictTheSearch() {
        SplitMix64 rng(26);
        const int n = 14;
        const RandomModel rm = randomModel(n, rng);
        const ArcMask mask = randomMask(n, 0.5, rng);
        CubePruner cube(options(8, true));
        const CubeParse p = cube.parse(rm.scorer(kAll, &mask));
        QCOMPARE(p.stats.arcsKept, mask.keptCount());
        if (p.stats.success) QVERIFY(mask.keepsTree(p.heads));
        const CubeChart& ch = cube.chart();
        for (int h = 0; h <= n; ++h)
            for (int m = 1; m <= n; ++m)
                if (h != m && !mask.keep(h, m))
                    QCOMPARE(ch.beamSize[static_cast<std::size_t>(
                                 ch.cellId(CubeKind::Incomplete, h, m))],
                             0);
        const ArcMask none = ArcMask::none(n);
        const CubeParse q = cube.parse(rm.scorer(kAll, &none));
        QVERIFY(!q.stats.success);
        QCOMPARE(q.heads, std::vector<int>(static_cast<std::size_t>(n) + 1, -1));
        CubePruner full(options(8, true));
        QVERIFY(p.stats.pushes < full.parse(rm.scorer(kAll)).stats.pushes);
    }

    void beamsAreBoundedAndSorted() {
        SplitMix64 rng(27);
        const RandomModel rm = randomModel(18, rng);
        for (int k : {1, 3, 10}) {
            CubePruner cube(options(k, true));
            cube.parse(rm.scorer(kAll));
            const CubeChart& ch = cube.chart();
            for (int c = 0; c < ch.numCells(); ++c) {
                const auto b = ch.beamOf(c);
                QVERIFY(static_cast<int>(b.size()) <= k);
                for (std::size_t r = 1; r < b.size(); ++r)
                    QVERIFY(b[r - 1].score >= b[r].score);
                // distinct derivations
                for (std::size_t r = 1; r < b.size(); ++r)
                    for (std::size_t q = 0; q < r; ++q)
                        QVERIFY(b[r].arcs != b[q].arcs);
            }
        }
    }

    void goldDerivationRebuildsTheGoldTree() {
        SplitMix64 rng(28);
        for (int c = 0; c < 80; ++c) {
            const bool oneRoot = c % 2 == 0;
            const int n = 1 + static_cast<int>(rng.below(7));
            std::vector<std::vector<int>> trees;
            forEachProjectiveTree(n, nullptr, oneRoot,
                                  [&](const std::vector<int>& h) { trees.push_back(h); });
            const std::vector<int> gold = trees[rng.below(trees.size())];
            const RandomModel rm = randomModel(n, rng);
            const CubeScorer sc = rm.scorer(kAll);
            CubePruner cube(options(1 + static_cast<int>(rng.below(3)), oneRoot));
            cube.parse(sc);
            const GoldDerivation g = goldDerivation(cube, sc, gold);
            QVERIFY2(g.reachable(), g.problem.c_str());
            // each arc is one I node and one C node; those 2n nodes have 4n child slots, filled by
            // the n I nodes, the n - 1 non-root C nodes and 2n + 1 leaves: 4n + 1 nodes
            QCOMPARE(static_cast<int>(g.nodes.size()), 4 * n + 1);
            const CubeChart& ch = cube.chart();
            const GoldNode& root = g.nodes.back();
            QCOMPARE(root.cellId, ch.rootCell());
            QCOMPARE(ch.heads(root.goldItem), gold);
            QVERIFY(std::abs(ch.item(root.goldItem).score - sc.partsScore(treeParts(gold, kAll))) <
                    1e-3);
            for (const GoldNode& node : g.nodes) {
                if (node.correct()) QCOMPARE(node.violation, 0.0);
                if (node.rank > 0) QVERIFY(node.violation >= 0);
                if (node.leaf()) QVERIFY(node.correct());
                for (int k : node.children)
                    QCOMPARE(g.nodes[static_cast<std::size_t>(k)].parent,
                             static_cast<int>(&node - g.nodes.data()));
            }
        }
    }

    void unreachableGoldTreesSayWhy() {
        SplitMix64 rng(29);
        const RandomModel rm = randomModel(4, rng);
        CubePruner cube(options(2, true));
        const CubeScorer sc = rm.scorer(kFirstOrder);
        cube.parse(sc);
        QVERIFY(!goldDerivation(cube, sc, {-1, 0, 0, 2, 3}).reachable()); // two roots
        QVERIFY(!goldDerivation(cube, sc, {-1, 3, 4, 0, 3}).reachable()); // crossing
        ArcMask mask = ArcMask::allKeep(4);
        mask.set(0, 1, false);
        const CubeScorer masked = rm.scorer(kFirstOrder, &mask);
        cube.parse(masked);
        QVERIFY(goldDerivation(cube, masked, {-1, 0, 1, 2, 3}).problem.find("mask") !=
                std::string::npos);
        QCOMPARE(liftToProjective({-1, 3, 4, 0, 3}), (std::vector<int>{-1, 3, 3, 0, 3}));
        QCOMPARE(liftToProjective({-1, 2, 0, 2}), (std::vector<int>{-1, 2, 0, 2}));
    }

    void memoryBudgetThrows() {
        CubeOptions o = options(64, true);
        o.memoryBudget = 1 << 16;
        CubePruner cube(o);
        SplitMix64 rng(30);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 cube.parse(randomModel(40, rng).scorer(kAll)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CubePruner(options(0, true)));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestCubePruner)
#include "test_cube_pruner.moc"
