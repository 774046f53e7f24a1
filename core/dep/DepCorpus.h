#pragma once
// Parsing a treebank with any dependency decoder (an exact model, a cascade, a filter + model) and
// scoring it: the numbers of `dep-eval` and of every experiment in docs/results.md.
#include "core/dep/DepEval.h"
#include "core/dep/DepTree.h"
#include "core/util/Progress.h"

#include <functional>
#include <vector>

namespace prunescope {

struct DepSentenceResult {
    std::vector<int> heads; // size n + 1
    AttachmentScore score;
    long pushes = 0;           // summed over every exact stage and the final parse
    long arcsAtFirstExact = 0; // arcs kept when the first exact stage (or the final parse) starts
    long arcsFinal = 0;        // arcs kept for the final parse
    int fallbacks = 0;         // masks that left no tree and were relaxed (DepPipeline.h)
    bool success = false;
    double cpuSeconds = 0; // thread CPU time of the decode (features, pruning, parsing)
};

// Decodes one sentence (its heads may be gold; the decoder must not read them).
using DepDecoder = std::function<DepSentenceResult(const DepSentence&)>;

struct DepCorpusResult {
    AttachmentScore total;
    long pushes = 0, arcsAtFirstExact = 0, arcsFinal = 0, allArcs = 0, tokens = 0;
    int fallbacks = 0, failures = 0;
    double cpuSeconds = 0;
    bool cancelled = false;
    std::vector<DepSentenceResult> sentences;

    double arcsKeptFraction() const {
        return allArcs ? static_cast<double>(arcsAtFirstExact) / static_cast<double>(allArcs) : 1.0;
    }
    double finalArcsFraction() const {
        return allArcs ? static_cast<double>(arcsFinal) / static_cast<double>(allArcs) : 1.0;
    }
    double tokensPerSecond() const {
        return cpuSeconds > 0 ? static_cast<double>(tokens) / cpuSeconds : 0.0;
    }
    // uas, uasWithPunct, rootAccuracy, completeMatch, sentences, tokens, arcsKeptFraction,
    // finalArcsFraction, pushes, pushesPerSentence, tokensPerSecond, cpuSeconds, fallbacks,
    // failures.
    nlohmann::json summaryJson() const;
};

// Decodes and scores every sentence in order (phase "evaluation"); a cancel stops after the
// current sentence and returns the sentences done with cancelled = true.
DepCorpusResult evaluateDepCorpus(const std::vector<DepSentence>& gold, const DepDecoder& decode,
                                  const Progress& progress = {});

} // namespace prunescope
