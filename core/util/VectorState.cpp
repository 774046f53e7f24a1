// Clearing and reading the upper vector-register state (VectorState.h).
#include "core/util/VectorState.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace prunescope {

#if defined(__x86_64__) || defined(__i386__)
namespace {

struct CpuFeatures {
    bool avx =
        false; // AVX usable: CPUID.1:ECX.AVX and the OS saves YMM state (OSXSAVE, XCR0 bits 1-2)
    bool xgetbv1 = false; // XGETBV with ECX = 1 (XINUSE): CPUID.(0DH, 1):EAX bit 2
};

CpuFeatures detect() {
    CpuFeatures f;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
    const bool osxsave = (c & (1u << 27)) != 0, avx = (c & (1u << 28)) != 0;
    if (!osxsave) return f;
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    f.avx = avx && (lo & 0x6u) == 0x6u;
    if (__get_cpuid_count(0x0d, 1, &a, &b, &c, &d)) f.xgetbv1 = (a & (1u << 2)) != 0;
    return f;
}

const CpuFeatures& features() {
    static const CpuFeatures f = detect();
    return f;
}

} // namespace

void clearUpperVectorState() noexcept {
    if (features().avx) __asm__ volatile("vzeroupper" ::: "memory");
}

bool upperVectorStateDirty() noexcept {
    if (!features().avx || !features().xgetbv1) return false;
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    return (lo & (1u << 2)) != 0;
}

bool canReadVectorState() noexcept {
    return features().avx && features().xgetbv1;
}
#else
void clearUpperVectorState() noexcept {}
bool upperVectorStateDirty() noexcept {
    return false;
}
bool canReadVectorState() noexcept {
    return false;
}
#endif

} // namespace prunescope
