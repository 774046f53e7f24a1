// XML escaping and fixed-point numbers for core's SVG writers.
#include "core/plot/SvgText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace prunescope {

std::string svgEscape(const std::string& s) {
    std::string o;
    o.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            o += "&amp;";
            break;
        case '<':
            o += "&lt;";
            break;
        case '>':
            o += "&gt;";
            break;
        case '"':
            o += "&quot;";
            break;
        default:
            o += c;
        }
    }
    return o;
}

std::string svgFixed(double v, int prec) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", prec, v);
    return b;
}

double svgNiceStep(double range, int target) {
    const double raw = range / std::max(target, 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * mag >= raw * (1 - 1e-12)) return m * mag;
    return 10 * mag;
}

std::vector<double> svgTicks(double lo, double hi, int target, bool log) {
    std::vector<double> out;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo) || (log && !(lo > 0))) return out;
    if (log) {
        for (int e = static_cast<int>(std::floor(std::log10(lo)));
             e <= static_cast<int>(std::ceil(std::log10(hi))); ++e)
            for (double m : {1.0, 2.0, 5.0}) {
                const double v = m * std::pow(10.0, e);
                if (v >= lo * (1 - 1e-12) && v <= hi * (1 + 1e-12)) out.push_back(v);
            }
        return out;
    }
    // Multiples k * step, computed from k (no accumulated rounding), so 0 is exactly 0.
    const double step = svgNiceStep(hi - lo, target);
    for (long k = static_cast<long>(std::ceil(lo / step - 1e-9));
         k <= static_cast<long>(std::floor(hi / step + 1e-9)); ++k)
        out.push_back(static_cast<double>(k) * step);
    return out;
}

int svgTickDecimals(double step) {
    if (!(step > 0) || step >= 1) return 0;
    return static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
}

} // namespace prunescope
