// number_theory.cpp -- hexl/number-theory/number-theory.hpp: 128-bit
// products reduced with the compiler's unsigned __int128; primality by
// Miller-Rabin with the first twelve primes as bases, which is exact below
// 3.3 * 10^24 (Sorenson and Webster, "Strong pseudoprimes to twelve prime
// bases", Math. Comp. 2017), so for every 64-bit n.
#include <stdexcept>
#include <string>

#include "hexl/number-theory/number-theory.hpp"

namespace intel
{
namespace hexl
{

namespace
{
using u128 = unsigned __int128;

uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
    return static_cast<uint64_t>(static_cast<u128>(a) * b % m);
}
} // namespace

uint64_t ReverseBits(uint64_t x, uint64_t bit_width)
{
    if (bit_width == 0)
        return 0;
    uint64_t r = 0;
    for (uint64_t i = 0; i < bit_width; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}

uint64_t MultiplyMod(uint64_t x, uint64_t y, uint64_t modulus)
{
    return mulmod(x, y, modulus);
}

uint64_t MultiplyMod(uint64_t x, uint64_t y, uint64_t y_precon, uint64_t modulus)
{
    // Shoup: q' = floor(x * y_precon / 2^64) is floor(x y / modulus) or one
    // less, so x y - q' modulus is in [0, 2 modulus).
    uint64_t qh = static_cast<uint64_t>((static_cast<u128>(x) * y_precon) >> 64);
    uint64_t r = x * y - qh * modulus;
    return r >= modulus ? r - modulus : r;
}

uint64_t AddUIntMod(uint64_t x, uint64_t y, uint64_t modulus)
{
    uint64_t s = x + y;
    return s >= modulus || s < x ? s - modulus : s;
}

uint64_t SubUIntMod(uint64_t x, uint64_t y, uint64_t modulus)
{
    return x >= y ? x - y : x + (modulus - y);
}

uint64_t PowMod(uint64_t base, uint64_t exp, uint64_t modulus)
{
    uint64_t r = 1 % modulus;
    base %= modulus;
    for (; exp; exp >>= 1, base = mulmod(base, base, modulus))
        if (exp & 1)
            r = mulmod(r, base, modulus);
    return r;
}

uint64_t InverseMod(uint64_t x, uint64_t modulus)
{
    if (modulus <= 1)
        throw std::invalid_argument("InverseMod: modulus must be > 1");
    // extended Euclid on signed 128-bit values
    __int128 t = 0, nt = 1, r = modulus, nr = x % modulus;
    while (nr != 0) {
        __int128 q = r / nr, tmp = t - q * nt;
        t = nt, nt = tmp;
        tmp = r - q * nr;
        r = nr, nr = tmp;
    }
    if (r != 1)
        throw std::invalid_argument("InverseMod: " + std::to_string(x) + " has no inverse mod " +
                                    std::to_string(modulus));
    if (t < 0)
        t += modulus;
    return static_cast<uint64_t>(t);
}

bool IsPrimitiveRoot(uint64_t root, uint64_t degree, uint64_t modulus)
{
    if (root == 0 || !IsPowerOfTwo(degree))
        return false;
    // order exactly degree (a power of two) <=> root^(degree/2) = -1
    return PowMod(root, degree / 2, modulus) == modulus - 1;
}

uint64_t GeneratePrimitiveRoot(uint64_t degree, uint64_t modulus)
{
    if (!IsPowerOfTwo(degree) || modulus < 3 || (modulus - 1) % degree != 0)
        throw std::invalid_argument("GeneratePrimitiveRoot: no primitive " +
                                    std::to_string(degree) + "-th root of unity mod " +
                                    std::to_string(modulus));
    // g^((q-1)/degree) has order degree for half of all g (q prime)
    for (uint64_t g = 2; g < modulus; g++) {
        uint64_t r = PowMod(g, (modulus - 1) / degree, modulus);
        if (IsPrimitiveRoot(r, degree, modulus))
            return r;
    }
    throw std::invalid_argument("GeneratePrimitiveRoot: none found (is the modulus prime?)");
}

uint64_t MinimalPrimitiveRoot(uint64_t degree, uint64_t modulus)
{
    // The primitive degree-th roots are r^k for odd k (r any one of them).
    uint64_t r = GeneratePrimitiveRoot(degree, modulus);
    uint64_t r2 = mulmod(r, r, modulus), best = r, cur = r;
    for (uint64_t k = 1; k < degree; k += 2) {
        if (cur < best)
            best = cur;
        cur = mulmod(cur, r2, modulus);
    }
    return best;
}

bool IsPrime(uint64_t n)
{
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2)
        return false;
    for (uint64_t p : bases)
        if (n % p == 0)
            return n == p;
    uint64_t d = n - 1;
    unsigned s = 0;
    for (; !(d & 1); d >>= 1)
        s++;
    for (uint64_t a : bases) {
        uint64_t x = PowMod(a, d, n);
        if (x == 1 || x == n - 1)
            continue;
        bool composite = true;
        for (unsigned i = 1; i < s && composite; i++) {
            x = mulmod(x, x, n);
            if (x == n - 1)
                composite = false;
        }
        if (composite)
            return false;
    }
    return true;
}

std::vector<uint64_t> GeneratePrimes(size_t num_primes, size_t bit_size, bool prefer_small_primes,
                                     size_t ntt_size)
{
    if (bit_size < 2 || bit_size > 62 || ntt_size == 0)
        throw std::invalid_argument("GeneratePrimes: bit_size must be in [2, 62]");
    const uint64_t step = 2 * static_cast<uint64_t>(ntt_size);
    // HEXL's range: [2^bit_size, 2^(bit_size + 1)]
    const uint64_t lo = 1ull << bit_size, hi = (1ull << (bit_size + 1)) - 1;
    std::vector<uint64_t> primes;
    if (prefer_small_primes) {
        for (uint64_t v = (lo + step - 1) / step * step + 1; v <= hi && primes.size() < num_primes;
             v += step)
            if (IsPrime(v))
                primes.push_back(v);
    } else {
        for (uint64_t v = (hi - 1) / step * step + 1; v >= lo && primes.size() < num_primes;
             v -= step) {
            if (IsPrime(v))
                primes.push_back(v);
            if (v < step) /* the next one would wrap */
                break;
        }
    }
    if (primes.size() != num_primes)
        throw std::runtime_error("GeneratePrimes: not enough " + std::to_string(bit_size) +
                                 "-bit primes = 1 mod " + std::to_string(step));
    return primes;
}

} // namespace hexl
} // namespace intel
