/*
 * ntt.c -- negacyclic NTT, pointwise product, polynomial product and the
 * ciphertext tensor product on a DPU, every op in ONE launch: word moduli
 * (q < 2^31; program ntt-tN), or with -DNTT_DWORD double-word ones (q <
 * 2^62; program ntt64-tN: the arithmetic in "double-word arithmetic"
 * below, the rest shared).  Contract with the host: ntt_args.h.  The
 * reasoning (the multiply, the reduction and the instruction bound) is in
 * docs/NTT.md, "DPU kernel".  What follows describes the word program.
 *
 * Arithmetic.  The DPU multiplies 8x8 bits (mul_ul_ul ... mul_uh_uh: byte 0
 * or 1 of each register); a 16x16 product is 4 of them summed with
 * lsl_add (7 instructions).  The twiddle multiply is Shoup's: with w' =
 * floor(w 2^32 / q) precomputed, qe = hi32(w' b) and r = lo32(w b) -
 * lo32(qe q) is w b mod q or that + q (one conditional subtraction).  hi32
 * takes all four 16x16 products (33 instructions), a lo32 only the low
 * one and the low halves of the cross ones (19).  Products of two
 * variables (pointwise) are Montgomery's REDC on the 62-bit product; the
 * 2^-32 it leaves is folded into the inverse's N^-1 (polynomial and tensor
 * products) or undone by one Shoup multiply (the pointwise op).  All values
 * stay in [0, q).
 *
 * Layout.  A polynomial stays in MRAM; a transform is done in passes, each
 * a group of consecutive stages over WRAM blocks of M = 2^LOG_M
 * coefficients: the last log_m stages on contiguous blocks, the earlier
 * ones on blocks of 2^k rows of c = M / 2^k coefficients N / 2^(s0+k)
 * apart (a four-step/2D decomposition; ntt_passes()).  Inside a block a
 * pass is a size-M radix-2 transform whose twiddles are 2^j consecutive
 * entries of the table per stage j, one DMA each.
 *
 * Sharing: NTT_SCHED_COOP hands out (polynomial, block) pairs of a pass
 * round robin, with a barrier between passes; NTT_SCHED_TASKLET gives
 * each tasklet whole items (a polynomial, or a product's operands) from
 * the first pass to the last, with no barrier.
 *
 * Nothing here is secret (NTT data is not key material): nothing is wiped.
 */
#include <barrier.h>
#include <built_ins.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "dpu_lib.h"
#include "ntt_args.h"
#include "ntt_mul.h"
#include "ntt_wide.h"

#ifdef NTT_DWORD
/* 8-byte coefficients: blocks of 128 (64 above 16 tasklets) keep the two
 * buffers at 2 KiB per tasklet, 32 KiB at 16 tasklets, as the word program. */
#define LOG_M_MAX ((NR_TASKLETS) <= 16 ? 7u : 6u)
typedef uint64_t coef;
typedef struct ntt_limb64 limb_t;
__host struct ntt_job_args64 NTT_JOB_SYM;
#else
#define LOG_M_MAX ((NR_TASKLETS) <= 16 ? 8u : 7u)
typedef uint32_t coef;
typedef struct ntt_limb limb_t;
__host struct ntt_job_args NTT_JOB_SYM;
#endif
#define M_MAX (1u << LOG_M_MAX)

/* One MRAM variable so that DPU_MRAM_HEAP_POINTER is right (as dpu/sha256.c). */
__mram_noinit uint64_t ntt_mram_anchor;

static __dma_aligned coef dbuf[NR_TASKLETS][M_MAX]; /* data block */
static __dma_aligned coef tbuf[NR_TASKLETS][M_MAX]; /* twiddles, or a second operand */
DPU_WRAM_CHECK(sizeof dbuf + sizeof tbuf);

BARRIER_INIT(pass_done, NR_TASKLETS);

/* ---- arithmetic from 8x8 products (the word pieces: ntt_mul.h) -------------------- */

/* The full product: *hi:*lo = x y (35 instructions). */
static inline __attribute__((always_inline)) void mul64(uint32_t x, uint32_t xh, uint32_t y,
                                                        uint32_t yh, uint32_t *hi, uint32_t *lo)
{
    uint32_t ll = ntt_m16(x, y), hl = ntt_m16(xh, y), lh = ntt_m16(x, yh), hh = ntt_m16(xh, yh);
    uint32_t mid = hl + lh, c1 = mid < hl, l, h;
    __builtin_lsl_add_rrri(l, ll, mid, 16);
    uint32_t c2 = l < ll;
    __builtin_lsr_add_rrri(h, hh, mid, 16);
    __builtin_lsl_add_rrri(h, h, c1, 16);
    *hi = h + c2;
    *lo = l;
}

