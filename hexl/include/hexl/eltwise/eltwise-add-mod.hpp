// hexl/eltwise/eltwise-add-mod.hpp -- result[i] = operand1[i] + operand2[i]
// mod modulus, operands in [0, modulus), 1 < modulus < 2^63, n > 0; the
// scalar form adds operand2 to every element.  In place is allowed.
#pragma once

#include <stdint.h>

namespace intel
{
namespace hexl
{

void EltwiseAddMod(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2, uint64_t n,
                   uint64_t modulus);
void EltwiseAddMod(uint64_t *result, const uint64_t *operand1, uint64_t operand2, uint64_t n,
                   uint64_t modulus);

} // namespace hexl
} // namespace intel
