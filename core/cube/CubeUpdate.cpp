// Update strategies (CubeUpdate.h).
#include "core/cube/CubeUpdate.h"

#include <stdexcept>

namespace prunescope {

const char* cubeUpdateName(CubeUpdateStrategy s) {
    switch (s) {
    case CubeUpdateStrategy::Standard:
        return "standard";
    case CubeUpdateStrategy::Skip:
        return "skip";
    case CubeUpdateStrategy::SMax:
        return "smax";
    case CubeUpdateStrategy::PMax:
        return "pmax";
    }
    return "?";
}

CubeUpdateStrategy parseCubeUpdate(const std::string& name) {
    for (auto s : {CubeUpdateStrategy::Standard, CubeUpdateStrategy::Skip, CubeUpdateStrategy::SMax,
                   CubeUpdateStrategy::PMax})
        if (name == cubeUpdateName(s)) return s;
    throw std::invalid_argument("unknown update strategy '" + name +
                                "' (standard, skip, smax or pmax)");
}

CubeUpdateChoice chooseCubeUpdate(const GoldDerivation& gold, CubeUpdateStrategy strategy) {
    CubeUpdateChoice c;
    if (!gold.reachable() || gold.nodes.empty()) return c;
    const int root = gold.root();
    const GoldNode& r = gold.nodes[static_cast<std::size_t>(root)];
    c.rootWrong = !r.correct();
    c.rootViolation = c.rootWrong && r.violation >= 0;
    const std::vector<ViolationNode> tree = gold.violationTree();
    c.smaxNode = singleMaxViolation(tree, root);
    c.frontier = maxViolationFrontier(tree, root);
    auto take = [&](int node) {
        if (gold.nodes[static_cast<std::size_t>(node)].correct()) return;
        c.nodes.push_back(node);
        c.violation += gold.nodes[static_cast<std::size_t>(node)].violation;
    };
    switch (strategy) {
    case CubeUpdateStrategy::Standard:
        if (c.rootWrong) take(root);
        c.invalid = c.rootWrong && !c.rootViolation;
        break;
    case CubeUpdateStrategy::Skip:
        if (c.rootViolation) take(root);
        break;
    case CubeUpdateStrategy::SMax:
        take(c.smaxNode);
        break;
    case CubeUpdateStrategy::PMax:
        for (const int n : c.frontier)
            take(n);
        break;
    }
    c.update = !c.nodes.empty();
    return c;
}

CubeUpdatePairs cubeUpdatePairs(const CubeChart& chart, const CubeScorer& scorer,
                                const GoldDerivation& gold, const std::vector<int>& nodes) {
    CubeUpdatePairs p;
    auto append = [](CubeParts& to, const CubeParts& from) {
        to.arcs.insert(to.arcs.end(), from.arcs.begin(), from.arcs.end());
        to.siblings.insert(to.siblings.end(), from.siblings.begin(), from.siblings.end());
        to.grandparents.insert(to.grandparents.end(), from.grandparents.begin(),
                               from.grandparents.end());
    };
    for (const int n : nodes) {
        const GoldNode& g = gold.nodes[static_cast<std::size_t>(n)];
        append(p.goldParts, chart.parts(g.goldItem, scorer.features()));
        append(p.viterbiParts, chart.parts(g.viterbiItem, scorer.features()));
    }
    if (scorer.hasWeights()) {
        partFeatureKeys(scorer.atoms(), p.goldParts, p.plus);
        partFeatureKeys(scorer.atoms(), p.viterbiParts, p.minus);
    }
    return p;
}

} // namespace prunescope
