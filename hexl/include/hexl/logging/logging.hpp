// hexl/logging/logging.hpp -- HEXL's logging macros.  cryptopim's libhexl
// never prints: HEXL_VLOG evaluates nothing.
#pragma once

#define HEXL_VLOG(N, rest)                                                                         \
    do {                                                                                           \
    } while (0)
