// hexl/hexl.hpp -- cryptopim's implementation of the Intel HEXL 1.2 API
// (namespace intel::hexl): the negacyclic NTT (hexl/ntt/ntt.hpp), the
// element-wise modular operations (hexl/eltwise/), and the number theory
// their callers use (hexl/number-theory/).  Microsoft SEAL built with
// SEAL_USE_INTEL_HEXL=ON runs on it unchanged.  The NTT runs on
// cryptopim's NTT kernels, on the CPU or on UPMEM DPUs: the backend is
// chosen in hexl/cryptopim.hpp.  docs/HEXL.md has what is and is not
// covered.
#pragma once

#include "hexl/cryptopim.hpp"
#include "hexl/eltwise/eltwise-add-mod.hpp"
#include "hexl/eltwise/eltwise-cmp-add.hpp"
#include "hexl/eltwise/eltwise-cmp-sub-mod.hpp"
#include "hexl/eltwise/eltwise-fma-mod.hpp"
#include "hexl/eltwise/eltwise-mult-mod.hpp"
#include "hexl/eltwise/eltwise-reduce-mod.hpp"
#include "hexl/eltwise/eltwise-sub-mod.hpp"
#include "hexl/logging/logging.hpp"
#include "hexl/ntt/ntt.hpp"
#include "hexl/number-theory/number-theory.hpp"
#include "hexl/util/allocator.hpp"
#include "hexl/util/check.hpp"
#include "hexl/util/compiler.hpp"
#include "hexl/util/defines.hpp"
#include "hexl/util/types.hpp"
#include "hexl/util/util.hpp"