#ifndef NTT_DWORD
/* Montgomery: (hi:lo) 2^-32 mod q for hi:lo < q 2^32, qinv = -q^-1 mod 2^32. */
static inline __attribute__((always_inline)) uint32_t
redc(uint32_t hi, uint32_t lo, uint32_t q, uint32_t qh, uint32_t qinv, uint32_t qinvh)
{
    uint32_t m = ntt_mullo(lo, lo >> 16, qinv, qinvh);
    /* lo + lo32(m q) = 0 mod 2^32: it carries exactly when lo != 0 */
    uint32_t u = hi + ntt_mulhi(m, m >> 16, q, qh) + (lo != 0);
    return ntt_csub(u, q);
}
#endif

#ifdef NTT_DWORD
/* ---- double-word arithmetic (q < 2^62) --------------------------------------------- *
 *
 * A 64-bit value is two words x0 (low), x1 (high); the arithmetic takes the
 * words and their high halves (x >> 16) as the 32-bit pieces above do.  The
 * twiddle multiply is Shoup's, as in the word program, with w' = floor(w 2^64
 * / q): the twiddle is fixed per group, so w' costs nothing at run time, and
 * a multiply is one (approximate) high product and two low products of 64x64
 * bits.  Montgomery would take a full 128-bit product (4 full 32x32
 * products) plus a low and an exact high product: ~1.4x Shoup's count.
 * Products of two variables (pointwise, tensor) are Montgomery's REDC with
 * R = 2^64, as the word program's with R = 2^32.
 *
 * Laziness (Harvey 2014): q < 2^62 leaves 4q < 2^64, so the forward keeps
 * values in [0, 4q), the inverse in [0, 2q); only the transform's output
 * is reduced to [0, q).  The high product leaves out the low words' product
 * (< 2^64), so qe is floor(w' b / 2^64) or one less and w b - qe q is in
 * [0, 3q) (the exact Shoup result is in [0, 2q)): one conditional
 * subtraction of 2q brings it to [0, 2q); that costs ~7 instructions
 * against the 33 of the left-out high product.
 */
typedef struct {
    uint32_t x0, x0h, x1, x1h;
} w64;

static inline __attribute__((always_inline)) w64 split(uint64_t x)
{
    w64 r = {(uint32_t)x, (uint32_t)x >> 16, (uint32_t)(x >> 32), (uint32_t)(x >> 48)};
    return r;
}

static inline __attribute__((always_inline)) uint64_t wide32(uint32_t hi, uint32_t lo)
{
    return (uint64_t)hi << 32 | lo;
}

/* x - m if x >= m, for |x - m| < 2^63: 7 instructions (sub/subc, the
 * sign as a mask, two ands, add/addc), no branch: the empty asm hides the
 * mask from clang, which would otherwise turn the select into a
 * data-dependent branch (the kernel's time would depend on the data). */
static inline __attribute__((always_inline)) uint64_t csub64(uint64_t x, uint64_t m)
{
    const uint64_t t = x - m;
    uint32_t mk = (uint32_t)((int32_t)(t >> 32) >> 31);
    __asm__("" : "+r"(mk));
    return t + wide32((uint32_t)(m >> 32) & mk, (uint32_t)m & mk);
}

/* a b mod 2^64 as its words *h, *l: one full 32x32 product and two low
 * ones (75 instructions). */
static inline __attribute__((always_inline)) void mullo64w(w64 a, w64 b, uint32_t *h, uint32_t *l)
{
    mul64(a.x0, a.x0h, b.x0, b.x0h, h, l);
    *h += ntt_mullo(a.x0, a.x0h, b.x1, b.x1h) + ntt_mullo(a.x1, a.x1h, b.x0, b.x0h);
}

static inline __attribute__((always_inline)) uint64_t mullo64(w64 a, w64 b)
{
    uint32_t h, l;
    mullo64w(a, b, &h, &l);
    return wide32(h, l);
}

/* floor(a b / 2^64) or one less: three full 32x32 products, the low
 * words' product left out (< 2^64, so it carries at most 1). */
