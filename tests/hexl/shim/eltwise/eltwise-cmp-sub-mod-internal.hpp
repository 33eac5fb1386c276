// eltwise/eltwise-cmp-sub-mod-internal.hpp -- test shim: the name Intel HEXL's own unit tests
// include from HEXL's sources, mapped onto cryptopim's libhexl (tests/hexl/hexl_tests.sh builds
// those tests against it).  HEXL's internal "Native" entry points are its portable kernels; here
// they are the public functions they implement.
#pragma once

#include "hexl/eltwise/eltwise-cmp-sub-mod.hpp"

namespace intel
{
namespace hexl
{
inline void EltwiseCmpSubModNative(uint64_t *result, const uint64_t *operand1, uint64_t n,
                                   uint64_t modulus, CMPINT cmp, uint64_t bound, uint64_t diff)
{
    EltwiseCmpSubMod(result, operand1, n, modulus, cmp, bound, diff);
}
} // namespace hexl
} // namespace intel
