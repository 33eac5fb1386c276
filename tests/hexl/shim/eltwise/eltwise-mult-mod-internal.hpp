// eltwise/eltwise-mult-mod-internal.hpp -- test shim: the name Intel HEXL's own unit tests include
// from HEXL's sources, mapped onto cryptopim's libhexl (tests/hexl/hexl_tests.sh builds those tests
// against it).  HEXL's internal "Native" entry points are its portable kernels; here they are the
// public functions they implement.
#pragma once

#include "hexl/eltwise/eltwise-mult-mod.hpp"
#include "util/util-internal.hpp"

namespace intel
{
namespace hexl
{
template <int InputModFactor>
void EltwiseMultModNative(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2,
                          uint64_t n, uint64_t modulus)
{
    EltwiseMultMod(result, operand1, operand2, n, modulus, InputModFactor);
}
} // namespace hexl
} // namespace intel
