/*
 * seqio.c -- DPU program of tests/test_tsme.c: the paths of dpu/tsme.h that
 * STREAM does not take, written as an ordinary kernel (no TSME in it), built
 * plain and with `-include tsme.h`.
 *
 * MRAM heap (NB = 4 KiB per tasklet, NR_TASKLETS slices):
 *   in   [0, T*NB)          input, read by every tasklet through seqread
 *                           (4-byte items, a seek to the slice's middle) and
 *                           through mram_read_unaligned (13-byte records at
 *                           odd addresses)
 *   out1 [T*NB, 2*T*NB)     out1[j] = in[j] * 0x9e3779b1 + j, flushed with
 *                           mram_write in 256-byte blocks
 *   out2 [2*T*NB, 3*T*NB)   each 13-byte record of the tasklet's slice,
 *                           byte-reversed, written with mram_write_unaligned
 *                           5 bytes further on (partial words at both ends)
 *   sums [3*T*NB, +16*T)    per tasklet (a 16-byte block each): the seqread sum, the sum after
 *                           the seek (4-byte mram_write_unaligned each)
 * Each tasklet writes only its own slices (the layer's read-modify-write of
 * a shared 16-byte block would race, tsme.h says).
 */
#include <defs.h>
#include <mram.h>
#include <mram_unaligned.h>
#include <seqread.h>
#include <stdint.h>

#define NB  4096u
#define REC 13u

__mram_noinit uint64_t seqio_anchor; /* DPU_MRAM_HEAP_POINTER placed in MRAM */

static uint32_t wbuf[NR_TASKLETS][64];
static uint8_t rbuf[NR_TASKLETS][64] __attribute__((aligned(8)));
static uint8_t obuf[NR_TASKLETS][32] __attribute__((aligned(8)));
static uint32_t sumw[NR_TASKLETS][2] __attribute__((aligned(8)));

int main(void)
{
    const uint32_t id = me(), T = NR_TASKLETS;
    const uintptr_t heap = (uintptr_t)DPU_MRAM_HEAP_POINTER;
    const uintptr_t in = heap + id * NB, out1 = heap + T * NB + id * NB;
    const uintptr_t out2 = heap + 2 * T * NB + id * NB, sums = heap + 3 * T * NB;

    /* seqread over the slice; out1 through a 256-byte buffer */
    seqreader_t sr;
    uint32_t *p = seqread_init(seqread_alloc(), (__mram_ptr void *)in, &sr);
    uint32_t sum = 0;
    for (uint32_t j = 0; j < NB / 4; j++) {
        sum += *p;
        wbuf[id][j % 64] = *p * 0x9e3779b1u + j;
        if (j % 64 == 63)
            mram_write(wbuf[id], (__mram_ptr void *)(out1 + (j - 63) * 4), 256);
        p = seqread_get(p, 4, &sr);
    }
    /* a seek back to the middle (a page refill from a new address) */
    p = seqread_seek((__mram_ptr void *)(in + NB / 2 + 12), &sr);
    uint32_t sum2 = 0;
    for (uint32_t j = 0; j < 100; j++, p = seqread_get(p, 4, &sr))
        sum2 += *p ^ j;
    /* WRAM and MRAM misaligned alike (0 and 4 mod 8), as the SDK wants */
    sumw[id][0] = sum, sumw[id][1] = sum2;
    mram_write_unaligned(&sumw[id][0], (__mram_ptr void *)(sums + 16 * id), 4);
    mram_write_unaligned(&sumw[id][1], (__mram_ptr void *)(sums + 16 * id + 4), 4);

    /* 13-byte records at offsets 3 + 13 k: reversed to 5 bytes further on */
    for (uint32_t k = 0; 3 + REC * (k + 1) + 5 <= NB; k++) {
        const uintptr_t src = in + 3 + REC * k, dst = out2 + 8 + REC * k;
        const uint8_t *r = mram_read_unaligned((__mram_ptr void *)src, rbuf[id], REC);
        uint8_t *o = obuf[id] + dst % 8; /* the SDK wants WRAM misaligned as MRAM */
        for (uint32_t i = 0; i < REC; i++)
            o[i] = r[REC - 1 - i];
        mram_write_unaligned(o, (__mram_ptr void *)dst, REC);
    }
    return 0;
}
