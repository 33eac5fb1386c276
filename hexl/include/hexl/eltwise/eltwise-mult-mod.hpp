// hexl/eltwise/eltwise-mult-mod.hpp -- result[i] = operand1[i] * operand2[i]
// mod modulus, in [0, modulus).  Operands in [0, input_mod_factor *
// modulus), input_mod_factor 1, 2 or 4; 1 < modulus < 2^62; n > 0.  In
// place is allowed.
#pragma once

#include <stdint.h>

namespace intel
{
namespace hexl
{

void EltwiseMultMod(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2,
                    uint64_t n, uint64_t modulus, uint64_t input_mod_factor);

} // namespace hexl
} // namespace intel
