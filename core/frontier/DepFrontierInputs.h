#pragma once
// A DepFrontier from the files the commands already write: the vine-frontier JSON (Rush & Petrov
// 2012 sec. 6: the cascade's alpha sweep, the length-only vine's band sweep, the exhaustive
// parsers) and dep-eval --json outputs (Cherry & Bergsma 2011 sec. 5: first- and second-order
// parsing behind each arc filter). Every series names the final model that ran it; dep-eval runs
// are grouped by model, and each model must come with its own exhaustive run (no pruning stages),
// drawn as that series' reference. Every error names the file and the value's line:column.
#include "core/frontier/DepFrontier.h"

#include <string>
#include <utility>
#include <vector>

namespace prunescope {

struct DepEvalInput {
    std::string name; // the point's label ("joint")
    std::string path; // a dep-eval --json output
};

// "NAME=FILE" -> {NAME, FILE}; throws InputError("--eval", ...) without '=' or with an empty side.
DepEvalInput parseDepEvalSpec(const std::string& spec);

// Appends the vine-frontier JSON's series: alpha sweep, length-only vine, exhaustive references.
void addVineFrontierSeries(DepFrontier& f, const std::string& path);
// Appends one "pruned" series and one exhaustive reference series per final model of the runs.
void addDepEvalSeries(DepFrontier& f, const std::vector<DepEvalInput>& runs);

// The GUI's "Open Dependency Frontier…": one combined dep-frontier JSON, or any mix of
// vine-frontier JSON and dep-eval --json files (a dep-eval point is named after its file).
DepFrontier loadDepFrontierFiles(const std::vector<std::string>& paths);

} // namespace prunescope
