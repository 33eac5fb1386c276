/* libgcc.c -- compiler support routines clang emits calls to on rv32im:
 * 64-bit division/remainder. (32-bit mul/div are native M instructions and
 * 64-bit multiply is inlined.) Soft-float is not provided. */
#include <stdint.h>

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
    if (d == 0) {
        /* division by zero faults the DPU, like 32-bit division */
        volatile uint32_t z = 0;
        (void)(1u / z);
        return 0;
    }
    if ((d >> 32) == 0 && (n >> 32) == 0) {
        uint32_t q = (uint32_t)n / (uint32_t)d;
        if (rem)
            *rem = (uint32_t)n - q * (uint32_t)d;
        return q;
    }
    uint64_t q = 0, r = 0;
    int top = 63 - __builtin_clzll(n | 1);
    for (int i = top; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1);
        if (r >= d) {
            r -= d;
            q |= (uint64_t)1 << i;
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
