// eltwise_avx512.cpp -- the AVX-512 tiers of the element-wise kernels
// (eltwise_kernels.hpp): eltwise_simd.hpp on 8 lanes (AVX-512 F/DQ/VL:
// unsigned minimum, 64-bit low products), and the IFMA52 products
// (vpmadd52luq / vpmadd52huq) for moduli below 2^50.  Compiled for those
// instructions here only; eltwise.cpp calls them after checking the CPU.
#include "eltwise_kernels.hpp"

#if defined(__x86_64__)
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_epi32(), whose
// self-initialization it then reports as maybe uninitialized in C++ (GCC
// bug 105593, fixed in GCC 13): a false positive in its own header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512vl,avx512ifma"))),      \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx512ifma")
#endif

namespace intel
{
namespace hexl
{
namespace eltwise
{

namespace
{
struct V512 {
    using T = __m512i;
    static constexpr uint64_t L = 8;
    static inline T Load(const uint64_t *p)
    {
        return _mm512_loadu_si512(p);
    }
    static inline void Store(uint64_t *p, T x)
    {
        _mm512_storeu_si512(p, x);
    }
    static inline T Set1(uint64_t x)
    {
        return _mm512_set1_epi64(static_cast<long long>(x));
    }
    static inline T Add(T a, T b)
    {
        return _mm512_add_epi64(a, b);
    }
    static inline T Sub(T a, T b)
    {
        return _mm512_sub_epi64(a, b);
    }
    static inline T And(T a, T b)
    {
        return _mm512_and_si512(a, b);
    }
    static inline T Or(T a, T b)
    {
        return _mm512_or_si512(a, b);
    }
    static inline T Srl32(T a)
    {
        return _mm512_srli_epi64(a, 32);
    }
    static inline T Sll32(T a)
    {
        return _mm512_slli_epi64(a, 32);
    }
    static inline T Srlv(T a, T c)
    {
        return _mm512_srlv_epi64(a, c);
    }
    static inline T Sllv(T a, T c)
    {
        return _mm512_sllv_epi64(a, c);
    }
    static inline T Mul32(T a, T b)
    {
        return _mm512_mul_epu32(a, b);
    }
    static inline T MinU(T a, T b)
    {
        return _mm512_min_epu64(a, b);
    }
    static inline T MulLo(T a, T b)
    {
        return _mm512_mullo_epi64(a, b);
    }
    static inline T SelectGe(T x, T y, T a, T b)
    {
        return _mm512_mask_blend_epi64(_mm512_cmpge_epu64_mask(x, y), b, a);
    }
};

#include "eltwise_simd.hpp"

using S = Simd<V512>;

// ---- IFMA52 (q < 2^50) ----------------------------------------------------
//
// vpmadd52luq / vpmadd52huq multiply the low 52 bits of two lanes and add
// the low / high 52 bits of the 104-bit product to a third: one instruction
// per half where the 64-bit lanes need four 32-bit products.

const uint64_t kMask52 = (1ull << 52) - 1;

inline __m512i Lo52(__m512i a, __m512i b)
{
    return _mm512_madd52lo_epu64(_mm512_setzero_si512(), a, b);
}
inline __m512i Hi52(__m512i a, __m512i b)
{
    return _mm512_madd52hi_epu64(_mm512_setzero_si512(), a, b);
}

// Barrett with mu52 (eltwise_kernels.hpp).  With inputs below 2^(E/2) q
// left unreduced (E = 0, 2, 4 for the input factors 1, 2, 4, where
// k <= 50 - E), p = x y < 2^E q^2.  Its low 52 bits come from one IFMA; its
// Barrett quotient from two more, the shifts folded into the operands:
//   - x 2^sa times y 2^sb, sa + sb = 53 - k, each operand staying below
//     2^52 (sa, sb <= 52 - k - E/2, possible as k <= 51 - E): the high half
//     is floor(p 2^(53-k) / 2^52) = t1 = floor(p / 2^(k-1)) < 2^(k+1+E);
//   - t1 times mu52 2^(51-k-E) < 2^52 (a per-call constant): the high half
//     is floor(t1 mu52 / 2^(k+1+E)) = t, the quotient estimate.
// p - t q < 3q < 2^52 is then exact from the low halves: lo + (t (2^52 - q)
// mod 2^52), masked to 52 bits.  Larger moduli first bring the inputs to
// [0, 2q) (E = 2: input factor 4 on 47 and 48-bit moduli) or to [0, q)
// (E = 0).
template <int F, int E>
void MultIfmaF(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, const ModConsts &m)
{
    const __m512i vq = V512::Set1(m.q), q2 = V512::Set1(2 * m.q), q4 = V512::Set1(4 * m.q);
    const __m512i mu = V512::Set1(m.mu52[E / 2] << (51 - m.k - E)),
                  negq = V512::Set1((1ull << 52) - m.q);
    const __m512i mask = V512::Set1(kMask52);
    const unsigned sa = (53 - m.k) / 2, sb = 53 - m.k - sa;
    const __m512i va = V512::Set1(sa), vb = V512::Set1(sb);
    uint64_t i = 0;
    ELTWISE_UNROLL
    for (; i + 8 <= n; i += 8) {
        __m512i x = V512::Load(a + i), y = V512::Load(b + i);
        if (E == 0) {
            x = S::Down<F>(x, vq, q2, q4);
            y = S::Down<F>(y, vq, q2, q4);
        } else if (F == 4 && E == 2) { // below 4q to below 2q
            x = S::CSub(x, q2);
            y = S::CSub(y, q2);
        }
        __m512i lo = Lo52(x, y);
        __m512i t1 = Hi52(_mm512_sllv_epi64(x, va), _mm512_sllv_epi64(y, vb));
        __m512i t = Hi52(t1, mu);
        __m512i z = _mm512_and_si512(_mm512_madd52lo_epu64(lo, t, negq), mask);
        V512::Store(r + i, S::CSub(S::CSub(z, vq), vq));
    }
    for (; i < n; i++)
        r[i] = MulMod(Down(a[i], m.q, F), Down(b[i], m.q, F), m);
}

void MultIfma(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, const ModConsts &m,
              uint64_t f)
{
    if (m.k > 50 || (m.q & (m.q - 1)) == 0) // (a power of two: mu52 2^(51-k-E) = 2^52)
        S::Mult(r, a, b, n, m, f);
    else if (f == 1)
        MultIfmaF<1, 0>(r, a, b, n, m);
    else if (f == 2)
        m.k <= 48 ? MultIfmaF<2, 2>(r, a, b, n, m) : MultIfmaF<2, 0>(r, a, b, n, m);
    else
        m.k <= 46   ? MultIfmaF<4, 4>(r, a, b, n, m)
        : m.k <= 48 ? MultIfmaF<4, 2>(r, a, b, n, m)
                    : MultIfmaF<4, 0>(r, a, b, n, m);
}

// Any 64-bit word mod q (15 <= k <= 50) with mu50 (eltwise_kernels.hpp):
// t = floor(floor(x / 2^(k-2)) mu50 / 2^52) on IFMA, x - t q < 3q from the
// low 52 bits.  The other reductions are the 64-bit lanes'.
void ReduceIfma(uint64_t *r, const uint64_t *a, uint64_t n, const ModConsts &m, uint64_t in,
                uint64_t out)
{
    if (in != m.q || out != 1 || m.k < 15 || m.k > 50) {
        S::Reduce(r, a, n, m, in, out);
        return;
    }
    const __m512i vq = V512::Set1(m.q), mu = V512::Set1(m.mu50),
                  negq = V512::Set1((1ull << 52) - m.q), mask = V512::Set1(kMask52),
                  sh = V512::Set1(m.k - 2);
    uint64_t i = 0;
    ELTWISE_UNROLL
    for (; i + 8 <= n; i += 8) {
        __m512i x = V512::Load(a + i);
        __m512i t = Hi52(_mm512_srlv_epi64(x, sh), mu);
        __m512i z =
            _mm512_and_si512(_mm512_madd52lo_epu64(_mm512_and_si512(x, mask), t, negq), mask);
        V512::Store(r + i, S::CSub(S::CSub(z, vq), vq));
    }
    for (; i < n; i++)
        r[i] = Reduce1(a[i], m);
}

// Shoup's product on 52 bits: c_shoup = floor(c 2^52 / q) < 2^52 and x <
// 2^52 give x c - floor(x c_shoup / 2^52) q in [0, 2q).  F is the input
// factor; inputs of F q > 2^52 are first brought below 2q.
template <int F>
void FmaIfmaF(uint64_t *r, const uint64_t *a, uint64_t c, const uint64_t *add, uint64_t n,
              const ModConsts &m)
{
    const uint64_t cs = static_cast<uint64_t>((static_cast<u128>(c) << 52) / m.q);
    const uint64_t cs64 = ShoupFactor(c, m.q);
    const bool big = F * m.q > (1ull << 52);
    const __m512i vq = V512::Set1(m.q), q2 = V512::Set1(2 * m.q), q4 = V512::Set1(4 * m.q);
    const __m512i vc = V512::Set1(c), vcs = V512::Set1(cs), negq = V512::Set1((1ull << 52) - m.q);
    const __m512i mask = V512::Set1(kMask52);
    uint64_t i = 0;
    ELTWISE_UNROLL
    for (; i + 8 <= n; i += 8) {
        __m512i x = V512::Load(a + i);
        if (big) // F = 8 (q >= 2^49): below 4q, then 2q
            x = S::CSub(S::CSub(x, q4), q2);
        __m512i lo = Lo52(x, vc), t = Hi52(x, vcs);
        __m512i y = _mm512_and_si512(_mm512_madd52lo_epu64(lo, t, negq), mask);
        y = S::CSub(y, vq);
        if (add)
            y = S::CSub(V512::Add(y, S::Down<F>(V512::Load(add + i), vq, q2, q4)), vq);
        V512::Store(r + i, y);
    }
    for (; i < n; i++) {
        uint64_t x = MulModShoup(a[i], c, cs64, m.q);
        if (add) {
            x = CSub(x + Down(add[i], m.q, F), m.q);
        }
        r[i] = x;
    }
}

void FmaIfma(uint64_t *r, const uint64_t *a, uint64_t c, const uint64_t *add, uint64_t n,
             const ModConsts &m, uint64_t f)
{
    if (m.k > 50)
        S::Fma(r, a, c, add, n, m, f);
    else if (f == 1)
        FmaIfmaF<1>(r, a, c, add, n, m);
    else if (f == 2)
        FmaIfmaF<2>(r, a, c, add, n, m);
    else if (f == 4)
        FmaIfmaF<4>(r, a, c, add, n, m);
    else
        FmaIfmaF<8>(r, a, c, add, n, m);
}

const Kernels kAvx512Table = {"avx512",     S::Add,  S::AddScalar, S::Sub,
                              S::SubScalar, S::Mult, S::Fma,       S::Reduce};
const Kernels kIfmaTable = {"ifma",       S::Add,   S::AddScalar, S::Sub,
                            S::SubScalar, MultIfma, FmaIfma,      ReduceIfma};
} // namespace

const Kernels *const kAvx512 = &kAvx512Table;
const Kernels *const kIfma = &kIfmaTable;

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
const Kernels *const kAvx512 = nullptr;
const Kernels *const kIfma = nullptr;
} // namespace eltwise
} // namespace hexl
} // namespace intel

#endif
