// hexl/util/compiler.hpp -- compiler helpers of the HEXL-compatible API
// (cryptopim's libhexl; see hexl/hexl.hpp).
#pragma once

#include <cstdint>

#include "hexl/util/types.hpp"

#define HEXL_UNUSED(x)     (void)(x)
#define HEXL_LOOP_UNROLL_4 _Pragma("GCC unroll 4")
#define HEXL_LOOP_UNROLL_8 _Pragma("GCC unroll 8")
#define HEXL_LIKELY(x)     __builtin_expect(!!(x), 1)
#define HEXL_UNLIKELY(x)   __builtin_expect(!!(x), 0)

namespace intel
{
namespace hexl
{

// x * y as a 128-bit number
inline uint128_t MultiplyUInt64(uint64_t x, uint64_t y)
{
    return uint128_t(x) * y;
}

// x * y: the high 64 bits in *prod_hi, the low ones in *prod_lo
inline void MultiplyUInt64(uint64_t x, uint64_t y, uint64_t *prod_hi, uint64_t *prod_lo)
{
    uint128_t p = MultiplyUInt64(x, y);
    *prod_hi = static_cast<uint64_t>(p >> 64);
    *prod_lo = static_cast<uint64_t>(p);
}

// (x * y) >> BitShift, as 64 bits
template <int BitShift> inline uint64_t MultiplyUInt64Hi(uint64_t x, uint64_t y)
{
    return static_cast<uint64_t>(MultiplyUInt64(x, y) >> BitShift);
}

// The low 64 bits of (x1 * 2^64 + x0) / y
inline uint64_t DivideUInt128UInt64Lo(uint64_t x1, uint64_t x0, uint64_t y)
{
    return static_cast<uint64_t>(((uint128_t(x1) << 64) | x0) / y);
}

// (input_hi * 2^64 + input_lo) mod modulus
inline uint64_t BarrettReduce128(uint64_t input_hi, uint64_t input_lo, uint64_t modulus)
{
    return static_cast<uint64_t>(((uint128_t(input_hi) << 64) | input_lo) % modulus);
}

// The index of the most significant set bit (input > 0)
inline uint64_t MSB(uint64_t input)
{
    return 63u - static_cast<uint64_t>(__builtin_clzll(input));
}

} // namespace hexl
} // namespace intel
