#pragma once
// Max-marginal pruning (Rush & Petrov 2012, slides "Max-Marginal Pruning" / "Pruning Threshold"):
// keep an arc when its first-order max-marginal reaches t_alpha = alpha * max + (1 - alpha) * mean,
// where max is the best tree's score (every max-marginal's upper bound) and mean is the average
// max-marginal over the arcs that some tree under the incoming mask uses (finite ones).
// Keep rule (the one of core/dep/Threshold.h, which the vine cascade's stages use): an arc is kept
// iff its max-marginal is finite and (mm > t_alpha or mm >= max), so no alpha prunes an arc of a
// best tree; alpha = 0 keeps the arcs above the mean.
//
// modelMaxMarginalStage: the first-order max-marginal pass of a DepModel's arc scores as a
// pipeline stage ("max-marginal"), the stage the explorer offers when no cascade is loaded. With
// an order-1 final model it never changes the final tree (test_dep_inspection.cpp holds it).
#include "core/dep/DepPipeline.h"
#include "core/dep/EisnerHypergraph.h"

namespace prunescope {

double maxMarginalThreshold(const ArcMaxMarginals& mm, double alpha);
// The arcs whose max-marginal is finite and > maxMarginalThreshold(mm, alpha) or equal to the best
// tree's score up to rounding (1e-9 relative); none if no tree.
ArcMask pruneByMaxMarginals(const ArcMaxMarginals& mm, double alpha);
// Stage "max-marginal" (exact: it runs first-order inside-outside over the arcs it receives).
ArcPruningStage modelMaxMarginalStage(const DepModel& model, double alpha);

} // namespace prunescope
