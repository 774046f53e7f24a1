#pragma once
// A tiny ambiguous PCFG (unary rules, several root rules, PP attachment) and brute-force
// enumeration of every derivation of a sentence under a span mask: the reference the
// inside-outside, sampling and MCMC tests of core/mcmc are held to.
#include "core/grammar/Grammar.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"

#include <map>
#include <string>
#include <vector>

namespace prunescope::testdata {

const Grammar& tinyPcfg();

// One derivation: its probability, its binarized tree (the format PrunedInsideOutside::sample
// returns) and the features it uses: "b:<binary index>", "u:<unary index>", "r:<root rule index>",
// "l:<position>:<lexical entry>", "s:<i>:<k>" (every span of the derivation), each with its count.
struct EnumeratedDerivation {
    double p = 0;
    Tree tree;
    std::map<std::string, double> features;
};
std::vector<EnumeratedDerivation> enumerateDerivations(const Grammar& g,
                                                       const std::vector<std::string>& words,
                                                       const PruningMask& mask);

} // namespace prunescope::testdata