static inline __attribute__((always_inline)) uint64_t mulhi64a(w64 a, w64 b)
{
    uint32_t p1h, p1l, p2h, p2l, hh, hl;
    mul64(a.x1, a.x1h, b.x0, b.x0h, &p1h, &p1l);
    mul64(a.x0, a.x0h, b.x1, b.x1h, &p2h, &p2l);
    mul64(a.x1, a.x1h, b.x1, b.x1h, &hh, &hl);
    uint32_t mid = p1l + p2l, c = mid < p1l;
    return wide32(hh, hl) + ((uint64_t)p1h + p2h + c);
}

/* Shoup: w b mod q or that + q or + 2q, in [0, 3q), for any b < 2^64. */
static inline __attribute__((always_inline)) uint64_t shoup64(uint64_t b, w64 w, w64 wp, w64 q)
{
    const w64 bs = split(b);
    const w64 qe = split(mulhi64a(wp, bs));
    uint32_t ph, pl, mh, ml;
    mullo64w(w, bs, &ph, &pl);
    mullo64w(qe, q, &mh, &ml);
    /* the difference word by word: as one 64-bit expression clang folds
     * the high words' shift into a call of __muldi3 */
    return wide32(ph - mh - (pl < ml), pl - ml);
}

/* The same, fully reduced to [0, q); not inlined (IRAM): used once per
 * coefficient, not per butterfly. */
static __attribute__((noinline)) uint64_t shoup64_full(uint64_t b, uint64_t w, uint64_t wp,
                                                       uint64_t q)
{
    return csub64(csub64(shoup64(b, split(w), split(wp), split(q)), 2 * q), q);
}

/* The full product a b as 128 bits: r[0] lowest word. */
static __attribute__((noinline)) void mul128(uint64_t a, uint64_t b, uint32_t r[4])
{
    const w64 x = split(a), y = split(b);
    uint32_t llh, lll, p1h, p1l, p2h, p2l, hh, hl;
    mul64(x.x0, x.x0h, y.x0, y.x0h, &llh, &lll);
    mul64(x.x1, x.x1h, y.x0, y.x0h, &p1h, &p1l);
    mul64(x.x0, x.x0h, y.x1, y.x1h, &p2h, &p2l);
    mul64(x.x1, x.x1h, y.x1, y.x1h, &hh, &hl);
    const uint64_t mid = (uint64_t)llh + p1l + p2l;
    const uint64_t hi = wide32(hh, hl) + p1h + p2h + (mid >> 32);
    r[0] = lll, r[1] = (uint32_t)mid, r[2] = (uint32_t)hi, r[3] = (uint32_t)(hi >> 32);
}

/* Montgomery: T 2^-64 mod q for T = r[3..0] < q 2^64, in [0, q). */
static __attribute__((noinline)) uint64_t redc64(const uint32_t r[4], uint64_t q, uint64_t qinv)
{
    const uint64_t lo = wide32(r[1], r[0]), hi = wide32(r[3], r[2]);
    const w64 m = split(mullo64(split(lo), split(qinv))), qs = split(q);
    /* floor(m q / 2^64), exact: the low words' high product too */
    uint32_t p1h, p1l, p2h, p2l, hh, hl;
    mul64(m.x1, m.x1h, qs.x0, qs.x0h, &p1h, &p1l);
    mul64(m.x0, m.x0h, qs.x1, qs.x1h, &p2h, &p2l);
    mul64(m.x1, m.x1h, qs.x1, qs.x1h, &hh, &hl);
    const uint64_t mid = (uint64_t)ntt_mulhi(m.x0, m.x0h, qs.x0, qs.x0h) + p1l + p2l;
    const uint64_t mqh = wide32(hh, hl) + p1h + p2h + (mid >> 32);
    /* lo + lo64(m q) = 0 mod 2^64: it carries exactly when lo != 0 */
    return csub64(hi + mqh + (lo != 0), q);
}
#endif /* NTT_DWORD */

/* ---- MRAM ------------------------------------------------------------------------- */

static __mram_ptr coef *heap(void)
{
    return (__mram_ptr coef *)DPU_MRAM_HEAP_POINTER;
}

static __mram_ptr coef *slot(uint32_t s)
{
    return heap() + NTT_JOB_SYM.data_off / sizeof(coef) + (s << NTT_JOB_SYM.log_n);
}

/* Block b of a pass of k stages starting at s0 of the polynomial at x, to
 * or from buf (2^log_m coefficients); returns the block's `hi` (its
 * groups' index in the pass's first stage). */
