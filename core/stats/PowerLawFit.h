#pragma once
// Empirical complexity (Rush & Petrov 2012, sec. 6 and the seed's slides: "the cascade's cost
// grows as n^1.4 / n^1.8 / n^1.9"): time ≈ c·n^b, fitted by ordinary least squares of log time on
// log length. The slope b is the exponent, with its standard error and R² of the log–log fit.
#include <vector>

namespace prunescope {

struct PowerLawFit {
    double exponent = 0;       // b
    double logIntercept = 0;   // log c (natural log): log t ≈ log c + b log n
    double exponentStdErr = 0; // OLS standard error of b (0 with fewer than 3 points)
    double r2 = 0;             // of the log–log fit
    int points = 0;
    double predict(double n) const; // c·n^b
};

// Least squares over the pairs with x > 0 and y > 0 (others skipped); needs two distinct x,
// else std::invalid_argument. The two normal equations solved in closed form (one slope and one
// intercept need no linear-algebra library).
PowerLawFit fitPowerLaw(const std::vector<double>& x, const std::vector<double>& y);

} // namespace prunescope
