#pragma once
// The ideal inner loop of weighted CKY (Alg. 1 line 19) on a grammar's real binary rules, as a
// microbenchmark: how many pushes per second this CPU can do when nothing but the push itself
// costs anything, so that the parser's throughput can be read as a fraction of the hardware limit
// on any machine (`prunescope-cli bench-parse --ideal`; docs/benchmarks.md, "Ideal inner loop").
//
// Setup: a sentence is parsed, and the pushes of every m-th of its cells (about kIdealPushes
// pushes: the sentence's mix of widths; every split, in the parser's order) are written out as flat
// arrays: left score, right score, rule log-probability, parent, witness. About 1 MiB: L2-resident.
// Each loop rebuilds those cells' pre rows from these arrays, again and again:
//   withWitness    — cand = (left + right) + rule; if cand > out[x]: out[x] = cand, witness[x] = w.
//                    No lookups, no bucketing, no bookkeeping: the limit the parser is held to.
//   withoutWitness — out[x] = max(out[x], cand): no back-pointer, no branch.
//   parserKernel   — the parser's own split kernel over the same splits (its items and right rows
//                    rebuilt for them), i.e. the inner loop with the lookups it needs.
// The improvement rate (pushes that raise out[x]) is the real one of those cells.
#include "core/grammar/Grammar.h"
#include "core/parse/Parser.h"

#include <span>
#include <string>

namespace prunescope {

constexpr long kIdealPushes = 50000;

struct IdealLoopResult {
    double withWitnessMpushPerSecond = 0;
    double withoutWitnessMpushPerSecond = 0;
    double kernelMpushPerSecond = 0;
    long pushes = 0; // pushes per pass over the cells
    int cells = 0;
    double improvementRate = 0; // share of the pushes that improved out[x] (withWitness)
    // Whether the witness loop and the kernel rebuild exactly the parser's pre rows of those cells
    // (scores bit for bit; the kernel's witnesses too): the loops time the parser's own work.
    bool rowsMatchParser = false;
};

// Runs each loop for about `seconds` of thread CPU time (best of three rounds). words: a sentence
// the grammar parses (bench-parse takes the longest one); throws std::invalid_argument if empty.
IdealLoopResult measureIdealLoop(const Grammar& g, std::span<const std::string> words,
                                 CkyKernel kernel, double seconds = 0.6);

} // namespace prunescope
