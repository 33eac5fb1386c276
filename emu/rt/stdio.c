/* stdio.c -- DPU side of printf/puts/putchar (stdio.h): binary records in
 * an MRAM ring buffer, formatted later on the host by emu/vdpu/dpulog.c.
 *
 * Record layout (little-endian words, record start and length 8-aligned):
 *   u32 format address (WRAM)
 *   u64 desc: bits 0..4 nargs, bit 5 "format copied", 2-bit kind of
 *       argument i at bit 6 + 2i (0 = u32, 1 = u64, 2 = double bits,
 *       3 = string: u32 pointer then the bytes up to and including NUL,
 *       zero-padded to 4)
 *   [format bytes, NUL, padded to 4, when bit 5 is set]
 *   arguments in order, then zero padding to 8.
 * __stdout_buffer_state.total counts the bytes written since boot; once it
 * exceeds the buffer size the ring has wrapped and the log is unreadable
 * (sticky `wrapped`). The host reads records from offset 0 up to `total`. */
#include <atomic_bit.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../vdpu/abi.h"

#undef printf

extern __mram_ptr uint8_t __stdout_buffer[]; /* stdio_buffer.c or STDOUT_BUFFER_INIT */
extern const uint32_t __stdout_buffer_size;
extern uint8_t __sys_host_begin[]; /* end of .rodata (see dpu.lds) */

/* Read by the host (dpulog.c): keep the layout in sync. */
struct __stdout_state {
    uint32_t total;   /* bytes appended since boot                        */
    uint32_t wrapped; /* 1 once total exceeded the buffer size            */
    uint32_t off;     /* ring offset of the next record                   */
};
struct __stdout_state __stdout_buffer_state;

#define STAGE 128u
static uint8_t stage[STAGE] __attribute__((aligned(8)));
static uint32_t fill;     /* bytes in stage                            */
static uint32_t ring_off; /* ring offset where the stage goes          */
static uint32_t flushed;  /* bytes of the current record already in MRAM */

/* the printf buffer's atomic bit, as the SDK's __stdout_buffer_lock */
static uint8_t __atomic_bit stdout_bit;
#define LOCK_KEY ((uint32_t)&stdout_bit)

/* The helpers below are noinline on purpose: inlined, the printf path grows
 * from ~280 to ~520 instructions of the 4096-instruction IRAM. */

/* Per-boot reset (crt0 runs constructors on tasklet 0 before the others start).
 * The stores are volatile: clang's GlobalOpt would otherwise "evaluate" a
 * constructor that only stores constants into the initial value of the
 * variable and delete it, and the reset would happen only at load time. */
__attribute__((constructor)) static void stdout_boot(void)
{
    volatile uint32_t *s = (volatile uint32_t *)&__stdout_buffer_state;
    s[0] = 0;
    s[1] = 0;
    s[2] = 0;
}

static void overflow(void)
{
    vdpu_ecall2(VDPU_SYS_FAULT, VDPU_FAULT_PRINTF_OVERFLOW,
                (uint32_t) "printf: one record is larger than the whole stdout buffer "
                           "(enlarge it with STDOUT_BUFFER_INIT)");
}

/* Write the first n bytes of the stage (n % 8 == 0) at ring_off, wrapping. */
__attribute__((noinline)) static void flush(uint32_t n)
{
    uint32_t size = __stdout_buffer_size;
    flushed += n;
    if (flushed > size)
        overflow();
    uint32_t room = size - ring_off;
    uint32_t base = (uint32_t)__stdout_buffer;
    if (n < room) {
        vdpu_ecall3(VDPU_SYS_MRAM_WRITE, (uint32_t)stage, base + ring_off, n);
        ring_off += n;
    } else {
        vdpu_ecall3(VDPU_SYS_MRAM_WRITE, (uint32_t)stage, base + ring_off, room);
        if (n > room)
            vdpu_ecall3(VDPU_SYS_MRAM_WRITE, (uint32_t)stage + room, base, n - room);
        ring_off = n - room;
    }
}

