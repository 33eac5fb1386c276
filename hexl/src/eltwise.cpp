// eltwise.cpp -- hexl/eltwise/*.hpp: element-wise modular arithmetic on
// 64-bit words, as HEXL's portable code defines each result (its AVX-512
// paths give the same values for the fully reduced outputs).  Products use
// Barrett reduction with mu = floor(2^(2k) / q), k the bit length of q
// (q < 2^62): for x < q^2, t = floor(floor(x / 2^(k-1)) mu / 2^(k+1)) is at
// most 2 below floor(x / q), so x - t q < 3q (Menezes, van Oorschot and
// Vanstone, Handbook of Applied Cryptography, 14.42).
#include <stdexcept>
#include <string>

#include "hexl/eltwise/eltwise-add-mod.hpp"
#include "hexl/eltwise/eltwise-cmp-add.hpp"
#include "hexl/eltwise/eltwise-cmp-sub-mod.hpp"
#include "hexl/eltwise/eltwise-fma-mod.hpp"
#include "hexl/eltwise/eltwise-mult-mod.hpp"
#include "hexl/eltwise/eltwise-reduce-mod.hpp"
#include "hexl/eltwise/eltwise-sub-mod.hpp"

namespace intel
{
namespace hexl
{

namespace
{
using u128 = unsigned __int128;

void need(bool ok, const char *what)
{
    if (!ok)
        throw std::invalid_argument(what);
}

struct Barrett {
    uint64_t q, mu;
    unsigned k;
    explicit Barrett(uint64_t modulus) : q(modulus)
    {
        k = 64u - static_cast<unsigned>(__builtin_clzll(modulus));
        mu = static_cast<uint64_t>((static_cast<u128>(1) << (2 * k)) / modulus);
    }
    // x mod q for x < q^2
    uint64_t reduce(u128 x) const
    {
        u128 t = ((x >> (k - 1)) * mu) >> (k + 1);
        uint64_t r = static_cast<uint64_t>(x) - static_cast<uint64_t>(t) * q;
        r = r >= q ? r - q : r;
        return r >= q ? r - q : r;
    }
};

// x in [0, f q) to [0, q), f a power of two up to 8
inline uint64_t down(uint64_t x, uint64_t q, uint64_t f)
{
    if (f >= 8 && x >= 4 * q)
        x -= 4 * q;
    if (f >= 4 && x >= 2 * q)
        x -= 2 * q;
    if (f >= 2 && x >= q)
        x -= q;
    return x;
}

bool compare(CMPINT cmp, uint64_t lhs, uint64_t rhs)
{
    switch (cmp) {
    case CMPINT::EQ:
        return lhs == rhs;
    case CMPINT::LT:
        return lhs < rhs;
    case CMPINT::LE:
        return lhs <= rhs;
    case CMPINT::FALSE:
        return false;
    case CMPINT::NE:
        return lhs != rhs;
    case CMPINT::NLT:
        return lhs >= rhs;
    case CMPINT::NLE:
        return lhs > rhs;
    case CMPINT::TRUE:
        return true;
    }
    return true;
}
} // namespace

void EltwiseAddMod(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2, uint64_t n,
                   uint64_t modulus)
{
    need(modulus > 1 && modulus < (1ull << 63), "EltwiseAddMod: modulus must be in (1, 2^63)");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t s = operand1[i] + operand2[i];
        result[i] = s >= modulus ? s - modulus : s;
    }
}

void EltwiseAddMod(uint64_t *result, const uint64_t *operand1, uint64_t operand2, uint64_t n,
                   uint64_t modulus)
{
    need(modulus > 1 && modulus < (1ull << 63), "EltwiseAddMod: modulus must be in (1, 2^63)");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t s = operand1[i] + operand2;
        result[i] = s >= modulus ? s - modulus : s;
    }
}

void EltwiseSubMod(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2, uint64_t n,
                   uint64_t modulus)
{
    need(modulus > 1 && modulus < (1ull << 63), "EltwiseSubMod: modulus must be in (1, 2^63)");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t a = operand1[i], b = operand2[i];
        result[i] = a >= b ? a - b : a + (modulus - b);
    }
}

void EltwiseSubMod(uint64_t *result, const uint64_t *operand1, uint64_t operand2, uint64_t n,
                   uint64_t modulus)
{
    need(modulus > 1 && modulus < (1ull << 63), "EltwiseSubMod: modulus must be in (1, 2^63)");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t a = operand1[i];
        result[i] = a >= operand2 ? a - operand2 : a + (modulus - operand2);
    }
}

