#pragma once
// Runtime/accuracy frontiers and the choice of lambda (Vieira & Eisner 2017, sec. 7, footnote 12).
#include <span>
#include <string>
#include <vector>

namespace prunescope {

struct FrontierPoint {
    double runtime = 0;  // lower is better (e.g. constituents built, mega-pushes)
    double accuracy = 0; // higher is better (e.g. F1 or expected recall)
    std::string id;
};

// Indices of the points that no other point dominates (runtime <= and accuracy >=, one strictly),
// sorted by runtime ascending (ties by index). Identical points are all kept.
std::vector<int> paretoFrontier(std::span<const FrontierPoint> pts);

// h(x) = ymax * sigmoid(a * log(x + c) + b), fitted by least squares (footnote 12).
struct SigmoidFit {
    double ymax = 0, a = 0, b = 0, c = 0;
    double mse = 0; // mean squared error on the fitted points
    double operator()(double x) const;
    double slope(double x) const; // h'(x)
};

// Minimizes the mean squared error over (ymax > 0, a, b, c > -min x) by Levenberg-Marquardt from
// several log-logit linearized starting points (docs/policies.md). Needs >= 4 points with
// positive accuracy; throws std::invalid_argument otherwise.
SigmoidFit fitSigmoid(std::span<const FrontierPoint> pts);

// lambda_i = h'(x_i): the accuracy-per-runtime trade-off for which point i is optimal on the curve.
std::vector<double> fitLambdas(const SigmoidFit& h, std::span<const FrontierPoint> pts);

// The range [lo, hi] of lambda >= 0 for which point i maximizes accuracy - lambda * runtime among
// pts (hi may be +infinity); empty if no such lambda exists. Ties are broken as in bestForLambda:
// a point that is only tied by a faster point (or by an identical earlier point) gets no range.
struct LambdaRange {
    double lo = 0, hi = 0;
    bool empty = true;
    bool contains(double lambda) const { return !empty && lambda >= lo && lambda <= hi; }
};
std::vector<LambdaRange> optimalLambdaRanges(std::span<const FrontierPoint> pts);

// argmax_i accuracy_i - lambda * runtime_i; ties go to lower runtime, then lower index. -1 if
// empty.
int bestForLambda(std::span<const FrontierPoint> pts, double lambda);

} // namespace prunescope
