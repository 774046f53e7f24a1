// Progress lines on stderr for the CLI.
#include "app/cli/ConsoleProgress.h"

#include <cstdio>
#include <memory>
#include <string>

namespace prunescope::cli {

Progress consoleProgress(bool quiet) {
    if (quiet) return Progress{};
    auto lastPhase = std::make_shared<std::string>();
    return Progress(
        [lastPhase](const ProgressUpdate& u) {
            if (!lastPhase->empty() && *lastPhase != u.phase) std::fputc('\n', stderr);
            *lastPhase = u.phase;
            std::string line = "\r" + u.phase;
            if (u.step >= 0) line += "  step " + std::to_string(u.step + 1) + (u.steps > 0 ? "/" + std::to_string(u.steps) : "");
            line += "  " + std::to_string(u.done);
            if (u.total > 0) line += "/" + std::to_string(u.total) + "  " + std::to_string(static_cast<int>(100 * u.fraction())) + "%";
            if (u.cancelling) line += "  cancelling";
            line += "   ";
            std::fputs(line.c_str(), stderr);
            if (u.total > 0 && u.done >= u.total) {
                std::fputc('\n', stderr);
                lastPhase->clear();
            }
            std::fflush(stderr);
        },
        std::chrono::milliseconds(200));
}

} // namespace prunescope::cli
