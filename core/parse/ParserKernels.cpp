// The split kernels (Alg. 1 lines 15-21): one split (i,j,k) streams, for each right child z built
// in (j,k), the items of the left cell's bucket z: cand = (left + right) + rule, offered to
// out[parent]. The vector kernels compute 8 or 16 candidates at once, gather the parents' current
// values and hand only the lanes that may improve (cand >= current, ~10% of the pushes) to the
// scalar offer(), in lane order; the other lanes cannot change anything, so every kernel leaves the
// same row. AVX2 and AVX-512 code is compiled for those targets function by function and only
// called when the CPU has them (ckyKernelSupported), so the binary runs on any x86-64.
#include "core/parse/ParserKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PRUNESCOPE_X86 1
#endif

namespace prunescope {

const char* ckyKernelName(CkyKernel k) {
    switch (k) {
    case CkyKernel::Auto:
        return "auto";
    case CkyKernel::Portable:
        return "portable";
    case CkyKernel::Avx2:
        return "avx2";
    case CkyKernel::Avx512:
        return "avx512";
    }
    return "?";
}

bool ckyKernelSupported(CkyKernel k) {
    switch (k) {
    case CkyKernel::Auto:
    case CkyKernel::Portable:
        return true;
#ifdef PRUNESCOPE_X86
    case CkyKernel::Avx2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi");
    case CkyKernel::Avx512:
        return __builtin_cpu_supports("avx512f") && ckyKernelSupported(CkyKernel::Avx2);
#else
    default:
        return false;
#endif
    }
    return false;
}

CkyKernel bestCkyKernel() {
    for (CkyKernel k : {CkyKernel::Avx512, CkyKernel::Avx2})
        if (ckyKernelSupported(k)) return k;
    return CkyKernel::Portable;
}

namespace cky {

long splitPortable(const Parser::Split& s) {
    long pushes = 0;
    const float* left = s.items.left;
    const float* logProb = s.items.logProb;
    const std::uint32_t* parent = s.items.parent;
    const std::uint32_t* rule = s.items.rule;
    for (int w = 0; w < s.rightWords; ++w)
        for (std::uint64_t m = s.rightBits[w]; m; m &= m - 1) {
            const int z = w * 64 + __builtin_ctzll(m);
            const std::uint32_t b = s.zBegin[z], e = s.zEnd[z];
            pushes += e - b;
            const float rz = s.rightRow[z];
            for (std::uint32_t q = b; q < e; ++q)
                offer(s.out, s.outW, s.preBits, parent[q], binaryEdgeScore(left[q], rz, logProb[q]),
                      s.split | rule[q]);
        }
    return pushes;
}

namespace {
// The direct pass and the item scatter over rule groups (Parser::LeftGroups): for each left symbol,
// the right children it has rules with that are also in `filter`, ascending (so rule-index order),
// each group found by the rank of its bit among the symbol's. Inlined into a portable and a
// BMI/POPCNT-compiled function (the AVX2 kernel set), so the right popcount is used on each CPU.
[[gnu::always_inline]] inline long directGroupedBody(const Parser::Direct& d) {
    long pushes = 0;
    const Parser::LeftGroups& g = d.groups;
    for (const ChartEntry* e = d.leftBegin; e != d.leftEnd; ++e) {
        const float ly = e->post;
        const std::uint64_t* own = g.rightBits + static_cast<std::size_t>(e->symbol) * g.rightWords;
        std::uint32_t group = g.groupBegin[e->symbol];
        for (int w = 0; w < g.rightWords; ++w) {
            const std::uint64_t o = own[w];
            for (std::uint64_t m = o & d.rightBits[w]; m; m &= m - 1) {
                const std::uint32_t gi =
                    group + static_cast<std::uint32_t>(__builtin_popcountll(o & ((m & -m) - 1)));
                const float rz = d.rightRow[w * 64 + __builtin_ctzll(m)];
                const std::uint32_t rb = g.groupRule[gi], re = g.groupRule[gi + 1];
                pushes += re - rb;
                for (std::uint32_t r = rb; r < re; ++r)
                    offer(d.out, d.outW, d.preBits, d.ruleParent[r],
                          binaryEdgeScore(ly, rz, d.ruleLogProb[r]), d.split | r);
            }
            group += static_cast<std::uint32_t>(__builtin_popcountll(o));
        }
    }
    return pushes;
}

[[gnu::always_inline]] inline std::uint32_t scatterGroupsBody(const Parser::ItemScatter& s) {
    // Locals, so the item stores cannot be taken to alias the pointers (no reloads per item).
    const std::uint64_t* const __restrict rightBits = s.groups.rightBits;
    const std::uint32_t* const __restrict groupBegin = s.groups.groupBegin;
    const std::uint32_t* const __restrict groupRule = s.groups.groupRule;
    const int words = s.groups.rightWords;
    const std::uint64_t* const __restrict needed = s.needed;
    const float* const __restrict ruleLogProb = s.ruleLogProb;
    const std::uint32_t* const __restrict ruleParent = s.ruleParent;
    float* const __restrict left = s.left;
    float* const __restrict logProb = s.logProb;
    std::uint32_t* const __restrict parent = s.parent;
    std::uint32_t* const __restrict rule = s.rule;
    std::uint32_t* const __restrict cursor = s.cursor;
    std::uint32_t* const __restrict zBegin = s.zBegin;
    // Counting pass: the size of each needed bucket, so the buckets are packed (the row's items
    // stay in L1/L2 instead of spreading over room for every rule).
    for (int z = 0; z < s.numRight; ++z)
        cursor[z] = 0;
    for (const ChartEntry* e = s.leftBegin; e != s.leftEnd; ++e) {
        const std::uint64_t* own = rightBits + static_cast<std::size_t>(e->symbol) * words;
        std::uint32_t group = groupBegin[e->symbol];
        for (int w = 0; w < words; ++w) {
            const std::uint64_t o = own[w];
            for (std::uint64_t m = o & needed[w]; m; m &= m - 1) {
                const std::uint32_t gi =
                    group + static_cast<std::uint32_t>(__builtin_popcountll(o & ((m & -m) - 1)));
                cursor[w * 64 + __builtin_ctzll(m)] += groupRule[gi + 1] - groupRule[gi];
            }
            group += static_cast<std::uint32_t>(__builtin_popcountll(o));
        }
    }
    std::uint32_t pos = s.pos;
    for (int z = 0; z < s.numRight; ++z) {
        const std::uint32_t count = cursor[z];
        zBegin[z] = cursor[z] = pos;
        pos += count;
    }
    for (const ChartEntry* e = s.leftBegin; e != s.leftEnd; ++e) {
        const float ly = e->post;
        const std::uint64_t* own = rightBits + static_cast<std::size_t>(e->symbol) * words;
        std::uint32_t group = groupBegin[e->symbol];
        for (int w = 0; w < words; ++w) {
            const std::uint64_t o = own[w];
            for (std::uint64_t m = o & needed[w]; m; m &= m - 1) {
                const std::uint32_t gi =
                    group + static_cast<std::uint32_t>(__builtin_popcountll(o & ((m & -m) - 1)));
                const int z = w * 64 + __builtin_ctzll(m);
                std::uint32_t at = cursor[z];
                for (std::uint32_t r = groupRule[gi], re = groupRule[gi + 1]; r < re; ++r, ++at) {
                    left[at] = ly;
                    logProb[at] = ruleLogProb[r];
                    parent[at] = ruleParent[r];
                    rule[at] = r;
                }
                cursor[z] = at;
            }
            group += static_cast<std::uint32_t>(__builtin_popcountll(o));
        }
    }
    return pos;
}
} // namespace

long directPortable(const Parser::Direct& d) {
    return directGroupedBody(d);
}
std::uint32_t scatterItemsPortable(const Parser::ItemScatter& s) {
    return scatterGroupsBody(s);
}

#ifdef PRUNESCOPE_X86
namespace {
// Lanes that passed the vector filter (cand >= out[parent] when gathered), kept in lane order and
// offered afterwards: the filter has no data-dependent branch, so the long gather latency never
// sits on a mispredicted path. out[] only grows, so a stale gather can only let more lanes through,
// never fewer, and offer() re-checks each; the result does not depend on when lanes are offered.
constexpr int kPassedCapacity = 512;
struct Passed {
    alignas(64) float cand[kPassedCapacity + 16];
    alignas(64) std::uint32_t item[kPassedCapacity + 16];
    int count = 0;
    void flush(const std::uint32_t* parent, const std::uint32_t* rule, float* out,
               std::uint32_t* outW, std::uint64_t* preBits, std::uint32_t split) {
        for (int t = 0; t < count; ++t) {
            const std::uint32_t q = item[t];
            offer(out, outW, preBits, parent[q], cand[t], split | rule[q]);
        }
        count = 0;
    }
    void flush(const Parser::Split& s) {
        flush(s.items.parent, s.items.rule, s.out, s.outW, s.preBits, s.split);
    }
};

// For each set bit l of an 8-bit mask, in order: the lane index l (AVX2 has no compress).
struct CompressTable {
    alignas(64) std::uint64_t lanes[256];
    CompressTable() {
        for (unsigned m = 0; m < 256; ++m) {
            std::uint64_t v = 0;
            int at = 0;
            for (unsigned l = 0; l < 8; ++l)
                if (m & (1u << l)) v |= static_cast<std::uint64_t>(l) << (8 * at++);
            lanes[m] = v;
        }
    }
};
const CompressTable kCompress;
} // namespace

__attribute__((target("avx2,bmi,popcnt"))) long directAvx2(const Parser::Direct& d) {
    return directGroupedBody(d);
}
__attribute__((target("avx2,bmi,popcnt"))) std::uint32_t
scatterItemsAvx2(const Parser::ItemScatter& s) {
    return scatterGroupsBody(s);
}

__attribute__((target("avx2,bmi,popcnt"))) long splitAvx2(const Parser::Split& s) {
    long pushes = 0;
    Passed passed;
    const float* left = s.items.left;
    const float* logProb = s.items.logProb;
    const std::uint32_t* parent = s.items.parent;
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int w = 0; w < s.rightWords; ++w)
        for (std::uint64_t m = s.rightBits[w]; m; m &= m - 1) {
            const int z = w * 64 + static_cast<int>(_tzcnt_u64(m));
            const std::uint32_t b = s.zBegin[z], e = s.zEnd[z];
            pushes += e - b;
            const __m256 rz = _mm256_set1_ps(s.rightRow[z]);
            for (std::uint32_t q = b; q < e; q += 8) {
                // (left + right) + rule, as binaryEdgeScore; lanes past e read slack and are
                // masked.
                const __m256 cand = _mm256_add_ps(_mm256_add_ps(_mm256_loadu_ps(left + q), rz),
                                                  _mm256_loadu_ps(logProb + q));
                const __m256i p = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(parent + q));
                const __m256 old = _mm256_i32gather_ps(s.out, p, 4);
                unsigned up =
                    static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(cand, old, _CMP_GE_OQ)));
                if (e - q < 8) up &= (1u << (e - q)) - 1;
                const __m256i perm = _mm256_cvtepu8_epi32(
                    _mm_cvtsi64_si128(static_cast<long long>(kCompress.lanes[up])));
                _mm256_storeu_ps(passed.cand + passed.count, _mm256_permutevar8x32_ps(cand, perm));
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(passed.item + passed.count),
                                    _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(q)), perm));
                passed.count += _mm_popcnt_u32(up);
                if (passed.count > kPassedCapacity - 8) passed.flush(s);
            }
        }
    (void)iota;
    passed.flush(s);
    return pushes;
}

