/* stdio.h -- DPU printf (virtual UPMEM, SDK names and semantics).
 *
 * printf/puts/putchar append binary records to a ring buffer in MRAM
 * (__stdout_buffer, default 1 MiB __mram_noinit; resize with a file-scope
 * STDOUT_BUFFER_INIT(size), size a multiple of 8). Formatting happens on the
 * host when the log is read (dpu_log_read); all tasklets may print (a runtime
 * lock serializes records). The write position is reset at every boot; a log
 * that wrapped since boot cannot be read back (DPU_ERR_LOG_BUFFER_TOO_SMALL),
 * and a single record larger than the buffer faults the DPU
 * (VDPU_FAULT_PRINTF_OVERFLOW). Conversions: d i u x X o c s p f F e E g G and
 * %%, with flags, width and precision; h/hh/l/ll/j/z/t modifiers.
 *
 * Argument sizes follow the real DPU: `long` is 64-bit there, so %ld/%lu/%lx
 * expect 64-bit values. printf is a macro that records the true type of each
 * argument (with _Generic), so a program written for the hardware
 * (printf("%lu", (uint64_t)x)) and a program written for ILP32 (printf("%ld",
 * (long)x)) both print the right value. %s arguments (char pointers) are
 * copied into the record; the format string itself is recorded by address
 * when it lives in .rodata (copied otherwise). At most 24 arguments.
 * `#undef printf` gives the plain function, which takes sizes from the
 * conversions instead (l = 64-bit, as the SDK). printf returns nothing, as in
 * the SDK (the function form returns 0). */
#ifndef _DPU_STDIO_H_
#define _DPU_STDIO_H_

#include <mram.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define STDOUT_BUFFER_INIT(_size)                                                                  \
    _Static_assert((_size) >= 8 && (_size) % 8 == 0,                                               \
                   "STDOUT_BUFFER_INIT: size must be a non-zero multiple of 8");                   \
    __mram_noinit uint8_t __stdout_buffer[(_size)];                                                \
    const uint32_t __attribute__((used)) __stdout_buffer_size = (_size);

int printf(const char *restrict format, ...);
int puts(const char *str);
int putchar(int c);

/* Runtime entry of the printf macro: desc = nargs | 0x20 (unused) | kind_i << (6 + 2i),
 * kinds 0 = 32-bit, 1 = 64-bit integer, 2 = double, 3 = char pointer (%s copy). */
void __vdpu_printf(uint64_t desc, const char *format, ...);

#define __VDPU_PK(x)                                                                               \
    ((uint64_t) _Generic((x), float : 2u, double : 2u, long long : 1u, unsigned long long : 1u,    \
                         char * : 3u, const char * : 3u, signed char * : 3u,                       \
                         const signed char * : 3u, unsigned char * : 3u,                           \
                         const unsigned char * : 3u, volatile char * : 3u,                         \
                         const volatile char * : 3u, default : 0u))