static uint32_t block_io(__mram_ptr coef *x, uint32_t log_m, uint32_t s0, uint32_t k, uint32_t b,
                         coef *buf, int write)
{
    const uint32_t log_l = NTT_JOB_SYM.log_n - s0 - k, log_c = log_m - k;
    const uint32_t per_hi = log_l - log_c; /* log2 of the blocks per hi */
    const uint32_t hi = b >> per_hi, lo0 = (b & ((1u << per_hi) - 1u)) << log_c;
    __mram_ptr coef *p = x + (hi << (k + log_l)) + lo0;
    if (per_hi == 0 && log_c == log_l) { /* rows adjacent: one piece */
        if (write)
            mram_write(buf, p, sizeof(coef) << log_m);
        else
            mram_read(p, buf, sizeof(coef) << log_m);
        return hi;
    }
    const uint32_t rows = 1u << k, bytes = sizeof(coef) << log_c;
    for (uint32_t r = 0; r < rows; r++) {
        if (write)
            mram_write(buf + (r << log_c), p + (r << log_l), bytes);
        else
            mram_read(p + (r << log_l), buf + (r << log_c), bytes);
    }
    return hi;
}

/* The 2^j twiddle pairs of global stage s0 + j for groups hi 2^j ... into tw. */
static void load_tw(uint32_t tab_off, uint32_t s0, uint32_t j, uint32_t hi, coef *tw)
{
    uint32_t first = (1u << (s0 + j)) + (hi << j);
    mram_read(heap() + tab_off / sizeof(coef) + 2u * first, tw, (2u * sizeof(coef)) << j);
}

/* ---- one pass on one block ------------------------------------------------------------- */

#ifdef NTT_DWORD
/* Harvey's forward butterflies: in and out in [0, 4q); the transform's
 * last stage (s0 + k = log_n) then reduces its block to [0, q). */
static void fwd_block(coef *a, coef *tw, const limb_t *l, uint32_t log_m, uint32_t s0, uint32_t k,
                      uint32_t hi)
{
    const uint64_t q2 = 2 * l->q;
    const w64 qs = split(l->q);
    for (uint32_t j = 0; j < k; j++) {
        load_tw(l->fwd_off, s0, j, hi, tw);
        const uint32_t span = 1u << (log_m - 1 - j), groups = 1u << j;
        for (uint32_t g = 0; g < groups; g++) {
            const w64 w = split(tw[2 * g]), wp = split(tw[2 * g + 1]);
            coef *x = a + 2 * g * span, *y = x + span;
            for (uint32_t e = 0; e < span; e++) {
                uint64_t u = csub64(x[e], q2), v = csub64(shoup64(y[e], w, wp, qs), q2);
                x[e] = u + v;
                y[e] = u - v + q2;
            }
        }
    }
    if (s0 + k == NTT_JOB_SYM.log_n)
        for (uint32_t e = 0; e < (1u << log_m); e++)
            a[e] = csub64(csub64(a[e], q2), l->q);
}

/* Gentleman-Sande, stages in reverse, values in [0, 2q); the transform's
 * very last stage (s0 = 0, j = 0) multiplies both outputs by N^-1 (times
 * 2^64 if mont) and reduces them to [0, q). */
static void inv_block(coef *a, coef *tw, const limb_t *l, uint32_t log_m, uint32_t s0, uint32_t k,
                      uint32_t hi, int mont)
{
    const uint64_t q = l->q, q2 = 2 * q;
    const w64 qs = split(q);
    for (uint32_t j = k; j-- > 0;) {
        const uint32_t span = 1u << (log_m - 1 - j), groups = 1u << j;
        if (s0 == 0 && j == 0) {
            const uint64_t n = mont ? l->ninvr : l->ninv, np = mont ? l->ninvrp : l->ninvp;
            const uint64_t w = mont ? l->lastwr : l->lastw, wp = mont ? l->lastwrp : l->lastwp;
            coef *x = a, *y = a + span;
            for (uint32_t e = 0; e < span; e++) {
                uint64_t u = x[e], v = y[e];
                x[e] = shoup64_full(u + v, n, np, q);
                y[e] = shoup64_full(u - v + q2, w, wp, q);
            }
            continue;
        }
        load_tw(l->inv_off, s0, j, hi, tw);
        for (uint32_t g = 0; g < groups; g++) {
            const w64 w = split(tw[2 * g]), wp = split(tw[2 * g + 1]);
            coef *x = a + 2 * g * span, *y = x + span;
            for (uint32_t e = 0; e < span; e++) {
                uint64_t u = x[e], v = y[e];
                x[e] = csub64(u + v, q2);
                y[e] = csub64(shoup64(u - v + q2, w, wp, qs), q2);
            }
        }
    }
}
#else

