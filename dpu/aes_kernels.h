/*
 * aes_kernels.h -- the AES kernels of the DPU programs (aes.c, gcm.c,
 * resident.c): the T-tables in WRAM, the per-tasklet chunk buffers, the
 * round sweeps, the ECB chunk kernel and the CTR chunk kernel.  How they
 * work and why they are shaped so: the top of dpu/aes.c.
 *
 * Included once, by the program's one translation unit, after it defines
 * CHUNK (its buffer bytes per tasklet: DPU_CHUNK of dpu_lib.h, from what
 * WRAM it has left after its own tables).  The functions are static: each
 * program keeps what it calls and the compiler drops the rest (which is why
 * they are marked unused: GCM calls neither decryption nor the 128-bit
 * counter).
 */
#ifndef CPIM_DPU_AES_KERNELS_H
#define CPIM_DPU_AES_KERNELS_H

#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "aes.h"
#include "aes_args.h"
#include "dpu_lib.h"

#ifndef CHUNK /* the includer's choice (aes.c, gcm.c, resident.c) */
#error "define CHUNK (DPU_CHUNK, dpu_lib.h) before including aes_kernels.h"
#endif
#define CHUNK_BLOCKS (CHUNK / 16u)
/* CTR: data in the lower half of the buffer, keystream in the upper half. */
#define CTR_BLOCKS   (CHUNK_BLOCKS / 2u)
#define CTR_KS_WORDS (CHUNK / 8u) /* offset of the keystream half, in words */
#define STEP         8u           /* blocks per unrolled loop step of a sweep */
_Static_assert(CTR_BLOCKS % STEP == 0, "the buffer halves hold whole steps");
_Static_assert(256 % CTR_BLOCKS == 0,
               "a CTR chunk never crosses a wrap of the counter's last byte");

__host struct aes_key_args AES_KEY_SYM;

/* One MRAM variable so that DPU_MRAM_HEAP_POINTER lands in MRAM: the virtual
 * UPMEM's linker script mis-places it in a program without any (8 bytes). */
__mram_noinit uint64_t aes_mram_anchor;
__host struct aes_job_args AES_JOB_SYM;

/* tab[256 * r + x], r = 0..3: round tables; r = 4..7: last-round tables
 * (dpu/aes.c); a round's four tables start at tab or TAB_LAST. */
static uint32_t tab[8 * 256];
#define TAB_LAST (tab + 4 * 256)
/* Which operation tab holds; persists across launches. */
static uint32_t tab_op = 0xffffffffu;

/* __host: readable by the host, so that tests/test_pim_keys.c can check
 * that no keystream is left in it. */
__host __dma_aligned uint32_t buffers[NR_TASKLETS][CHUNK / 4];

BARRIER_INIT(tables_ready, NR_TASKLETS);
BARRIER_INIT(all_done, NR_TASKLETS);

static inline uint32_t rotl(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32u - n));
}

static inline uint32_t xt(uint32_t x)
{
    return ((x << 1) ^ ((x >> 7) * 0x1bu)) & 0xffu;
}

static __attribute__((unused)) void build_tables(uint32_t op)
{
    for (uint32_t x = me(); x < 256; x += NR_TASKLETS) {
        uint32_t t0, s;
        if (op == AES_OP_ECB_DEC || op == AES_OP_XTS_DEC) {
            s = cpim_crypto_aes_inv_sbox[x];
            uint32_t x2 = xt(s), x4 = xt(x2), x8 = xt(x4);
            t0 = (x8 ^ x4 ^ x2) | (x8 ^ s) << 8 | (x8 ^ x4 ^ s) << 16 | (x8 ^ x2 ^ s) << 24;
        } else {
            s = cpim_crypto_aes_sbox[x];
            uint32_t s2 = xt(s);
            t0 = s2 | s << 8 | s << 16 | (s2 ^ s) << 24;
        }
        for (unsigned r = 0; r < 4; r++) {
            tab[256 * r + x] = r ? rotl(t0, 8 * r) : t0;
            tab[256 * (4 + r) + x] = s << (8 * r);
        }
    }
}

