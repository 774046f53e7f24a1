// The log–log least-squares fit behind the empirical complexity figures (core/stats/PowerLawFit.h):
// an exact power law is recovered to 1e-12; on noisy data the slope, intercept, standard error and
// R² equal Eigen's least-squares solution and the textbook formulas; bad input is refused.
#include "core/stats/PowerLawFit.h"

#include "support/TestSuite.h"

#include <Eigen/Dense>

#include <cmath>
#include <random>
#include <stdexcept>

using namespace prunescope;

class TestPowerLawFit : public QObject {
    Q_OBJECT
  private slots:
    void exactPowerLaw() {
        std::vector<double> n, t;
        for (int k = 10; k <= 50; k += 3) {
            n.push_back(k);
            t.push_back(3e-6 * std::pow(k, 2.8));
        }
        const PowerLawFit f = fitPowerLaw(n, t);
        QVERIFY(std::abs(f.exponent - 2.8) < 1e-12);
        QVERIFY(std::abs(f.logIntercept - std::log(3e-6)) < 1e-10);
        QVERIFY(std::abs(f.r2 - 1) < 1e-12);
        QVERIFY(f.exponentStdErr < 1e-6);
        QCOMPARE(f.points, static_cast<int>(n.size()));
        QVERIFY(std::abs(f.predict(20) / (3e-6 * std::pow(20, 2.8)) - 1) < 1e-10);
    }

    void noisyDataAgreesWithEigen() {
        std::mt19937_64 rng(7);
        std::normal_distribution<double> noise(0, 0.3);
        std::uniform_int_distribution<int> len(10, 50);
        std::vector<double> n, t;
        for (int i = 0; i < 400; ++i) {
            n.push_back(len(rng));
            t.push_back(2e-5 * std::pow(n.back(), 1.9) * std::exp(noise(rng)));
        }
        n.push_back(0); // skipped: no logarithm
        t.push_back(1);
        n.push_back(30);
        t.push_back(0);
        const PowerLawFit f = fitPowerLaw(n, t);
        QCOMPARE(f.points, 400);
        Eigen::MatrixXd A(400, 2);
        Eigen::VectorXd b(400);
        for (int i = 0; i < 400; ++i) {
            A(i, 0) = 1;
            A(i, 1) = std::log(n[static_cast<std::size_t>(i)]);
            b(i) = std::log(t[static_cast<std::size_t>(i)]);
        }
        const Eigen::VectorXd beta = A.colPivHouseholderQr().solve(b);
        QVERIFY(std::abs(f.exponent - beta(1)) < 1e-9);
        QVERIFY(std::abs(f.logIntercept - beta(0)) < 1e-9);
        const Eigen::VectorXd r = b - A * beta;
        const double sigma2 = r.squaredNorm() / (400 - 2);
        const Eigen::MatrixXd cov = sigma2 * (A.transpose() * A).inverse();
        QVERIFY(std::abs(f.exponentStdErr - std::sqrt(cov(1, 1))) < 1e-9);
        const double syy = (b.array() - b.mean()).square().sum();
        QVERIFY(std::abs(f.r2 - (1 - r.squaredNorm() / syy)) < 1e-9);
        QVERIFY(std::abs(f.exponent - 1.9) < 4 * f.exponentStdErr); // the truth within 4 s.e.
    }

    void badInput() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitPowerLaw({1, 2}, {1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitPowerLaw({10, 10, 10}, {1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitPowerLaw({10, 0}, {1, 2}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitPowerLaw({}, {}));
    }
};

PRUNESCOPE_QTEST_GUILESS_MAIN(TestPowerLawFit)
#include "test_power_law_fit.moc"
