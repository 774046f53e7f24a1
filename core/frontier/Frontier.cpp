// Pareto frontier, sigmoid curve fit and lambda estimation (Vieira & Eisner 2017, sec. 7, fn. 12).
#include "core/frontier/Frontier.h"
#include "core/util/VectorState.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace prunescope {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

double sigmoid(double z) {
    if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);
    return e / (1.0 + e);
}
} // namespace

std::vector<int> paretoFrontier(std::span<const FrontierPoint> pts) {
    const int n = static_cast<int>(pts.size());
    std::vector<int> out;
    for (int i = 0; i < n; ++i) {
        bool dominated = false;
        for (int j = 0; j < n && !dominated; ++j) {
            const auto& p = pts[static_cast<size_t>(j)];
            const auto& q = pts[static_cast<size_t>(i)];
            dominated = p.runtime <= q.runtime && p.accuracy >= q.accuracy &&
                        (p.runtime < q.runtime || p.accuracy > q.accuracy);
        }
        if (!dominated) out.push_back(i);
    }
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) {
        return pts[static_cast<size_t>(a)].runtime < pts[static_cast<size_t>(b)].runtime;
    });
    return out;
}

double SigmoidFit::operator()(double x) const {
    return ymax * sigmoid(a * std::log(x + c) + b);
}

double SigmoidFit::slope(double x) const {
    const double s = sigmoid(a * std::log(x + c) + b);
    return ymax * s * (1 - s) * a / (x + c);
}

namespace {

using Vec4 = Eigen::Vector4d;

struct Problem {
    std::vector<double> x, y;
    double xmin = 0;
    bool feasible(const Vec4& t) const { return t[0] > 0 && xmin + t[3] > 0 && t.allFinite(); }
    double mse(const Vec4& t) const {
        if (!feasible(t)) return kInf;
        const SigmoidFit h{t[0], t[1], t[2], t[3], 0};
        double s = 0;
        for (size_t i = 0; i < x.size(); ++i)
            s += (h(x[i]) - y[i]) * (h(x[i]) - y[i]);
        return s / static_cast<double>(x.size());
    }
    // Residuals r = h(x) - y and Jacobian J (rows: points, columns: ymax, a, b, c).
    void linearize(const Vec4& t, Eigen::VectorXd& r, Eigen::MatrixXd& J) const {
        const size_t n = x.size();
        r.resize(static_cast<Eigen::Index>(n));
        J.resize(static_cast<Eigen::Index>(n), 4);
        for (size_t i = 0; i < n; ++i) {
            const auto row = static_cast<Eigen::Index>(i);
            const double u = std::log(x[i] + t[3]);
            const double s = sigmoid(t[1] * u + t[2]);
            const double ds = t[0] * s * (1 - s);
            r[row] = t[0] * s - y[i];
            J(row, 0) = s;
            J(row, 1) = ds * u;
            J(row, 2) = ds;
            J(row, 3) = ds * t[1] / (x[i] + t[3]);
        }
    }
};

// Levenberg-Marquardt with Marquardt's diagonal scaling; infeasible steps are rejected.
Vec4 levenbergMarquardt(const Problem& p, Vec4 t) {
    double f = p.mse(t);
    double mu = 1e-3;
    Eigen::VectorXd r;
    Eigen::MatrixXd J;
    for (int it = 0; it < 2000 && mu < 1e20; ++it) {
        p.linearize(t, r, J);
        const Eigen::Matrix4d A = J.transpose() * J;
        const Vec4 g = J.transpose() * r;
        const double dmax = A.diagonal().maxCoeff();
        bool improved = false;
        while (mu < 1e20) {
            Eigen::Matrix4d M = A;
            for (int d = 0; d < 4; ++d)
                M(d, d) += mu * std::max(A(d, d), 1e-12 * dmax + 1e-300);
            const Vec4 step = M.ldlt().solve(-g);
            const Vec4 cand = t + step;
            const double fc = p.mse(cand);
            if (fc < f) {
                const double rel = (f - fc) / std::max(f, 1e-300);
                t = cand;
                f = fc;
                mu = std::max(mu / 3, 1e-12);
                improved = true;
                if (rel < 1e-14 || step.norm() <= 1e-15 * (1 + t.norm())) return t;
                break;
            }
            mu *= 4;
        }
        if (!improved) break;
    }
    return t;
}

} // namespace

