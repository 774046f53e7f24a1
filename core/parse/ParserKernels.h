#pragma once
// The split kernels of the CKY (Alg. 1 lines 15-21) and what they share with the rest of the
// parser. Internal to core/parse: Parser.cpp and the ideal-loop benchmark (CkyIdealLoop.cpp).
#include "core/parse/Chart.h"
#include "core/parse/Parser.h"

#include <cstdint>

namespace prunescope::cky {

// Offers a binary hyperedge to parent p of the cell: out[p] = max(out[p], cand), keeping the
// smaller packed witness on an exact tie, i.e. the first maximum in (split, rule index) order
// whatever order the pushes come in; p is then built. Improvements are rare, so the outer test is a
// predicted branch.
inline void offer(float* out, std::uint32_t* outW, std::uint64_t* pb, std::uint32_t p, float cand,
                  std::uint32_t witness) {
    if (cand >= out[p]) [[unlikely]] {
        if (cand > out[p] || witness < outW[p]) {
            out[p] = cand;
            outW[p] = witness;
            pb[p >> 6] |= std::uint64_t{1} << (p & 63);
        }
    }
}

// Item arrays are read up to this many entries past a bucket's end (vector loads); the parser keeps
// that much initialized slack after its items.
constexpr std::uint32_t kItemSlack = 16;

// Building a left cell's items from the rules with each needed right child (ItemBuild) by filtering
// those rule lists with the cell's dense scores: AVX-512 only (vector compress); other CPUs bucket
// the cell's own rules instead (Parser::cellItems).
std::uint32_t buildItemsAvx512(const Parser::ItemBuild& b);

long directPortable(const Parser::Direct& d);
long directAvx2(const Parser::Direct& d);   // only where ckyKernelSupported(CkyKernel::Avx2)
long directAvx512(const Parser::Direct& d); // only where ckyKernelSupported(CkyKernel::Avx512)
Parser::DirectKernel directKernel(CkyKernel k);

// The item scatter of the portable and AVX2 kernel sets (Parser::ItemScatter).
std::uint32_t scatterItemsPortable(const Parser::ItemScatter& s);
std::uint32_t
scatterItemsAvx2(const Parser::ItemScatter& s); // only where ckyKernelSupported(CkyKernel::Avx2)
Parser::ItemScatterKernel itemScatterKernel(CkyKernel k);

long splitPortable(const Parser::Split& s);
long splitAvx2(const Parser::Split& s);   // only where ckyKernelSupported(CkyKernel::Avx2)
long splitAvx512(const Parser::Split& s); // only where ckyKernelSupported(CkyKernel::Avx512)
Parser::SplitKernel splitKernel(CkyKernel k);

} // namespace prunescope::cky
