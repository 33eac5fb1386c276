// hexl/number-theory/number-theory.hpp -- the modular arithmetic of HEXL's
// API that NTT callers use: powers, inverses, roots of unity, primes.
#pragma once

#include <stdint.h>
#include <vector>

#include "hexl/util/check.hpp"
#include "hexl/util/compiler.hpp"

namespace intel
{
namespace hexl
{

// A Barrett factor floor(operand * 2^bit_shift / modulus) (bit_shift 32, 52
// or 64; operand <= modulus) for repeated products by operand mod modulus.
class MultiplyFactor
{
  public:
    MultiplyFactor() = default;
    MultiplyFactor(uint64_t operand, uint64_t bit_shift, uint64_t modulus) : m_operand(operand)
    {
        uint64_t hi = bit_shift == 64 ? operand : operand >> (64 - bit_shift);
        uint64_t lo = bit_shift == 64 ? 0 : operand << bit_shift;
        m_barrett_factor = DivideUInt128UInt64Lo(hi, lo, modulus);
    }
    inline uint64_t BarrettFactor() const
    {
        return m_barrett_factor;
    }
    inline uint64_t Operand() const
    {
        return m_operand;
    }

  private:
    uint64_t m_operand = 0;
    uint64_t m_barrett_factor = 0;
};

inline bool IsPowerOfTwo(uint64_t num)
{
    return num && !(num & (num - 1));
}
// floor(log2(x)), x > 0
inline uint64_t Log2(uint64_t x)
{
    return MSB(x);
}
inline bool IsPowerOfFour(uint64_t num)
{
    return IsPowerOfTwo(num) && Log2(num) % 2 == 0;
}
// 2^bits - 1 (bits <= 64)
inline uint64_t MaximumValue(uint64_t bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

// The low bit_width bits of x reversed (bit_width <= 64; 0 gives 0).
uint64_t ReverseBits(uint64_t x, uint64_t bit_width);
// x^-1 mod modulus; throws std::invalid_argument when there is none.
uint64_t InverseMod(uint64_t x, uint64_t modulus);
// x * y mod modulus (any x, y < 2^64, modulus > 1).
uint64_t MultiplyMod(uint64_t x, uint64_t y, uint64_t modulus);
// x * y mod modulus with y_precon = floor(y * 2^64 / modulus), y < modulus.
uint64_t MultiplyMod(uint64_t x, uint64_t y, uint64_t y_precon, uint64_t modulus);
// (x + y) mod modulus and (x - y) mod modulus for x, y < modulus.
uint64_t AddUIntMod(uint64_t x, uint64_t y, uint64_t modulus);
uint64_t SubUIntMod(uint64_t x, uint64_t y, uint64_t modulus);
// base^exp mod modulus
uint64_t PowMod(uint64_t base, uint64_t exp, uint64_t modulus);
// true when root has order exactly degree mod modulus (degree a power of two)
bool IsPrimitiveRoot(uint64_t root, uint64_t degree, uint64_t modulus);
// some primitive degree-th root of unity mod a prime modulus (degree a power
// of two dividing modulus - 1); throws std::invalid_argument if none exists.
uint64_t GeneratePrimitiveRoot(uint64_t degree, uint64_t modulus);
// the smallest primitive degree-th root of unity mod a prime modulus
uint64_t MinimalPrimitiveRoot(uint64_t degree, uint64_t modulus);
// deterministic for every 64-bit n (Miller-Rabin with a fixed base set)
bool IsPrime(uint64_t n);
// num_primes primes in [2^bit_size, 2^(bit_size + 1)] (HEXL's range), each
// = 1 mod 2 ntt_size, from the largest down (prefer_small_primes: from the
// smallest up); throws std::runtime_error when there are not enough.
std::vector<uint64_t> GeneratePrimes(size_t num_primes, size_t bit_size, bool prefer_small_primes,
                                     size_t ntt_size = 1);

// x * y_operand mod modulus in [0, 2 modulus), with y_barrett_factor =
// floor(y_operand * 2^BitShift / modulus) (BitShift 52 or 64; x < 2^BitShift).
template <int BitShift>
inline uint64_t MultiplyModLazy(uint64_t x, uint64_t y_operand, uint64_t y_barrett_factor,
                                uint64_t modulus)
{
    uint64_t q = MultiplyUInt64Hi<BitShift>(x, y_barrett_factor);
    return y_operand * x - q * modulus;
}

// The same, computing the Barrett factor of y < modulus.
template <int BitShift> inline uint64_t MultiplyModLazy(uint64_t x, uint64_t y, uint64_t modulus)
{
    return MultiplyModLazy<BitShift>(x, y, MultiplyFactor(y, BitShift, modulus).BarrettFactor(),
                                     modulus);
}

// *result = operand1 + operand2 mod 2^64; returns the carry (0 or 1).
inline unsigned char AddUInt64(uint64_t operand1, uint64_t operand2, uint64_t *result)
{
    *result = operand1 + operand2;
    return static_cast<unsigned char>(*result < operand1);
}

// input mod modulus with q_barr = floor(2^64 / modulus): in [0, modulus)
// (OutputModFactor 1) or [0, 2 modulus) (OutputModFactor 2).
template <int OutputModFactor = 1>
uint64_t BarrettReduce64(uint64_t input, uint64_t modulus, uint64_t q_barr)
{
    uint64_t r = input - MultiplyUInt64Hi<64>(input, q_barr) * modulus;
    if (OutputModFactor == 2)
        return r;
    return r >= modulus ? r - modulus : r;
}

// x in [0, InputModFactor * modulus) to [0, modulus) (factor 1, 2, 4 or 8;
// 4 needs twice_modulus, 8 also four_times_modulus).
template <int InputModFactor>
uint64_t ReduceMod(uint64_t x, uint64_t modulus, const uint64_t *twice_modulus = nullptr,
                   const uint64_t *four_times_modulus = nullptr)
{
    if (InputModFactor >= 8 && x >= *four_times_modulus)
        x -= *four_times_modulus;
    if (InputModFactor >= 4 && x >= *twice_modulus)
        x -= *twice_modulus;
    if (InputModFactor >= 2 && x >= modulus)
        x -= modulus;
    return x;
}

// Montgomery reduction (REDC): T = T_hi * 2^BitShift + T_lo in [0, R q),
// R = 2^r > q, inv_mod = -q^-1 mod R, mod_R_msk = R - 1: returns
// T R^-1 mod q in [0, q).  BitShift 64, or 52 for T split at bit 52.
template <int BitShift>
inline uint64_t MontgomeryReduce(uint64_t T_hi, uint64_t T_lo, uint64_t q, int r,
                                 uint64_t mod_R_msk, uint64_t inv_mod)
{
    uint64_t m = ((T_lo & mod_R_msk) * inv_mod) & mod_R_msk;
    uint64_t mq_hi, mq_lo;
    MultiplyUInt64(m, q, &mq_hi, &mq_lo);
    if (BitShift == 52) {
        mq_hi = (mq_hi << 12) | (mq_lo >> 52);
        mq_lo &= (1ull << 52) - 1;
    }
    uint64_t t_lo = T_lo + mq_lo;
    uint64_t t_hi = T_hi + mq_hi + (t_lo < T_lo); // T + m q, divisible by R
    uint64_t t = (t_hi << (BitShift - r)) + (t_lo >> r);
    return t >= q ? t - q : t;
}

// x in [0, 2^r) with q x = -1 mod 2^r (q odd), by lifting a root of
// q X + 1 one bit at a time (Hensel's lemma).
inline uint64_t HenselLemma2adicRoot(uint32_t r, uint64_t q)
{
    uint64_t x = 1; // q * 1 + 1 is even: a root mod 2
    for (uint32_t k = 1; k < r; k++) {
        uint64_t bit = 1ull << k;
        if ((q * x + 1) & bit) // not yet 0 mod 2^(k+1): add 2^k
            x += bit;
    }
    return x;
}

} // namespace hexl
} // namespace intel
