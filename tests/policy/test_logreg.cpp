// Weighted L2 logistic regression (paper sec. 6 "Training"): gradient, weighting, optimum, and a
// real span classifier trained on treebank spans.
#include "core/policy/LogisticRegression.h"
#include "core/policy/ParallelObjective.h"
#include "core/policy/SpanFeatures.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "support/TestData.h"

#include "support/TestSuite.h"

#include <LBFGS.h>

#include <chrono>
#include <cstring>
#include <limits>
#include <random>
#include <set>

using namespace prunescope;

namespace {

std::vector<WeightedExample> randomData(int n, int buckets, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> feat(0, static_cast<uint32_t>(buckets - 1));
    std::uniform_real_distribution<double> unif(0.1, 3.0);
    std::vector<WeightedExample> data;
    for (int e = 0; e < n; ++e) {
        WeightedExample ex;
        ex.features.push_back(kFeatureDim - 1); // a shared "bias" bucket at the top of the range
        for (int j = 0; j < 4; ++j)
            ex.features.push_back(feat(rng) * 9973u % kFeatureDim);
        ex.label = static_cast<int>(rng() % 2);
        ex.weight = unif(rng);
        data.push_back(std::move(ex));
    }
    return data;
}

double sigmoid(double z) {
    return 1.0 / (1.0 + std::exp(-z));
}

// Spans (1 < width < n) of normalized trees, labeled keep iff the span is a gold constituent.
std::vector<WeightedExample> spanExamples(const std::vector<Tree>& trees, size_t limit,
                                          int maxLen) {
    std::vector<WeightedExample> out;
    for (const Tree& t : trees) {
        const auto words = t.words();
        const int n = static_cast<int>(words.size());
        if (n > maxLen) continue;
        std::set<std::pair<int, int>> gold;
        for (const auto& s : labeledSpans(t))
            gold.insert({s.begin, s.end});
        const SentenceFeatures sf(words);
        for (int w = 2; w < n; ++w)
            for (int i = 0; i + w <= n; ++i) {
                const auto f = sf.features(i, i + w);
                out.push_back({std::vector<uint32_t>(f.begin(), f.end()),
                               gold.count({i, i + w}) ? 1 : 0, 1.0});
                if (out.size() >= limit) return out;
            }
    }
    return out;
}

} // namespace

class TestLogReg : public QObject {
    Q_OBJECT
  private slots:
    void gradientMatchesFiniteDifferences() {
        const auto data = randomData(60, 25, 7);
        for (bool rescale : {true, false}) {
            const CompactData c = compactify(data, rescale);
            QVERIFY(c.numFeatures() > 10 && c.numFeatures() <= 26);
            std::mt19937 rng(3);
            std::normal_distribution<double> g(0, 1);
            Eigen::VectorXd theta(c.numFeatures());
            for (auto& v : theta)
                v = g(rng);
            for (double l2 : {0.0, 0.3}) {
                Eigen::VectorXd grad, dummy;
                objectiveAndGradient(c, l2, theta, grad);
                Eigen::VectorXd fd(theta.size());
                const double h = 1e-5;
                for (Eigen::Index j = 0; j < theta.size(); ++j) {
                    Eigen::VectorXd tp = theta, tm = theta;
                    tp[j] += h;
                    tm[j] -= h;
                    fd[j] = (objectiveAndGradient(c, l2, tp, dummy) -
                             objectiveAndGradient(c, l2, tm, dummy)) /
                            (2 * h);
                }
                const double rel = (grad - fd).norm() / std::max(grad.norm(), 1e-12);
                QVERIFY2(rel < 1e-5, qPrintable(QString("relative gradient error %1").arg(rel)));
            }
        }
    }
    // The cancel poll inside the objective (every block of examples) changes no number, and a set
    // flag stops the evaluation (and so trainLogisticRegression) with Cancelled.
    void objectivePollsCancel() {
        const auto data = randomData(20000, 500, 11);
        const CompactData c = compactify(data, true);
        Eigen::VectorXd theta = Eigen::VectorXd::Constant(c.numFeatures(), 0.01), g1, g2;
        std::atomic<bool> flag{false};
        QCOMPARE(objectiveAndGradient(c, 0.1, theta, g1, &flag),
                 objectiveAndGradient(c, 0.1, theta, g2));
        QVERIFY(g1 == g2);
        flag = true;
        QVERIFY_THROWS_EXCEPTION(Cancelled, objectiveAndGradient(c, 0.1, theta, g1, &flag));
        const Progress p([](const ProgressUpdate&) {});
        p.requestCancel();
        QVERIFY_THROWS_EXCEPTION(Cancelled,
                                 trainLogisticRegression(data, LogRegOptions{}, nullptr, p));
    }

