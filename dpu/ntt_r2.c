/*
 * ntt_r2.c -- the 1D radix-2 negacyclic NTT on a DPU, word moduli
 * (q < 2^31), forward and inverse, a whole batch in ONE launch: the
 * classic layout of the earlier UPMEM NTTs (MHY24, DRAMatic), kept beside
 * the four-step kernel (dpu/ntt.c) to compare the two on the model
 * (the question: "compare a 1D radix-2 kernel with a four-step/2D one";
 * build/emu/ntt-compare, docs/NTT.md).  Not used by the pim backend.
 *
 * Contract: dpu/ntt_args.h, the same job record, tables and MRAM layout as
 * dpu/ntt.c (the host code and tables are shared; inputs narrowed from
 * the 64-bit region first, results widened last, as there), restricted to
 * op NTT_OP_FORWARD / NTT_OP_INVERSE; `sched` is ignored (always
 * cooperative).  Another op leaves the data alone and sets
 * ntt_r2_status = 1.
 *
 * The stage loop.  A polynomial stays in MRAM; each tasklet has a WRAM
 * block of B = 2^log_m words (log_m as dpu/ntt.c: 8, i.e. 256
 * coefficients, up to 16 tasklets) and a twiddle buffer of B words.
 *  - "Far" stages, whose butterfly distance t = N / 2^(s+1) is at least
 *    B / 2 (the first log_n - log_m stages of the forward transform, the
 *    last of the inverse), run ONE STAGE PER PASS over MRAM: a unit of
 *    work is B / 2 consecutive butterflies of one group, i.e. a pair of
 *    half-blocks (B / 2 words at j and at j + t, two DMAs in and two out)
 *    and one twiddle (one 8-byte DMA).  Every stage reads and writes every
 *    coefficient once, with a barrier between stages.
 *  - The "near" stages (t < B / 2: the last log_m of the forward, the first
 *    of the inverse) fit a contiguous block and run together in WRAM, one
 *    pass: read a block, do its log_m stages (2^j twiddles per stage j, one
 *    DMA each), write it back.
 * That is the "1D" kernel: per-stage passes for the strided stages, the
 * contiguous tail in WRAM.  dpu/ntt.c instead groups up to log_m - 2 of the
 * strided stages into one pass (blocks of 2^k rows N / 2^(s0+k) apart: a
 * four-step decomposition), so it makes fewer passes over MRAM and fewer
 * barriers for the same butterflies: with B = 256, 2 passes for N = 1024 ..
 * 16384 there, log_n - 7 here (5 at N = 4096, 7 at 16384).
 *
 * Sharing: in every pass the (polynomial, unit) pairs of the whole batch go
 * round robin to the tasklets, one barrier per pass (tasklets cooperate on
 * each transform).  The multiply is dpu/ntt.c's Shoup multiply
 * (dpu/ntt_mul.h); all values stay in [0, q).
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

#define LOG_M_MAX ((NR_TASKLETS) <= 16 ? 8u : 7u)
#define M_MAX     (1u << LOG_M_MAX)

__host struct ntt_job_args NTT_JOB_SYM;
__host uint32_t ntt_r2_status; /* 0 done, 1 op not supported by this kernel */

/* One MRAM variable so that DPU_MRAM_HEAP_POINTER is right (as dpu/sha256.c). */
__mram_noinit uint64_t ntt_r2_mram_anchor;

static __dma_aligned uint32_t dbuf[NR_TASKLETS][M_MAX]; /* data: a block or two half-blocks */
static __dma_aligned uint32_t tbuf[NR_TASKLETS][M_MAX]; /* twiddles {w, w'} */
DPU_WRAM_CHECK(sizeof dbuf + sizeof tbuf);

BARRIER_INIT(stage_done, NR_TASKLETS);

static __mram_ptr uint32_t *heap(void)
{
    return (__mram_ptr uint32_t *)DPU_MRAM_HEAP_POINTER;
}

/* Polynomial u (slot u, N words). */
static __mram_ptr uint32_t *poly(uint32_t u)
{
    return heap() + NTT_JOB_SYM.data_off / 4u + (u << NTT_JOB_SYM.log_n);
}

