// hexl/number-theory/number-theory.hpp -- the modular arithmetic of HEXL's
// API that NTT callers use: powers, inverses, roots of unity, primes.
#pragma once

#include <stdint.h>

#include <vector>

#include "hexl/util/check.hpp"
#include "hexl/util/compiler.hpp"

namespace intel {
namespace hexl {

inline bool IsPowerOfTwo(uint64_t num) { return num && !(num & (num - 1)); }
// floor(log2(x)), x > 0
inline uint64_t Log2(uint64_t x) { return 63u - static_cast<uint64_t>(__builtin_clzll(x)); }
inline bool IsPowerOfFour(uint64_t num) { return IsPowerOfTwo(num) && Log2(num) % 2 == 0; }
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
// num_primes primes of exactly bit_size bits, each = 1 mod 2 ngen, from the
// largest down (prefer_small_primes: from the smallest up); throws
// std::runtime_error when there are not enough.
std::vector<uint64_t> GeneratePrimes(size_t num_primes, size_t bit_size,
                                     bool prefer_small_primes, size_t ngen = 1024);

} // namespace hexl
} // namespace intel
