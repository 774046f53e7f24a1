#pragma once
// One training update made visible (Zhang et al. 2013, sec. 2, Figure 1): for a sentence parsed
// with the current weights, every gold node's cell, the gold item's rank in the beam or "fell off",
// the violation; the s-max node, the p-max frontier; and what a strategy's update moves toward
// (parts of the chosen gold subtrees that their Viterbi subtrees lack) and away from (the reverse).
// Shared by `cube-parse --explain` and the GUI's cube explorer, so both show the same thing.
#include "core/cube/CubeUpdate.h"

#include <nlohmann/json.hpp>

#include <string>

namespace prunescope {

// "C(3,7)" / "I(3,7)": kind, head, other end.
std::string cubeCellName(const CubeCell& c);

// The net parts of an update: multiset difference of the chosen pairs' gold and Viterbi parts.
struct CubePartsDelta {
    CubeParts toward;   // in the gold subtrees, not (as often) in the Viterbi ones
    CubeParts awayFrom; // in the Viterbi subtrees, not (as often) in the gold ones
};
CubePartsDelta netParts(const CubeUpdatePairs& pairs);

// JSON: {"gold": [{"cell","rank","fellOff","violation","goldScore","viterbiScore","children"}...],
// "smax", "frontier", "update": {"strategy","nodes","violation","invalid","toward","awayFrom"}}.
nlohmann::json explainCubeUpdate(const CubeChart& chart, const CubeScorer& scorer,
                                 const GoldDerivation& gold, CubeUpdateStrategy strategy);

} // namespace prunescope
