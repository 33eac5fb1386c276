// hexl/logging/logging.hpp -- HEXL's logging macros.  cryptopim's libhexl
// never prints: HEXL_VLOG evaluates nothing.
#pragma once

#define HEXL_VLOG(N, rest)                                                                         \
    do {                                                                                           \
    } while (0)
// HEXL's logging start-up hook (easylogging++ there): nothing to start here.
#define START_EASYLOGGINGPP(argc, argv)                                                            \
    do {                                                                                           \
        (void)(argc);                                                                              \
        (void)(argv);                                                                              \
    } while (0)
