// hexl/eltwise/eltwise-fma-mod.hpp -- result[i] = arg1[i] * arg2 + arg3[i]
// mod modulus, in [0, modulus); arg3 may be nullptr (then no addend).
// arg1 in [0, input_mod_factor * modulus) (factor 1, 2, 4 or 8), arg2 and
// arg3 in [0, modulus); 1 < modulus < 2^61; n > 0.  In place is allowed.
#pragma once

#include <stdint.h>

namespace intel
{
namespace hexl
{

void EltwiseFMAMod(uint64_t *result, const uint64_t *arg1, uint64_t arg2, const uint64_t *arg3,
                   uint64_t n, uint64_t modulus, uint64_t input_mod_factor);

} // namespace hexl
} // namespace intel
