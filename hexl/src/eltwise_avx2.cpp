// eltwise_avx2.cpp -- the AVX2 tier of the element-wise kernels
// (eltwise_kernels.hpp): eltwise_simd.hpp on 4 lanes.  AVX2 has no unsigned
// 64-bit compare or minimum and no 64-bit low product: they are built from
// the signed compare (both sides' top bits flipped) and from 32-bit
// products.  Compiled for AVX2 here only; eltwise.cpp calls it after
// checking the CPU.
#include "eltwise_kernels.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

namespace intel
{
namespace hexl
{
namespace eltwise
{

namespace
{
struct V256 {
    using T = __m256i;
    static constexpr uint64_t L = 4;
    static inline T Load(const uint64_t *p)
    {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    }
    static inline void Store(uint64_t *p, T x)
    {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), x);
    }
    static inline T Set1(uint64_t x)
    {
        return _mm256_set1_epi64x(static_cast<long long>(x));
    }
    static inline T Add(T a, T b)
    {
        return _mm256_add_epi64(a, b);
    }
    static inline T Sub(T a, T b)
    {
        return _mm256_sub_epi64(a, b);
    }
    static inline T And(T a, T b)
    {
        return _mm256_and_si256(a, b);
    }
    static inline T Or(T a, T b)
    {
        return _mm256_or_si256(a, b);
    }
    static inline T Srl32(T a)
    {
        return _mm256_srli_epi64(a, 32);
    }
    static inline T Sll32(T a)
    {
        return _mm256_slli_epi64(a, 32);
    }
    static inline T Srlv(T a, T c)
    {
        return _mm256_srlv_epi64(a, c);
    }
    static inline T Sllv(T a, T c)
    {
        return _mm256_sllv_epi64(a, c);
    }
    static inline T Mul32(T a, T b)
    {
        return _mm256_mul_epu32(a, b);
    }
    // all ones where a > b, unsigned
    static inline T GtU(T a, T b)
    {
        const T top = Set1(1ull << 63);
        return _mm256_cmpgt_epi64(_mm256_xor_si256(a, top), _mm256_xor_si256(b, top));
    }
    static inline T MinU(T a, T b)
    {
        return _mm256_blendv_epi8(a, b, GtU(a, b));
    }
    static inline T MulLo(T a, T b)
    {
        T cross = Add(Mul32(Srl32(a), b), Mul32(a, Srl32(b)));
        return Add(Mul32(a, b), Sll32(cross));
    }
    static inline T SelectGe(T x, T y, T a, T b)
    {
        return _mm256_blendv_epi8(a, b, GtU(y, x)); // y > x: b
    }
};

#include "eltwise_simd.hpp"

using S = Simd<V256>;
const Kernels kAvx2Table = {"avx2",       S::Add,  S::AddScalar, S::Sub,
                            S::SubScalar, S::Mult, S::Fma,       S::Reduce};
} // namespace

const Kernels *const kAvx2 = &kAvx2Table;

} // namespace eltwise
} // namespace hexl
} // namespace intel

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else // no x86-64 intrinsics

namespace intel
{
namespace hexl
{
namespace eltwise
{
const Kernels *const kAvx2 = nullptr;
} // namespace eltwise
} // namespace hexl
} // namespace intel

#endif