#define __VDPU_PF1(s, a)       | (__VDPU_PK(a) << (s))
#define __VDPU_PF2(s, a, ...)  __VDPU_PF1(s, a) __VDPU_PF1((s) + 2, __VA_ARGS__)
#define __VDPU_PF3(s, a, ...)  __VDPU_PF1(s, a) __VDPU_PF2((s) + 2, __VA_ARGS__)
#define __VDPU_PF4(s, a, ...)  __VDPU_PF1(s, a) __VDPU_PF3((s) + 2, __VA_ARGS__)
#define __VDPU_PF5(s, a, ...)  __VDPU_PF1(s, a) __VDPU_PF4((s) + 2, __VA_ARGS__)
#define __VDPU_PF6(s, a, ...)  __VDPU_PF1(s, a) __VDPU_PF5((s) + 2, __VA_ARGS__)
#define __VDPU_PF7(s, a, ...)  __VDPU_PF1(s, a) __VDPU_PF6((s) + 2, __VA_ARGS__)
#define __VDPU_PF8(s, a, ...)  __VDPU_PF1(s, a) __VDPU_PF7((s) + 2, __VA_ARGS__)
#define __VDPU_PF9(s, a, ...)  __VDPU_PF1(s, a) __VDPU_PF8((s) + 2, __VA_ARGS__)
#define __VDPU_PF10(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF9((s) + 2, __VA_ARGS__)
#define __VDPU_PF11(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF10((s) + 2, __VA_ARGS__)
#define __VDPU_PF12(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF11((s) + 2, __VA_ARGS__)
#define __VDPU_PF13(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF12((s) + 2, __VA_ARGS__)
#define __VDPU_PF14(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF13((s) + 2, __VA_ARGS__)
#define __VDPU_PF15(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF14((s) + 2, __VA_ARGS__)
#define __VDPU_PF16(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF15((s) + 2, __VA_ARGS__)
#define __VDPU_PF17(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF16((s) + 2, __VA_ARGS__)
#define __VDPU_PF18(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF17((s) + 2, __VA_ARGS__)
#define __VDPU_PF19(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF18((s) + 2, __VA_ARGS__)
#define __VDPU_PF20(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF19((s) + 2, __VA_ARGS__)
#define __VDPU_PF21(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF20((s) + 2, __VA_ARGS__)
#define __VDPU_PF22(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF21((s) + 2, __VA_ARGS__)
#define __VDPU_PF23(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF22((s) + 2, __VA_ARGS__)
#define __VDPU_PF24(s, a, ...) __VDPU_PF1(s, a) __VDPU_PF23((s) + 2, __VA_ARGS__)
/* top level: drop the format, n = number of arguments after it */
#define __VDPU_PT0(f)
#define __VDPU_PT1(f, ...)  __VDPU_PF1(6, __VA_ARGS__)
#define __VDPU_PT2(f, ...)  __VDPU_PF2(6, __VA_ARGS__)
#define __VDPU_PT3(f, ...)  __VDPU_PF3(6, __VA_ARGS__)
#define __VDPU_PT4(f, ...)  __VDPU_PF4(6, __VA_ARGS__)
#define __VDPU_PT5(f, ...)  __VDPU_PF5(6, __VA_ARGS__)
#define __VDPU_PT6(f, ...)  __VDPU_PF6(6, __VA_ARGS__)
#define __VDPU_PT7(f, ...)  __VDPU_PF7(6, __VA_ARGS__)
#define __VDPU_PT8(f, ...)  __VDPU_PF8(6, __VA_ARGS__)
#define __VDPU_PT9(f, ...)  __VDPU_PF9(6, __VA_ARGS__)
#define __VDPU_PT10(f, ...) __VDPU_PF10(6, __VA_ARGS__)
#define __VDPU_PT11(f, ...) __VDPU_PF11(6, __VA_ARGS__)
#define __VDPU_PT12(f, ...) __VDPU_PF12(6, __VA_ARGS__)
#define __VDPU_PT13(f, ...) __VDPU_PF13(6, __VA_ARGS__)
#define __VDPU_PT14(f, ...) __VDPU_PF14(6, __VA_ARGS__)
#define __VDPU_PT15(f, ...) __VDPU_PF15(6, __VA_ARGS__)
#define __VDPU_PT16(f, ...) __VDPU_PF16(6, __VA_ARGS__)
#define __VDPU_PT17(f, ...) __VDPU_PF17(6, __VA_ARGS__)
#define __VDPU_PT18(f, ...) __VDPU_PF18(6, __VA_ARGS__)
#define __VDPU_PT19(f, ...) __VDPU_PF19(6, __VA_ARGS__)
#define __VDPU_PT20(f, ...) __VDPU_PF20(6, __VA_ARGS__)
#define __VDPU_PT21(f, ...) __VDPU_PF21(6, __VA_ARGS__)
#define __VDPU_PT22(f, ...) __VDPU_PF22(6, __VA_ARGS__)
#define __VDPU_PT23(f, ...) __VDPU_PF23(6, __VA_ARGS__)
#define __VDPU_PT24(f, ...) __VDPU_PF24(6, __VA_ARGS__)
#define __VDPU_NARG_(f, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16,     \
                     a17, a18, a19, a20, a21, a22, a23, a24, n, ...)                               \
    n
#define __VDPU_NARG(...)                                                                           \
    __VDPU_NARG_(__VA_ARGS__, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, \
                 6, 5, 4, 3, 2, 1, 0, _)
#define __VDPU_CAT_(a, b)     a##b
#define __VDPU_CAT(a, b)      __VDPU_CAT_(a, b)
#define __VDPU_PDESC_(n, ...) ((uint64_t)(n)__VDPU_CAT(__VDPU_PT, n)(__VA_ARGS__))
#define __VDPU_PDESC(...)     __VDPU_PDESC_(__VDPU_NARG(__VA_ARGS__), __VA_ARGS__)

#define printf(...) __vdpu_printf(__VDPU_PDESC(__VA_ARGS__), __VA_ARGS__)

#endif
