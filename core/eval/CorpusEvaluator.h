#pragma once
// Parse a treebank with an optional pruning mask per sentence and score it with EVALB:
// the measurement behind `prunescope-cli eval`, the baseline sweep and the frontier.
#include "core/eval/Evalb.h"
#include "core/grammar/Grammar.h"
#include "core/parse/MaxRuleDecoder.h"
#include "core/parse/Parser.h"
#include "core/parse/PruningMask.h"
#include "core/treebank/Tree.h"
#include "core/util/Progress.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace prunescope {

struct SentenceResult {
    int length = 0;
    ParseStats stats;
    BracketCounts counts;
    double f1 = 0;         // per-sentence F1 in [0,1]
    double seconds = 0;    // mask + parse + tree extraction, wall time
    double cpuSeconds = 0; // the same, CPU time of the worker's thread
    Tree tree;             // the output tree (kept only if requested)
};

struct CorpusResult {
    std::vector<SentenceResult> sentences;
    CorpusEvaluation evalb;
    int failures = 0;
    // Sentences the parser refused before allocating (SentenceTooLarge: over 4095 words or over the
    // memory budget): left out of every number above and counted here, with their 1-based indices.
    int skippedTooLarge = 0;
    std::vector<int> skippedSentences;
    long words = 0;
    double seconds = 0;     // summed per-sentence wall times (mask + parse + tree)
    double cpuSeconds = 0;  // summed per-sentence thread CPU times: the per-core rate
    double wallSeconds = 0; // the whole call, all workers: the throughput
    int threads = 1;        // workers used
    ParseDecoder decoder = ParseDecoder::Viterbi; // which tree each sentence output
    double f1() const { return evalb.total.f1(); }
    double meanPushes() const;
    double meanConstituents() const;
    double meanSpansKept() const;
    // Words per second of one core's CPU time (thread CPU, so a loaded machine or waiting for
    // other workers does not lower it); words / wallSeconds is the throughput.
    double wordsPerSecond() const { return cpuSeconds > 0 ? words / cpuSeconds : 0; }
    nlohmann::json summaryJson() const;
};

// Mask for a sentence; nullptr means "keep everything".
using MaskFunction = std::function<PruningMask(std::span<const std::string> words)>;

struct EvaluationOptions {
    int maxLength = 0; // 0 = no limit; longer sentences are skipped
    std::size_t memoryBudget =
        kDefaultParserMemoryBudget; // per parser, one per worker (Parser::setMemoryBudget)
    bool keepTrees = false;
    // Viterbi: the best derivation (projected to base symbols on a fine grammar). MaxRule: the
    // max-rule-product tree (MaxRuleDecoder.h; inside-outside per sentence, about three inside
    // passes of work); pushes are then the inside pass's, the parser's unit.
    ParseDecoder decoder = ParseDecoder::Viterbi;
    int threads =
        1; // sentences in parallel; 0 = all cores. Results never depend on it (only timings)
};

// gold: normalized trees (normalizeTree). Sentences are parsed on opt.threads workers (one Parser
// each) and merged in tree order: every number but the timings is identical for any thread count,
// and `mask` must be safe to call from several threads at once (policyMaskFunction is).
// Progress: phase "parsing", one item per gold tree (skipped ones included); polled per sentence,
// a cancel throws Cancelled.
CorpusResult evaluateCorpus(const Grammar& g, std::span<const Tree> gold, const MaskFunction& mask,
                            const EvaluationOptions& opt = {}, const Progress& progress = {});

} // namespace prunescope
