// eltwise/eltwise-reduce-mod-internal.hpp -- test shim: the name Intel HEXL's own unit tests
// include from HEXL's sources, mapped onto cryptopim's libhexl (tests/hexl/hexl_tests.sh builds
// those tests against it).  HEXL's internal "Native" entry points are its portable kernels; here
// they are the public functions they implement.
#pragma once

#include "hexl/eltwise/eltwise-reduce-mod.hpp"

namespace intel
{
namespace hexl
{
inline void EltwiseReduceModNative(uint64_t *result, const uint64_t *operand, uint64_t n,
                                   uint64_t modulus, uint64_t input_mod_factor,
                                   uint64_t output_mod_factor)
{
    EltwiseReduceMod(result, operand, n, modulus, input_mod_factor, output_mod_factor);
}
} // namespace hexl
} // namespace intel
