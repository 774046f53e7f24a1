#pragma once
// Bit sets as plain arrays of 64-bit words (one per cell of a chart, over the grammar's symbols).
#include <bit>
#include <cstddef>
#include <cstdint>

namespace prunescope::bits {

inline bool test(const std::uint64_t* bits, std::uint32_t x) {
    return (bits[x >> 6] >> (x & 63)) & 1u;
}
inline void set(std::uint64_t* bits, std::uint32_t x) {
    bits[x >> 6] |= std::uint64_t{1} << (x & 63);
}
// body(x) for every set bit x of bits[0, words), ascending.
template <class F> void forEach(const std::uint64_t* bits, std::size_t words, F&& body) {
    for (std::size_t w = 0; w < words; ++w)
        for (std::uint64_t b = bits[w]; b != 0; b &= b - 1)
            body(static_cast<std::uint32_t>(w * 64 + std::countr_zero(b)));
}

} // namespace prunescope::bits
