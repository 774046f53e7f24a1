#pragma once
// One grammar trained on the shared train split (estimated once per test process).
#include "core/grammar/Grammar.h"
#include "core/policy/Policy.h"
#include "core/treebank/Tree.h"

#include <vector>

namespace prunescope::testdata {
// The default grammar (horizontal Markov order 2, no parent annotation, rare threshold 1).
const Grammar& trainGrammar();
// Normalized trees of a split ("train", "dev", "test"), cached in memory.
const std::vector<Tree>& normalizedTrees(const std::string& split);
// The bundled baseline policy samples/policies/baseline-w128.json (loaded once per test process).
const Policy& bundledPolicy();
} // namespace prunescope::testdata