    // ParallelObjective's contract: the same doubles as the serial objectiveAndGradient for every
    // thread count (zero weights, repeated features and more blocks than threads included).
    void parallelObjectiveIsBitIdentical() {
        auto data = randomData(30000, 3000, 19);
        for (std::size_t e = 0; e < data.size(); e += 7)
            data[e].weight = 0;
        for (std::size_t e = 0; e < data.size(); e += 5)
            data[e].features.push_back(data[e].features.back());
        const CompactData c = compactify(data, true);
        std::mt19937 rng(5);
        std::normal_distribution<double> gauss(0, 2);
        Eigen::VectorXd theta(c.numFeatures());
        for (auto& v : theta)
            v = gauss(rng);
        theta[0] = -0.0;
        Eigen::VectorXd reference;
        const double f = objectiveAndGradient(c, 0.3, theta, reference);
        for (int threads : {1, 2, 3, 8}) {
            ParallelObjective par(c, threads);
            Eigen::VectorXd g =
                Eigen::VectorXd::Constant(5, 9.0); // wrong size and contents: overwritten
            const double pf = par(0.3, theta, g);
            QVERIFY(std::memcmp(&pf, &f, sizeof f) == 0);
            QCOMPARE(g.size(), reference.size());
            QVERIFY(std::memcmp(g.data(), reference.data(),
                                sizeof(double) * static_cast<std::size_t>(g.size())) == 0);
            QCOMPARE(par(0.3, theta, g), f); // reused scratch buffers: same again
        }
        std::atomic<bool> flag{true};
        ParallelObjective par(c, 2);
        Eigen::VectorXd g;
        QVERIFY_THROWS_EXCEPTION(Cancelled, par(0.3, theta, g, &flag));
    }
    // Training with any thread count gives the same weights bit for bit.
    void trainingIsThreadCountIndependent() {
        const auto data = randomData(20000, 2000, 23);
        LogRegOptions opt;
        opt.threads = 1;
        const auto one = trainLogisticRegression(data, opt);
        for (int threads : {2, 3}) {
            opt.threads = threads;
            const auto r = trainLogisticRegression(data, opt);
            QCOMPARE(r.iterations, one.iterations);
            QVERIFY(r.weights == one.weights);
            QCOMPARE(r.objective, one.objective);
        }
    }
    // The stopping rule on the gradient norm: from a warm start, training stops once the gradient
    // fell by the given factor (fewer iterations, gradient within the bound); 0 leaves training as
    // it was.
    void gradientReductionStopsEarly() {
        const auto data = randomData(20000, 2000, 29);
        LogRegOptions opt;
        const auto full = trainLogisticRegression(data, opt);
        const CompactData c = compactify(data, true);
        Eigen::VectorXf start = Eigen::VectorXf::Zero(kFeatureDim);
        Eigen::VectorXd x0 = Eigen::VectorXd::Zero(c.numFeatures()), g0, g;
        objectiveAndGradient(c, opt.l2, x0, g0);
        opt.gradientReduction = 0.01;
        const auto cut = trainLogisticRegression(data, opt, &start);
        QVERIFY(cut.converged);
        QVERIFY2(cut.iterations < full.iterations,
                 qPrintable(QString("%1 vs %2").arg(cut.iterations).arg(full.iterations)));
        Eigen::VectorXd x(c.numFeatures());
        for (int j = 0; j < c.numFeatures(); ++j)
            x[j] = cut.weights[c.globalId[static_cast<std::size_t>(j)]];
        objectiveAndGradient(c, opt.l2, x, g);
        QVERIFY(g.norm() <= 0.0101 * g0.norm()); // float rounding of the returned weights
        QVERIFY(cut.objective >= full.objective - 1e-12);
        opt.gradientReduction = 0;
        QVERIFY(trainLogisticRegression(data, opt).weights == full.weights);
        opt.gradientReduction = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainLogisticRegression(data, opt));
    }

    // The evaluations training reuses (the start point's for LBFGSpp's first call, the returned
    // point's for the convergence test) change no result: the same weights, objective, iteration
    // count and convergence as the naive reference, LBFGSpp with the same settings over the plain
    // serial objective evaluated at every call; cold and warm starts, with and without a cap.
    void trainingEqualsPlainLbfgs() {
        const auto data = randomData(5000, 800, 31);
        const CompactData c = compactify(data, true);
        const int d = c.numFeatures();
        Eigen::VectorXf warm = Eigen::VectorXf::Zero(kFeatureDim);
        std::mt19937 rng(2);
        std::normal_distribution<float> gauss(0, 0.5f);
        for (uint32_t id : c.globalId)
            warm[id] = gauss(rng);
        for (const Eigen::VectorXf* init : {static_cast<const Eigen::VectorXf*>(nullptr),
                                            static_cast<const Eigen::VectorXf*>(&warm)}) {
            for (int cap : {3, 200}) {
                LogRegOptions opt;
                opt.maxIterations = cap;
                opt.threads = 2;
                const LogRegResult r = trainLogisticRegression(c, opt, init);

                Eigen::VectorXd x = Eigen::VectorXd::Zero(d);
                if (init)
                    for (int j = 0; j < d; ++j)
                        x[j] = (*init)[c.globalId[static_cast<std::size_t>(j)]];
                LBFGSpp::LBFGSParam<double> param;
                param.epsilon = opt.epsilon;
                param.epsilon_rel = 0;
                param.past = 3;
                param.delta = 1e-12;
                param.max_iterations = cap;
                param.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_STRONG_WOLFE;
                param.max_linesearch = 40;
                double bestF = std::numeric_limits<double>::infinity();
                Eigen::VectorXd best;
                auto plain = [&](const Eigen::VectorXd& v, Eigen::VectorXd& g) {
                    const double f = objectiveAndGradient(c, opt.l2, v, g);
                    if (f < bestF) bestF = f, best = v;
                    return f;
                };
                LBFGSpp::LBFGSSolver<double, LBFGSpp::LineSearchNocedalWright> solver(param);
                double fx = 0;
                const int iterations = solver.minimize(plain, x, fx);
                Eigen::VectorXd g;
                objectiveAndGradient(c, opt.l2, x, g);
                const bool converged = g.norm() <= opt.epsilon;
                if (bestF < fx) x = best, fx = bestF;

                const QString what = QString("warm %1, cap %2").arg(init != nullptr).arg(cap);
                QVERIFY2(r.iterations == iterations, qPrintable(what));
                QVERIFY2(r.iterations <= cap, qPrintable(what));
                QVERIFY2(r.converged == converged, qPrintable(what));
                QVERIFY2(r.objective == fx, qPrintable(what));
                for (int j = 0; j < d; ++j)
                    QVERIFY2(r.weights[c.globalId[static_cast<std::size_t>(j)]] ==
                                 static_cast<float>(x[j]),
                             qPrintable(what));
                if (cap == 3) QVERIFY2(!r.converged, qPrintable(what)); // the cap did bite
            }
        }
    }

    void objectiveByHand() {
        // Two examples sharing feature 5; theta = 0.7 on it: weighted logloss + l2/2 theta^2.
        const std::vector<WeightedExample> data = {{{5}, 1, 1.0}, {{5}, 0, 3.0}};
        const CompactData c = compactify(data, true);
        QCOMPARE(c.weight[0], 0.25);
        QCOMPARE(c.weight[1], 0.75);
        Eigen::VectorXd theta(1), grad;
        theta << 0.7;
        const double f = objectiveAndGradient(c, 0.5, theta, grad);
        const double expected =
            0.25 * -std::log(sigmoid(0.7)) + 0.75 * -std::log(1 - sigmoid(0.7)) + 0.25 * 0.49;
        QVERIFY(std::abs(f - expected) < 1e-12);
        QVERIFY(std::abs(grad[0] - (sigmoid(0.7) - 0.25 + 0.5 * 0.7)) < 1e-12);
    }
    void biasOnlyOptimumSolvesStationarity() {
        // One feature: the optimum satisfies sigmoid(t) - p + l2 t = 0 with p the weighted positive
        // rate.
        std::vector<WeightedExample> data;
        for (int e = 0; e < 40; ++e)
            data.push_back({{123}, e < 10 ? 1 : 0, e < 10 ? 2.0 : 1.0}); // p = 20/50
        for (double l2 : {0.0, 0.05}) {
            LogRegOptions opt;
            opt.l2 = l2;
            const auto r = trainLogisticRegression(data, opt);
            const double t = r.weights[123];
            QVERIFY2(std::abs(sigmoid(t) - 0.4 + l2 * t) < 1e-6, qPrintable(QString::number(t)));
            if (l2 == 0) QVERIFY(std::abs(t - std::log(0.4 / 0.6)) < 1e-5);
            QCOMPARE(r.activeFeatures, 1);
            QCOMPARE(r.weights.size(), static_cast<Eigen::Index>(kFeatureDim));
            QCOMPARE(r.weights.cwiseAbs().sum(), std::abs(r.weights[123])); // nothing else nonzero
        }
    }
    void weightedEqualsDuplicated() {
        const auto base = randomData(40, 15, 11);
        std::vector<WeightedExample> weighted, duplicated;
        for (size_t e = 0; e < base.size(); ++e) {
            const int copies = 1 + static_cast<int>(e % 3);
            WeightedExample w = base[e];
            w.weight = copies;
            weighted.push_back(w);
            for (int c = 0; c < copies; ++c) {
                WeightedExample d = base[e];
                d.weight = 1.0;
                duplicated.push_back(d);
            }
        }
        LogRegOptions opt;
        opt.l2 = 0.01;
        const auto a = trainLogisticRegression(weighted, opt);
        const auto b = trainLogisticRegression(duplicated, opt);
        QVERIFY(std::abs(a.objective - b.objective) < 1e-9);
        QVERIFY2((a.weights - b.weights).cwiseAbs().maxCoeff() < 1e-4,
                 qPrintable(QString::number((a.weights - b.weights).cwiseAbs().maxCoeff())));
        QVERIFY(a.weights.norm() > 0.1);
    }
    void rescalingMakesScaleIrrelevant() {
        auto data = randomData(50, 15, 5);
        LogRegOptions opt;
        opt.l2 = 0.01;
        const auto a = trainLogisticRegression(data, opt);
        for (auto& e : data)
            e.weight *= 1000;
        const auto b = trainLogisticRegression(data, opt);
        QVERIFY((a.weights - b.weights).cwiseAbs().maxCoeff() < 1e-4);
        opt.rescaleWeights = false; // now the data term overwhelms the regularizer
        const auto c = trainLogisticRegression(data, opt);
        QVERIFY(c.weights.norm() > 1.5 * a.weights.norm());
    }
    void separableDataLearnsSigns() {
        std::vector<WeightedExample> data;
        for (int e = 0; e < 30; ++e) {
            data.push_back({{0, 100, static_cast<uint32_t>(1000 + e)}, 1, 1.0});
            data.push_back({{0, 200, static_cast<uint32_t>(2000 + e)}, 0, 1.0});
        }
        const auto r = trainLogisticRegression(data, LogRegOptions{});
        QVERIFY(r.weights[100] > 1.0f);
        QVERIFY(r.weights[200] < -1.0f);
        for (const auto& e : data) {
            double z = 0;
            for (auto f : e.features)
                z += r.weights[f];
            QCOMPARE(z > 0, e.label == 1);
        }
    }
    void largerL2ShrinksNorm() {
        const auto data = randomData(80, 20, 13);
        double prev = 1e300;
        for (double l2 : {1e-4, 1e-2, 1e-1, 1.0}) {
            LogRegOptions opt;
            opt.l2 = l2;
            const auto r = trainLogisticRegression(data, opt);
            const double norm = r.weights.norm();
            QVERIFY2(norm < prev,
                     qPrintable(QString("l2 %1 norm %2 prev %3").arg(l2).arg(norm).arg(prev)));
            prev = norm;
        }
    }
    void convergesToStationaryPoint() {
        const auto data = randomData(200, 50, 17);
        LogRegOptions opt;
        opt.l2 = 1e-3;
        const auto r = trainLogisticRegression(data, opt);
        const CompactData c = compactify(data, true);
        Eigen::VectorXd theta(c.numFeatures()), grad;
        for (int j = 0; j < c.numFeatures(); ++j)
            theta[j] = r.weights[c.globalId[static_cast<size_t>(j)]];
        objectiveAndGradient(c, opt.l2, theta, grad);
        QVERIFY2(grad.norm() < 1e-5, qPrintable(QString::number(grad.norm())));
        // A warm start from the optimum stays there.
        const auto w = trainLogisticRegression(data, opt, &r.weights);
        QVERIFY(w.iterations <= 2);
        QVERIFY(std::abs(w.objective - r.objective) < 1e-7);
    }
    void rejectsBadInput() {
        std::vector<WeightedExample> d = {{{1}, 2, 1.0}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compactify(d, true));
        d = {{{kFeatureDim}, 1, 1.0}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compactify(d, true));
        d = {{{1}, 1, -1.0}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compactify(d, true));
        d = {{{1}, 1, std::nan("")}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compactify(d, true));
    }
    void realSpanClassifier() {
        // 200k treebank spans (train, sentences <= 40 words): gold constituent vs. not. Under a
        // sanitizer 50k spans (the same code paths; two trainings on 200k took ~2 minutes there).
        const std::size_t trainSpans = testdata::kUnderSanitizer ? 50000 : 200000;
        const auto train =
            spanExamples(readNormalizedTreebank(testdata::ptbDir("train")), trainSpans, 40);
        const auto dev = spanExamples(readNormalizedTreebank(testdata::ptbDir("dev")), 1000000, 40);
        QCOMPARE(train.size(), trainSpans);
        QVERIFY(dev.size() > 20000);
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = trainLogisticRegression(train, LogRegOptions{});
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        qInfo(
            "trained on %zu spans (%d active features) in %.2f s, %d iterations, objective %.5f%s",
            train.size(), r.activeFeatures, sec, r.iterations, r.objective,
            r.converged ? "" : " (not converged)");
        // Dev: accuracy must clearly beat always-prune, and ranking (AUC) must be good.
        long correct = 0, positives = 0;
        std::vector<std::pair<double, int>> scored;
        for (const auto& e : dev) {
            double z = 0;
            for (auto f : e.features)
                z += r.weights[f];
            correct += (z >= 0) == (e.label == 1);
            positives += e.label;
            scored.push_back({z, e.label});
        }
        const double acc = double(correct) / double(dev.size());
        const double majority = 1.0 - double(positives) / double(dev.size());
        std::sort(scored.begin(), scored.end());
        double rankSum = 0;
        for (size_t i = 0; i < scored.size(); ++i)
            if (scored[i].second) rankSum += double(i + 1);
        const double np = double(positives), nn = double(dev.size()) - np;
        const double auc = (rankSum - np * (np + 1) / 2) / (np * nn);
        qInfo("dev spans %zu: accuracy %.4f (always-prune %.4f), AUC %.4f", dev.size(), acc,
              majority, auc);
        QVERIFY((1 - acc) < 0.9 * (1 - majority)); // >10% fewer errors than always-prune
        QVERIFY(auc > 0.9);
        // Asymmetric weighting (sec. 3): upweighting gold spans raises dev recall.
        auto asym = train;
        for (auto& e : asym)
            e.weight = e.label ? 10.0 : 1.0;
        const auto ra = trainLogisticRegression(asym, LogRegOptions{});
        long keptSym = 0, keptAsym = 0;
        for (const auto& e : dev) {
            if (!e.label) continue;
            double z = 0, za = 0;
            for (auto f : e.features) {
                z += r.weights[f];
                za += ra.weights[f];
            }
            keptSym += z >= 0;
            keptAsym += za >= 0;
        }
        qInfo("dev gold-span recall: symmetric %.3f, positives x10 %.3f", keptSym / np,
              keptAsym / np);
        QVERIFY(keptAsym > keptSym + np * 0.05);
    }
};

PRUNESCOPE_QTEST_APPLESS_MAIN(TestLogReg)
#include "test_logreg.moc"
