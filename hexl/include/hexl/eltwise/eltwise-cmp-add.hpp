// hexl/eltwise/eltwise-cmp-add.hpp -- result[i] = operand1[i] + diff where
// `operand1[i] cmp bound` holds, else operand1[i] (no reduction; diff != 0).
#pragma once

#include <stdint.h>

#include "hexl/util/util.hpp"

namespace intel
{
namespace hexl
{

void EltwiseCmpAdd(uint64_t *result, const uint64_t *operand1, uint64_t n, CMPINT cmp,
                   uint64_t bound, uint64_t diff);

} // namespace hexl
} // namespace intel
