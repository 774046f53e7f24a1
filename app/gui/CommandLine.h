#pragma once
// Non-interactive modes of the prunescope executable: offscreen screenshots for the user guide
// (scripts/screenshots.sh) and the click-to-repaint latency benchmark (docs/benchmarks.md).
#include <QStringList>

namespace prunescope::gui {

// Runs the mode selected by the arguments (--screenshot, --benchmark-latency) and returns its exit
// code, or -1 when no such mode was requested (then the normal window should start and open
// `files`, the positional arguments).
int runCommandLineMode(const QStringList& args, QStringList* files);

struct LatencyStats {
    int flips = 0;
    double median = 0, p90 = 0, max = 0, mean = 0;  // milliseconds
    double sentences = 0;
};
// Click-to-repainted latency (instant mode): a mouse press on a random prunable cell, then a
// synchronous repaint of the whole window. Sentences of exactly `length` words from `treebank`.
LatencyStats benchmarkFlipLatency(const QString& treebank, int length, int flips, unsigned seed);

} // namespace prunescope::gui