__attribute__((target("avx512f,avx2,bmi,popcnt"))) long splitAvx512(const Parser::Split& s) {
    long pushes = 0;
    Passed passed;
    const float* left = s.items.left;
    const float* logProb = s.items.logProb;
    const std::uint32_t* parent = s.items.parent;
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (int w = 0; w < s.rightWords; ++w)
        for (std::uint64_t m = s.rightBits[w]; m; m &= m - 1) {
            const int z = w * 64 + static_cast<int>(_tzcnt_u64(m));
            const std::uint32_t b = s.zBegin[z], e = s.zEnd[z];
            pushes += e - b;
            const __m512 rz = _mm512_set1_ps(s.rightRow[z]);
            for (std::uint32_t q = b; q < e; q += 16) {
                const __m512 cand = _mm512_add_ps(_mm512_add_ps(_mm512_loadu_ps(left + q), rz),
                                                  _mm512_loadu_ps(logProb + q));
                const __m512i p = _mm512_loadu_si512(parent + q);
                const __mmask16 lanes =
                    e - q >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (e - q)) - 1);
                const __m512 old =
                    _mm512_mask_i32gather_ps(_mm512_setzero_ps(), lanes, p, s.out, 4);
                const __mmask16 up = _mm512_mask_cmp_ps_mask(lanes, cand, old, _CMP_GE_OQ);
                _mm512_storeu_ps(passed.cand + passed.count, _mm512_maskz_compress_ps(up, cand));
                _mm512_storeu_si512(
                    passed.item + passed.count,
                    _mm512_maskz_compress_epi32(
                        up, _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(q)), iota)));
                passed.count += _mm_popcnt_u32(up);
                if (passed.count > kPassedCapacity - 16) passed.flush(s);
            }
        }
    passed.flush(s);
    return pushes;
}
// The direct pass, 16 rules of a left symbol at a time: the right child's score is gathered from
// the right cell's dense row (-inf where not built: those lanes are not pushes).
__attribute__((target("avx512f,avx2,bmi,popcnt"))) long directAvx512(const Parser::Direct& d) {
    long pushes = 0;
    Passed passed;
    const __m512 negInf = _mm512_set1_ps(kNegInf);
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (const ChartEntry* e = d.leftBegin; e != d.leftEnd; ++e) {
        const __m512 ly = _mm512_set1_ps(e->post);
        const std::uint32_t end = d.leftRulesBegin[e->symbol + 1];
        for (std::uint32_t q = d.leftRulesBegin[e->symbol]; q < end; q += 16) {
            const __mmask16 lanes =
                end - q >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (end - q)) - 1);
            const __m512i z = _mm512_maskz_loadu_epi32(lanes, d.ruleRightId + q);
            const __m512 rz = _mm512_mask_i32gather_ps(negInf, lanes, z, d.rightRow, 4);
            const __mmask16 valid = _mm512_mask_cmp_ps_mask(lanes, rz, negInf, _CMP_NEQ_OQ);
            const __m512 cand = _mm512_add_ps(_mm512_add_ps(ly, rz),
                                              _mm512_maskz_loadu_ps(lanes, d.ruleLogProb + q));
            const __m512i p = _mm512_maskz_loadu_epi32(lanes, d.ruleParent + q);
            const __m512 old = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), valid, p, d.out, 4);
            const __mmask16 up = _mm512_mask_cmp_ps_mask(valid, cand, old, _CMP_GE_OQ);
            pushes += _mm_popcnt_u32(valid);
            _mm512_storeu_ps(passed.cand + passed.count, _mm512_maskz_compress_ps(up, cand));
            _mm512_storeu_si512(
                passed.item + passed.count,
                _mm512_maskz_compress_epi32(
                    up, _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(q)), iota)));
            passed.count += _mm_popcnt_u32(up);
            if (passed.count > kPassedCapacity - 16)
                passed.flush(d.ruleParent, d.ruleIndex, d.out, d.outW, d.preBits, d.split);
        }
    }
    passed.flush(d.ruleParent, d.ruleIndex, d.out, d.outW, d.preBits, d.split);
    return pushes;
}

