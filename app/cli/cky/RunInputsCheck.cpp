// Run integrity for readers of LOLS runs (RunInputsCheck.h).
#include "app/cli/cky/RunInputsCheck.h"

#include "core/lols/RunConfig.h"
#include "core/lols/RunFingerprint.h"
#include "core/util/AtomicFile.h"
#include "core/util/Error.h"

#include <filesystem>
#include <iostream>

namespace prunescope::cli {

void checkRunInputs(const std::string& runDir, const nlohmann::json& config, bool refuse) {
    const std::string path = (std::filesystem::path(runDir) / "config.json").string();
    if (!config.contains("fingerprint")) {
        std::cerr << "warning: " << path
                  << ": no fingerprint (a run from before it): its inputs cannot be checked\n";
        return;
    }
    FingerprintCheck fp;
    try {
        fp = checkRunFingerprint(config, runInputFilesFingerprint(config));
    } catch (const std::exception& e) {
        std::cerr << "warning: " << path << ": the run's inputs cannot be checked: " << e.what()
                  << "\n";
        return;
    }
    if (fp.changes.empty()) return;
    if (refuse) {
        const auto [line, column] = runConfigLocation(readFile(path), "fingerprint");
        throw InputError(path, line, column,
                         fp.message() + "; its numbers describe the old inputs (refused)");
    }
    std::cerr << "warning: " << path << ": " << fp.message()
              << "; the curves describe the inputs the run was trained on\n";
}

} // namespace prunescope::cli
