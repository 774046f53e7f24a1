#pragma once
// Intrinsic filter quality (Cherry & Bergsma 2011, sec. 4, after Bergsma & Cherry 2010):
// coverage = share of gold arcs kept, reduction = share of all n^2 arcs filtered; the curve over
// the threshold, the operating point for a coverage target, and a paired permutation test over
// sentences between two filters.
#include "core/filters/ArcFilter.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <vector>

namespace prunescope {

// Every arc margin of every sentence, gold arcs apart (the threshold sweep reads only these).
struct FilterMargins {
    struct Sentence {
        std::vector<float> gold, other; // margins of the n gold arcs / of the n^2 - n others
    };
    std::vector<Sentence> sentences;
    bool cancelled = false;
};
FilterMargins collectMargins(const ArcFilter& f, const std::vector<DepSentence>& gold,
                             const Progress& progress = {});

struct FilterCounts {
    long goldKept = 0, gold = 0, filtered = 0, total = 0;
    double coverage() const {
        return gold ? static_cast<double>(goldKept) / static_cast<double>(gold) : 1.0;
    }
    double reduction() const {
        return total ? static_cast<double>(filtered) / static_cast<double>(total) : 0.0;
    }
    FilterCounts& operator+=(const FilterCounts& o);
};
// Arcs are filtered iff margin > threshold.
FilterCounts countsAt(const FilterMargins::Sentence& s, double threshold);
FilterCounts countsAt(const FilterMargins& m, double threshold);
std::vector<FilterCounts> perSentenceCounts(const FilterMargins& m, double threshold);

// The smallest threshold whose coverage is >= target (target in (0, 1]): the ceil(target * G)-th
// smallest gold margin. Most reduction at that coverage.
double thresholdForCoverage(const FilterMargins& m, double target);

struct CurvePoint {
    double threshold = 0, coverage = 0, reduction = 0;
};
// The operating points for coverage targets 0.90, 0.95, 0.97, 0.98, 0.99, 0.993, 0.995, 0.997,
// 0.998, 0.999, 1.0 (threshold as chosen by thresholdForCoverage on these margins).
std::vector<CurvePoint> coverageCurve(const FilterMargins& m);

// Paired permutation test over sentences: each permutation swaps the two filters' counts of each
// sentence with probability 1/2 and recomputes the corpus statistic (reduction or coverage of A
// minus that of B): core/stats/PairedPermutation.h, one test per statistic on the same draws.
struct FilterComparison {
    double reductionA = 0, reductionB = 0, coverageA = 0, coverageB = 0;
    double pReduction = 1, pCoverage = 1;
    int permutations = 0;
};
FilterComparison compareFilters(const std::vector<FilterCounts>& a,
                                const std::vector<FilterCounts>& b, int permutations = 10000,
                                std::uint64_t seed = 1);

} // namespace prunescope
