#pragma once
// Test helper for core/util/VectorState.h: leaves this thread's upper YMM state dirty, as AVX code
// without VZEROUPPER does (QApplication's constructor did so on a Xeon). Only call it when
// prunescope::canReadVectorState() holds (the CPU has AVX). Inline assembly: the compiler adds no
// VZEROUPPER after it.
namespace testsupport {

inline void dirtyUpperVectorState() {
#if defined(__x86_64__)
    __asm__ volatile("vcmptrueps %%ymm0, %%ymm0, %%ymm0" ::: "xmm0");
#endif
}

} // namespace testsupport
