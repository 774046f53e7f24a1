// The tree-constrained vine (VineTreeParser.h; Eisner & Smith 2005 with Rush & Petrov 2012's outer
// parts): max-marginals equal brute force over every projective vine tree of <= 7 words, and every
// projective tree's vine projection is a parse whose score the vine reaches (the cascade's
// guarantee).
#include "core/dep/BruteForce.h"
#include "core/dep/DepTree.h"
#include "core/util/Random.h"
#include "core/vine/VineTreeParser.h"
#include "support/RandomDep.h"
#include "support/TestData.h"
#include "support/VineTesting.h"

#include "support/TestSuite.h"

#include <cmath>
#include <limits>

using namespace prunescope;

namespace {

using testdata::kInf;

// Brute force: every projective tree whose non-root arcs are short; each root child takes the root
// arc or an available outer arc (one root arc if singleRoot, else at least one); the outer-head
// parts are independent yes/no choices, added on top.
std::vector<double> bruteVineTree(const VineScores& v, bool singleRoot, double& best) {
    const int n = v.n, b = v.band;
    std::vector<double> mm(static_cast<std::size_t>(vineLabelCount(n)), -kInf);
    double treeBest = -kInf;
    ArcMask mask = ArcMask::none(n);
    for (int h = 0; h <= n; ++h)
        for (int m = 1; m <= n; ++m)
            if (h != m && (h == 0 || std::abs(h - m) <= b)) mask.set(h, m, true);
    forEachProjectiveTree(n, &mask, false, [&](const std::vector<int>& heads) {
        double base = 0;
        std::vector<int> labels, children;
        for (int m = 1; m <= n; ++m) {
            const int h = heads[static_cast<std::size_t>(m)];
            if (h == 0)
                children.push_back(m);
            else
                base += v.arcs(h, m), labels.push_back(arcLabel(n, h, m));
        }
        std::vector<std::vector<std::pair<int, double>>> opts;
        for (int m : children) {
            std::vector<std::pair<int, double>> o{{arcLabel(n, 0, m), v.arcs(0, m)}};
            for (VineSide side : {VineSide::Left, VineSide::Right})
                if (vineOuterExists(n, b, m, side))
                    o.emplace_back(vineOuterLabel(n, m, side), v.outerScore(m, side));
            opts.push_back(o);
        }
        std::vector<std::size_t> pick(opts.size(), 0);
        while (true) {
            double s = base;
            int roots = 0;
            for (std::size_t k = 0; k < opts.size(); ++k) {
                s += opts[k][pick[k]].second;
                roots += opts[k][pick[k]].first == arcLabel(n, 0, children[k]);
            }
            if (roots >= 1 && (!singleRoot || roots == 1)) {
                treeBest = std::max(treeBest, s);
                for (int l : labels)
                    mm[static_cast<std::size_t>(l)] = std::max(mm[static_cast<std::size_t>(l)], s);
                for (std::size_t k = 0; k < opts.size(); ++k)
                    mm[static_cast<std::size_t>(opts[k][pick[k]].first)] =
                        std::max(mm[static_cast<std::size_t>(opts[k][pick[k]].first)], s);
            }
            std::size_t k = 0;
            while (k < opts.size() && ++pick[k] == opts[k].size())
                pick[k++] = 0;
            if (k >= opts.size()) break;
        }
    });
    double extra = 0; // the outer-head parts: each taken when positive
    std::vector<std::pair<int, double>> heads;
    for (int h = 1; h <= n; ++h)
        for (VineSide side : {VineSide::Left, VineSide::Right})
            if (vineOuterHeadExists(n, b, h, side)) {
                heads.emplace_back(vineOuterHeadLabel(n, h, side), v.outerHeadScore(h, side));
                extra += std::max(0.0, static_cast<double>(v.outerHeadScore(h, side)));
            }
    best = treeBest == -kInf ? -kInf : treeBest + extra;
    for (double& x : mm)
        if (x != -kInf) x += extra;
    if (treeBest != -kInf)
        for (const auto& [l, w] : heads)
            mm[static_cast<std::size_t>(l)] = treeBest + extra - std::max(0.0, w) + w;
    return mm;
}

} // namespace

class TestVineTree : public QObject {
    Q_OBJECT
  private slots:
    void maxMarginalsEqualBruteForce() {
        SplitMix64 rng(31);
        const int cases = testdata::kUnderSanitizer ? 40 : 200;
        for (int c = 0; c < cases; ++c) {
            const int n = 1 + static_cast<int>(rng.below(7));
            const int band = 1 + static_cast<int>(rng.below(3));
            const bool singleRoot = c % 2 == 0;
            const VineScores v = testdata::randomVineScores(n, band, rng);
            double best = 0;
            const std::vector<double> brute = bruteVineTree(v, singleRoot, best);
            const MaxMarginals mm = maxMarginals(buildVineTreeHypergraph(v, singleRoot));
            const std::string err = testdata::maxMarginalMismatch(mm, best, brute, 1e-3);
            QVERIFY2(err.empty(), qPrintable(QString("case %1 (n %2 b %3): %4")
                                                 .arg(c)
                                                 .arg(n)
                                                 .arg(band)
                                                 .arg(QString::fromStdString(err))));
        }
    }

    // The cascade's guarantee needs every projective tree's vine projection to be a parse: then
    // each of its parts has a max-marginal >= the projection's score. Checked for every projective
    // tree with one root of up to 6 words.
    void everyProjectiveTreesProjectionIsAParse() {
        SplitMix64 rng(32);
        int trees = 0;
        for (int c = 0; c < 12; ++c) {
            const int n = 2 + c % 5;
            const int band = 1 + c % 3;
            VineScores v = testdata::randomVineScores(n, band, rng);
            const MaxMarginals mm = maxMarginals(buildVineTreeHypergraph(v, true));
            forEachProjectiveTree(n, nullptr, true, [&](const std::vector<int>& heads) {
                const std::vector<int> parts = vineProjection(n, band, heads);
                double score = 0;
                for (int l : parts)
                    score += testdata::partScore(v, l);
                for (int l : parts)
                    QVERIFY2(mm.label[static_cast<std::size_t>(l)] >= score - 1e-3,
                             qPrintable(QString("n %1 b %2 label %3: %4 < %5")
                                            .arg(n)
                                            .arg(band)
                                            .arg(l)
                                            .arg(mm.label[static_cast<std::size_t>(l)])
                                            .arg(score)));
                ++trees;
            });
        }
        QVERIFY(trees > 100);
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestVineTree)
#include "test_vine_tree.moc"
