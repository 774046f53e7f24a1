#pragma once
// Replay of weighted CKY (Alg. 1) cell by cell, bottom-up, for teaching (the explorer's "Replay
// CKY", `prunescope-cli parse --json --replay`): the chart is built width by width (1, 2, ..., n),
// left to right within a width, by a plain naive cell loop over a DenseChart, and each cell records
// what Alg. 1 did there: whether the mask pruned it (line 14: skipped), the split points tried,
// the rules tried (pushes) and the best label it ended with.
//
// Contract (tests/parse/test_cky_replay.cpp holds it on ptb-sample/dev under the keep-all mask,
// policy-like random masks and the gold mask): for every sentence and mask,
//   - the replay's chart is bitIdentical to Parser::chart() (every value and witness, and ROOT);
//   - sum over cells of ReplayCell::pushes == ParseStats::pushes, and likewise constituents,
//     spansKept, success and logProb. The fast Parser has no per-cell counters; the per-cell split
//     into lexical / binary / unary / root pushes follows the definition of a push in Parser.h
//     (a rule evaluated with all its children built), counted here rule by rule.
#include "core/grammar/Grammar.h"
#include "core/parse/DenseChart.h"
#include "core/parse/PruningMask.h"

#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <vector>

namespace prunescope {

// One cell (i,k) as the replay built it.
struct ReplayCell {
    int i = 0, k = 0;
    bool pruned = false;     // m[i,k] = 0: skipped, nothing built, no pushes
    std::vector<int> splits; // split points j (i < j < k) whose two children were both built
    int splitPoints = 0;     // k - i - 1: every split point Alg. 1 looks at
    long lexicalPushes = 0;  // width 1: lexical rules (lines 4-6)
    long binaryPushes = 0;   // rules x -> y z tried with y built in (i,j) and z in (j,k)
    long unaryPushes = 0;    // unary rules x -> y tried on the built pre symbols
    long rootPushes = 0;     // the whole-sentence cell only: ROOT -> x rules
    long pushes = 0;         // the sum of the four
    int constituents = 0;    // built symbols (finite post values) after the cell
    int bestSymbol = -1;     // highest post value (first among ties), -1 if nothing built
    float bestScore = kNegInf;
    int bestSplit = -1; // split point of the best symbol's pre witness (-1: lexical,
                        // unary-only with a lexical child, or nothing built)
};

struct ReplayTrace {
    int n = 0;
    std::vector<ReplayCell> cells; // bottom-up order: width 1..n, start ascending
    DenseChart chart;              // the chart after the last cell (== Parser's chart)
    long pushes = 0;               // == ParseStats::pushes
    long constituents = 0;         // == ParseStats::constituents
    int spansKept = 0;             // == ParseStats::spansKept
    bool success = false;
    double logProb = 0;
    // Position of cell (i,k) in `cells` (bottom-up order).
    int order(int i, int k) const;
};

// Replays CKY under mask (nullptr = keep every span). Throws std::invalid_argument for an empty
// sentence or a mask of another length, SentenceTooLarge-free: meant for sentences a person
// watches (it holds a dense chart: cells x symbols x 16 bytes).
ReplayTrace replayCky(const Grammar& g, std::span<const std::string> words,
                      const PruningMask* mask = nullptr);

// {"length", "pushes", "constituents", "spansKept", "success", "logProb", "cells": [{"step"
// (1-based), "span": [i,k], "pruned", "splitPoints", "splits": [j...], "lexicalPushes",
// "binaryPushes", "unaryPushes", "rootPushes", "pushes", "pushesSoFar", "constituents", "best" (the
// grammar's symbol or null), "bestLabel" (unbinarized), "bestScore", "bestSplit"}]}
// (docs/file-formats.md).
nlohmann::json replayToJson(const Grammar& g, const ReplayTrace& t);

} // namespace prunescope
