// Corpus evaluation for dependency decoders.
#include "core/dep/DepCorpus.h"

#include "core/util/Clock.h"

namespace prunescope {

nlohmann::json DepCorpusResult::summaryJson() const {
    nlohmann::json j = total.toJson();
    j["sentences"] = sentences.size();
    j["tokens"] = tokens;
    j["arcsKeptFraction"] = arcsKeptFraction();
    j["finalArcsFraction"] = finalArcsFraction();
    j["pushes"] = pushes;
    j["pushesPerSentence"] =
        sentences.empty() ? 0.0
                          : static_cast<double>(pushes) / static_cast<double>(sentences.size());
    j["tokensPerSecond"] = tokensPerSecond();
    j["cpuSeconds"] = cpuSeconds;
    j["fallbacks"] = fallbacks;
    j["failures"] = failures;
    if (cancelled) j["cancelled"] = true;
    return j;
}

DepCorpusResult evaluateDepCorpus(const std::vector<DepSentence>& gold, const DepDecoder& decode,
                                  const Progress& progress) {
    DepCorpusResult r;
    progress.begin("evaluation", static_cast<long>(gold.size()));
    for (const auto& s : gold) {
        if (progress.cancelled()) {
            r.cancelled = true;
            break;
        }
        DepSentenceResult one;
        try {
            one = decode(s);
        } catch (const Cancelled&) { // a decoder polling the cancel flag mid-sentence
            r.cancelled = true;
            break;
        }
        one.score = scoreAttachment(s, one.heads);
        r.total.add(one.score);
        r.pushes += one.pushes;
        r.arcsAtFirstExact += one.arcsAtFirstExact;
        r.arcsFinal += one.arcsFinal;
        r.allArcs += static_cast<long>(s.size()) * s.size();
        r.tokens += s.size();
        r.fallbacks += one.fallbacks;
        r.failures += one.success ? 0 : 1;
        r.cpuSeconds += one.cpuSeconds;
        r.sentences.push_back(std::move(one));
        progress.advance();
    }
    return r;
}

} // namespace prunescope
