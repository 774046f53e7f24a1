#include "core/lols/LolsRun.h"

#include "core/policy/Baseline.h"
#include "core/grammar/GrammarFile.h"
#include "core/treebank/Normalize.h"
#include "core/treebank/TreebankReader.h"

namespace prunescope {

namespace {
std::vector<LolsSentence> firstN(std::vector<LolsSentence> s, int limit) {
    if (limit > 0 && static_cast<int>(s.size()) > limit) s.resize(static_cast<std::size_t>(limit));
    return s;
}
} // namespace

LolsRunInputs loadLolsRunInputs(const nlohmann::json& config) {
    LolsRunInputs in;
    in.grammar = loadGrammar(config.at("grammar").get<std::string>());
    in.maxLength = config.value("maxLength", 40);
    in.trainTrees = readNormalizedTreebank(config.at("train").get<std::string>());
    in.train = firstN(lolsSentences(in.trainTrees, in.maxLength, &in.treeIndex), config.value("trainLimit", 0));
    in.dev = firstN(lolsSentences(readNormalizedTreebank(config.at("dev").get<std::string>()), in.maxLength),
                    config.value("devLimit", 0));
    return in;
}

AggregatedDataset initialDataset(const LolsRunInputs& in, std::size_t trainCount, const nlohmann::json& config) {
    AggregatedDataset q0;
    if (!config.contains("q0") || config.at("q0").is_null()) return q0;
    const nlohmann::json& spec = config.at("q0");
    const auto ex = baselineExamples(in.grammar, in.trainTrees, in.maxLength, spec.value("positiveWeight", 1.0));
    std::vector<SpanOrigin> origin;
    origin.reserve(ex.origin.size());
    for (const auto& r : ex.origin) origin.push_back({r.sentence, r.i, r.k});
    std::vector<int> sentenceOfTree(in.trainTrees.size(), -1);
    for (std::size_t x = 0; x < trainCount; ++x) sentenceOfTree[in.treeIndex[x]] = static_cast<int>(x);
    return datasetFromExamples(ex.examples, origin, sentenceOfTree, spec.value("scale", 1.0));
}

} // namespace prunescope
