#pragma once
// Locations of the shared treebank sample and the repo for tests.
#include <string>

namespace prunescope::testdata {
// ../shared/data (or $PRUNESCOPE_DATA_DIR if set).
std::string dataDir();
std::string ptbDir(const std::string& split);  // "train", "dev", "test"
std::string depDir(const std::string& split);
std::string sourceDir();
std::string binaryDir();
// A fresh temporary directory (under the system's temp path) for one test, removed with its
// contents when the test process exits (as a QTemporaryDir would be at the end of its scope).
std::string tempDir(const std::string& tag);
} // namespace prunescope::testdata
