#pragma once
// One pruning stage of the vine cascade (Rush & Petrov 2012 sec. 3-4): its parts, their scores
// under hashed weights, their max-marginals over the stage's hypergraph, and the mask it passes on.
//   vine        : the VineParser (arcs of length <= band, root arcs, outer arcs, outer-head parts),
//   per
//                 token or tree-constrained (VineStructure; VineTreeParser.h);
//                 a long arc h -> m (h >= 1) survives iff both the outer arc of m on h's side and
//                 the outer-head part of h on m's side do (its max-marginal is the smaller of the
//                 two).
//   first-order : Eisner's first-order chart under the incoming mask (EisnerHypergraph), parts =
//                 arcs, features = the dep-v1 arc templates (the same as a first-order DepModel).
//   second-order: the sibling chart under the incoming mask (SiblingHypergraph, sec. 5's stage in
//                 front of a third-order model), parts = sibling parts (h, q, m) scored with their
//                 arc, features = arc + sibling templates; an arc survives iff one of its sibling
//                 parts does (its max-marginal is their best).
// Features: arcs by arcFeatureKeys, outer arcs by outerModifierKeys, outer-head parts by
// outerHeadKeys (core/dep/ArcFeatures.h).
#include "core/dep/ArcFeatures.h"
#include "core/dep/ArcMask.h"
#include "core/dep/DepSentenceFeatures.h"
#include "core/dep/HashedWeights.h"
#include "core/dep/Hypergraph.h"
#include "core/dep/Threshold.h"
#include "core/vine/VineParser.h"

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace prunescope {

enum class CascadeStageKind { Vine, FirstOrder, SecondOrder };
// "vine" | "first-order" | "second-order"
const char* cascadeStageKindName(CascadeStageKind k);

// A stage's hypergraph and max-marginals on one sentence.
struct StageMarginals {
    CascadeStageKind kind = CascadeStageKind::Vine;
    int n = 0;
    int band = 0;
    Hypergraph graph;
    MaxMarginals mm; // mm.label[l]: the part's max-marginal (-inf = in no derivation)
    long pushes = 0; // hyperedges visited (inside pass)
    // second-order stage: label -> sibling part (h, q, m), its lookup, and each arc's best
    // max-marginal over its parts ([h * (n + 1) + m])
    std::vector<std::array<int, 3>> parts;
    std::unordered_map<std::int64_t, int> partLabel;
    std::vector<double> arcValue;
    // The max-marginal the stage assigns to arc h -> m: the arc's own, or for a vine stage and a
    // long arc the smaller of its outer arc's and its head's outer-head part's (the parts that
    // decide it).
    double arc(int h, int m) const;
};

// What stageMarginals returns: the max-marginals only (mm.label, mm.best, mm.edgesVisited; for a
// first-order stage straight on the Eisner chart, EisnerMaxMarginals.h, with `graph` left empty),
// or also the hypergraph and the full MaxMarginals (training: Viterbi labels, witness counts).
// Both give the same doubles in mm.label.
enum class StageDetail { MaxMarginals, Hypergraph };

// Builds and solves the stage on sentence atoms `a` under the incoming mask (arcs it prunes are
// absent; a vine outer arc / outer-head part exists iff the mask keeps one long arc on its side).
// `structure` picks the vine's hypergraph (ignored by a first-order stage).
StageMarginals stageMarginals(CascadeStageKind kind, int band, VineStructure structure,
                              bool singleRoot, const HashedWeights& w, const SentenceAtoms& a,
                              const ArcMask& incoming,
                              StageDetail detail = StageDetail::Hypergraph);
// The same, scoring arcs through the sentence's shared features (keys cached for later stages).
StageMarginals stageMarginals(CascadeStageKind kind, int band, VineStructure structure,
                              bool singleRoot, const HashedWeights& w, DepSentenceFeatures& f,
                              const ArcMask& incoming,
                              StageDetail detail = StageDetail::Hypergraph);

// The mask the stage passes on at alpha (Threshold.h's keep rule), a subset of incoming.
ArcMask stageMask(const StageMarginals& sm, double alpha, const ArcMask& incoming);

// The parts of a gold tree in the stage's vocabulary (labels), and a label's feature keys. A
// second-order stage numbers its parts per sentence: its gold parts get labels through sm (added
// beyond the graph's labels when the incoming mask pruned them), its keys read sm's part table.
std::vector<int> stageGoldLabels(CascadeStageKind kind, int n, int band,
                                 const std::vector<int>& heads);
std::vector<int> stageGoldLabels(StageMarginals& sm, const std::vector<int>& heads);
void stageLabelKeys(CascadeStageKind kind, const SentenceAtoms& a, int label,
                    std::vector<std::uint64_t>& out);
void stageLabelKeys(const StageMarginals& sm, const SentenceAtoms& a, int label,
                    std::vector<std::uint64_t>& out);

// Labels of the Viterbi derivation (the stage's best structure).
std::vector<int> viterbiLabels(const Hypergraph& g, const MaxMarginals& mm);

} // namespace prunescope
