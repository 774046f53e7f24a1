// Cascade stages: vine and first-order max-marginals, masks (Rush & Petrov 2012 sec. 3-4).
#include "core/vine/CascadeStage.h"

#include "core/dep/DepModel.h"
#include "core/dep/EisnerHypergraph.h"
#include "core/dep/EisnerMaxMarginals.h"
#include "core/dep/SiblingHypergraph.h"
#include "core/vine/VineParser.h"
#include "core/vine/VineTreeParser.h"

#include <algorithm>
#include <stdexcept>

namespace prunescope {

const char* cascadeStageKindName(CascadeStageKind k) {
    switch (k) {
    case CascadeStageKind::Vine:
        return "vine";
    case CascadeStageKind::FirstOrder:
        return "first-order";
    case CascadeStageKind::SecondOrder:
        return "second-order";
    }
    return "?";
}

double StageMarginals::arc(int h, int m) const {
    if (kind == CascadeStageKind::Vine && !vineShortArc(band, h, m)) {
        // decided by two parts: m's outer arc on h's side and h's outer-head part on m's side
        const double mod = mm.label[static_cast<std::size_t>(
            vineOuterLabel(n, m, h < m ? VineSide::Left : VineSide::Right))];
        const double head = mm.label[static_cast<std::size_t>(
            vineOuterHeadLabel(n, h, m < h ? VineSide::Left : VineSide::Right))];
        return std::min(mod, head);
    }
    if (kind == CascadeStageKind::SecondOrder)
        return arcValue[static_cast<std::size_t>(h) * static_cast<std::size_t>(n + 1) +
                        static_cast<std::size_t>(m)];
    return mm.label[static_cast<std::size_t>(arcLabel(n, h, m))];
}

namespace {

bool longArcKept(const ArcMask& mask, int band, int m, VineSide side) {
    const int n = mask.n;
    if (side == VineSide::Left) {
        for (int h = 0 + 1; h < m - band; ++h)
            if (mask.keep(h, m)) return true;
    } else {
        for (int h = m + band + 1; h <= n; ++h)
            if (mask.keep(h, m)) return true;
    }
    return false;
}

// Whether the mask keeps an arc from h to a modifier more than band away on `side`.
bool longModifierKept(const ArcMask& mask, int band, int h, VineSide side) {
    const int n = mask.n;
    if (side == VineSide::Left) {
        for (int m = 1; m < h - band; ++m)
            if (mask.keep(h, m)) return true;
    } else {
        for (int m = h + band + 1; m <= n; ++m)
            if (mask.keep(h, m)) return true;
    }
    return false;
}

} // namespace

StageMarginals stageMarginals(CascadeStageKind kind, int band, VineStructure structure,
                              bool singleRoot, const HashedWeights& w, const SentenceAtoms& a,
                              const ArcMask& incoming, StageDetail detail) {
    DepSentenceFeatures f(a);
    return stageMarginals(kind, band, structure, singleRoot, w, f, incoming, detail);
}

StageMarginals stageMarginals(CascadeStageKind kind, int band, VineStructure structure,
                              bool singleRoot, const HashedWeights& w, DepSentenceFeatures& f,
                              const ArcMask& incoming, StageDetail detail) {
    const SentenceAtoms& a = f.atoms();
    const int n = a.size();
    if (incoming.n != n)
        throw std::invalid_argument("cascade stage: mask length differs from the sentence");
    StageMarginals sm;
    sm.kind = kind;
    sm.n = n;
    sm.band = band;
    std::vector<std::uint64_t> keys;
    if (kind == CascadeStageKind::Vine) {
        VineScores vs;
        vs.n = n;
        vs.band = band;
        vs.arcs.reset(n);
        vs.outer.assign(static_cast<std::size_t>(2 * (n + 1)), kDepNegInf);
        vs.outerHead.assign(static_cast<std::size_t>(2 * (n + 1)), kDepNegInf);
        std::vector<std::uint32_t> arcs; // the short arcs and every root arc, scored as one batch
        arcs.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(2 * band + 1));
        for (int m = 1; m <= n; ++m) {
            for (int h = std::max(0, m - band); h <= std::min(n, m + band); ++h)
                if (h != m && incoming.keep(h, m)) arcs.push_back(f.arcId(h, m));
            if (m - band > 0 && incoming.keep(0, m))
                arcs.push_back(f.arcId(0, m)); // a root arc outside the band
        }
        f.scoreArcs(w, arcs, vs.arcs);
        for (int m = 1; m <= n; ++m) {
            for (VineSide side : {VineSide::Left, VineSide::Right}) {
                if (!vineOuterExists(n, band, m, side) || !longArcKept(incoming, band, m, side))
                    continue;
                keys.clear();
                outerModifierKeys(a, m, side == VineSide::Left, keys);
                vs.outer[static_cast<std::size_t>(2 * m + static_cast<int>(side))] = w.score(keys);
            }
            for (VineSide side :
                 {VineSide::Left, VineSide::Right}) { // m as a head with a far modifier
                if (!vineOuterHeadExists(n, band, m, side) ||
                    !longModifierKept(incoming, band, m, side))
                    continue;
                keys.clear();
                outerHeadKeys(a, m, side == VineSide::Right, keys);
                vs.outerHead[static_cast<std::size_t>(2 * m + static_cast<int>(side))] =
                    w.score(keys);
            }
        }
        sm.graph = structure == VineStructure::Tree ? buildVineTreeHypergraph(vs, singleRoot)
                                                    : buildVineHypergraph(vs, singleRoot);
        sm.mm = maxMarginals(sm.graph);
    } else if (kind == CascadeStageKind::SecondOrder) {
        ArcScores sc;
        f.arcScores(w, &incoming, sc);
        SiblingHypergraph sh =
            buildSiblingHypergraph(sc, DepScorer(w, f.atoms()), &incoming, singleRoot);
        sm.mm = maxMarginals(sh.graph);
        sm.arcValue = siblingArcMaxMarginals(sh, sm.mm.label);
        sm.graph = std::move(sh.graph);
        sm.parts = std::move(sh.parts);
        sm.partLabel = std::move(sh.partLabel);
    } else {
        ArcScores sc;
        f.arcScores(w, &incoming, sc);
        if (detail == StageDetail::Hypergraph) {
            sm.graph = buildEisnerHypergraph(sc, &incoming, singleRoot).graph;
            sm.mm = maxMarginals(sm.graph);
        } else {
            ArcMaxMarginals am;
            EisnerMaxMarginalSolver().solve(sc, &incoming, singleRoot, am);
            sm.mm.label = std::move(am.value);
            sm.mm.best = am.best;
            sm.mm.edgesVisited = am.pushes;
        }
    }
    sm.pushes = sm.mm.edgesVisited;
    return sm;
}