SigmoidFit fitSigmoid(std::span<const FrontierPoint> pts) {
    clearUpperVectorState(); // may run on the GUI thread (core/util/VectorState.h)
    Problem p;
    for (const auto& q : pts) {
        if (!std::isfinite(q.runtime) || !std::isfinite(q.accuracy))
            throw std::invalid_argument("fitSigmoid: non-finite point");
        p.x.push_back(q.runtime);
        p.y.push_back(q.accuracy);
    }
    if (p.x.size() < 4) throw std::invalid_argument("fitSigmoid: need at least 4 points");
    const double ymaxObs = *std::max_element(p.y.begin(), p.y.end());
    if (!(ymaxObs > 0)) throw std::invalid_argument("fitSigmoid: accuracies must be positive");
    p.xmin = *std::min_element(p.x.begin(), p.x.end());
    const double xmax = *std::max_element(p.x.begin(), p.x.end());
    const double scale = std::max({xmax - p.xmin, std::abs(xmax), 1e-12});

    // Starting points: on the log-logit scale the model is linear, logit(y/ymax) = a log(x+c) + b,
    // so for each guess of (ymax, c) ordinary least squares gives (a, b).
    std::vector<std::pair<double, Vec4>> starts;
    for (double fy : {1.0005, 1.002, 1.01, 1.03, 1.1, 1.3, 2.0}) {
        const double ymax = ymaxObs * fy;
        for (double dc : {1e-3, 1e-2, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0}) {
            const double c = -p.xmin + dc * scale;
            double su = 0, sv = 0, suu = 0, suv = 0;
            const double n = static_cast<double>(p.x.size());
            for (size_t i = 0; i < p.x.size(); ++i) {
                const double u = std::log(p.x[i] + c);
                const double q = std::clamp(p.y[i] / ymax, 1e-6, 1 - 1e-6);
                const double v = std::log(q / (1 - q));
                su += u;
                sv += v;
                suu += u * u;
                suv += u * v;
            }
            const double den = n * suu - su * su;
            if (!(std::abs(den) > 0)) continue;
            const double a = (n * suv - su * sv) / den;
            const double b = (sv - a * su) / n;
            const Vec4 t(ymax, a, b, c);
            const double f = p.mse(t);
            if (std::isfinite(f)) starts.emplace_back(f, t);
        }
    }
    if (starts.empty())
        throw std::invalid_argument("fitSigmoid: cannot initialize (degenerate runtimes)");
    std::sort(starts.begin(), starts.end(),
              [](const auto& l, const auto& r) { return l.first < r.first; });

    Vec4 best = starts.front().second;
    double bestF = starts.front().first;
    // Refine every start: on real frontiers (which peak and then fall) the best-scoring starts
    // can all lead to one poor local fit; LM from each start costs microseconds.
    for (size_t s = 0; s < starts.size(); ++s) {
        const Vec4 t = levenbergMarquardt(p, starts[s].second);
        const double f = p.mse(t);
        if (f < bestF) {
            bestF = f;
            best = t;
        }
    }
    return SigmoidFit{best[0], best[1], best[2], best[3], bestF};
}

std::vector<double> fitLambdas(const SigmoidFit& h, std::span<const FrontierPoint> pts) {
    std::vector<double> out;
    out.reserve(pts.size());
    for (const auto& q : pts)
        out.push_back(h.slope(q.runtime));
    return out;
}

std::vector<LambdaRange> optimalLambdaRanges(std::span<const FrontierPoint> pts) {
    // Point i beats j at lambda iff (acc_i - acc_j) >= lambda (rt_i - rt_j): an upper bound on
    // lambda when i is slower, a lower bound when i is faster (the paper's cones).
    std::vector<LambdaRange> out(pts.size());
    for (size_t i = 0; i < pts.size(); ++i) {
        double lo = 0, hi = kInf;
        bool possible = true;
        for (size_t j = 0; j < pts.size() && possible; ++j) {
            if (j == i) continue;
            const double dr = pts[i].runtime - pts[j].runtime;
            const double da = pts[i].accuracy - pts[j].accuracy;
            if (dr > 0)
                hi = std::min(hi, da / dr);
            else if (dr < 0)
                lo = std::max(lo, da / dr);
            else if (da < 0 || (da == 0 && j < i))
                possible = false; // same runtime: lower accuracy (or an earlier twin) never wins
            if (dr > 0 && da <= 0) possible = false; // dominated: at best ties a faster point at 0
        }
        out[i] = possible && lo <= hi ? LambdaRange{lo, hi, false} : LambdaRange{0, 0, true};
    }
    return out;
}

int bestForLambda(std::span<const FrontierPoint> pts, double lambda) {
    int best = -1;
    double bestV = -kInf;
    for (size_t i = 0; i < pts.size(); ++i) {
        const double v = pts[i].accuracy - lambda * pts[i].runtime;
        const bool better = best < 0 || v > bestV ||
                            (v == bestV && pts[i].runtime < pts[static_cast<size_t>(best)].runtime);
        if (better) {
            best = static_cast<int>(i);
            bestV = v;
        }
    }
    return best;
}

} // namespace prunescope
