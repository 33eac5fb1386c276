// ntt/ntt-internal.hpp -- test shim: the transform entry points Intel HEXL's
// own unit tests include from HEXL's sources, on cryptopim's libhexl
// (tests/hexl/hexl_tests.sh).  The radix-2 and radix-4 ones are HEXL's
// optimized kernels: here they run cryptopim's NTT (an NTT object with the
// root the table holds).  The Reference ones stay independent of it: a
// textbook transform over the given table, as their name promises.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "hexl/ntt/ntt.hpp"
#include "hexl/number-theory/number-theory.hpp"
#include "util/util-internal.hpp"

namespace intel
{
namespace hexl
{
namespace shim
{
// one NTT object per (n, q, w), kept for the test program's life
inline NTT &Ring(uint64_t n, uint64_t q, uint64_t w)
{
    static std::map<std::tuple<uint64_t, uint64_t, uint64_t>, std::unique_ptr<NTT>> rings;
    static std::mutex lock;
    std::lock_guard<std::mutex> g(lock);
    auto &r = rings[std::make_tuple(n, q, w)];
    if (!r)
        r.reset(new NTT(n, q, w));
    return *r;
}
// w from a forward table (w^bitrev(i) at i: w sits at bitrev(1) = n/2) and
// from an inverse one in HEXL's layout (w^-1 at index 1)
inline uint64_t RootOfForward(uint64_t n, const uint64_t *t)
{
    return t[n / 2];
}
inline uint64_t RootOfInverse(uint64_t q, const uint64_t *t)
{
    return InverseMod(t[1], q);
}
} // namespace shim

inline void ForwardTransformToBitReverseRadix2(uint64_t *result, const uint64_t *operand,
                                               uint64_t n, uint64_t modulus,
                                               const uint64_t *root_of_unity_powers,
                                               const uint64_t *precon_root_of_unity_powers,
                                               uint64_t input_mod_factor = 1,
                                               uint64_t output_mod_factor = 1)
{
    (void)precon_root_of_unity_powers;
    shim::Ring(n, modulus, shim::RootOfForward(n, root_of_unity_powers))
        .ComputeForward(result, operand, input_mod_factor, output_mod_factor);
}

inline void ForwardTransformToBitReverseRadix4(uint64_t *result, const uint64_t *operand,
                                               uint64_t n, uint64_t modulus,
                                               const uint64_t *root_of_unity_powers,
                                               const uint64_t *precon_root_of_unity_powers,
                                               uint64_t input_mod_factor = 1,
                                               uint64_t output_mod_factor = 1)
{
    ForwardTransformToBitReverseRadix2(result, operand, n, modulus, root_of_unity_powers,
                                       precon_root_of_unity_powers, input_mod_factor,
                                       output_mod_factor);
}

inline void InverseTransformFromBitReverseRadix2(uint64_t *result, const uint64_t *operand,
                                                 uint64_t n, uint64_t modulus,
                                                 const uint64_t *inv_root_of_unity_powers,
                                                 const uint64_t *precon_inv_root_of_unity_powers,
                                                 uint64_t input_mod_factor = 1,
                                                 uint64_t output_mod_factor = 1)
{
    (void)precon_inv_root_of_unity_powers;
    shim::Ring(n, modulus, shim::RootOfInverse(modulus, inv_root_of_unity_powers))
        .ComputeInverse(result, operand, input_mod_factor, output_mod_factor);
}

inline void InverseTransformFromBitReverseRadix4(uint64_t *result, const uint64_t *operand,
                                                 uint64_t n, uint64_t modulus,
                                                 const uint64_t *root_of_unity_powers,
                                                 const uint64_t *precon_root_of_unity_powers,
                                                 uint64_t input_mod_factor = 1,
                                                 uint64_t output_mod_factor = 1)
{
    InverseTransformFromBitReverseRadix2(result, operand, n, modulus, root_of_unity_powers,
                                         precon_root_of_unity_powers, input_mod_factor,
                                         output_mod_factor);
}

// Cooley-Tukey in place with the forward table (w^bitrev(m + i) per group)
inline void ReferenceForwardTransformToBitReverse(uint64_t *operand, uint64_t n, uint64_t modulus,
                                                  const uint64_t *root_of_unity_powers)
{
    for (uint64_t m = 1, t = n >> 1; m < n; m <<= 1, t >>= 1)
        for (uint64_t i = 0; i < m; i++) {
            const uint64_t w = root_of_unity_powers[m + i];
            for (uint64_t j = 2 * i * t; j < 2 * i * t + t; j++) {
                uint64_t u = operand[j], v = MultiplyMod(operand[j + t], w, modulus);
                operand[j] = AddUIntMod(u, v, modulus);
                operand[j + t] = SubUIntMod(u, v, modulus);
            }
        }
}

// Gentleman-Sande in place with the inverse table in HEXL's layout (the
// stages' twiddles one after another), then times n^-1
inline void ReferenceInverseTransformFromBitReverse(uint64_t *operand, uint64_t n, uint64_t modulus,
                                                    const uint64_t *inv_root_of_unity_powers)
{
    uint64_t at = 1;
    for (uint64_t m = n >> 1, t = 1; m >= 1; m >>= 1, t <<= 1)
        for (uint64_t i = 0; i < m; i++) {
            const uint64_t w = inv_root_of_unity_powers[at++];
            for (uint64_t j = 2 * i * t; j < 2 * i * t + t; j++) {
                uint64_t u = operand[j], v = operand[j + t];
                operand[j] = AddUIntMod(u, v, modulus);
                operand[j + t] = MultiplyMod(SubUIntMod(u, v, modulus), w, modulus);
            }
        }
    const uint64_t ninv = InverseMod(n, modulus);
    for (uint64_t i = 0; i < n; i++)
        operand[i] = MultiplyMod(operand[i], ninv, modulus);
}

} // namespace hexl
} // namespace intel
