// Pareto frontier, the sigmoid fit of footnote 12, lambda estimation and the lambda cones.
#include "core/frontier/Frontier.h"
#include "core/frontier/FrontierFile.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <cmath>
#include <limits>
#include <random>

using namespace prunescope;

namespace {
std::vector<FrontierPoint> sample(const SigmoidFit& h, const std::vector<double>& xs,
                                  double noise = 0, unsigned seed = 1) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> g(0, 1);
    std::vector<FrontierPoint> pts;
    for (double x : xs)
        pts.push_back({x, h(x) + noise * g(rng), "p" + std::to_string(pts.size())});
    return pts;
}
std::vector<double> logSpaced(double lo, double hi, int n) {
    std::vector<double> xs;
    for (int i = 0; i < n; ++i)
        xs.push_back(lo * std::pow(hi / lo, double(i) / (n - 1)));
    return xs;
}
} // namespace

class TestFrontier : public QObject {
    Q_OBJECT
  private slots:
    void paretoOnHandMadePoints() {
        const std::vector<FrontierPoint> pts = {
            {10, 0.50, "a"}, // frontier
            {20, 0.70, "b"}, // frontier
            {25, 0.65, "c"}, // dominated by b
            {30, 0.80, "d"}, // frontier
            {30, 0.75, "e"}, // dominated by d (same runtime, lower accuracy)
            {5, 0.20, "f"},  // frontier (fastest)
            {40, 0.80, "g"}, // dominated by d (slower, same accuracy)
            {20, 0.70, "h"}, // identical to b: neither dominates the other
        };
        QCOMPARE(paretoFrontier(pts), (std::vector<int>{5, 0, 1, 7, 3}));
        QVERIFY(paretoFrontier(std::vector<FrontierPoint>{}).empty());
    }
    void sigmoidValueAndSlopeByHand() {
        const SigmoidFit h{0.9, 2.0, -10.0, 5.0, 0};
        const double x = 95; // log(100) = 4.60517
        const double z = 2.0 * std::log(100.0) - 10.0;
        const double s = 1 / (1 + std::exp(-z));
        QVERIFY(std::abs(h(x) - 0.9 * s) < 1e-15);
        QVERIFY(std::abs(h.slope(x) - 0.9 * s * (1 - s) * 2.0 / 100.0) < 1e-15);
        // slope against a central difference
        const double fd = (h(x + 1e-4) - h(x - 1e-4)) / 2e-4;
        QVERIFY(std::abs(h.slope(x) - fd) < 1e-9);
    }
    void fitRecoversKnownCurve_data() {
        QTest::addColumn<double>("ymax");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::addColumn<double>("c");
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::newRow("constituents") << 0.9 << 3.0 << -20.0 << 10.0 << 200.0 << 3000.0;
        QTest::newRow("paper-like") << 0.75 << 4.0 << -28.0 << 100.0 << 1200.0 << 3000.0;
        QTest::newRow("mpush") << 88.0 << 1.5 << 2.0 << 0.05 << 0.01 << 2.0;
        QTest::newRow("negative c") << 1.0 << 2.5 << -12.0 << -50.0 << 80.0 << 5000.0;
    }
    void fitRecoversKnownCurve() {
        QFETCH(double, ymax);
        QFETCH(double, a);
        QFETCH(double, b);
        QFETCH(double, c);
        QFETCH(double, lo);
        QFETCH(double, hi);
        const SigmoidFit truth{ymax, a, b, c, 0};
        const auto pts = sample(truth, logSpaced(lo, hi, 10));
        const SigmoidFit fit = fitSigmoid(pts);
        QVERIFY2(fit.mse < 1e-12 * ymax * ymax, qPrintable(QString("mse %1").arg(fit.mse)));
        // The curve (not just the points) is recovered, including between points.
        for (double x : logSpaced(lo, hi, 57)) {
            QVERIFY2(std::abs(fit(x) - truth(x)) < 1e-4 * ymax,
                     qPrintable(QString("x=%1 fit %2 truth %3").arg(x).arg(fit(x)).arg(truth(x))));
        }
        // Lambdas are the analytic derivatives at the points.
        const auto lambdas = fitLambdas(fit, pts);
        QCOMPARE(lambdas.size(), pts.size());
        for (size_t i = 0; i < pts.size(); ++i) {
            const double d = truth.slope(pts[i].runtime);
            QVERIFY2(std::abs(lambdas[i] - d) <= 1e-3 * std::abs(d) + 1e-9 * ymax / hi,
                     qPrintable(QString("lambda %1 vs %2").arg(lambdas[i]).arg(d)));
            QVERIFY(lambdas[i] > 0);
        }
        QVERIFY(std::abs(fit.ymax - ymax) < 1e-3 * ymax);
    }
    void fitIsUnitInvariant() {
        // Footnote 12: the same reward function whatever the units of runtime.
        const SigmoidFit truth{0.8, 3.0, -18.0, 20.0, 0};
        const auto pts = sample(truth, logSpaced(300, 4000, 9), 0.003, 5);
        auto scaled = pts;
        for (auto& p : scaled)
            p.runtime /= 1000.0; // e.g. constituents -> kilo-constituents
        const auto l1 = fitLambdas(fitSigmoid(pts), pts);
        const auto l2 = fitLambdas(fitSigmoid(scaled), scaled);
        for (size_t i = 0; i < pts.size(); ++i)
            QVERIFY(std::abs(l2[i] / 1000.0 - l1[i]) < 1e-4 * std::abs(l1[i]));
    }
    void noisyFitIsClose() {
        const SigmoidFit truth{0.9, 3.0, -20.0, 10.0, 0};
        const auto pts = sample(truth, logSpaced(200, 3000, 12), 0.002, 9);
        const SigmoidFit fit = fitSigmoid(pts);
        QVERIFY(fit.mse < 2.5 * 0.002 * 0.002);
        // No worse than the true parameters (it is a least-squares fit).
        double mseTrue = 0;
        for (const auto& p : pts)
            mseTrue += std::pow(truth(p.runtime) - p.accuracy, 2);
        QVERIFY(fit.mse <= mseTrue / double(pts.size()) + 1e-15);
        for (double x : logSpaced(200, 3000, 20))
            QVERIFY(std::abs(fit(x) - truth(x)) < 0.01);
    }
    void fitRejectsTooFewPoints() {
        const std::vector<FrontierPoint> pts = {{1, 0.5, ""}, {2, 0.6, ""}, {3, 0.7, ""}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitSigmoid(pts));
    }
    void lambdaRangesOnHandMadePoints() {
        // Upper hull: f(0,0.2) -> a(10,0.5) -> b(20,0.7) -> d(30,0.8); c is under the hull.
        const std::vector<FrontierPoint> pts = {{0, 0.20, "f"},  {10, 0.50, "a"}, {20, 0.70, "b"},
                                                {30, 0.80, "d"}, {15, 0.55, "c"}, {40, 0.80, "g"}};
        const auto r = optimalLambdaRanges(pts);
        auto near = [](double x, double y) { return std::abs(x - y) < 1e-12; };
        const double inf = std::numeric_limits<double>::infinity();
        QVERIFY(!r[0].empty && near(r[0].lo, 0.03) && r[0].hi == inf); // slope f->a = 0.03
        QVERIFY(!r[1].empty && near(r[1].lo, 0.02) && near(r[1].hi, 0.03));
        QVERIFY(!r[2].empty && near(r[2].lo, 0.01) && near(r[2].hi, 0.02));
        QVERIFY(!r[3].empty && near(r[3].lo, 0.0) && near(r[3].hi, 0.01));
        QVERIFY(r[4].empty); // below the hull: never optimal
        QVERIFY(r[5].empty); // same accuracy, slower: only ties at lambda = 0, loses the tie-break
        QVERIFY(!r[5].contains(0.0));
        QVERIFY(r[1].contains(0.025) && !r[1].contains(0.035));
        // Identical twins: only the first gets the range (bestForLambda picks the lower index).
        const std::vector<FrontierPoint> twins = {{10, 0.5, "a"}, {10, 0.5, "a2"}, {20, 0.7, "b"}};
        const auto rt = optimalLambdaRanges(twins);
        QVERIFY(!rt[0].empty && near(rt[0].lo, 0.02) && rt[0].hi == inf);
        QVERIFY(rt[1].empty);
        QCOMPARE(bestForLambda(twins, 0.05), 0);
        QCOMPARE(bestForLambda(twins, 0.01), 2);
    }
    void bestForLambdaAgreesWithRanges() {
        std::vector<std::vector<FrontierPoint>> sets;
        sets.push_back(
            {{0, 0.20, "f"}, {10, 0.50, "a"}, {20, 0.70, "b"}, {30, 0.80, "d"}, {15, 0.55, "c"}});
        std::mt19937 rng(21);
        std::uniform_real_distribution<double> u(0, 1);
        for (int s = 0; s < 20; ++s) {
            std::vector<FrontierPoint> pts;
            for (int i = 0; i < 12; ++i)
                pts.push_back({100 * u(rng), u(rng), ""});
            sets.push_back(pts);
        }
        for (const auto& pts : sets) {
            const auto ranges = optimalLambdaRanges(pts);
            int nonEmpty = 0;
            for (const auto& r : ranges)
                nonEmpty += !r.empty;
            QVERIFY(nonEmpty >= 1);
            // Every non-empty range's interior selects that point.
            for (size_t i = 0; i < pts.size(); ++i) {
                const auto& r = ranges[i];
                if (r.empty || r.hi - r.lo < 1e-9) continue;
                const double mid = std::isinf(r.hi) ? r.lo + 1.0 : 0.5 * (r.lo + r.hi);
                QCOMPARE(bestForLambda(pts, mid), static_cast<int>(i));
            }
            // Every lambda's winner has a range containing it.
            for (double lam = 0; lam < 0.2; lam += 0.00137) {
                const int b = bestForLambda(pts, lam);
                QVERIFY(b >= 0);
                QVERIFY(ranges[static_cast<size_t>(b)].contains(lam));
            }
            // Optimal points are on the Pareto frontier.
            const auto front = paretoFrontier(pts);
            for (size_t i = 0; i < pts.size(); ++i)
                if (!ranges[i].empty)
                    QVERIFY(std::find(front.begin(), front.end(), int(i)) != front.end());
        }
        QCOMPARE(bestForLambda(std::vector<FrontierPoint>{}, 0.1), -1);
    }
    void fittedLambdaMakesPointOptimalOnCurve() {
        // Footnote 12: with lambda_i = h'(x_i), x_i maximizes h(x) - lambda_i x in the concave
        // region.
        const SigmoidFit truth{0.9, 3.0, -20.0, 10.0, 0};
        const auto pts = sample(truth, logSpaced(900, 3000, 6));
        const SigmoidFit fit = fitSigmoid(pts);
        const auto lambdas = fitLambdas(fit, pts);
        for (size_t i = 0; i < pts.size(); ++i) {
            const double xi = pts[i].runtime;
            const double vi = fit(xi) - lambdas[i] * xi;
            for (double x : logSpaced(800, 4000, 200))
                QVERIFY(fit(x) - lambdas[i] * x <= vi + 1e-12);
        }
    }
    void fitsTheBundledBaselineFrontier() {
        // Regression: refining only the 8 best-scoring starts ended in a poor local fit on real
        // baseline points (MSE 11.9 on this frontier); refining every start reaches < 1.
        const auto d = loadFrontier(testdata::sourceDir() + "/samples/policies/frontier.json");
        std::vector<FrontierPoint> pts;
        for (const auto& e : d.points) {
            FrontierPoint p;
            p.runtime = e.runtime;
            p.accuracy = e.accuracy;
            p.id = e.id;
            pts.push_back(p);
        }
        const SigmoidFit fit = fitSigmoid(pts);
        QVERIFY2(fit.mse < 1.0, std::to_string(fit.mse).c_str());
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestFrontier)
#include "test_frontier.moc"