#define UNROLL _Pragma("clang loop unroll(full)")

/* The four tables of a round reach a sweep (a function that is not
 * inlined) as four separate pointers, struct rtab: the compiler then cannot
 * relate them, and each lookup is `sh2add` + `lw`.
 * From one base it merges the table offset into the index (`ori idx, 512`,
 * or a sign-extending `lb` + `slli` + `ori` + `add`): one to three
 * instructions more per lookup. */
struct rtab {
    const uint32_t *t0, *t1, *t2, *t3;
};

static __attribute__((unused)) struct rtab rtab_at(const uint32_t *T)
{
    return (struct rtab){T, T + 256, T + 512, T + 768};
}

/* Table r of round tables R at the state byte s[i]. */
#define LK(R, r, s, i) (R).t##r[(s)[i]]

/* One round over the n blocks (n a multiple of STEP) of the state at w, in
 * place: w = T-lookups of ShiftRows(w) ^ k.  T is tab (middle round) or
 * TAB_LAST (last round); o_c takes row r from column c + r.  All four
 * words of a block are computed before any is stored (each reads all four). */
static __attribute__((noinline, unused)) void enc_round(uint32_t *w, uint32_t n, struct rtab T,
                                                        const uint32_t *k)
{
    const uint32_t k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3];
    for (uint32_t *end = w + 4 * n; w != end; w += 4 * STEP) {
        UNROLL for (uint32_t j = 0; j < STEP; j++)
        {
            uint32_t *q = w + 4 * j;
            const uint8_t *s = (const uint8_t *)q;
            uint32_t o0 = LK(T, 0, s, 0) ^ LK(T, 1, s, 5) ^ LK(T, 2, s, 10) ^ LK(T, 3, s, 15) ^ k0;
            uint32_t o1 = LK(T, 0, s, 4) ^ LK(T, 1, s, 9) ^ LK(T, 2, s, 14) ^ LK(T, 3, s, 3) ^ k1;
            uint32_t o2 = LK(T, 0, s, 8) ^ LK(T, 1, s, 13) ^ LK(T, 2, s, 2) ^ LK(T, 3, s, 7) ^ k2;
            uint32_t o3 = LK(T, 0, s, 12) ^ LK(T, 1, s, 1) ^ LK(T, 2, s, 6) ^ LK(T, 3, s, 11) ^ k3;
            q[0] = o0, q[1] = o1, q[2] = o2, q[3] = o3;
        }
    }
}

/* The same for decryption (equivalent inverse cipher: InvShiftRows takes row
 * r of column c from column c - r). */
static __attribute__((noinline, unused)) void dec_round(uint32_t *w, uint32_t n, struct rtab T,
                                                        const uint32_t *k)
{
    const uint32_t k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3];
    for (uint32_t *end = w + 4 * n; w != end; w += 4 * STEP) {
        UNROLL for (uint32_t j = 0; j < STEP; j++)
        {
            uint32_t *q = w + 4 * j;
            const uint8_t *s = (const uint8_t *)q;
            uint32_t o0 = LK(T, 0, s, 0) ^ LK(T, 1, s, 13) ^ LK(T, 2, s, 10) ^ LK(T, 3, s, 7) ^ k0;
            uint32_t o1 = LK(T, 0, s, 4) ^ LK(T, 1, s, 1) ^ LK(T, 2, s, 14) ^ LK(T, 3, s, 11) ^ k1;
            uint32_t o2 = LK(T, 0, s, 8) ^ LK(T, 1, s, 5) ^ LK(T, 2, s, 2) ^ LK(T, 3, s, 15) ^ k2;
            uint32_t o3 = LK(T, 0, s, 12) ^ LK(T, 1, s, 9) ^ LK(T, 2, s, 6) ^ LK(T, 3, s, 3) ^ k3;
            q[0] = o0, q[1] = o1, q[2] = o2, q[3] = o3;
        }
    }
}