ArcMask stageMask(const StageMarginals& sm, double alpha, const ArcMask& incoming) {
    const CascadeThreshold t = cascadeThreshold(sm.mm.label, alpha);
    ArcMask out = ArcMask::none(sm.n);
    for (int h = 0; h <= sm.n; ++h)
        for (int m = 1; m <= sm.n; ++m)
            if (h != m && incoming.keep(h, m) && keepPart(sm.arc(h, m), t)) out.set(h, m, true);
    return out;
}

std::vector<int> stageGoldLabels(CascadeStageKind kind, int n, int band,
                                 const std::vector<int>& heads) {
    if (kind == CascadeStageKind::Vine) return vineProjection(n, band, heads);
    if (kind == CascadeStageKind::SecondOrder)
        throw std::logic_error("stageGoldLabels: a second-order stage numbers its parts per "
                               "sentence (pass its StageMarginals)");
    std::vector<int> out;
    for (int m = 1; m <= n; ++m)
        if (heads[static_cast<std::size_t>(m)] >= 0)
            out.push_back(arcLabel(n, heads[static_cast<std::size_t>(m)], m));
    return out;
}

std::vector<int> stageGoldLabels(StageMarginals& sm, const std::vector<int>& heads) {
    if (sm.kind != CascadeStageKind::SecondOrder)
        return stageGoldLabels(sm.kind, sm.n, sm.band, heads);
    std::vector<int> out;
    for (const auto& p : siblingParts(heads)) {
        const auto [it, fresh] = sm.partLabel.try_emplace(siblingPartKey(sm.n, p[0], p[1], p[2]),
                                                          static_cast<int>(sm.parts.size()));
        if (fresh) sm.parts.push_back(p);
        out.push_back(it->second);
    }
    return out;
}

void stageLabelKeys(const StageMarginals& sm, const SentenceAtoms& a, int label,
                    std::vector<std::uint64_t>& out) {
    if (sm.kind != CascadeStageKind::SecondOrder) {
        stageLabelKeys(sm.kind, a, label, out);
        return;
    }
    const auto& p = sm.parts.at(static_cast<std::size_t>(label));
    arcFeatureKeys(a, p[0], p[2], out);
    siblingFeatureKeys(a, p[0], p[1], p[2], out);
}

void stageLabelKeys(CascadeStageKind kind, const SentenceAtoms& a, int label,
                    std::vector<std::uint64_t>& out) {
    const int n = a.size();
    const int arcs = (n + 1) * (n + 1);
    if (label < arcs) {
        arcFeatureKeys(a, label / (n + 1), label % (n + 1), out);
        return;
    }
    if (kind == CascadeStageKind::SecondOrder)
        throw std::logic_error("stageLabelKeys: a second-order label needs its StageMarginals");
    if (kind != CascadeStageKind::Vine)
        throw std::logic_error("stageLabelKeys: outer label in a first-order stage");
    const int rest = label - arcs;
    if (rest < 2 * (n + 1))
        outerModifierKeys(a, rest / 2, static_cast<VineSide>(rest % 2) == VineSide::Left, out);
    else
        outerHeadKeys(a, (rest - 2 * (n + 1)) / 2,
                      static_cast<VineSide>(rest % 2) == VineSide::Right, out);
}

std::vector<int> viterbiLabels(const Hypergraph& g, const MaxMarginals& mm) {
    std::vector<int> out;
    if (mm.best == kHyperNegInf) return out;
    std::vector<int> stack{g.goal};
    while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        const int e = mm.insideEdge[static_cast<std::size_t>(v)];
        if (e < 0) continue;
        if (g.edgeLabel[static_cast<std::size_t>(e)] >= 0)
            out.push_back(g.edgeLabel[static_cast<std::size_t>(e)]);
        for (int t : g.tailsOf(e))
            stack.push_back(t);
    }
    return out;
}

} // namespace prunescope
