#pragma once
// Run integrity for the commands that read a finished LOLS run (core/lols/RunFingerprint.h):
// lols-plot and frontier-best --run compare the grammar and treebank files and the settings with
// the fingerprint config.json recorded when the run started.
#include <nlohmann/json.hpp>

#include <string>

namespace prunescope::cli {

// Prints "warning: DIR/config.json: ..." on stderr when the run has no fingerprint (a run from
// before it) or its inputs cannot be read to check. When they changed: throws InputError at the
// config's "fingerprint" if `refuse` (the run's numbers would be paired with other data), else
// prints a warning naming the changes.
void checkRunInputs(const std::string& runDir, const nlohmann::json& config, bool refuse);

} // namespace prunescope::cli