/* The initial AddRoundKey: w ^= k over n blocks (n a multiple of STEP). */
static __attribute__((noinline, unused)) void add_key(uint32_t *w, uint32_t n, const uint32_t *k)
{
    const uint32_t k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3];
    for (uint32_t *end = w + 4 * n; w != end; w += 4 * STEP) {
        UNROLL for (uint32_t j = 0; j < STEP; j++)
        {
            uint32_t *q = w + 4 * j;
            q[0] ^= k0, q[1] ^= k1, q[2] ^= k2, q[3] ^= k3;
        }
    }
}

typedef void round_fn(uint32_t *w, uint32_t n, struct rtab T, const uint32_t *k);

/* ECB over the n blocks at w in place; nr rounds of round keys rk. */
static __attribute__((unused)) void ecb_chunk(uint32_t *w, uint32_t n, const uint32_t *rk,
                                              uint32_t nr, round_fn *round)
{
    n = (n + STEP - 1) & ~(STEP - 1);
    add_key(w, n, rk);
    for (uint32_t r = 1; r < nr; r++)
        round(w, n, rtab_at(tab), rk + 4 * r);
    round(w, n, rtab_at(TAB_LAST), rk + 4 * nr);
}

/* CTR, first two rounds of the n keystream blocks at w, whose counters are
 * (c0 c1 c2 x + i) with only the low byte of x + i varying (see ctr_chunk).
 * P = { K, C0, D0, D1, D2, D3 }: K is the byte swap of the round key's
 * column 3, so row r of the whitened column 3 is byte 3 - r of (x + i) ^ K:
 * its row 3 (the counter's last byte) is the only byte that varies, and it
 * reaches only column 0 of round 1: q0 = C0 ^ T3[...].  Round 2 reads one
 * byte of q0 per output column; D_c is the rest of that column (from the
 * constant columns 1..3 of round 1, with the round key). */
static __attribute__((noinline, unused)) void
ctr_first_rounds(uint32_t *w, uint32_t n, struct rtab T, uint32_t x, const uint32_t P[6])
{
    const uint32_t K = P[0], c0 = P[1], d0 = P[2], d1 = P[3], d2 = P[4], d3 = P[5];
    for (uint32_t *end = w + 4 * n; w != end; w += 4 * STEP, x += STEP) {
        UNROLL for (uint32_t j = 0; j < STEP; j++)
        {
            uint32_t *q = w + 4 * j;
            const uint32_t q0 = c0 ^ T.t3[((x + j) ^ K) & 0xffu];
            q[0] = d0 ^ T.t0[q0 & 0xffu];
            q[1] = d1 ^ T.t3[q0 >> 24];
            q[2] = d2 ^ T.t2[(q0 >> 16) & 0xffu];
            q[3] = d3 ^ T.t1[(q0 >> 8) & 0xffu];
        }
    }
}

/* CTR, last round: the data CTR_KS_WORDS words below each keystream block
 * is xored with the last round of the keystream block (see enc_round). */
static __attribute__((noinline, unused)) void ctr_last_round(uint32_t *w, uint32_t n, struct rtab T,
                                                             const uint32_t *k)
{
    const uint32_t k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3];
    for (uint32_t *end = w + 4 * n; w != end; w += 4 * STEP) {
        UNROLL for (uint32_t j = 0; j < STEP; j++)
        {
            uint32_t *q = w + 4 * j, *d = q - CTR_KS_WORDS;
            const uint8_t *s = (const uint8_t *)q;
            d[0] ^= LK(T, 0, s, 0) ^ LK(T, 1, s, 5) ^ LK(T, 2, s, 10) ^ LK(T, 3, s, 15) ^ k0;
            d[1] ^= LK(T, 0, s, 4) ^ LK(T, 1, s, 9) ^ LK(T, 2, s, 14) ^ LK(T, 3, s, 3) ^ k1;
            d[2] ^= LK(T, 0, s, 8) ^ LK(T, 1, s, 13) ^ LK(T, 2, s, 2) ^ LK(T, 3, s, 7) ^ k2;
            d[3] ^= LK(T, 0, s, 12) ^ LK(T, 1, s, 1) ^ LK(T, 2, s, 6) ^ LK(T, 3, s, 11) ^ k3;
        }
    }
}