__attribute__((noinline)) static void put_word(uint32_t w)
{
    *(uint32_t *)(stage + fill) = w;
    fill += 4;
    if (fill == STAGE) {
        flush(STAGE);
        fill = 0;
    }
}

/* Bytes of s including the NUL, then zero padding to 4. */
__attribute__((noinline)) static void put_str(const char *s)
{
    for (;;) {
        char c = *s++;
        stage[fill++] = (uint8_t)c;
        if (fill == STAGE) {
            flush(STAGE);
            fill = 0;
        }
        if (c == '\0')
            break;
    }
    while (fill & 3u)
        stage[fill++] = 0;
    if (fill == STAGE) {
        flush(STAGE);
        fill = 0;
    }
}

static void vlog(uint64_t desc, const char *format, va_list ap)
{
    __vdpu_acquire(LOCK_KEY);
    ring_off = __stdout_buffer_state.off;
    fill = 0;
    flushed = 0;

    /* The format is recorded by address when it is in .rodata (it cannot
     * change before the host reads the log); otherwise its bytes are copied. */
    int copy = (uint32_t)format < 8u || (uint32_t)format >= (uint32_t)__sys_host_begin;
    if (copy)
        desc |= 0x20u;
    put_word((uint32_t)format);
    put_word((uint32_t)desc);
    put_word((uint32_t)(desc >> 32));
    if (copy)
        put_str(format);

    uint32_t n = (uint32_t)desc & 31u;
    uint64_t kinds = desc >> 6;
    for (uint32_t i = 0; i < n; i++, kinds >>= 2) {
        switch ((uint32_t)kinds & 3u) {
        case 0:
            put_word(va_arg(ap, uint32_t));
            break;
        case 3: {
            const char *s = va_arg(ap, const char *);
            put_word((uint32_t)s);
            put_str(s != NULL ? s : "");
            break;
        }
        default: { /* 64-bit integer or double: same slot under ILP32 soft-float */
            uint64_t v = va_arg(ap, uint64_t);
            put_word((uint32_t)v);
            put_word((uint32_t)(v >> 32));
            break;
        }
        }
    }
    if (fill & 4u)
        put_word(0);
    if (fill != 0)
        flush(fill);

    uint32_t total = __stdout_buffer_state.total + flushed;
    if (total < flushed || total > __stdout_buffer_size)
        __stdout_buffer_state.wrapped = 1;
    __stdout_buffer_state.total = total;
    __stdout_buffer_state.off = ring_off;
    __vdpu_release(LOCK_KEY);
}

/* see stdio.h */
void __vdpu_printf(uint64_t desc, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vlog(desc, format, ap);
    va_end(ap);
}

/* see stdio.h: the plain function derives argument sizes from the format,
 * as the SDK does (l, ll, L, j = 64-bit). */
int printf(const char *restrict format, ...)
{
    uint64_t desc = 0;
    uint32_t n = 0;
    for (const char *p = format; *p != '\0' && n < 24; p++) {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        uint32_t wide = 0;
        for (; *p != '\0'; p++) {
            char c = *p;
            if (c == '*') {
                n++; /* width/precision argument: an int */
            } else if (c == 'l' || c == 'L' || c == 'j' || c == 'q') {
                wide = 1;
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
                break;
            }
        }
        if (*p == '\0' || n >= 24)
            break;
        uint64_t kind;
        switch (*p) {
        case 's':
            kind = 3;
            break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A':
            kind = 2;
            break;
        case 'n':
            continue;
        default:
            kind = wide;
            break;
        }
        desc |= kind << (6 + 2 * n);
        n++;
    }
    desc |= n;
    va_list ap;
    va_start(ap, format);
    vlog(desc, format, ap);
    va_end(ap);
    return 0;
}

/* see stdio.h */
int puts(const char *str)
{
    __vdpu_printf(1u | (3u << 6), "%s\n", str);
    return 0;
}

/* see stdio.h */
int putchar(int c)
{
    __vdpu_printf(1u, "%c", c);
    return c;
}
