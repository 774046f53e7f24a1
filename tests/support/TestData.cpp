#include "support/TestData.h"

#include "core/util/DataDir.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <random>
#include <vector>

namespace prunescope::testdata {
namespace {
// Every directory tempDir made, removed (with its contents) when the test process exits.
struct TempDirs {
    std::mutex mutex;
    std::vector<std::filesystem::path> dirs;
    ~TempDirs() {
        for (const auto& d : dirs) {
            std::error_code ec;
            std::filesystem::remove_all(d, ec);
        }
    }
};
TempDirs& tempDirs() {
    static TempDirs t;
    return t;
}
} // namespace

std::string dataDir() {
    if (std::string env = dataDirFromEnvironment(); !env.empty()) return env;
    return PRUNESCOPE_DATA_DIR;
}
std::string ptbDir(const std::string& split) {
    return dataDir() + "/ptb-sample/" + split;
}
std::string depDir(const std::string& split) {
    return dataDir() + "/dep-sample/" + split;
}
std::string sourceDir() {
    return PRUNESCOPE_SOURCE_DIR;
}
std::string samplePath(const std::string& relative) {
    return sourceDir() + "/samples/" + relative;
}
std::string binaryDir() {
    return PRUNESCOPE_BINARY_DIR;
}
std::string tempDir(const std::string& tag) {
    std::random_device rd;
    auto p =
        std::filesystem::temp_directory_path() / ("prunescope-" + tag + "-" + std::to_string(rd()));
    std::filesystem::create_directories(p);
    std::lock_guard lock(tempDirs().mutex);
    tempDirs().dirs.push_back(p);
    return p.string();
}
} // namespace prunescope::testdata
