#pragma once
// The independent baseline (Bergsma & Cherry 2010, as compared in Cherry & Bergsma 2011, sec. 4):
// one binary linear SVM per token role (one example per training token, label = the role's truth
// in the gold tree) and one for Vine (one example per arc, label = not a gold arc), each with
// label-specific costs (C+ for a missed detection, C- for a false one). Solved by liblinear
// (L2-regularized L2-loss SVM, dual coordinate descent), one solve per subclassifier; a solve
// cannot be interrupted, so cancel is polled between solves (each is bounded by liblinear's
// iteration limit; docs/filters.md gives their times).
#include "core/filters/ArcFilter.h"
#include "core/filters/FilterTrainingData.h"
#include "core/util/Progress.h"

namespace prunescope {

struct IndependentFilterOptions {
    int hashBits = 20;
    double cPos = 0.1, cNeg = 1.0;          // token-role SVMs
    double vineCPos = 0.01, vineCNeg = 1.0; // the Vine SVM
    double eps = 0.1;                       // liblinear's stopping tolerance
    bool useRoot = true, useVine = true;
};

// The filter (kind Independent, None weights 0, threshold 0 = the SVMs' own decisions); training
// records per-subclassifier counts and seconds. Throws Cancelled if cancelled between solves.
ArcFilter trainIndependentFilter(const FilterTrainingData& data,
                                 const IndependentFilterOptions& opt,
                                 const Progress& progress = {});

} // namespace prunescope
