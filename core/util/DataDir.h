#pragma once
// The one environment variable that names the data folder (the folder holding ptb-sample/ and
// dep-sample/; docs/user-guide.md "Data folder"): PRUNESCOPE_DATA_DIR. The older name
// PRUNESCOPE_DATA (read by the frontier window before) is still accepted, with a deprecation
// warning on stderr, when PRUNESCOPE_DATA_DIR is unset or empty.
#include <ostream>
#include <string>

namespace prunescope {

inline constexpr const char* kDataDirVariable = "PRUNESCOPE_DATA_DIR";
inline constexpr const char* kDeprecatedDataDirVariable = "PRUNESCOPE_DATA";

// The data folder named by the environment, or "" when neither variable is set. `warnings`
// receives the deprecation message (at most once per process when it is std::cerr's default).
std::string dataDirFromEnvironment(std::ostream* warnings = nullptr);

} // namespace prunescope