__attribute__((target("avx512f,avx2,bmi,popcnt"))) std::uint32_t
buildItemsAvx512(const Parser::ItemBuild& b) {
    std::uint32_t pos = b.pos;
    const __m512 negInf = _mm512_set1_ps(kNegInf);
    for (int z = 0; z < b.numRight; ++z) {
        b.zBegin[z] = pos;
        if ((b.needed[z >> 6] >> (z & 63)) & 1) {
            const std::uint32_t end = b.byRightBegin[z + 1];
            for (std::uint32_t q = b.byRightBegin[z]; q < end; q += 16) {
                const __mmask16 lanes =
                    end - q >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (end - q)) - 1);
                const __m512i y = _mm512_maskz_loadu_epi32(lanes, b.byRightLeft + q);
                const __m512 l = _mm512_mask_i32gather_ps(negInf, lanes, y, b.leftDense, 4);
                const __mmask16 built = _mm512_mask_cmp_ps_mask(lanes, l, negInf, _CMP_NEQ_OQ);
                _mm512_storeu_ps(b.left + pos, _mm512_maskz_compress_ps(built, l));
                _mm512_storeu_ps(b.logProb + pos,
                                 _mm512_maskz_compress_ps(
                                     built, _mm512_maskz_loadu_ps(lanes, b.byRightLogProb + q)));
                _mm512_storeu_si512(b.parent + pos, _mm512_maskz_compress_epi32(
                                                        built, _mm512_maskz_loadu_epi32(
                                                                   lanes, b.byRightParent + q)));
                _mm512_storeu_si512(b.rule + pos,
                                    _mm512_maskz_compress_epi32(
                                        built, _mm512_maskz_loadu_epi32(lanes, b.byRightRule + q)));
                pos += static_cast<std::uint32_t>(_mm_popcnt_u32(built));
            }
        }
        b.zEnd[z] = pos;
    }
    return pos;
}
#else
long directAvx2(const Parser::Direct& d) {
    return directPortable(d);
}
std::uint32_t scatterItemsAvx2(const Parser::ItemScatter& s) {
    return scatterItemsPortable(s);
}
long directAvx512(const Parser::Direct& d) {
    return directPortable(d);
}
std::uint32_t buildItemsAvx512(const Parser::ItemBuild& b) {
    return b.pos;
}
long splitAvx2(const Parser::Split& s) {
    return splitPortable(s);
}
long splitAvx512(const Parser::Split& s) {
    return splitPortable(s);
}
#endif

Parser::DirectKernel directKernel(CkyKernel k) {
    switch (k) {
    case CkyKernel::Avx512:
        return directAvx512;
    case CkyKernel::Avx2:
        return directAvx2;
    default:
        return directPortable;
    }
}

Parser::ItemScatterKernel itemScatterKernel(CkyKernel k) {
    return k == CkyKernel::Avx2 || k == CkyKernel::Avx512 ? scatterItemsAvx2 : scatterItemsPortable;
}

Parser::SplitKernel splitKernel(CkyKernel k) {
    switch (k) {
    case CkyKernel::Avx512:
        return splitAvx512;
    case CkyKernel::Avx2:
        return splitAvx2;
    default:
        return splitPortable;
    }
}

} // namespace cky
} // namespace prunescope
