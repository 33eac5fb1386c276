// hexl/eltwise/eltwise-cmp-sub-mod.hpp -- for each element x = operand1[i]
// mod modulus: result[i] = x - diff mod modulus where `operand1[i] cmp
// bound` holds, else x.  diff in [1, modulus).
#pragma once

#include <stdint.h>

#include "hexl/util/util.hpp"

namespace intel
{
namespace hexl
{

void EltwiseCmpSubMod(uint64_t *result, const uint64_t *operand1, uint64_t n, uint64_t modulus,
                      CMPINT cmp, uint64_t bound, uint64_t diff);

} // namespace hexl
} // namespace intel
