#pragma once
// A content digest for telling whether a file changed (LOLS run fingerprints, docs/lols.md):
// MurmurHash3 x64_128 (libmurmurhash) over 1 MiB chunks, chained, as 32 hex digits. Not a
// cryptographic hash: it detects edits and truncation, not an adversary.
#include <string>
#include <string_view>

namespace prunescope {

std::string contentHash(std::string_view bytes);

} // namespace prunescope
