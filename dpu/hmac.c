/*
 * hmac.c -- the HMAC-SHA256 / PBKDF2-HMAC-SHA256 DPU program.
 *
 * Contract with the host: hmac_args.h.  The host turns every key or
 * password into its two HMAC states (so the key never reaches the DPU) and
 * computes PBKDF2's U1; this kernel runs what is left:
 *  - PBKDF2 mode: iterations 2..c of each chain, U = HMAC(U), T ^= U --
 *    two compressions per iteration on 32-byte messages, all in WRAM:
 *    compute-bound, 104 bytes in and 32 out per chain;
 *  - MAC mode: the inner hash over the padded message (streamed from MRAM
 *    through a per-tasklet buffer) from istate, then the outer block from
 *    ostate.
 *
 * Partitioning: items are independent.  PBKDF2 chains all cost the same,
 * so item i goes to tasklet i mod NR_TASKLETS; MAC items are balanced by
 * their blocks as dpu/sha256.c does (the tasklet whose equal slice of the
 * total holds the item's middle).
 *
 * Secrets: when an item is done its MRAM record is overwritten with zeros
 * and its WRAM copy (and the tasklet's working words) wiped: nothing of a
 * key is left on the DPU after the launch (tests/test_pim_keys.c reads
 * MRAM and WRAM back).
 *
 * The compression function is the DPU-tuned form of dpu/sha256.c (unrolled
 * rounds, renamed variables, in-place 16-word schedule), taking native
 * words: a PBKDF2 iteration builds its blocks as words and never swaps
 * bytes.
 */
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "dpu_lib.h"
#include "hmac_args.h"
#include "sha256.h"
#include "sha256_rounds.h"

/* MAC mode's stream buffer: 1024-byte DMAs (MACed records are short; a
 * PBKDF2 chain streams nothing), 512 bytes above 16 tasklets (a 16 KiB
 * budget for the buffers). */
#define CHUNK DPU_CHUNK(1024u, 16384u)

__host struct hmac_job_args HMAC_JOB_SYM;

/* See dpu/sha256.c: one MRAM variable so DPU_MRAM_HEAP_POINTER is right. */
__mram_noinit uint64_t hmac_mram_anchor;

/* __host: readable by the host, so that tests/test_pim_keys.c can check
 * that no key state is left in WRAM. */
__host __dma_aligned struct hmac_item items[NR_TASKLETS];
__host __dma_aligned uint32_t work[NR_TASKLETS][24];
static __dma_aligned uint32_t buffers[NR_TASKLETS][CHUNK / 4];
DPU_WRAM_CHECK(sizeof items + sizeof work + sizeof buffers);

/* One block given as 16 native words w (consumed: the schedule overwrites
 * it) into the chaining value st. */
static void compress(uint32_t st[8], uint32_t w[16])
{
    const uint32_t *k = cpim_crypto_sha256_k;
    __asm__("" : "+r"(k)); /* K[i] as one load each (see dpu/sha256.c) */
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
    uint32_t bc = b ^ c;
    RND8(0);
    RND8(8);
    RND8(16);
    RND8(24);
    RND8(32);
    RND8(40);
    RND8(48);
    RND8(56);
    st[0] += a, st[1] += b, st[2] += c, st[3] += d;
    st[4] += e, st[5] += f, st[6] += g, st[7] += h;
}

/* out = the 8 words `in` compressed as a 32-byte message after a key block
 * from state s (0x80, zeros, length 768 bits); w: 16 words of scratch. */
static void block32(uint32_t out[8], const uint32_t s[8], const uint32_t in[8], uint32_t *w)
{
    for (int i = 0; i < 8; i++)
        w[i] = in[i], out[i] = s[i];
    w[8] = 0x80000000u;
    for (int i = 9; i < 15; i++)
        w[i] = 0;
    w[15] = 768u;
    compress(out, w);
}

static void pbkdf2_one(struct hmac_item *it, uint32_t iterations, uint32_t *wk, uint32_t out[8])
{
    uint32_t *u = it->u, *h = wk, *w = wk + 8;
    for (int i = 0; i < 8; i++)
        out[i] = u[i];
    for (uint32_t c = 1; c < iterations; c++) {
        block32(h, it->istate, u, w);
        block32(u, it->ostate, h, w);
        for (int i = 0; i < 8; i++)
            out[i] ^= u[i];
    }
}

static void mac_one(struct hmac_item *it, const struct hmac_msg *m, __mram_ptr uint8_t *heap,
                    uint32_t *buf, uint32_t *wk, uint32_t out[8])
{
    uint32_t *h = wk, *w = wk + 8;
    for (int i = 0; i < 8; i++)
        h[i] = it->istate[i];
    __mram_ptr uint8_t *src = heap + m->msg_off;
    for (uint32_t left = m->nblocks * 64u; left;) {
        uint32_t n = left < CHUNK ? left : CHUNK;
        mram_read(src, buf, n);
        for (uint32_t b = 0; b < n / 4u; b += 16) {
            for (int i = 0; i < 16; i++)
                w[i] = __builtin_bswap32(buf[b + i]);
            compress(h, w);
        }
        src += n;
        left -= n;
    }
    block32(out, it->ostate, h, w);
}

/* A MAC item's compressions (+1 outer, +1 so that empty ones spread too). */
static inline uint32_t cost(const struct hmac_msg *m)
{
    return m->nblocks + 2u;
}

int main(void)
{
    const uint32_t t = me(), n = HMAC_JOB_SYM.nitems, mode = HMAC_JOB_SYM.mode;
    __mram_ptr uint8_t *heap = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;
    __mram_ptr uint8_t *outs = heap + HMAC_JOB_SYM.out_off;
    struct hmac_item *it = &items[t];
    uint32_t *wk = work[t];
    __dma_aligned uint32_t out[8];

    __mram_ptr uint8_t *tab = heap + HMAC_JOB_SYM.tab_off;
    __dma_aligned struct hmac_msg m;
    uint32_t total = 0;
    if (mode == HMAC_MODE_MAC)
        for (uint32_t i = 0; i < n; i++) {
            mram_read(tab + i * sizeof m, &m, sizeof m);
            total += cost(&m);
        }
    uint32_t before = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (mode == HMAC_MODE_MAC) {
            mram_read(tab + i * sizeof m, &m, sizeof m);
            uint32_t c = cost(&m);
            int mine = (uint32_t)(((uint64_t)before + c / 2u) * NR_TASKLETS / total) == t;
            before += c;
            if (!mine)
                continue;
            mram_read(heap + i * sizeof *it, it, sizeof *it);
            mac_one(it, &m, heap, buffers[t], wk, out);
        } else {
            if (i % NR_TASKLETS != t)
                continue;
            mram_read(heap + i * sizeof *it, it, sizeof *it);
            pbkdf2_one(it, HMAC_JOB_SYM.iterations, wk, out);
        }
        mram_write(out, outs + 32u * i, 32);
        /* the item's key states, in MRAM and in WRAM */
        wipe_words((uint32_t *)it, sizeof *it / 4u);
        mram_write(it, heap + i * sizeof *it, sizeof *it);
    }
    wipe_words(wk, 24);
    wipe_words(out, 8);
    return 0;
}