/* c += n, 128-bit, c[0] most significant. */
static __attribute__((unused)) void ctr_add(uint32_t c[4], uint32_t n)
{
    c[3] += n;
    if (c[3] < n && ++c[2] == 0 && ++c[1] == 0)
        ++c[0];
}

/* Byte r (row r) of a little-endian column word. */
#define BY(v, r) (((v) >> (8 * (r))) & 0xffu)

/* CTR over the n data blocks at buf (n <= CTR_BLOCKS): block i uses counter
 * c + i, and the caller guarantees that only the last byte of the counter
 * changes within the chunk (c[3] & 0xff plus n - 1 stays below 256).  The
 * counter block's bytes are c[0..3] big-endian, so its little-endian column
 * words are their byte swaps.  Everything in the first two rounds that does
 * not depend on that last byte is computed here, once per chunk. */
static __attribute__((unused)) void ctr_chunk(uint32_t *buf, uint32_t n, const uint32_t c[4],
                                              const uint32_t *rk, uint32_t nr)
{
    uint32_t *w = buf + CTR_KS_WORDS;
    const struct rtab T = rtab_at(tab);
    /* Round 1: the whitened columns 0..2 are constant, and so is all of
     * column 3 but its row 3 (byte 0 of u). */
    const uint32_t s0 = __builtin_bswap32(c[0]) ^ rk[0], s1 = __builtin_bswap32(c[1]) ^ rk[1];
    const uint32_t s2 = __builtin_bswap32(c[2]) ^ rk[2];
    const uint32_t K = __builtin_bswap32(rk[3]), u = c[3] ^ K;
    const uint32_t C0 = T.t0[BY(s0, 0)] ^ T.t1[BY(s1, 1)] ^ T.t2[BY(s2, 2)] ^ rk[4];
    const uint32_t q1 =
        T.t0[BY(s1, 0)] ^ T.t1[BY(s2, 1)] ^ T.t2[BY(u, 1)] ^ T.t3[BY(s0, 3)] ^ rk[5];
    const uint32_t q2 =
        T.t0[BY(s2, 0)] ^ T.t1[BY(u, 2)] ^ T.t2[BY(s0, 2)] ^ T.t3[BY(s1, 3)] ^ rk[6];
    const uint32_t q3 =
        T.t0[BY(u, 3)] ^ T.t1[BY(s0, 1)] ^ T.t2[BY(s1, 2)] ^ T.t3[BY(s2, 3)] ^ rk[7];
    /* Round 2: column c minus the one byte that comes from column 0. */
    uint32_t P[6] = {
        K,
        C0,
        T.t1[BY(q1, 1)] ^ T.t2[BY(q2, 2)] ^ T.t3[BY(q3, 3)] ^ rk[8],
        T.t0[BY(q1, 0)] ^ T.t1[BY(q2, 1)] ^ T.t2[BY(q3, 2)] ^ rk[9],
        T.t0[BY(q2, 0)] ^ T.t1[BY(q3, 1)] ^ T.t3[BY(q1, 3)] ^ rk[10],
        T.t0[BY(q3, 0)] ^ T.t2[BY(q1, 2)] ^ T.t3[BY(q2, 3)] ^ rk[11],
    };
    n = (n + STEP - 1) & ~(STEP - 1);
    ctr_first_rounds(w, n, T, c[3], P);
    wipe_words(P, 6); /* P[0] is a round-key word (of the cipher key itself for AES-128) */
    for (uint32_t r = 3; r < nr; r++)
        enc_round(w, n, T, rk + 4 * r);
    ctr_last_round(w, n, rtab_at(TAB_LAST), rk + 4 * nr);
}

#endif /* CPIM_DPU_AES_KERNELS_H */
