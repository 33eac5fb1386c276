// hexl/eltwise/eltwise-reduce-mod.hpp -- result[i] = operand[i] reduced into
// [0, output_mod_factor * modulus) (output_mod_factor 1 or 2).  The operand
// is in [0, input_mod_factor * modulus) for input_mod_factor 2 or 4, or any
// 64-bit value when input_mod_factor == modulus.  Equal factors copy.  This
// implementation returns fully reduced values for output factor 1, and for
// output factor 2 the value HEXL's portable code gives (x mod 2q for inputs
// below 4q, else a value below 2q congruent to x).  In place is allowed.
#pragma once

#include <stdint.h>

namespace intel
{
namespace hexl
{

void EltwiseReduceMod(uint64_t *result, const uint64_t *operand, uint64_t n, uint64_t modulus,
                      uint64_t input_mod_factor, uint64_t output_mod_factor);

} // namespace hexl
} // namespace intel