void EltwiseMultMod(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2,
                    uint64_t n, uint64_t modulus, uint64_t input_mod_factor)
{
    need(modulus > 1 && modulus < (1ull << 62), "EltwiseMultMod: modulus must be in (1, 2^62)");
    need(input_mod_factor == 1 || input_mod_factor == 2 || input_mod_factor == 4,
         "EltwiseMultMod: input_mod_factor must be 1, 2 or 4");
    const Barrett b(modulus);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = down(operand1[i], modulus, input_mod_factor);
        uint64_t y = down(operand2[i], modulus, input_mod_factor);
        result[i] = b.reduce(static_cast<u128>(x) * y);
    }
}

void EltwiseFMAMod(uint64_t *result, const uint64_t *arg1, uint64_t arg2, const uint64_t *arg3,
                   uint64_t n, uint64_t modulus, uint64_t input_mod_factor)
{
    need(modulus > 1 && modulus < (1ull << 61), "EltwiseFMAMod: modulus must be in (1, 2^61)");
    need(input_mod_factor == 1 || input_mod_factor == 2 || input_mod_factor == 4 ||
             input_mod_factor == 8,
         "EltwiseFMAMod: input_mod_factor must be 1, 2, 4 or 8");
    const Barrett b(modulus);
    const uint64_t c = down(arg2, modulus, input_mod_factor);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = down(arg1[i], modulus, input_mod_factor);
        uint64_t r = b.reduce(static_cast<u128>(x) * c);
        if (arg3) { // the addend is in [0, input_mod_factor q) too
            r += down(arg3[i], modulus, input_mod_factor);
            r = r >= modulus ? r - modulus : r;
        }
        result[i] = r;
    }
}

void EltwiseReduceMod(uint64_t *result, const uint64_t *operand, uint64_t n, uint64_t modulus,
                      uint64_t input_mod_factor, uint64_t output_mod_factor)
{
    need(modulus > 1, "EltwiseReduceMod: modulus must be > 1");
    need(input_mod_factor == modulus || input_mod_factor == 1 || input_mod_factor == 2 ||
             input_mod_factor == 4,
         "EltwiseReduceMod: input_mod_factor must be modulus, 1, 2 or 4");
    need(output_mod_factor == 1 || output_mod_factor == 2,
         "EltwiseReduceMod: output_mod_factor must be 1 or 2");
    if (input_mod_factor == output_mod_factor) {
        if (result != operand)
            for (uint64_t i = 0; i < n; i++)
                result[i] = operand[i];
        return;
    }
    const uint64_t twice = modulus << 1;
    if (input_mod_factor == modulus) {
        if (output_mod_factor == 1) {
            for (uint64_t i = 0; i < n; i++)
                result[i] = operand[i] % modulus;
        } else {
            // HEXL's value: a Barrett quotient floor(x floor(2^64 / q) / 2^64),
            // which leaves x - quotient q in [0, 2q).
            const uint64_t barrett = static_cast<uint64_t>((static_cast<u128>(1) << 64) / modulus);
            for (uint64_t i = 0; i < n; i++) {
                uint64_t x = operand[i];
                if (x >= twice) {
                    uint64_t qh = static_cast<uint64_t>((static_cast<u128>(x) * barrett) >> 64);
                    x -= qh * modulus;
                }
                result[i] = x;
            }
        }
        return;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = operand[i];
        if (output_mod_factor == 2)
            x = x >= twice ? x - twice : x; /* input factor 4 */
        else
            x = down(x, modulus, input_mod_factor);
        result[i] = x;
    }
}

void EltwiseCmpAdd(uint64_t *result, const uint64_t *operand1, uint64_t n, CMPINT cmp,
                   uint64_t bound, uint64_t diff)
{
    need(diff != 0, "EltwiseCmpAdd: diff must be non-zero");
    for (uint64_t i = 0; i < n; i++)
        result[i] = compare(cmp, operand1[i], bound) ? operand1[i] + diff : operand1[i];
}

void EltwiseCmpSubMod(uint64_t *result, const uint64_t *operand1, uint64_t n, uint64_t modulus,
                      CMPINT cmp, uint64_t bound, uint64_t diff)
{
    need(modulus > 1, "EltwiseCmpSubMod: modulus must be > 1");
    need(diff != 0 && diff < modulus, "EltwiseCmpSubMod: diff must be in [1, modulus)");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = operand1[i];
        bool hit = compare(cmp, x, bound);
        x %= modulus;
        if (hit)
            x = x >= diff ? x - diff : x + (modulus - diff);
        result[i] = x;
    }
}

} // namespace hexl
} // namespace intel
