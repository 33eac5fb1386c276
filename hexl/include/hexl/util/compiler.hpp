// hexl/util/compiler.hpp -- compiler helpers of the HEXL-compatible API
// (cryptopim's libhexl; see hexl/hexl.hpp).
#pragma once

#define HEXL_UNUSED(x) (void)(x)
#define HEXL_LIKELY(x) __builtin_expect(!!(x), 1)
#define HEXL_UNLIKELY(x) __builtin_expect(!!(x), 0)
