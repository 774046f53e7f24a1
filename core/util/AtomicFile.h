#pragma once
// Whole-file reads and crash-safe whole-file writes (temp file in the same directory, fsync, rename).
#include <string>

namespace prunescope {

// Writes contents to path atomically: readers see either the old file or the complete new one.
// Throws InputError(path, ...) if the file cannot be written.
void writeFileAtomically(const std::string& path, const std::string& contents);

// The whole file as bytes. Throws InputError(path, ...) if it is missing or unreadable.
std::string readFile(const std::string& path);

} // namespace prunescope
