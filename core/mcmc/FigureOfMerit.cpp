// Span figures of merit (see FigureOfMerit.h).
#include "core/mcmc/FigureOfMerit.h"

#include "core/policy/SpanFeatures.h"

#include <stdexcept>

namespace prunescope {

namespace {
void requireSize(int n, const std::vector<double>& fom) {
    if (fom.size() != static_cast<std::size_t>(n + 1) * (n + 1))
        throw std::invalid_argument("figure of merit is for another sentence length");
}
} // namespace

std::vector<double> policyFigureOfMerit(const Policy& p, const std::vector<std::string>& words) {
    const int n = static_cast<int>(words.size());
    std::vector<double> out(static_cast<std::size_t>(n + 1) * (n + 1), 1.0);
    if (n < 3) return out;
    const SentenceFeatures f(words);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            out[static_cast<std::size_t>(i) * (n + 1) + i + w] =
                p.keepProbability(f.features(i, i + w));
    return out;
}

std::vector<double> posteriorFigureOfMerit(const Expectations& e) {
    std::vector<double> out(static_cast<std::size_t>(e.n + 1) * (e.n + 1), 1.0);
    for (int w = 2; w < e.n; ++w)
        for (int i = 0; i + w <= e.n; ++i)
            out[static_cast<std::size_t>(i) * (e.n + 1) + i + w] = e.spanAt(i, i + w);
    return out;
}

PruningMask thresholdMask(int n, const std::vector<double>& fom, double threshold) {
    requireSize(n, fom);
    PruningMask m = PruningMask::allKeep(n);
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            if (!(fom[static_cast<std::size_t>(i) * (n + 1) + i + w] >= threshold))
                m.set(i, i + w, false);
    return m;
}

SpanList supportOf(int n, const std::vector<double>& fom, double threshold) {
    requireSize(n, fom);
    SpanList out;
    for (int w = 2; w < n; ++w)
        for (int i = 0; i + w <= n; ++i)
            if (fom[static_cast<std::size_t>(i) * (n + 1) + i + w] >= threshold)
                out.emplace_back(i, i + w);
    return out;
}

} // namespace prunescope
