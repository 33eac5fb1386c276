/* libgcc.c -- the integer helper routines clang calls for DPU code, which is
 * compiled without RV32's M extension (as the DPU has no multiplier or
 * divider): the DPU runtime's algorithms (SDK compiler-rt, upmem/llvm-project
 * compiler-rt/lib/builtins/dpu: mulsi3, udiv32, div32, muldi3, udiv64), with
 * the DPU's own instructions where the SDK uses them, so their instruction
 * counts come out of execution. __mulsi3, the 32-bit division core and the
 * signed 32-bit divisions are in muldiv.S. Soft-float is softfloat.c. */
#include <built_ins.h>
#include <stdint.h>

#include "../vdpu/abi.h"

_Static_assert(VDPU_SYS_FAULT == 1 && VDPU_FAULT_DIV_ZERO == 2, "muldiv.S uses these numbers");

/* muldiv.S: quotient in the low word, remainder in the high word; faults on
 * a zero divisor */
uint64_t __vdpu_udiv32(uint32_t n, uint32_t d);

uint32_t __umodsi3(uint32_t n, uint32_t d);

/* __udivsi3 is __vdpu_udiv32 itself (muldiv.S) */

uint32_t __umodsi3(uint32_t n, uint32_t d)
{
    return (uint32_t)(__vdpu_udiv32(n, d) >> 32);
}

/* __divsi3 and __modsi3 are in muldiv.S (the SDK's __div32 structure) */

/* 64 x 64 -> 64 as a polynomial in bytes: byte i of x times byte j of y for
 * i + j <= 7, each an 8x8 mul_u?_u? instruction (the SDK's muldi3) */
#define B8(w, k) ((k) >= 2 ? (w) >> 16 : (w)) /* the half-word holding byte k */
#define P(xw, i, yw, j)                                                                            \
    ({                                                                                             \
        uint32_t __p;                                                                              \
        if (((i)&1) == 0 && ((j)&1) == 0)                                                          \
            __builtin_mul_ul_ul_rrr(__p, B8(xw, i), B8(yw, j));                                    \
        else if (((i)&1) == 0)                                                                     \
            __builtin_mul_ul_uh_rrr(__p, B8(xw, i), B8(yw, j));                                    \
        else if (((j)&1) == 0)                                                                     \
            __builtin_mul_uh_ul_rrr(__p, B8(xw, i), B8(yw, j));                                    \
        else                                                                                       \
            __builtin_mul_uh_uh_rrr(__p, B8(xw, i), B8(yw, j));                                    \
        __p;                                                                                       \
    })
/* byte i (0..7) of x times byte j of y */
#define XY(i, j) P((i) < 4 ? xl : xh, (i) % 4, (j) < 4 ? yl : yh, (j) % 4)
/* the same, masked to the 16 bits an 8x8 product has: a no-op on the value,
 * but the SDK's compiled muldi3 (librt, disassembled) masks 28 of its 36
 * products with `and r, r, 0xffff`, so the mask is kept where it has one and
 * the routine costs what the SDK's costs (123 instructions, no branches) */
#define XM(i, j) ((uint32_t)(uint16_t)XY(i, j))

uint64_t __muldi3(uint64_t x, uint64_t y);
uint64_t __muldi3(uint64_t x, uint64_t y)
{
    uint32_t xl = (uint32_t)x, xh = (uint32_t)(x >> 32);
    uint32_t yl = (uint32_t)y, yh = (uint32_t)(y >> 32);
    uint32_t p0 = XM(0, 0);
    uint32_t p1 = XM(0, 1) + XM(1, 0);
    uint32_t p2 = XM(0, 2) + XM(2, 0) + XM(1, 1);
    uint32_t p3 = XM(0, 3) + XM(3, 0) + XM(1, 2) + XM(2, 1);
    uint32_t p4 = XM(0, 4) + XM(4, 0) + XM(1, 3) + XM(3, 1) + XM(2, 2);
    uint32_t p5 = XM(0, 5) + XM(5, 0) + XM(1, 4) + XM(4, 1) + XM(2, 3) + XM(3, 2);
    uint32_t p6 = XM(0, 6) + XM(6, 0) + XM(1, 5) + XY(5, 1) + XY(2, 4) + XY(4, 2) + XY(3, 3);
    uint32_t p7 =
        XM(0, 7) + XM(7, 0) + XM(1, 6) + XM(6, 1) + XY(2, 5) + XY(5, 2) + XY(3, 4) + XY(4, 3);
    uint64_t lo = p0 + ((uint64_t)p1 << 8) + ((uint64_t)p2 << 16) + ((uint64_t)p3 << 24);
    uint32_t hi = p4 + (p5 << 8) + (p6 << 16) + (p7 << 24);
    return lo + ((uint64_t)hi << 32);
}

/* 64-bit division: the SDK's udiv64 loop (one shift-compare-subtract step per
 * quotient bit from clz(d) - clz(n) down to 0; no div_step, which is 32-bit) */
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
    if (d == 0) {
        /* division by zero faults the DPU, like 32-bit division */
        __vdpu_udiv32(1, 0);
        return 0;
    }
    if (d > n) {
        if (rem)
            *rem = n;
        return 0;
    }
    uint64_t r = n, q = 0;
    for (int i = __builtin_clzll(d) - __builtin_clzll(n); i >= 0; i--) {
        uint64_t pivot = d << i;
        if (r >= pivot) {
            r -= pivot;
            q = (q << 1) | 1;
        } else {
            q <<= 1;
        }
    }
    if (rem)
        *rem = r;
    return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
    return __udivmoddi4(n, d, 0);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    __udivmoddi4(n, d, &r);
    return r;
}

int64_t __divdi3(int64_t n, int64_t d)
{
    uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
    uint64_t ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
    uint64_t q = __udivmoddi4(un, ud, 0);
    return (int64_t)(((n < 0) != (d < 0)) ? -q : q);
}

int64_t __moddi3(int64_t n, int64_t d)
{
    uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
    uint64_t ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
    uint64_t r;
    __udivmoddi4(un, ud, &r);
    return (int64_t)(n < 0 ? -r : r);
}
