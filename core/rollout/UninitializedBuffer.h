#pragma once
// A growable array whose contents start undefined, for the large per-vertex buffers of change
// propagation that are always written before they are read: they are never touched as a whole,
// because first-touch page faults of big zero-filled vectors are slow on virtual machines.
#include <cstddef>
#include <memory>

namespace prunescope {

template <class T> struct UninitializedBuffer {
    std::unique_ptr<T[]> data;
    std::size_t size = 0;
    // At least n elements; growing discards the contents (callers write before reading).
    void ensure(std::size_t n) {
        if (n > size) data.reset(new T[n]), size = n;
    }
    T& operator[](std::size_t i) { return data[i]; }
    const T& operator[](std::size_t i) const { return data[i]; }
};

} // namespace prunescope
