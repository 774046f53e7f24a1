// Explaining one update (CubeExplain.h).
#include "core/cube/CubeExplain.h"

#include <algorithm>

namespace prunescope {

std::string cubeCellName(const CubeCell& c) {
    return std::string(c.kind == CubeKind::Complete ? "C(" : "I(") + std::to_string(c.head) + "," +
           std::to_string(c.end) + ")";
}

namespace {

template <typename T>
void difference(std::vector<T> a, std::vector<T> b, std::vector<T>& aOnly, std::vector<T>& bOnly) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(aOnly));
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(bOnly));
}

nlohmann::json partsJson(const CubeParts& p) {
    return {{"arcs", p.arcs}, {"siblings", p.siblings}, {"grandparents", p.grandparents}};
}

} // namespace

CubePartsDelta netParts(const CubeUpdatePairs& pairs) {
    CubePartsDelta d;
    difference(pairs.goldParts.arcs, pairs.viterbiParts.arcs, d.toward.arcs, d.awayFrom.arcs);
    difference(pairs.goldParts.siblings, pairs.viterbiParts.siblings, d.toward.siblings,
               d.awayFrom.siblings);
    difference(pairs.goldParts.grandparents, pairs.viterbiParts.grandparents, d.toward.grandparents,
               d.awayFrom.grandparents);
    return d;
}

nlohmann::json explainCubeUpdate(const CubeChart& chart, const CubeScorer& scorer,
                                 const GoldDerivation& gold, CubeUpdateStrategy strategy) {
    nlohmann::json j;
    if (!gold.reachable()) {
        j["problem"] = gold.problem;
        return j;
    }
    nlohmann::json nodes = nlohmann::json::array();
    for (const GoldNode& n : gold.nodes)
        nodes.push_back(
            {{"cell", cubeCellName(n.cell)},
             {"rank", n.rank},
             {"fellOff", n.fellOff()},
             {"violation", n.violation},
             {"goldScore", chart.item(n.goldItem).score},
             {"viterbiScore", n.viterbiItem >= 0 ? chart.item(n.viterbiItem).score : 0.0f},
             {"children", n.children}});
    j["gold"] = nodes;
    const CubeUpdateChoice c = chooseCubeUpdate(gold, strategy);
    j["smax"] = c.smaxNode;
    j["frontier"] = c.frontier;
    const CubePartsDelta d = netParts(cubeUpdatePairs(chart, scorer, gold, c.nodes));
    j["update"] = {{"strategy", cubeUpdateName(strategy)},
                   {"nodes", c.nodes},
                   {"violation", c.violation},
                   {"invalid", c.invalid},
                   {"update", c.update},
                   {"toward", partsJson(d.toward)},
                   {"awayFrom", partsJson(d.awayFrom)}};
    return j;
}

} // namespace prunescope
