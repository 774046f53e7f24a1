#include "support/SharedGrammar.h"

#include "core/grammar/PcfgEstimator.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"
#include "support/TestData.h"

#include <map>
#include <memory>

namespace prunescope::testdata {

const Policy& bundledPolicy() {
    static const Policy p = loadPolicy(samplePath("policies/baseline-w128.json"));
    return p;
}

const Grammar& trainGrammar() {
    static std::unique_ptr<Grammar> g;
    if (!g)
        g = std::make_unique<Grammar>(
            estimatePcfg(readTreebank(ptbDir("train")), GrammarOptions{}));
    return *g;
}

const std::vector<Tree>& normalizedTrees(const std::string& split) {
    static std::map<std::string, std::vector<Tree>> cache;
    auto it = cache.find(split);
    if (it == cache.end()) it = cache.emplace(split, readNormalizedTreebank(ptbDir(split))).first;
    return it->second;
}

} // namespace prunescope::testdata