static void fwd_block(uint32_t *a, uint32_t *tw, const limb_t *l, uint32_t log_m, uint32_t s0,
                      uint32_t k, uint32_t hi)
{
    const uint32_t q = l->q, qh = q >> 16;
    for (uint32_t j = 0; j < k; j++) {
        load_tw(l->fwd_off, s0, j, hi, tw);
        const uint32_t span = 1u << (log_m - 1 - j), groups = 1u << j;
        for (uint32_t g = 0; g < groups; g++) {
            const uint32_t w = tw[2 * g], wp = tw[2 * g + 1], wh = w >> 16, wph = wp >> 16;
            uint32_t *x = a + 2 * g * span, *y = x + span;
            for (uint32_t e = 0; e < span; e++) {
                uint32_t u = x[e], v = ntt_shoup(y[e], w, wh, wp, wph, q, qh);
                x[e] = ntt_csub(u + v, q);
                y[e] = ntt_csub(u - v + q, q);
            }
        }
    }
}

/* Gentleman-Sande, stages in reverse; the transform's very last stage (s0
 * = 0, j = 0) multiplies both outputs by N^-1 (times 2^32 if mont). */
static void inv_block(uint32_t *a, uint32_t *tw, const limb_t *l, uint32_t log_m, uint32_t s0,
                      uint32_t k, uint32_t hi, int mont)
{
    const uint32_t q = l->q, qh = q >> 16;
    for (uint32_t j = k; j-- > 0;) {
        const uint32_t span = 1u << (log_m - 1 - j), groups = 1u << j;
        if (s0 == 0 && j == 0) {
            const uint32_t n = mont ? l->ninvr : l->ninv, np = mont ? l->ninvrp : l->ninvp;
            const uint32_t w = mont ? l->lastwr : l->lastw, wp = mont ? l->lastwrp : l->lastwp;
            const uint32_t nh = n >> 16, nph = np >> 16, wh = w >> 16, wph = wp >> 16;
            uint32_t *x = a, *y = a + span;
            for (uint32_t e = 0; e < span; e++) {
                uint32_t u = x[e], v = y[e];
                x[e] = ntt_shoup(ntt_csub(u + v, q), n, nh, np, nph, q, qh);
                y[e] = ntt_shoup(u - v + q, w, wh, wp, wph, q, qh);
            }
            continue;
        }
        load_tw(l->inv_off, s0, j, hi, tw);
        for (uint32_t g = 0; g < groups; g++) {
            const uint32_t w = tw[2 * g], wp = tw[2 * g + 1], wh = w >> 16, wph = wp >> 16;
            uint32_t *x = a + 2 * g * span, *y = x + span;
            for (uint32_t e = 0; e < span; e++) {
                uint32_t u = x[e], v = y[e];
                x[e] = ntt_csub(u + v, q);
                y[e] = ntt_shoup(u - v + q, w, wh, wp, wph, q, qh);
            }
        }
    }
}

#endif /* NTT_DWORD */

/* ---- items ------------------------------------------------------------------------ */

enum { PH_FWD, PH_PW, PH_INV };

static uint32_t limb_of(uint32_t u)
{
    return (NTT_JOB_SYM.limb0 + u) % NTT_JOB_SYM.nlimbs;
}

/* Polynomials of item u that a transform phase works on. */
static uint32_t polys(uint32_t op, int ph)
{
    if (op == NTT_OP_TENSOR)
        return ph == PH_FWD ? 4u : 3u;
    return op == NTT_OP_POLYMUL && ph == PH_FWD ? 2u : 1u;
}

static uint32_t poly_slot(uint32_t op, int ph, uint32_t u, uint32_t p)
{
    const __typeof__(NTT_JOB_SYM) *a = &NTT_JOB_SYM;
    if (op != NTT_OP_TENSOR)
        return p ? a->bslot + u : u;
    uint32_t i = u / a->nlimbs, il = i * a->nlimbs;
    if (ph == PH_FWD) /* c0 c1 d0 d1 */
        return (p >= 2 ? a->bslot : 0) + u + il + ((p & 1u) ? a->nlimbs : 0);
    return a->eslot + u + 2 * il + p * a->nlimbs;
}

