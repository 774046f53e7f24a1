#pragma once
// The command line of the prunescope executable (all of it is listed by `prunescope --help`): the
// files to open, and the non-interactive modes: offscreen screenshots of the explorer and of the
// frontier/regret windows for the user guide (scripts/screenshots.sh), the click-to-repaint
// latency benchmark and the event-loop stall benchmark of a background LOLS run
// (docs/benchmarks.md).
#include <QStringList>

class QCommandLineParser;

namespace prunescope::gui {

// Runs the mode selected by the arguments (--screenshot, --benchmark-latency,
// --screenshot-frontier, --bench-training-stall) and returns its exit code, or -1 when no such
// mode was requested (then the normal window should start and open `files`, the positional
// arguments).
int runCommandLineMode(const QStringList& args, QStringList* files);

class MainWindow;
// The dependency view's options (DepCommandLine.cpp): --screenshot-dep renders it offscreen;
// --dep/--dep-model open the main window in dependency mode (false if neither is given).
int runDepScreenshot(const QCommandLineParser& cl);
int runDepFrontierScreenshot(const QCommandLineParser& cl); // DepCommandLine.cpp
bool startInDependencyMode(MainWindow& w, const QCommandLineParser& cl);
// The options of every mode (runCommandLineMode's parser), for main() to read --dep.
void addCommandLineOptions(QCommandLineParser& cl);

// The frontier window's modes (FrontierCommandLine.cpp), given the parsed command line.
int runFrontierScreenshots(const QCommandLineParser& cl);
int runFrontierOpenBenchmark(const QCommandLineParser& cl); // --bench-frontier-open
int runTrainingStallBenchmark(const QCommandLineParser& cl);

struct LatencyStats {
    int flips = 0;
    double median = 0, p90 = 0, max = 0, mean = 0; // milliseconds
    double sentences = 0;
};
// Click-to-repainted latency (instant mode): a mouse press on a random prunable cell, then the next
// frame (the posted layout and update requests: the regions the click invalidated), or with
// `fullRepaint` a synchronous repaint of the whole window. Sentences of exactly `length` words.
LatencyStats benchmarkFlipLatency(const QString& treebank, int length, int flips, unsigned seed,
                                  bool fullRepaint = false);

} // namespace prunescope::gui