static const struct ntt_limb *limb_of(uint32_t u)
{
    return &NTT_JOB_SYM.limb[(NTT_JOB_SYM.limb0 + u) % NTT_JOB_SYM.nlimbs];
}

/* ---- far stages: one stage per pass, pairs of half-blocks ------------------------------ */

/* Unit c of stage s of polynomial u: butterflies c H .. c H + H - 1 (H = 2^log_h) in the
 * stage's order, which lie in one group g of distance t (H <= t).  inv: Gentleman-Sande;
 * the inverse's stage 0 also multiplies by N^-1. */
static void far_unit(uint32_t t, uint32_t u, uint32_t s, uint32_t log_h, uint32_t c, int inv)
{
    const struct ntt_limb *l = limb_of(u);
    const uint32_t q = l->q, qh = q >> 16, h = 1u << log_h;
    const uint32_t log_t = NTT_JOB_SYM.log_n - s - 1;
    const uint32_t p = c << log_h, g = p >> log_t, r = p & ((1u << log_t) - 1u);
    __mram_ptr uint32_t *x = poly(u) + (g << (log_t + 1)) + r, *y = x + (1u << log_t);
    uint32_t *a = dbuf[t], *b = dbuf[t] + h, *tw = tbuf[t];
    mram_read(x, a, 4u * h);
    mram_read(y, b, 4u * h);
    mram_read(heap() + (inv ? l->inv_off : l->fwd_off) / 4u + 2u * ((1u << s) + g), tw, 8u);
    const uint32_t w = tw[0], wp = tw[1], wh = w >> 16, wph = wp >> 16;
    if (!inv) {
        for (uint32_t e = 0; e < h; e++) {
            uint32_t m = a[e], v = ntt_shoup(b[e], w, wh, wp, wph, q, qh);
            a[e] = ntt_csub(m + v, q);
            b[e] = ntt_csub(m - v + q, q);
        }
    } else if (s != 0) {
        for (uint32_t e = 0; e < h; e++) {
            uint32_t m = a[e], v = b[e];
            a[e] = ntt_csub(m + v, q);
            b[e] = ntt_shoup(m - v + q, w, wh, wp, wph, q, qh);
        }
    } else { /* N^-1 folded in: (u + v) N^-1 and (u - v) psi^-bitrev(1) N^-1 */
        const uint32_t n = l->ninv, np = l->ninvp, nh = n >> 16, nph = np >> 16;
        const uint32_t lw = l->lastw, lwp = l->lastwp, lwh = lw >> 16, lwph = lwp >> 16;
        for (uint32_t e = 0; e < h; e++) {
            uint32_t m = a[e], v = b[e];
            a[e] = ntt_shoup(ntt_csub(m + v, q), n, nh, np, nph, q, qh);
            b[e] = ntt_shoup(m - v + q, lw, lwh, lwp, lwph, q, qh);
        }
    }
    mram_write(a, x, 4u * h);
    mram_write(b, y, 4u * h);
}

/* ---- near stages: the contiguous tail in one WRAM block --------------------------------- */

/* The 2^j twiddle pairs of stage s0 + j for block blk (its groups blk 2^j ...) into tw. */
static void load_tw(uint32_t tab_off, uint32_t s0, uint32_t j, uint32_t blk, uint32_t *tw)
{
    uint32_t first = (1u << (s0 + j)) + (blk << j);
    mram_read(heap() + tab_off / 4u + 2u * first, tw, 8u << j);
}

