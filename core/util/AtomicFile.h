#pragma once
// Whole-file reads and crash-safe whole-file writes (temp file in the same directory, fsync,
// rename), plus the checks that keep a command from destroying its own inputs.
#include <string>
#include <vector>

namespace prunescope {

// Writes contents to path atomically: readers see either the old file or the complete new one.
// An existing file keeps its permission bits (a new one gets 0666 minus the umask). A symbolic
// link is written through: the file it points to is replaced and the link stays a link.
// Every write, the fsync, the close and the rename are checked; on failure the temporary file is
// removed and InputError(path, ...) says why (e.g. "No space left on device").
void writeFileAtomically(const std::string& path, const std::string& contents);

// The whole file as bytes. Throws InputError(path, ...) if it is missing or unreadable.
std::string readFile(const std::string& path);

// Removes the temporary files ".NAME.tmp.XXXXXX" that writeFileAtomically leaves behind when the
// process is killed mid-write; returns how many were removed. Missing dir: 0.
int removeStaleTemporaries(const std::string& dir);

// Throws InputError(output, 0, 0, ...) if writing `output` would overwrite one of `inputs`: the
// same file (also through a link), or a .mrg file inside an input directory.
void refuseToOverwriteInput(const std::string& output, const std::vector<std::string>& inputs);

} // namespace prunescope