static void transform_block(uint32_t t, uint32_t op, int ph, uint32_t u, uint32_t p, uint32_t log_m,
                            uint32_t s0, uint32_t k, uint32_t b)
{
    const limb_t *l = &NTT_JOB_SYM.limb[limb_of(u)];
    __mram_ptr coef *x = slot(poly_slot(op, ph, u, p));
    uint32_t hi = block_io(x, log_m, s0, k, b, dbuf[t], 0);
    if (ph == PH_FWD)
        fwd_block(dbuf[t], tbuf[t], l, log_m, s0, k, hi);
    else
        inv_block(dbuf[t], tbuf[t], l, log_m, s0, k, hi, op != NTT_OP_INVERSE);
    block_io(x, log_m, s0, k, b, dbuf[t], 1);
}

#ifdef NTT_DWORD
/* Chunk c (2^log_m coefficients) of item u's pointwise products, inputs
 * and outputs in [0, q). */
static void pointwise_chunk(uint32_t t, uint32_t op, uint32_t u, uint32_t log_m, uint32_t c)
{
    const limb_t *l = &NTT_JOB_SYM.limb[limb_of(u)];
    const uint64_t q = l->q, qi = l->qinv;
    coef *a = dbuf[t], *b = tbuf[t];
    uint32_t p[4];
    if (op != NTT_OP_TENSOR) {
        const uint32_t n = 1u << log_m, bytes = sizeof(coef) << log_m;
        __mram_ptr coef *x = slot(u) + c * n, *y = slot(NTT_JOB_SYM.bslot + u) + c * n;
        mram_read(x, a, bytes);
        mram_read(y, b, bytes);
        for (uint32_t e = 0; e < n; e++) {
            mul128(a[e], b[e], p);
            uint64_t s = redc64(p, q, qi);
            /* POLYMUL's inverse takes the 2^-64 out with N^-1 */
            a[e] = op == NTT_OP_POINTWISE ? shoup64_full(s, l->r1, l->r1p, q) : s;
        }
        mram_write(a, x, bytes);
        return;
    }
    /* tensor: c0 c1 in a, d0 d1 in b, half a block each */
    const uint32_t n = 1u << (log_m - 1), bytes = sizeof(coef) << (log_m - 1);
    coef *c0 = a, *c1 = a + n, *d0 = b, *d1 = b + n;
    mram_read(slot(poly_slot(op, PH_FWD, u, 0)) + c * n, c0, bytes);
    mram_read(slot(poly_slot(op, PH_FWD, u, 1)) + c * n, c1, bytes);
    mram_read(slot(poly_slot(op, PH_FWD, u, 2)) + c * n, d0, bytes);
    mram_read(slot(poly_slot(op, PH_FWD, u, 3)) + c * n, d1, bytes);
    for (uint32_t e = 0; e < n; e++) {
        uint64_t x0 = c0[e], x1 = c1[e], y0 = d0[e], y1 = d1[e];
        uint32_t p2[4];
        mul128(x0, y0, p);
        c0[e] = redc64(p, q, qi);
        /* c0 d1 + c1 d0 < 2 q^2 < q 2^64: one reduction */
        mul128(x0, y1, p);
        mul128(x1, y0, p2);
        uint64_t lo = wide32(p[1], p[0]), s = lo + wide32(p2[1], p2[0]);
        uint64_t hi = wide32(p[3], p[2]) + wide32(p2[3], p2[2]) + (s < lo);
        p[0] = (uint32_t)s, p[1] = (uint32_t)(s >> 32), p[2] = (uint32_t)hi;
        p[3] = (uint32_t)(hi >> 32);
        uint64_t m = redc64(p, q, qi);
        mul128(x1, y1, p);
        d0[e] = redc64(p, q, qi);
        c1[e] = m;
    }
    mram_write(c0, slot(poly_slot(op, PH_INV, u, 0)) + c * n, bytes);
    mram_write(c1, slot(poly_slot(op, PH_INV, u, 1)) + c * n, bytes);
    mram_write(d0, slot(poly_slot(op, PH_INV, u, 2)) + c * n, bytes);
}
#else
/* Chunk c (2^log_m coefficients) of item u's pointwise products. */
static void pointwise_chunk(uint32_t t, uint32_t op, uint32_t u, uint32_t log_m, uint32_t c)
{
    const limb_t *l = &NTT_JOB_SYM.limb[limb_of(u)];
    const uint32_t q = l->q, qh = q >> 16, qi = l->qinv, qih = qi >> 16;
    uint32_t *a = dbuf[t], *b = tbuf[t];
    if (op != NTT_OP_TENSOR) {
        const uint32_t n = 1u << log_m, bytes = 4u << log_m;
        __mram_ptr uint32_t *x = slot(u) + c * n, *y = slot(NTT_JOB_SYM.bslot + u) + c * n;
        mram_read(x, a, bytes);
        mram_read(y, b, bytes);
        const uint32_t r = l->r1, rp = l->r1p, rh = r >> 16, rph = rp >> 16;
        for (uint32_t e = 0; e < n; e++) {
            uint32_t hi, lo, s = a[e], v = b[e];
            mul64(s, s >> 16, v, v >> 16, &hi, &lo);
            s = redc(hi, lo, q, qh, qi, qih);
            /* POLYMUL's inverse takes the 2^-32 out with N^-1 */
            a[e] = op == NTT_OP_POINTWISE ? ntt_shoup(s, r, rh, rp, rph, q, qh) : s;
        }
        mram_write(a, x, bytes);
        return;
    }
    /* tensor: c0 c1 in a, d0 d1 in b, half a block each */
    const uint32_t n = 1u << (log_m - 1), bytes = 4u << (log_m - 1);
    uint32_t *c0 = a, *c1 = a + n, *d0 = b, *d1 = b + n;
    mram_read(slot(poly_slot(op, PH_FWD, u, 0)) + c * n, c0, bytes);
    mram_read(slot(poly_slot(op, PH_FWD, u, 1)) + c * n, c1, bytes);
    mram_read(slot(poly_slot(op, PH_FWD, u, 2)) + c * n, d0, bytes);
    mram_read(slot(poly_slot(op, PH_FWD, u, 3)) + c * n, d1, bytes);
    for (uint32_t e = 0; e < n; e++) {
        uint32_t x0 = c0[e], x1 = c1[e], y0 = d0[e], y1 = d1[e];
        uint32_t x0h = x0 >> 16, x1h = x1 >> 16, y0h = y0 >> 16, y1h = y1 >> 16;
        uint32_t h0, l0, h1, l1, h2, l2;
        mul64(x0, x0h, y0, y0h, &h0, &l0);
        c0[e] = redc(h0, l0, q, qh, qi, qih);
        mul64(x0, x0h, y1, y1h, &h1, &l1);
        mul64(x1, x1h, y0, y0h, &h2, &l2);
        /* c0 d1 + c1 d0 < 2 q^2 < q 2^32: one reduction */
        uint32_t lo = l1 + l2, hi = h1 + h2 + (lo < l1);
        mul64(x1, x1h, y1, y1h, &h0, &l0);
        c1[e] = redc(hi, lo, q, qh, qi, qih);
        d0[e] = redc(h0, l0, q, qh, qi, qih);
    }
    mram_write(c0, slot(poly_slot(op, PH_INV, u, 0)) + c * n, bytes);
    mram_write(c1, slot(poly_slot(op, PH_INV, u, 1)) + c * n, bytes);
    mram_write(d0, slot(poly_slot(op, PH_INV, u, 2)) + c * n, bytes);
}

