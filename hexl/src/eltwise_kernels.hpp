// eltwise_kernels.hpp -- the element-wise kernels behind hexl/eltwise/*.hpp
// (private to hexl/src): the per-modulus constants they share, the scalar
// arithmetic of one element (the portable tier, and every vector kernel's
// tail), and the table of one tier's kernels that eltwise.cpp dispatches
// to.
//
// Every kernel gives the one fully reduced value (in [0, q)) of its
// operation, so all tiers agree with each other and with HEXL bit for bit;
// the one lazy output (EltwiseReduceMod from arbitrary inputs to [0, 2q))
// takes HEXL's portable formula in every tier.  The callers (eltwise.cpp)
// have checked the arguments: q in (1, 2^62) for the products (2^61 for the
// FMA), inputs below their mod factor times q, n > 0.
#pragma once

#include <cstdint>

namespace intel
{
namespace hexl
{
namespace eltwise
{

using u128 = unsigned __int128;

// The Barrett constants of one modulus q in (1, 2^62), k its bit length:
//   mu62 = floor(2^(k+62) / q) <= 2^63: for a product p < 2^(k+62) (q^2
//     is below it, and so are the products of HEXL's lazy inputs for
//     most moduli: MulMod below), t = floor(floor(p / 2^(k-2)) mu62 /
//     2^64) is at most 2 below floor(p / q) (the two truncations lose
//     less than 1/2 and 1, the final floor less than 1), so p - t q < 3q:
//     two conditional subtractions.  One 64x64 high product: the 64-bit
//     lanes' form.
//   mu52[e/2] = floor(2^(2k+e) / q) <= 2^(k+1+e) (e = 0, 2, 4; for k <= 50 - e):
//     for a product p < 2^e q^2 (inputs below 2^(e/2) q: HEXL's input mod
//     factors 1, 2, 4, unreduced), t = floor(floor(p / 2^(k-1)) mu52 /
//     2^(k+1+e)) is at most 2 below floor(p / q) by the same count (with
//     e = 0 it is Menezes, van Oorschot and Vanstone, Handbook of Applied
//     Cryptography, 14.42), and every operand fits IFMA's 52-bit
//     multiplier.
//   mu50 = floor(2^(k+50) / q) < 2^52 (15 <= k <= 50): for any 64-bit x,
//     t = floor(floor(x / 2^(k-2)) mu50 / 2^52) is at most 2 below
//     floor(x / q) (x / 2^(k-2) < 2^52: the truncations lose less than
//     1/2 and 1), so x - t q < 3q < 2^52: IFMA's reduction of 64-bit words.
//   barrett64 = floor(2^64 / q): x - floor(x barrett64 / 2^64) q is in
//     [0, 2q) for any 64-bit x (HEXL's BarrettReduce64).
struct ModConsts {
    uint64_t q = 0;
    unsigned k = 0;
    uint64_t mu62 = 0, mu52[3] = {0, 0, 0}, mu50 = 0, barrett64 = 0;
};
// The constants of q, from a one-entry cache per thread: SEAL calls the
// element-wise functions many times per modulus (256-coefficient tiles),
// and each set costs 128-bit divisions.
const ModConsts &Consts(uint64_t q);

inline uint64_t MulHi(uint64_t a, uint64_t b)
{
    return static_cast<uint64_t>((static_cast<u128>(a) * b) >> 64);
}

// x in [0, 2c) to [0, c) without a branch: min(x, x - c) is x - c when
// x >= c, and x otherwise (x - c wraps above x).  Data-dependent branches
// here are mispredicted about every other element on SEAL's inputs.
inline uint64_t CSub(uint64_t x, uint64_t c)
{
    const uint64_t y = x - c;
    return y < x ? y : x;
}

// x in [0, f q) to [0, q), f a power of two up to 8 (known per call)
inline uint64_t Down(uint64_t x, uint64_t q, uint64_t f)
{
    if (f >= 8)
        x = CSub(x, 4 * q);
    if (f >= 4)
        x = CSub(x, 2 * q);
    if (f >= 2)
        x = CSub(x, q);
    return x;
}

// x y mod q for x, y in [0, q)
inline uint64_t MulMod(uint64_t x, uint64_t y, const ModConsts &m)
{
    const u128 p = static_cast<u128>(x) * y;
    const uint64_t t = MulHi(static_cast<uint64_t>(p >> (m.k - 2)), m.mu62);
    const uint64_t r = static_cast<uint64_t>(p) - t * m.q;
    return CSub(CSub(r, m.q), m.q);
}

// x y mod q for x, y in [0, f q), f = 1, 2, 4: mu62's bound holds for any
// p < 2^(k+62), so the inputs are reduced first only when f^2 q^2 may
// exceed that (k > 62 - 2 log2(f))
inline uint64_t MulMod(uint64_t x, uint64_t y, const ModConsts &m, uint64_t f)
{
    if ((f == 2 && m.k > 60) || (f == 4 && m.k > 58))
        x = Down(x, m.q, f), y = Down(y, m.q, f);
    return MulMod(x, y, m);
}

// x c mod q for any 64-bit x, with c in [0, q) and c_shoup = floor(c 2^64 /
// q) (Shoup's product: the quotient estimate is at most 1 low, so the
// difference is in [0, 2q) before the one subtraction)
inline uint64_t MulModShoup(uint64_t x, uint64_t c, uint64_t c_shoup, uint64_t q)
{
    return CSub(x * c - MulHi(x, c_shoup) * q, q);
}

inline uint64_t ShoupFactor(uint64_t c, uint64_t q)
{
    return static_cast<uint64_t>((static_cast<u128>(c) << 64) / q);
}

// x mod q for any 64-bit x, in [0, 2q) (lazy: HEXL's portable value, kept
// below 2q untouched) or [0, q)
// (x >= 2q compared as floor(x / 2) >= q: 2q may not fit 64 bits)
inline uint64_t ReduceLazy2(uint64_t x, const ModConsts &m)
{
    return (x >> 1) >= m.q ? x - MulHi(x, m.barrett64) * m.q : x;
}
inline uint64_t Reduce1(uint64_t x, const ModConsts &m)
{
    return CSub(x - MulHi(x, m.barrett64) * m.q, m.q);
}

// One tier's kernels (arguments as hexl/eltwise/*.hpp, checked; n > 0).
// mult: inputs in [0, f q), f = 1, 2, 4.  fma: arg1, the addend and the
// scalar in [0, f q), f = 1, 2, 4, 8; addend may be null.  reduce: the
// factor pairs of EltwiseReduceMod with in != out (in = q: any input).
struct Kernels {
    const char *name;
    void (*add)(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, uint64_t q);
    void (*add_scalar)(uint64_t *r, const uint64_t *a, uint64_t b, uint64_t n, uint64_t q);
    void (*sub)(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, uint64_t q);
    void (*sub_scalar)(uint64_t *r, const uint64_t *a, uint64_t b, uint64_t n, uint64_t q);
    void (*mult)(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, const ModConsts &m,
                 uint64_t f);
    void (*fma)(uint64_t *r, const uint64_t *a, uint64_t c, const uint64_t *add, uint64_t n,
                const ModConsts &m, uint64_t f);
    void (*reduce)(uint64_t *r, const uint64_t *a, uint64_t n, const ModConsts &m, uint64_t in,
                   uint64_t out);
};

// The tiers, from the narrowest.  The vector ones are null where the build
// has no x86-64 intrinsics; the caller checks the CPU before using one.
extern const Kernels kPortable;
extern const Kernels *const kAvx2;   // AVX2, 4 lanes
extern const Kernels *const kAvx512; // AVX-512 F/DQ/VL, 8 lanes
extern const Kernels *const kIfma;   // kAvx512 with AVX-512 IFMA52 products for q < 2^50

// Makes the element-wise functions choose their tier again (the backend
// changed: backend.cpp).
void ResetKernels();

} // namespace eltwise
} // namespace hexl
} // namespace intel
