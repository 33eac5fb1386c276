/*
 * sha256.c -- the SHA-256 DPU program: the digests of many messages of any
 * length, padding done here, one 32-byte digest per message written back.
 *
 * Contract with the host: sha256_args.h (message table, state slots).
 *
 * Partitioning: one message is sequential (each block needs the previous
 * chaining value), so the parallelism is across messages.  The host already
 * balanced the messages over the DPUs by bytes; here they are balanced over
 * the tasklets the same way: with c_i the compression-function calls of
 * message i and P_i the sum of c_j for j < i, message i goes to tasklet
 * floor((P_i + c_i / 2) * NR_TASKLETS / total), i.e. to the tasklet whose
 * equal slice of the total work holds the message's middle.  Every tasklet
 * computes the same assignment from the table, so no tasklet has to wait for
 * another.
 *
 * Each tasklet streams its messages through its own WRAM buffer (2048 bytes
 * per DMA up to 16 tasklets, 1024 above so the buffers and stacks still fit
 * 64 KiB), compresses the whole blocks in place, pads the tail in a small
 * local block and writes the digest (or, for a segment of a longer message,
 * the chaining value) to the message's 32-byte slot.
 *
 * The compression function is src/crypto's SHA-256 (K table, FIPS 180-4) in
 * a DPU-tuned form that the tests hold equal to it: all 64 rounds unrolled
 * with the eight working variables renamed instead of moved, the schedule in
 * a 16-word ring computed in place, rotates that clang turns into `rori`
 * (Zbb), Ch with and-not, and Maj computed as ((a^b) & (b^c)) ^ b reusing the
 * previous round's a^b.  Data-oblivious: the work depends only on the
 * message lengths.
 */
#include "sha256.h"

#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "dpu_lib.h"
#include "sha256_args.h"
#include "sha256_rounds.h"

/* 2048 bytes (the largest DMA) up to 16 tasklets, 1024 above: aes.c's
 * 32 KiB budget for the buffers (24 tasklets' stacks take 24 KiB more). */
#define CHUNK DPU_CHUNK(2048u, 32768u)

__host struct sha_job_args SHA_JOB_SYM;

/* One MRAM variable so that DPU_MRAM_HEAP_POINTER lands in MRAM: the virtual
 * UPMEM's linker script mis-places it in a program without any (8 bytes). */
__mram_noinit uint64_t sha_mram_anchor;

static __dma_aligned uint32_t buffers[NR_TASKLETS][CHUNK / 4];
DPU_WRAM_CHECK(sizeof buffers);

/* n whole 64-byte blocks at p (4-byte aligned, message byte order). */
static void compress(uint32_t st[8], const uint32_t *p, uint32_t n)
{
    /* Through the empty asm the compiler no longer knows K's values, so each
     * K[i] is one load instead of a two-instruction constant. */
    const uint32_t *k = cpim_crypto_sha256_k;
    __asm__("" : "+r"(k));
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    uint32_t e = st[4], f = st[5], g = st[6], h = st[7];
    for (; n; n--, p += 16) {
        uint32_t w[16];
        for (int i = 0; i < 16; i++)
            w[i] = __builtin_bswap32(p[i]);
        uint32_t bc = b ^ c;
        RND8(0);
        RND8(8);
        RND8(16);
        RND8(24);
        RND8(32);
        RND8(40);
        RND8(48);
        RND8(56);
        a = st[0] += a, b = st[1] += b, c = st[2] += c, d = st[3] += d;
        e = st[4] += e, f = st[5] += f, g = st[6] += g, h = st[7] += h;
    }
}

/* Compression calls of one table entry (the tasklet balancing's unit). */
static inline uint32_t cost(const struct sha_msg *m)
{
    uint32_t c = m->length / 64u;
    if (m->flags & SHA_F_FINAL)
        c += (m->length % 64u) < 56u ? 1u : 2u;
    return c + 1u; /* + the per-message overhead, so empty messages spread too */
}

static void hash_one(const struct sha_msg *m, __mram_ptr uint8_t *heap, __mram_ptr uint8_t *slot,
                     uint32_t *buf)
{
    __dma_aligned uint32_t st[8];
    if (m->flags & SHA_F_CONT) {
        mram_read(slot, st, 32);
    } else {
        st[0] = CPIM_SHA256_IV0, st[1] = CPIM_SHA256_IV1, st[2] = CPIM_SHA256_IV2;
        st[3] = CPIM_SHA256_IV3, st[4] = CPIM_SHA256_IV4, st[5] = CPIM_SHA256_IV5;
        st[6] = CPIM_SHA256_IV6, st[7] = CPIM_SHA256_IV7;
    }
    __mram_ptr uint8_t *src = heap + m->offset;
    uint32_t left = m->length;
    while (left >= 64u) {
        uint32_t n = left & ~63u;
        if (n > CHUNK)
            n = CHUNK;
        mram_read(src, buf, n);
        compress(st, buf, n / 64u);
        src += n;
        left -= n;
    }
    if (m->flags & SHA_F_FINAL) {
        /* Padding: the tail, 0x80, zeros, the bit length big-endian. */
        __dma_aligned uint32_t pad[32];
        uint8_t *pb = (uint8_t *)pad;
        if (left)
            mram_read(src, pad, (left + 7u) & ~7u);
        pb[left] = 0x80;
        uint32_t end = left < 56u ? 64u : 128u;
        for (uint32_t i = left + 1; i < end - 8u; i++)
            pb[i] = 0;
        uint64_t bits = (m->prior + m->length) * 8u;
        pad[end / 4 - 2] = __builtin_bswap32((uint32_t)(bits >> 32));
        pad[end / 4 - 1] = __builtin_bswap32((uint32_t)bits);
        compress(st, pad, end / 64u);
        for (int i = 0; i < 8; i++)
            st[i] = __builtin_bswap32(st[i]); /* digest bytes are big-endian */
    }
    mram_write(st, slot, 32);
}

int main(void)
{
    const uint32_t t = me(), nmsgs = SHA_JOB_SYM.nmsgs;
    __mram_ptr uint8_t *heap = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;
    __mram_ptr uint8_t *table = heap + SHA_JOB_SYM.table_off;
    __mram_ptr uint8_t *slots = heap + SHA_JOB_SYM.state_off;
    __dma_aligned struct sha_msg m;

    uint32_t total = 0;
    for (uint32_t i = 0; i < nmsgs; i++) {
        mram_read(table + i * sizeof m, &m, sizeof m);
        total += cost(&m);
    }
    uint32_t before = 0;
    for (uint32_t i = 0; i < nmsgs; i++) {
        mram_read(table + i * sizeof m, &m, sizeof m);
        uint32_t c = cost(&m);
        if ((before + c / 2u) * NR_TASKLETS / total == t)
            hash_one(&m, heap, slots + 32u * i, buffers[t]);
        before += c;
    }
    return 0;
}
