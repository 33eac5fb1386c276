/* printf_cases.h -- printf calls shared by the DPU program (dpu_printf.c) and
 * the host check (rt_run.c), which formats the same list with its own
 * snprintf. Every format here means the same on the host (LP64) and on the
 * DPU. */
#define PRINTF_CASES(X)                                                                            \
    X("plain text\n")                                                                              \
    X("d=%d i=%i neg=%d\n", 42, -7, -2147483647 - 1)                                               \
    X("u=%u x=%x X=%X o=%o\n", 4000000000u, 0xbeefu, 0xABCDu, 0755u)                               \
    X("c=%c%c%c pct=%%\n", 'a', 'Z', '!')                                                          \
    X("s=[%s] [%10s] [%-6s] [%.2s]\n", "hello", "right", "left", "truncate")                       \
    X("w=[%5d] [%-5d] [%05d] [%+d] [% d] [%#x] [%#o]\n", 42, 42, 42, 42, 42, 255u, 8u)             \
    X("ll=%lld llu=%llu llx=%llx\n", -1234567890123LL, 18446744073709551615ULL,                    \
      0x123456789abcdefULL)                                                                        \
    X("l=%ld lu=%lu\n", -5L, 7UL)                                                                  \
    X("u64=%lu i64=%ld\n", (uint64_t)10000000000ULL, (int64_t)-10000000000LL)                      \
    X("h=%hd hh=%hhu\n", 70000, 300)                                                               \
    X("f=%f e=%e E=%E g=%g\n", 3.14159, 12345.678, -0.000123, 0.5)                                 \
    X("prec=%.3f %10.2f %-8.1e|\n", 2.0 / 3.0, -1.5, 1e10)                                         \
    X("star=[%*d] [%.*f]\n", 6, 17, 2, 1.23456)                                                    \
    X("many %d %d %d %d %d %d %d %d %d %d %s %lld\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "end",        \
      (long long)11)
