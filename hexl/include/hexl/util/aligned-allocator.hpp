// hexl/util/aligned-allocator.hpp -- a std::allocator whose storage is
// aligned to Alignment bytes (a power of two), and the vector HEXL's API
// returns its tables in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "hexl/util/allocator.hpp"

namespace intel
{
namespace hexl
{

// Storage comes from the AllocatorBase given (as HEXL's NTT takes one from
// its caller, e.g. SEAL's memory pool), else from aligned_alloc.  The
// allocator travels with the container on copy, move and swap.
template <typename T, uint64_t Alignment> class AlignedAllocator
{
  public:
    static_assert((Alignment & (Alignment - 1)) == 0 && Alignment >= 16,
                  "Alignment: a power of two, at least 16");
    using value_type = T;
    using propagate_on_container_copy_assignment = std::true_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;

    AlignedAllocator() noexcept = default;
    explicit AlignedAllocator(std::shared_ptr<AllocatorBase> alloc) noexcept
        : m_alloc(std::move(alloc))
    {
    }
    template <typename U>
    AlignedAllocator(const AlignedAllocator<U, Alignment> &o) noexcept : m_alloc(o.m_alloc)
    {
    }

    template <typename U> struct rebind {
        using other = AlignedAllocator<U, Alignment>;
    };

    T *allocate(size_t n)
    {
        if (n > (static_cast<size_t>(-1) - 2 * Alignment) / sizeof(T))
            throw std::bad_alloc();
        size_t bytes = n * sizeof(T);
        if (!m_alloc) {
            void *p =
                std::aligned_alloc(static_cast<size_t>(Alignment),
                                   (bytes + Alignment - 1) / Alignment * Alignment + Alignment);
            if (!p)
                throw std::bad_alloc();
            return static_cast<T *>(p);
        }
        // the caller's allocator knows no alignment: take Alignment more and
        // keep the raw pointer and size just below the aligned block
        size_t total = bytes + Alignment + 16;
        char *raw = static_cast<char *>(m_alloc->allocate(total));
        if (!raw)
            throw std::bad_alloc();
        uintptr_t at = (reinterpret_cast<uintptr_t>(raw) + 16 + Alignment - 1) & ~(Alignment - 1);
        void **hdr = reinterpret_cast<void **>(at) - 2;
        hdr[0] = raw;
        hdr[1] = reinterpret_cast<void *>(total);
        return reinterpret_cast<T *>(at);
    }
    void deallocate(T *p, size_t) noexcept
    {
        if (!m_alloc) {
            std::free(p);
            return;
        }
        void **hdr = reinterpret_cast<void **>(p) - 2;
        m_alloc->deallocate(hdr[0], reinterpret_cast<size_t>(hdr[1]));
    }

    template <typename U> bool operator==(const AlignedAllocator<U, Alignment> &o) const noexcept
    {
        return m_alloc == o.m_alloc;
    }
    template <typename U> bool operator!=(const AlignedAllocator<U, Alignment> &o) const noexcept
    {
        return m_alloc != o.m_alloc;
    }

    std::shared_ptr<AllocatorBase> m_alloc; // public for the converting constructor
};

template <class T> using AlignedVector64 = std::vector<T, AlignedAllocator<T, 64>>;

} // namespace hexl
} // namespace intel
