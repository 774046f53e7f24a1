#pragma once
// UTF-8 validation for readers that report bad bytes as InputError with a column.
#include <cstddef>
#include <string_view>

namespace prunescope {

// Byte offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlongs,
// no surrogates, at most U+10FFFF), or std::string_view::npos.
std::size_t invalidUtf8At(std::string_view s);

} // namespace prunescope
