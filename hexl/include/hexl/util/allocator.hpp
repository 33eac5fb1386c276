// hexl/util/allocator.hpp -- the allocator seam HEXL's NTT takes: callers
// (SEAL) derive AllocatorInterface<Impl> and give allocate_impl /
// deallocate_impl; the NTT sees only AllocatorBase.
#pragma once

#include <cstddef>

#include "hexl/util/compiler.hpp"

namespace intel
{
namespace hexl
{

struct AllocatorBase {
    virtual ~AllocatorBase() noexcept
    {
    }
    virtual void *allocate(size_t bytes_count) = 0;
    virtual void deallocate(void *p, size_t n) = 0;
};

// Static polymorphism: Impl supplies allocate_impl and deallocate_impl.
template <class AllocatorImpl> struct AllocatorInterface : public AllocatorBase {
    void *allocate(size_t bytes_count) override
    {
        return static_cast<AllocatorImpl *>(this)->allocate_impl(bytes_count);
    }
    void deallocate(void *p, size_t n) override
    {
        static_cast<AllocatorImpl *>(this)->deallocate_impl(p, n);
    }

  private:
    void *allocate_impl(size_t bytes_count)
    {
        HEXL_UNUSED(bytes_count);
        return nullptr;
    }
    void deallocate_impl(void *p, size_t n)
    {
        HEXL_UNUSED(p);
        HEXL_UNUSED(n);
    }
};

} // namespace hexl
} // namespace intel
