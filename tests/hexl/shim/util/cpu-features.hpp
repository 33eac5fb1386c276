// util/cpu-features.hpp -- test shim: the name Intel HEXL's own unit tests include from
// HEXL's sources, mapped onto cryptopim's libhexl (tests/hexl/hexl_tests.sh
// builds those tests against it).  HEXL's internal "Native" entry points are
// its portable kernels; here they are the public functions they implement.
#pragma once

// No AVX-512 kernels of HEXL here: the tests take their portable branches.
static const bool has_avx512dq = false;
static const bool has_avx512ifma = false;
static const bool has_avx512vbmi2 = false;
