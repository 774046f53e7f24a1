#pragma once
// Locations of the shared treebank sample and the repo for tests.
#include <string>

#include <cstddef>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PRUNESCOPE_TEST_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PRUNESCOPE_TEST_UNDER_SANITIZER 1
#endif
#endif

namespace prunescope::testdata {
// True in an ASan or TSan build. The heaviest equivalence suites (naive vs fast on hundreds of
// sentences) then check every 4th sentence: the sanitizer run looks for memory and thread errors
// on the same code paths, the Release run checks the full sample (docs/reliability.md, "CI").
#ifdef PRUNESCOPE_TEST_UNDER_SANITIZER
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif
// The step of those checks: every element, or every 4th under a sanitizer.
inline constexpr std::size_t kSanitizerStride = kUnderSanitizer ? 4 : 1;
// v itself, or every 4th element of v (from the first) under a sanitizer.
template <class T> std::vector<T> sanitizerSubset(std::vector<T> v) {
    if (!kUnderSanitizer) return v;
    std::vector<T> out;
    for (std::size_t i = 0; i < v.size(); i += kSanitizerStride)
        out.push_back(std::move(v[i]));
    return out;
}

// ../shared/data (or $PRUNESCOPE_DATA_DIR if set).
std::string dataDir();
std::string ptbDir(const std::string& split); // "train", "dev", "test"
std::string depDir(const std::string& split);
std::string sourceDir();
std::string samplePath(const std::string& relative); // <repo>/samples/<relative>
std::string binaryDir();
// A fresh temporary directory (under the system's temp path) for one test, removed with its
// contents when the test process exits (as a QTemporaryDir would be at the end of its scope).
std::string tempDir(const std::string& tag);
} // namespace prunescope::testdata
