// hexl/ntt/ntt.hpp -- the negacyclic NTT of HEXL's API on cryptopim.
//
// NTT(degree N, prime q, root w) transforms polynomials of Z_q[X]/(X^N + 1):
//   ComputeForward: natural order in, bit-reversed order out:
//     result[bitrev(i)] = sum_k operand[k] * w^((2i+1)k) mod q;
//   ComputeInverse: the inverse, bit-reversed in, natural out, times N^-1.
// w is a primitive 2N-th root of unity mod q (default: the smallest one, as
// MinimalPrimitiveRoot gives).  N a power of two, 2 <= N <= 2^20; q prime,
// q = 1 (mod 2N), q < 2^62.
//
// Mod factors as HEXL defines them: the operand of ComputeForward may be in
// [0, input_mod_factor * q) with input_mod_factor 1, 2 or 4, its result is
// in [0, output_mod_factor * q) with output_mod_factor 1 or 4; for
// ComputeInverse both factors are 1 or 2.  Output factor 1 gives HEXL's
// values exactly; the lazy factors give values in the promised range,
// congruent to those (which value of the class depends on the kernel, as
// in HEXL).  result == operand (in place) is allowed; otherwise they must
// not overlap.  As in HEXL the input range is the caller's promise: on the
// CPU backends it is not checked (an input outside gives unspecified
// values, never a fault); pim, whose batch calls check every input, throws.
//
// Where it runs: every ring on cryptopim's NTT (cryptopim_ntt.h) with the
// backend of hexl/cryptopim.hpp.  On the CPU backends (`auto`: the AVX-512
// IFMA52 / AVX-512DQ / AVX2 kernels; `cpu`) a call is cryptopim's one-limb
// path, on the caller's buffer and thread with no lock: any number of
// threads may use one object at once.  On `pim` (the DPUs) a call is a
// backend call, serialized per machine.  Inside a cryptopim::BatchRegion
// (hexl/cryptopim.hpp) the calls are deferred: their results are written at
// the region's flush.
//
// Errors: a bad degree, modulus or root, and a bad mod factor, throw
// std::invalid_argument; a failure of the backend (e.g. a DPU fault) throws
// std::runtime_error naming it.
#pragma once

#include <memory>
#include <stdint.h>
#include <utility>
#include <vector>

#include "hexl/util/aligned-allocator.hpp"
#include "hexl/util/allocator.hpp"

namespace intel
{
namespace hexl
{
namespace cryptopim
{
struct EngineAccess; // hexl/cryptopim.hpp's batches reach the engine
}

class NTT
{
  public:
    // The allocator a caller passes by value (SEAL specializes it for its
    // memory pool).  The primary template adapts any Adaptee with
    // allocate(bytes) / deallocate(p, n) members.
    template <class Adaptee, class... Args>
    struct AllocatorAdapter : public AllocatorInterface<AllocatorAdapter<Adaptee, Args...>> {
        explicit AllocatorAdapter(Adaptee &&_a, Args &&...) : alloc(std::move(_a))
        {
        }
        AllocatorAdapter(const Adaptee &_a, Args &...) : alloc(_a)
        {
        }
        void *allocate_impl(size_t bytes_count)
        {
            return alloc.allocate(bytes_count);
        }
        void deallocate_impl(void *p, size_t n)
        {
            alloc.deallocate(p, n);
        }

      private:
        Adaptee alloc;
    };

    NTT() = default;
    ~NTT();
    NTT(const NTT &) = default;
    NTT(NTT &&) = default;
    NTT &operator=(const NTT &) = default;
    NTT &operator=(NTT &&) = default;

    // With the minimal primitive 2N-th root of unity.
    NTT(uint64_t degree, uint64_t q, std::shared_ptr<AllocatorBase> alloc_ptr = {});

