#include "app/cli/Options.h"

#include <sstream>

#include <unistd.h>

namespace prunescope::cli {

void noteDeprecatedFlag(const std::string& oldName, const std::string& newName) {
    // For the person at a terminal only: scripts, logs and the acceptance checks of earlier issues
    // that pinned the old spellings see exactly the output they saw before.
    if (isatty(STDERR_FILENO) == 0) return;
    std::cerr << "note: " << oldName << " is deprecated; use " << newName << " (it still works)\n";
}

CLI::Option* addOutJsonOption(CLI::App* sub, std::string& file, bool jsonTookAFile) {
    if (jsonTookAFile) addDeprecatedAliases(sub, file, "--out-json", {"--json"});
    return sub->add_option("--out-json", file, "Also write the numbers to this JSON file");
}

std::vector<std::string> splitFlagList(const std::string& value) {
    std::vector<std::string> out;
    std::stringstream ss(value);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

} // namespace prunescope::cli
