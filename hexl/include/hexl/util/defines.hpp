// hexl/util/defines.hpp -- the build's features, as HEXL's configured
// header names them.  cryptopim's libhexl picks its vector kernels at run
// time (CPUID, inside libcryptopim), so none of HEXL's compile-time AVX-512
// switches is set: code that tests them takes its portable path.
#pragma once

#define HEXL_VERSION_MAJOR 1
#define HEXL_VERSION_MINOR 2
#define HEXL_VERSION_PATCH 6
// cryptopim's implementation of the API (not Intel's)
#define HEXL_CRYPTOPIM 1
