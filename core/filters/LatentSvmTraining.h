#pragma once
// Joint training of the token-role, Vine and None subclassifiers as one latent SVM over arcs
// (Cherry & Bergsma 2011, eq. 2 and sec. 3):
//   min_w  1/2 ||w||^2 + sum_(a,y) C_y loss(1 + f(Z_a|not y) - f(Z_a|y)),
//   Z_a|1 = Z_a (a non-gold arc, to filter), Z_a|0 = {None_a} (a gold arc, to keep),
// by the paper's EM-like alternation: fix each to-filter arc's latent event z_a = argmax over Z_a,
// solve the now convex problem, repeat until few assignments change. Reading (docs/filters.md):
// loss(u) = max(0, u)^2 (the L2-loss SVM, as liblinear's default for the independent SVMs), and
// the convex step is solved in the primal by L-BFGS (LBFGSpp) from the current weights, because it
// still holds a max over Z_a for every gold arc, which liblinear's binary and Crammer-Singer
// solvers cannot express without expanding each arc into |Z_a| = O(n) examples. The step keeps
// the best point seen, so the objective never increases over alternations (tested).
#include "core/filters/ArcFilter.h"
#include "core/filters/FilterTrainingData.h"
#include "core/util/Progress.h"

#include <functional>
#include <vector>

namespace prunescope {

struct JointFilterOptions {
    int hashBits = 20;
    double c0 = 0.1;  // C_0: cost of a gold arc (y = 0) that would be filtered
    double c1 = 1e-4; // C_1: cost of a non-gold arc (y = 1) that would be kept
    int maxAlternations = 5;
    int solverIterations = 40;  // L-BFGS iterations per convex step
    double convergence = 0.005; // stop when fewer than this share of latent events change
    bool useRoot = true, useVine = true, useNone = true;
};

struct JointAlternation {
    int alternation = 0;        // 1-based
    long changed = 0;           // latent events that changed in this alternation's assignment
    long latent = 0;            // arcs with a latent event (non-gold arcs)
    double objectiveBefore = 0; // eq. (2) at the start of the alternation
    double objectiveAfter = 0;  // eq. (2) after the convex step
    int solverEvaluations = 0;
    double seconds = 0;
};

struct JointTrainResult {
    ArcFilter filter; // kind Joint, threshold 0
    std::vector<JointAlternation> alternations;
    bool cancelled = false; // stopped by a cancel: filter holds the last finished alternation
};

// The objective (2) at the filter's weights (for tests and reports).
double latentSvmObjective(const FilterTrainingData& data, const ArcFilter& f,
                          const JointFilterOptions& opt);

// init: starting weights (e.g. the independent token-role SVMs, Vine and None at 0), or null for
// zeros; its hashBits must equal opt.hashBits. onAlternation is called after each finished one.
JointTrainResult
trainJointFilter(const FilterTrainingData& data, const ArcFilter* init,
                 const JointFilterOptions& opt, const Progress& progress = {},
                 const std::function<void(const JointTrainResult&)>& onAlternation = {});

} // namespace prunescope