    template <class Allocator, class... AllocatorArgs>
    NTT(uint64_t degree, uint64_t q, Allocator &&a, AllocatorArgs &&...args)
        : NTT(degree, q,
              std::static_pointer_cast<AllocatorBase>(
                  std::make_shared<AllocatorAdapter<Allocator, AllocatorArgs...>>(
                      std::move(a), std::forward<AllocatorArgs>(args)...)))
    {
    }

    // With the caller's root of unity.
    NTT(uint64_t degree, uint64_t q, uint64_t root_of_unity,
        std::shared_ptr<AllocatorBase> alloc_ptr = {});

    template <class Allocator, class... AllocatorArgs>
    NTT(uint64_t degree, uint64_t q, uint64_t root_of_unity, Allocator &&a, AllocatorArgs &&...args)
        : NTT(degree, q, root_of_unity,
              std::static_pointer_cast<AllocatorBase>(
                  std::make_shared<AllocatorAdapter<Allocator, AllocatorArgs...>>(
                      std::move(a), std::forward<AllocatorArgs>(args)...)))
    {
    }

    // true when (degree, modulus) is a ring this class takes (a power-of-two
    // degree up to 2^20, a prime modulus below 2^62 with q = 1 mod 2N).
    static bool CheckArguments(uint64_t degree, uint64_t modulus);

    void ComputeForward(uint64_t *result, const uint64_t *operand, uint64_t input_mod_factor,
                        uint64_t output_mod_factor);
    void ComputeInverse(uint64_t *result, const uint64_t *operand, uint64_t input_mod_factor,
                        uint64_t output_mod_factor);

    uint64_t GetMinimalRootOfUnity() const
    {
        return m_w;
    }
    uint64_t GetDegree() const
    {
        return m_degree;
    }
    uint64_t GetModulus() const
    {
        return m_q;
    }

    // GetRootOfUnityPowers: w^bitrev(i) at index i (index 0: 1), the forward
    // stages' twiddles.  GetInvRootOfUnityPowers: their inverses in the order
    // the inverse's stages take them (HEXL's layout): index 0, then the
    // entries N/2..N-1, N/4..N/2-1, ..., 1 of the bit-reversed inverses.
    const AlignedVector64<uint64_t> &GetRootOfUnityPowers() const
    {
        return m_root_of_unity_powers;
    }
    uint64_t GetRootOfUnityPower(size_t i)
    {
        return GetRootOfUnityPowers()[i];
    }
    const AlignedVector64<uint64_t> &GetInvRootOfUnityPowers() const
    {
        return m_inv_root_of_unity_powers;
    }
    uint64_t GetInvRootOfUnityPower(size_t i)
    {
        return GetInvRootOfUnityPowers()[i];
    }
    // The Shoup (64-bit Barrett) factors floor(x 2^64 / q) of the two tables.
    const AlignedVector64<uint64_t> &GetPrecon64RootOfUnityPowers() const
    {
        return m_precon64_root_of_unity_powers;
    }
    const AlignedVector64<uint64_t> &GetPrecon64InvRootOfUnityPowers() const
    {
        return m_precon64_inv_root_of_unity_powers;
    }

    static size_t MaxDegreeBits()
    {
        return 20;
    }
    static size_t MaxModulusBits()
    {
        return 62;
    }

  private:
    friend struct cryptopim::EngineAccess;
    struct Engine; // the cryptopim context and ring, or the portable tables

    uint64_t m_degree = 0;
    uint64_t m_q = 0;
    uint64_t m_degree_bits = 0;
    uint64_t m_w = 0;
    uint64_t m_w_inv = 0;
    std::shared_ptr<AllocatorBase> m_alloc;
    AlignedVector64<uint64_t> m_root_of_unity_powers;
    AlignedVector64<uint64_t> m_inv_root_of_unity_powers;
    AlignedVector64<uint64_t> m_precon64_root_of_unity_powers;
    AlignedVector64<uint64_t> m_precon64_inv_root_of_unity_powers;
    std::shared_ptr<Engine> m_engine;
};

} // namespace hexl
} // namespace intel
