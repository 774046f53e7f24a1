#pragma once
// Shared by the vine parsers' brute-force tests (test_vine_parser, test_vine_tree): random vine
// scores and the comparison of every label's max-marginal with brute force.
#include "core/dep/Hypergraph.h"
#include "core/vine/VineParser.h"
#include "support/RandomDep.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace prunescope::testdata {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Arcs as randomArcScores; every outer arc and outer-head part uniform in [-5, 5).
inline VineScores randomVineScores(int n, int band, SplitMix64& rng) {
    VineScores v;
    v.n = n;
    v.band = band;
    v.arcs = randomArcScores(n, rng);
    v.outer.assign(static_cast<std::size_t>(2 * (n + 1)), kDepNegInf);
    for (int m = 1; m <= n; ++m)
        for (int side = 0; side < 2; ++side)
            v.outer[static_cast<std::size_t>(2 * m + side)] =
                static_cast<float>(rng.uniform() * 10.0 - 5.0);
    v.outerHead.assign(static_cast<std::size_t>(2 * (n + 1)), kDepNegInf);
    for (int h = 1; h <= n; ++h)
        for (int side = 0; side < 2; ++side)
            v.outerHead[static_cast<std::size_t>(2 * h + side)] =
                static_cast<float>(rng.uniform() * 10.0 - 5.0);
    return v;
}

// The score of a vine label (an arc, outer arc or outer-head part; VineParser.h's label layout).
inline float& partScore(VineScores& v, int label) {
    const int n = v.n, arcs = (n + 1) * (n + 1);
    if (label < arcs) return v.arcs.at(label / (n + 1), label % (n + 1));
    const int rest = label - arcs;
    if (rest < 2 * (n + 1)) return v.outer[static_cast<std::size_t>(rest)];
    return v.outerHead[static_cast<std::size_t>(rest - 2 * (n + 1))];
}

// "" if mm's best and every label's max-marginal match brute force (-inf exactly, else within tol),
// otherwise what differs first.
inline std::string maxMarginalMismatch(const MaxMarginals& mm, double bruteBest,
                                       const std::vector<double>& brute, double tol) {
    if (std::abs(mm.best - bruteBest) >= tol)
        return "best " + std::to_string(mm.best) + " vs brute " + std::to_string(bruteBest);
    for (std::size_t l = 0; l < brute.size(); ++l) {
        const double b = brute[l], h = mm.label[l];
        const bool ok = std::isinf(b) && b < 0 ? (std::isinf(h) && h < 0) : std::abs(h - b) < tol;
        if (!ok)
            return "label " + std::to_string(l) + ": " + std::to_string(h) + " vs brute " +
                   std::to_string(b);
    }
    return "";
}

} // namespace prunescope::testdata