/* Stages s0 .. s0 + k - 1 (k = log_m: block size 2^k) of polynomial u on block blk. */
static void near_block(uint32_t t, uint32_t u, uint32_t s0, uint32_t k, uint32_t blk, int inv)
{
    const struct ntt_limb *l = limb_of(u);
    const uint32_t q = l->q, qh = q >> 16;
    __mram_ptr uint32_t *x = poly(u) + (blk << k);
    uint32_t *a = dbuf[t], *tw = tbuf[t];
    mram_read(x, a, 4u << k);
    if (!inv)
        for (uint32_t j = 0; j < k; j++) {
            load_tw(l->fwd_off, s0, j, blk, tw);
            const uint32_t span = 1u << (k - 1 - j), groups = 1u << j;
            for (uint32_t g = 0; g < groups; g++) {
                const uint32_t w = tw[2 * g], wp = tw[2 * g + 1], wh = w >> 16, wph = wp >> 16;
                uint32_t *xa = a + 2 * g * span, *ya = xa + span;
                for (uint32_t e = 0; e < span; e++) {
                    uint32_t m = xa[e], v = ntt_shoup(ya[e], w, wh, wp, wph, q, qh);
                    xa[e] = ntt_csub(m + v, q);
                    ya[e] = ntt_csub(m - v + q, q);
                }
            }
        }
    else /* s0 > 0: the inverse's stage 0 is always a far one (main) */
        for (uint32_t j = k; j-- > 0;) {
            load_tw(l->inv_off, s0, j, blk, tw);
            const uint32_t span = 1u << (k - 1 - j), groups = 1u << j;
            for (uint32_t g = 0; g < groups; g++) {
                const uint32_t w = tw[2 * g], wp = tw[2 * g + 1], wh = w >> 16, wph = wp >> 16;
                uint32_t *xa = a + 2 * g * span, *ya = xa + span;
                for (uint32_t e = 0; e < span; e++) {
                    uint32_t m = xa[e], v = ya[e];
                    xa[e] = ntt_csub(m + v, q);
                    ya[e] = ntt_shoup(m - v + q, w, wh, wp, wph, q, qh);
                }
            }
        }
    mram_write(a, x, 4u << k);
}

/* ---- 64-bit coefficients in and out (as dpu/ntt.c, ntt_args.h) -------------------------- */

/* Chunk c (2^(log_m - 1) coefficients) of polynomial u: narrowed from the wide region into
 * the slot, or widened back. */
static void wide_chunk(uint32_t t, uint32_t log_m, uint32_t u, uint32_t c, int widen)
{
    const uint32_t n = 1u << (log_m - 1);
    __mram_ptr uint32_t *wide =
        heap() + NTT_JOB_SYM.wide_off / 4u + (u << (NTT_JOB_SYM.log_n + 1)) + 2u * c * n;
    __mram_ptr uint32_t *narrow = poly(u) + c * n;
    ntt_wide_chunk(dbuf[t], tbuf[t], wide, narrow, n, widen);
}

int main(void)
{
    const uint32_t t = me();
    const struct ntt_job_args *a = &NTT_JOB_SYM;
    const uint32_t op = a->op, log_n = a->log_n, items = a->nitems;
    if (op != NTT_OP_FORWARD && op != NTT_OP_INVERSE) {
        if (t == 0)
            ntt_r2_status = 1;
        return 0;
    }
    const int inv = op == NTT_OP_INVERSE;
    uint32_t log_m = a->log_m >= 4 && a->log_m <= LOG_M_MAX ? a->log_m : LOG_M_MAX;
    /* the inverse's stage 0 (N^-1 folded in) is a far stage: at least one of them */
    if (log_m >= log_n)
        log_m = log_n - 1;
    const uint32_t nfar = log_n - log_m, log_h = log_m - 1;
    const uint32_t units = 1u << (log_n - 1 - log_h);  /* far units per polynomial */
    const uint32_t blocks = 1u << (log_n - log_m);     /* near blocks per polynomial */
    const uint32_t chunks = 1u << (log_n - log_m + 1); /* wide chunks per polynomial */
    if (t == 0)
        ntt_r2_status = 0;

    for (uint32_t w = t; w < items * chunks; w += NR_TASKLETS)
        wide_chunk(t, log_m, w / chunks, w % chunks, 0);
    barrier_wait(&stage_done);
    /* forward: far stages 0 .. nfar - 1, then the near ones; inverse: the reverse */
    for (uint32_t i = 0; i <= nfar; i++) {
        const int near = inv ? i == 0 : i == nfar;
        if (near) {
            for (uint32_t w = t; w < items * blocks; w += NR_TASKLETS)
                near_block(t, w / blocks, nfar, log_m, w % blocks, inv);
        } else {
            const uint32_t s = inv ? nfar - i : i;
            for (uint32_t w = t; w < items * units; w += NR_TASKLETS)
                far_unit(t, w / units, s, log_h, w % units, inv);
        }
        barrier_wait(&stage_done);
    }
    for (uint32_t w = t; w < items * chunks; w += NR_TASKLETS)
        wide_chunk(t, log_m, w / chunks, w % chunks, 1);
    return 0;
}