#endif /* NTT_DWORD */

/* ---- 64-bit coefficients in and out ------------------------------------------------ */

#ifdef NTT_DWORD
/* The API's 64-bit words are the double-word program's coefficients. */
#define NARROWS 0
static void wide_chunk(uint32_t t, uint32_t log_m, uint32_t k, uint32_t c, uint32_t slot_k,
                       int widen)
{
    (void)t, (void)log_m, (void)k, (void)c, (void)slot_k, (void)widen;
}
#else
#define NARROWS 1
/* Input slot s's chunk c (2^(log_m - 1) coefficients) from the wide region
 * into the slot (narrow) or result k's chunk back out (widen). */
static void wide_chunk(uint32_t t, uint32_t log_m, uint32_t k, uint32_t c, uint32_t slot_k,
                       int widen)
{
    const uint32_t n = 1u << (log_m - 1);
    __mram_ptr uint32_t *wide =
        heap() + NTT_JOB_SYM.wide_off / 4u + (k << (NTT_JOB_SYM.log_n + 1)) + 2u * c * n;
    __mram_ptr uint32_t *narrow = slot(slot_k) + c * n;
    ntt_wide_chunk(dbuf[t], tbuf[t], wide, narrow, n, widen);
}
#endif

/* ---- schedules -------------------------------------------------------------------- */

