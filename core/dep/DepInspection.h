#pragma once
// One sentence through a DepPipeline with everything the dependency explorer and
// `prunescope-cli dep-parse` show: the mask after every stage and the stage that pruned each arc,
// the mask of the final parse (the pipeline's, or one the user gives), the best tree under it, and
// the first-order max-marginal of every arc under that mask (Rush & Petrov 2012, max-marginal
// pruning; EisnerHypergraph.h). The explorer and dep-parse both call inspectDepSentence, so a mask
// edited in the view and the same mask passed to `dep-parse --mask` give the same tree (tests).
//
// Without a given mask the final parse is DepPipeline::parse's (same heads, fallbacks and
// pushes; tests/dep/test_dep_inspection.cpp holds it). With a given mask the stages still run and
// are reported, but the final parse uses exactly that mask, with no fallback: if it leaves no
// tree, success is false and every head is -1.
#include "core/dep/DepPipeline.h"
#include "core/dep/EisnerHypergraph.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace prunescope {

struct DepInspection {
    int n = 0;
    std::vector<std::string> stageNames;
    std::vector<ArcMask> stageMasks; // [0] = all arcs, [k] = after stage k (DepPipeline::masks)
    // Per arc [h * (n + 1) + m]: the index of the stage that pruned it, -1 if every stage kept it
    // (or it is not an arc: h == m, m == 0).
    std::vector<int> prunedBy;
    ArcMask finalMask; // the mask of the final parse (after fallbacks, or the given one)
    bool givenMask = false;
    std::vector<int> heads; // size n + 1, [0] = -1; all -1 if no tree
    bool success = false;
    double score = kHyperNegInf; // the final model's score of the tree (siblings included)
    int fallbacks = 0;
    long pushes = 0;              // stages + final parse
    ArcMaxMarginals maxMarginals; // first order (the final model's arc scores) under finalMask

    int prunedByAt(int h, int m) const {
        return prunedBy[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                        static_cast<std::size_t>(m)];
    }
};

DepInspection inspectDepSentence(const DepPipeline& pipeline, const DepSentence& s,
                                 EisnerParser& parser, const ArcMask* givenMask = nullptr);

// One sentence as dep-parse prints it (schema in docs/file-formats.md, "dep-parse output"):
// words, tags, heads (tokens 1..n), success, score, stages with arcs kept, the final mask's arc
// count, maxMarginals {best, value: (n + 1) x (n + 1) rows = heads, null = no tree uses the arc},
// prunedBy (same shape: stage name or null) when there are stages, and uas/uasWithPunct when s
// has a gold tree.
nlohmann::json depInspectionJson(const DepSentence& s, const DepInspection& r);

} // namespace prunescope
