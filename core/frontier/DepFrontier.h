#pragma once
// One speed/accuracy frontier of dependency parsers (Rush & Petrov 2012 sec. 6's plot; Cherry &
// Bergsma 2011 sec. 5's parsers behind each filter): UAS against tokens/s, one series per pruning
// method, each labelled with the final model it ran, and each model's exhaustive parser as a
// reference point. Built from vine-frontier JSON and dep-eval --json outputs
// (DepFrontierInputs.h), drawn by DepFrontierSvg.h and the GUI's DepFrontierPlot, and saved as the
// combined "prunescope-dep-frontier" JSON (docs/file-formats.md).
#include <string>
#include <vector>

namespace prunescope {

struct DepFrontierPoint {
    std::string label; // "α=0.6", "b=3", "joint"
    double uas = 0;    // no punctuation, %
    double tokensPerSecond = 0;
    double arcsKept = -1; // share of n² arcs reaching the first exact stage; < 0 = unknown
    bool chosen = false;  // the dev-chosen operating point (ringed)
};

enum class DepFrontierStyle {
    Sweep,     // points joined by a line in tokens/s order (an alpha or band sweep)
    Points,    // separate systems (filters), markers only
    Reference, // exhaustive parsers (squares)
};

struct DepFrontierSeries {
    std::string name;   // "vine cascade (alpha sweep)"
    std::string model;  // the final model the points ran ("model-o2.json (order 2)")
    std::string colour; // "#1f77b4"
    DepFrontierStyle style = DepFrontierStyle::Points;
    std::vector<DepFrontierPoint> points;
};

struct DepFrontier {
    std::string title;
    std::vector<DepFrontierSeries> series;
    bool arcsPanel = false; // SVG: a second panel of UAS against arcs kept
    bool zoomPanel =
        false; // SVG: a panel of the top UAS range (from the lowest exhaustive reference - 1.5)
    bool paretoLine =
        false; // SVG: the Pareto line over all points (only when one model ran them all)
    std::vector<std::string> sources; // the input files (recorded in the combined JSON)
};

std::string depFrontierStyleName(DepFrontierStyle s); // "sweep", "points", "reference"

// The combined JSON (format "prunescope-dep-frontier", version 1).
std::string depFrontierJson(const DepFrontier& f);
// Throws InputError(file:line:column) on a bad document (wrong format, missing keys, bad values).
DepFrontier parseDepFrontierJson(const std::string& text, const std::string& file);
DepFrontier loadDepFrontier(const std::string& path);
void saveDepFrontier(const DepFrontier& f, const std::string& path); // atomic

// The colour of series i in the default palette.
std::string depFrontierColour(std::size_t i);

} // namespace prunescope