/* The phases of an op, in order. */
static uint32_t phases(uint32_t op, int ph[3])
{
    switch (op) {
    case NTT_OP_FORWARD:
        ph[0] = PH_FWD;
        return 1;
    case NTT_OP_INVERSE:
        ph[0] = PH_INV;
        return 1;
    case NTT_OP_POINTWISE:
        ph[0] = PH_PW;
        return 1;
    default:
        ph[0] = PH_FWD, ph[1] = PH_PW, ph[2] = PH_INV;
        return 3;
    }
}

int main(void)
{
    const uint32_t t = me();
    const __typeof__(NTT_JOB_SYM) *a = &NTT_JOB_SYM;
    const uint32_t op = a->op, log_n = a->log_n, items = a->nitems;
    const uint32_t log_m = a->log_m >= 4 && a->log_m <= LOG_M_MAX ? a->log_m : LOG_M_MAX;
    uint32_t s0[8], k[8];
    const uint32_t np = ntt_passes(log_n, log_m, s0, k);
    const uint32_t blocks = 1u << (log_n - log_m); /* per polynomial and pass */
    const uint32_t chunks = op == NTT_OP_TENSOR ? 2u * blocks : blocks;
    int ph[3];
    const uint32_t nph = phases(op, ph);
    /* narrow the inputs (every schedule: any tasklet may read any of them) */
    const uint32_t half = 1u << (log_n - log_m + 1); /* chunks per polynomial */
    const uint32_t nin = items * (op == NTT_OP_TENSOR ? 4u : op >= NTT_OP_POINTWISE ? 2u : 1u);
    if (NARROWS) {
        for (uint32_t w = t; w < nin * half; w += NR_TASKLETS)
            wide_chunk(t, log_m, w / half, w % half, w / half, 0);
        barrier_wait(&pass_done);
    }
    /* the results, widened once every tasklet is done */
    const uint32_t nout = op == NTT_OP_TENSOR ? 3u * items : items;
    const uint32_t out0 = op == NTT_OP_TENSOR ? a->eslot : 0;

    if (a->sched == NTT_SCHED_TASKLET) {
        for (uint32_t u = t; u < items; u += NR_TASKLETS)
            for (uint32_t f = 0; f < nph; f++) {
                if (ph[f] == PH_PW) {
                    for (uint32_t c = 0; c < chunks; c++)
                        pointwise_chunk(t, op, u, log_m, c);
                    continue;
                }
                /* the inverse runs the passes backwards */
                for (uint32_t p = 0; p < polys(op, ph[f]); p++)
                    for (uint32_t i = 0; i < np; i++) {
                        uint32_t pass = ph[f] == PH_FWD ? i : np - 1 - i;
                        for (uint32_t b = 0; b < blocks; b++)
                            transform_block(t, op, ph[f], u, p, log_m, s0[pass], k[pass], b);
                    }
            }
        if (NARROWS) {
            barrier_wait(&pass_done);
            for (uint32_t w = t; w < nout * half; w += NR_TASKLETS)
                wide_chunk(t, log_m, w / half, w % half, out0 + w / half, 1);
        }
        return 0;
    }
    for (uint32_t f = 0; f < nph; f++) {
        if (ph[f] == PH_PW) {
            for (uint32_t w = t; w < items * chunks; w += NR_TASKLETS)
                pointwise_chunk(t, op, w / chunks, log_m, w % chunks);
            barrier_wait(&pass_done);
            continue;
        }
        const uint32_t per = polys(op, ph[f]) * blocks; /* work per item and pass */
        for (uint32_t i = 0; i < np; i++) {
            uint32_t pass = ph[f] == PH_FWD ? i : np - 1 - i;
            for (uint32_t w = t; w < items * per; w += NR_TASKLETS) {
                uint32_t u = w / per, r = w % per;
                transform_block(t, op, ph[f], u, r / blocks, log_m, s0[pass], k[pass], r % blocks);
            }
            barrier_wait(&pass_done);
        }
    }
    if (NARROWS)
        for (uint32_t w = t; w < nout * half; w += NR_TASKLETS)
            wide_chunk(t, log_m, w / half, w % half, out0 + w / half, 1);
    return 0;
}
