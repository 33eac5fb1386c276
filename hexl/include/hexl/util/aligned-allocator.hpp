// hexl/util/aligned-allocator.hpp -- a std::allocator whose storage is
// aligned to Alignment bytes (a power of two), and the vector HEXL's API
// returns its tables in.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace intel {
namespace hexl {

template <typename T, uint64_t Alignment> class AlignedAllocator {
public:
    static_assert((Alignment & (Alignment - 1)) == 0 && Alignment >= sizeof(void *),
                  "Alignment: a power of two, at least a pointer's size");
    using value_type = T;

    AlignedAllocator() noexcept = default;
    template <typename U> AlignedAllocator(const AlignedAllocator<U, Alignment> &) noexcept {}

    template <typename U> struct rebind {
        using other = AlignedAllocator<U, Alignment>;
    };

    T *allocate(size_t n)
    {
        if (n > static_cast<size_t>(-1) / sizeof(T))
            throw std::bad_alloc();
        size_t bytes = (n * sizeof(T) + Alignment - 1) / Alignment * Alignment;
        void *p = std::aligned_alloc(static_cast<size_t>(Alignment), bytes ? bytes : Alignment);
        if (!p)
            throw std::bad_alloc();
        return static_cast<T *>(p);
    }
    void deallocate(T *p, size_t) noexcept { std::free(p); }

    template <typename U> bool operator==(const AlignedAllocator<U, Alignment> &) const noexcept
    {
        return true;
    }
    template <typename U> bool operator!=(const AlignedAllocator<U, Alignment> &) const noexcept
    {
        return false;
    }
};

template <class T> using AlignedVector64 = std::vector<T, AlignedAllocator<T, 64>>;

} // namespace hexl
} // namespace intel
