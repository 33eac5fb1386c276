// eltwise/eltwise-fma-mod-internal.hpp -- test shim: the name Intel HEXL's own unit tests include
// from HEXL's sources, mapped onto cryptopim's libhexl (tests/hexl/hexl_tests.sh builds those tests
// against it).  HEXL's internal "Native" entry points are its portable kernels; here they are the
// public functions they implement.
#pragma once

#include "hexl/eltwise/eltwise-fma-mod.hpp"

namespace intel
{
namespace hexl
{
template <int InputModFactor>
void EltwiseFMAModNative(uint64_t *result, const uint64_t *arg1, uint64_t arg2,
                         const uint64_t *arg3, uint64_t n, uint64_t modulus)
{
    EltwiseFMAMod(result, arg1, arg2, arg3, n, modulus, InputModFactor);
}
} // namespace hexl
} // namespace intel
