/*
 * ntt_mul.h -- word-modulus (q < 2^31) modular arithmetic for NTT DPU
 * kernels, built from the DPU's 8x8 multiplies (mul_ul_ul ... mul_uh_uh:
 * byte 0 or 1 of each operand, one instruction each).  The reasoning and
 * the instruction counts are in docs/NTT.md, "Multiplication from 8x8
 * products"; these are the forms dpu/ntt.c uses, in a header so that a
 * second kernel (dpu/ntt_r2.c, the 1D radix-2 comparison) runs exactly the
 * same multiply and the comparison measures only the data layout.
 * Include after <built_ins.h>.
 */
#ifndef CPIM_DPU_NTT_MUL_H
#define CPIM_DPU_NTT_MUL_H

#include <built_ins.h>
#include <stdint.h>

#define NTT_INLINE static inline __attribute__((always_inline))

/* (x mod 2^16) (y mod 2^16): 4 byte products + 3 lsl_add = 7 instructions. */
NTT_INLINE uint32_t ntt_m16(uint32_t x, uint32_t y)
{
    uint32_t p, a, b, c;
    __builtin_mul_ul_ul_rrr(p, x, y);
    __builtin_mul_ul_uh_rrr(a, x, y);
    __builtin_mul_uh_ul_rrr(b, x, y);
    __builtin_mul_uh_uh_rrr(c, x, y);
    __builtin_lsl_add_rrri(p, p, a, 8);
    __builtin_lsl_add_rrri(p, p, b, 8);
    __builtin_lsl_add_rrri(p, p, c, 16);
    return p;
}

/* The low 16 bits of (xh mod 2^16)(y mod 2^16) + (x mod 2^16)(yh mod 2^16)
 * (bits above them are don't-care: the caller shifts them out): the byte
 * products whose weight is < 2^16, 11 instructions. */
NTT_INLINE uint32_t ntt_cross16(uint32_t x, uint32_t xh, uint32_t y, uint32_t yh)
{
    uint32_t p, a, b, c, d, e;
    __builtin_mul_ul_ul_rrr(p, xh, y);
    __builtin_mul_ul_uh_rrr(a, xh, y);
    __builtin_mul_uh_ul_rrr(b, xh, y);
    __builtin_mul_ul_ul_rrr(c, x, yh);
    __builtin_mul_ul_uh_rrr(d, x, yh);
    __builtin_mul_uh_ul_rrr(e, x, yh);
    p += c;
    __builtin_lsl_add_rrri(p, p, a, 8);
    __builtin_lsl_add_rrri(p, p, b, 8);
    __builtin_lsl_add_rrri(p, p, d, 8);
    __builtin_lsl_add_rrri(p, p, e, 8);
    return p;
}

/* x y mod 2^32 (xh = x >> 16, yh = y >> 16): 19 instructions. */
NTT_INLINE uint32_t ntt_mullo(uint32_t x, uint32_t xh, uint32_t y, uint32_t yh)
{
    uint32_t r;
    __builtin_lsl_add_rrri(r, ntt_m16(x, y), ntt_cross16(x, xh, y, yh), 16);
    return r;
}

/* floor(x y / 2^32): the four 16x16 products and their carries, 33 instructions. */
NTT_INLINE uint32_t ntt_mulhi(uint32_t x, uint32_t xh, uint32_t y, uint32_t yh)
{
    uint32_t ll = ntt_m16(x, y), hl = ntt_m16(xh, y), lh = ntt_m16(x, yh), hh = ntt_m16(xh, yh);
    uint32_t m, r;
    __builtin_lsr_add_rrri(m, hl, ll, 16); /* < 2^32 */
    m += lh;
    uint32_t c = m < lh;
    __builtin_lsr_add_rrri(r, hh, m, 16);
    __builtin_lsl_add_rrri(r, r, c, 16);
    return r;
}

/* x - q if x >= q, for x < 2q, q < 2^31: sub + minu, no branch (the
 * kernels' time must not depend on the data: sampled timing runs). */
NTT_INLINE uint32_t ntt_csub(uint32_t x, uint32_t q)
{
    uint32_t t = x - q;
    return t < x ? t : x;
}

/* Shoup: w b mod q for any b < 2^32, w < q, wp = floor(w 2^32 / q)
 * (wh, wph, qh: the high halves): 76 instructions. */
NTT_INLINE uint32_t ntt_shoup(uint32_t b, uint32_t w, uint32_t wh, uint32_t wp, uint32_t wph,
                              uint32_t q, uint32_t qh)
{
    uint32_t bh = b >> 16;
    uint32_t qe = ntt_mulhi(wp, wph, b, bh);
    uint32_t r = ntt_mullo(w, wh, b, bh) - ntt_mullo(qe, qe >> 16, q, qh);
    return ntt_csub(r, q);
}

#endif /* CPIM_DPU_NTT_MUL_H */
