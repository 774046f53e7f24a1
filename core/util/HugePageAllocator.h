#pragma once
// An allocator for large, randomly accessed tables (hashed weight vectors): blocks of 2 MiB or
// more are 2 MiB-aligned and advised to the kernel as transparent huge pages (Linux madvise
// MADV_HUGEPAGE; elsewhere, or when the kernel declines, plain pages). Loading a 16 MiB table then
// takes 8 page faults instead of 4,096, and lookups miss the TLB less (docs/benchmarks.md "Binary
// weight blocks"). Values are unaffected: the allocator changes where memory comes from, not what
// it holds. Written by hand: the standard library has no such allocator, and the header is small.
#include <cstddef>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace prunescope {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

template <class T> struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() noexcept = default;
    template <class U> HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePageBytes) return static_cast<T*>(::operator new(bytes));
        const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
        void* p = ::operator new (rounded, std::align_val_t{kHugePageBytes});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        ::madvise(p, rounded, MADV_HUGEPAGE); // advice only: failure leaves plain pages
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kHugePageBytes)
            ::operator delete(p);
        else
            ::operator delete (p, std::align_val_t{kHugePageBytes});
    }
    template <class U> bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

// A float table on huge pages where it is large enough.
using HugeFloatVector = std::vector<float, HugePageAllocator<float>>;

} // namespace prunescope
