#include "support/TestData.h"

#include <cstdlib>
#include <filesystem>
#include <random>

namespace prunescope::testdata {
std::string dataDir() {
    if (const char* env = std::getenv("PRUNESCOPE_DATA_DIR"); env && *env) return env;
    return PRUNESCOPE_DATA_DIR;
}
std::string ptbDir(const std::string& split) { return dataDir() + "/ptb-sample/" + split; }
std::string depDir(const std::string& split) { return dataDir() + "/dep-sample/" + split; }
std::string sourceDir() { return PRUNESCOPE_SOURCE_DIR; }
std::string binaryDir() { return PRUNESCOPE_BINARY_DIR; }
std::string tempDir(const std::string& tag) {
    std::random_device rd;
    auto p = std::filesystem::temp_directory_path() /
             ("prunescope-" + tag + "-" + std::to_string(rd()));
    std::filesystem::create_directories(p);
    return p.string();
}
} // namespace prunescope::testdata
