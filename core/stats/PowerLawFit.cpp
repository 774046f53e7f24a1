// Power-law fit by least squares on log–log (see PowerLawFit.h).
#include "core/stats/PowerLawFit.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace prunescope {

double PowerLawFit::predict(double n) const {
    return std::exp(logIntercept + exponent * std::log(n));
}

PowerLawFit fitPowerLaw(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size())
        throw std::invalid_argument("fitPowerLaw: " + std::to_string(x.size()) + " x but " +
                                    std::to_string(y.size()) + " y");
    std::vector<double> lx, ly;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (x[i] > 0 && y[i] > 0 && std::isfinite(x[i]) && std::isfinite(y[i])) {
            lx.push_back(std::log(x[i]));
            ly.push_back(std::log(y[i]));
        }
    const auto k = static_cast<double>(lx.size());
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < lx.size(); ++i) {
        mx += lx[i];
        my += ly[i];
    }
    if (lx.size() < 2) throw std::invalid_argument("fitPowerLaw: fewer than two positive points");
    mx /= k;
    my /= k;
    double sxx = 0, sxy = 0, syy = 0;
    for (std::size_t i = 0; i < lx.size(); ++i) {
        sxx += (lx[i] - mx) * (lx[i] - mx);
        sxy += (lx[i] - mx) * (ly[i] - my);
        syy += (ly[i] - my) * (ly[i] - my);
    }
    if (sxx <= 0) throw std::invalid_argument("fitPowerLaw: every x is the same");
    PowerLawFit f;
    f.points = static_cast<int>(lx.size());
    f.exponent = sxy / sxx;
    f.logIntercept = my - f.exponent * mx;
    const double ssr = std::max(0.0, syy - f.exponent * sxy); // residual sum of squares
    f.r2 = syy > 0 ? 1 - ssr / syy : 1;
    if (lx.size() > 2) f.exponentStdErr = std::sqrt(ssr / (k - 2) / sxx);
    return f;
}

} // namespace prunescope
