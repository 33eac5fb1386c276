/*
 * gcm.c -- the AES-GCM DPU program: CTR encryption or decryption
 * of this DPU's share in place, and the GHASH of its ciphertext, in one
 * pass over the data (the ciphertext is hashed while its chunk is in WRAM:
 * after CTR when encrypting, before it when decrypting).
 *
 * Contract with the host: gcm_args.h (and aes_args.h for the round keys).
 * The CTR kernels are dpu/aes.c's (dpu/aes_kernels.h), so the two programs
 * cannot drift apart; GCM's counter differs from CTR's
 * only in that its low 32 bits wrap without a carry (inc32), which is all
 * main() below does differently.
 *
 * GHASH without a carry-less multiplier.  The DPU has none (nor a wide
 * integer multiplier), so the product X * H in GF(2^128) is table-driven.
 * It is linear in X, so X * H = XOR over the 32 nibble positions p of
 * T_p[nibble_p(X)], with T_p[v] = (v at position p) * H: 32 tables of 16
 * entries of 16 bytes, 8 KiB in WRAM.  A block then costs 32 lookups of 4
 * words (per nibble: `srli`/`andi` to the entry offset, `add` of the
 * table's base, 4 `lw`, 4 `xor`, ~11 instructions) and no shifting or
 * reduction at all.  Shoup's 4-bit method (one 256-byte table, a 4-bit
 * shift of the 128-bit state with a reduction lookup per nibble) needs
 * ~20 instructions per nibble on this 32-bit ISA; the 8-bit per-position
 * tables (64 KiB) do not fit in WRAM.  Like the AES T-tables, these
 * lookups are constant-time on a DPU: WRAM has no cache.
 *
 * The tables depend on the key: they are built at every launch, on the DPU,
 * so that only the round keys cross the bus.  Tasklet 0 computes H = E_K(0)
 * with the AES kernels; then tasklet t builds the tables of the nibble
 * positions p = t mod NR_TASKLETS from the powers H * x^n (n < 128).  After
 * the last tasklet is done, the tables, H and the round keys are wiped.
 *
 * One message over many tasklets and DPUs.  GHASH is Horner's rule: y =
 * (y ^ B_i) * H block after block.  Tasklet t runs it over its own run of
 * blocks starting from y = 0 and leaves Y_t = sum_j B_j * H^(end - j) in
 * GCM_PART_SYM[t]; the host, which knows every run's length L, combines the
 * runs in order as acc = acc * H^L ^ Y_t (GHASH's linearity), over the
 * tasklets of every DPU and over the DPUs.  The partition is aes.c's
 * (whole steps of 8 blocks, runs differing by at most one step), which the
 * host repeats (src/pim/pim_gcm.c, gcm_combine).
 *
 * WRAM: the GHASH tables take WRAM that the AES program gives to its chunk
 * buffers, so the chunks are smaller (CHUNK below).
 */
#include <stdint.h>

#include "dpu_lib.h"

/* WRAM less the AES tables (8 KiB), the GHASH tables (up to 16 KiB) and 24
 * tasklets' stacks: 16 KiB for the buffers, as resident.c -- 2048 bytes up
 * to 8 tasklets, 1024 up to 16, 512 above. */
#define CHUNK DPU_CHUNK(2048u, 16384u)
#include "aes_kernels.h"
#include "gcm_args.h"

__host struct gcm_job_args GCM_JOB_SYM;
__host uint32_t GCM_PART_SYM[NR_TASKLETS][4];
__host uint32_t GCM_TAB_SYM[GCM_TAB_WORDS];
__host uint32_t GCM_H_SYM[4];
/* 8-bit tables of bytes 0 and 3 (see ghash_sweep) */
__host uint32_t GCM_TAB8_SYM[2][256 * 4];

DPU_WRAM_CHECK(sizeof buffers + sizeof tab + sizeof GCM_PART_SYM + sizeof GCM_TAB_SYM +
               sizeof GCM_H_SYM + sizeof GCM_TAB8_SYM);

BARRIER_INIT(h_ready, NR_TASKLETS);
BARRIER_INIT(gtab_ready, NR_TASKLETS);
BARRIER_INIT(gtab8_ready, NR_TASKLETS);

/* Element words: a 16-byte block as four little-endian words (the block's
 * bytes in order in memory), so blocks are used as loaded. */

/* v = v * x: a right shift of the big-endian 128-bit number, the bit that
 * falls off folded back as 0xe1 into the first byte. */
static void mul_x(uint32_t v[4])
{
    uint32_t b0 = __builtin_bswap32(v[0]), b1 = __builtin_bswap32(v[1]);
    uint32_t b2 = __builtin_bswap32(v[2]), b3 = __builtin_bswap32(v[3]);
    uint32_t carry = b3 & 1u;
    b3 = b3 >> 1 | b2 << 31;
    b2 = b2 >> 1 | b1 << 31;
    b1 = b1 >> 1 | b0 << 31;
    b0 = (b0 >> 1) ^ (0xe1000000u & (0u - carry));
    v[0] = __builtin_bswap32(b0), v[1] = __builtin_bswap32(b1);
    v[2] = __builtin_bswap32(b2), v[3] = __builtin_bswap32(b3);
}

/* Entry v of position p: 4 words. Position p = 2 * i + s is byte i's low
 * (s = 0) or high (s = 1) nibble. */
#define GENTRY(p, v) (GCM_TAB_SYM + ((p)*16u + (v)) * 4u)

/* The tables of positions p = t mod NR_TASKLETS.  Bit j of nibble value v
 * at position (i, s) is bit 4s + j of byte i, which SP 800-38D's bit order
 * makes the coefficient of x^(8i + 7 - 4s - j). */
static void build_gtab(uint32_t t, const uint32_t h[4])
{
    uint32_t v[4] = {h[0], h[1], h[2], h[3]};
    for (uint32_t n = 0; n < 128; n++, mul_x(v)) {
        uint32_t i = n / 8, b = 7 - n % 8, p = 2 * i + b / 4, j = b % 4;
        if (p % NR_TASKLETS != t)
            continue;
        uint32_t *e = GENTRY(p, 1u << j);
        e[0] = v[0], e[1] = v[1], e[2] = v[2], e[3] = v[3];
    }
    for (uint32_t p = t; p < 32; p += NR_TASKLETS) {
        uint32_t *z = GENTRY(p, 0);
        z[0] = z[1] = z[2] = z[3] = 0;
        for (uint32_t x = 3; x < 16; x++) {
            if ((x & (x - 1)) == 0)
                continue; /* a single bit: a power of H, stored above */
            const uint32_t *a = GENTRY(p, x & (x - 1)), *c = GENTRY(p, x & (0u - x));
            uint32_t *e = GENTRY(p, x);
            e[0] = a[0] ^ c[0], e[1] = a[1] ^ c[1], e[2] = a[2] ^ c[2], e[3] = a[3] ^ c[3];
        }
    }
    wipe_words(v, 4);
}

/* The 8-bit tables of bytes 0 and 3 from the nibble tables (entries
 * t, t + NR_TASKLETS, ...): T8_i[v] = T_2i[v & 15] ^ T_2i+1[v >> 4]. */
static void build_gtab8(uint32_t t)
{
    for (uint32_t k = t; k < 512; k += NR_TASKLETS) {
        uint32_t i = k < 256 ? 0 : 3, v = k & 255;
        const uint32_t *lo = GENTRY(2 * i, v & 15), *hi = GENTRY(2 * i + 1, v >> 4);
        uint32_t *e = GCM_TAB8_SYM[k / 256] + 4 * v;
        e[0] = lo[0] ^ hi[0], e[1] = lo[1] ^ hi[1], e[2] = lo[2] ^ hi[2], e[3] = lo[3] ^ hi[3];
    }
}

/* The tables reach the sweep as four pointers, 2 KiB apart (positions
 * 8q .. 8q + 7 from pointer q), that the compiler cannot relate (as aes.c's
 * struct rtab): every load is then `lw` at an offset below 2048 from one of
 * them.  From one base, offsets above 2047 (positions 8 and up) cost one or
 * two instructions more per load (502 instructions per block in the
 * compiled code instead of ~360).  The empty asm in GX keeps the compiler
 * from precomputing base + 256 p for all 32 positions instead, which needs
 * more registers than there are (spills: 373 per block). */
struct gtabs {
    const uint8_t *q0, *q1, *q2, *q3;
    const uint8_t *b0, *b3; /* the 8-bit tables of bytes 0 and 3 */
};

/* z ^= the entry at byte offset `off` (16 x nibble) of position p (from
 * pointer q = base of positions 8k..8k+7). */
#define GX(q, p, off)                                                                              \
    do {                                                                                           \
        const uint8_t *a_ = (q) + (off);                                                           \
        __asm__("" : "+r"(a_)); /* keep p * 256 in the loads' offsets (see above) */               \
        const uint32_t *e_ = (const uint32_t *)(a_ + ((p)&7u) * 256u);                             \
        z0 ^= e_[0], z1 ^= e_[1], z2 ^= e_[2], z3 ^= e_[3];                                        \
    } while (0)

/* The 8 nibbles of word k of X: byte i = 4k + b; its high nibble times 16
 * is (x >> 8b) & 0xf0, its low nibble times 16 (x >> (8b - 4)) & 0xf0. */
#define GWORD(q, x)                                                                                \
    do {                                                                                           \
        GX(q, 1, (x)&0xf0u);                                                                       \
        GX(q, 0, ((x) << 4) & 0xf0u);                                                              \
        GX(q, 3, ((x) >> 8) & 0xf0u);                                                              \
        GX(q, 2, ((x) >> 4) & 0xf0u);                                                              \
        GX(q, 5, ((x) >> 16) & 0xf0u);                                                             \
        GX(q, 4, ((x) >> 12) & 0xf0u);                                                             \
        GX(q, 7, ((x) >> 24) & 0xf0u);                                                             \
        GX(q, 6, ((x) >> 20) & 0xf0u);                                                             \
    } while (0)

/* y = (y ^ B) * H for the n blocks at w. */
static __attribute__((noinline)) void ghash_sweep(const uint32_t *w, uint32_t n, uint32_t y[4],
                                                  struct gtabs g)
{
    uint32_t y0 = y[0], y1 = y[1], y2 = y[2], y3 = y[3];
    for (const uint32_t *end = w + 4 * n; w != end; w += 4) {
        const uint32_t x0 = y0 ^ w[0], x1 = y1 ^ w[1], x2 = y2 ^ w[2], x3 = y3 ^ w[3];
        uint32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0;
        /* word 0: bytes 0 and 3 by their 8-bit tables -- their offsets
         * are 2 instructions, (x & 255) << 4 and (x >> 24) << 4 -- and
         * bytes 1 and 2 by nibbles */
        GX(g.b0, 0, (x0 & 0xffu) << 4);
        GX(g.b3, 0, (x0 >> 24) << 4);
        GX(g.q0, 3, (x0 >> 8) & 0xf0u);
        GX(g.q0, 2, (x0 >> 4) & 0xf0u);
        GX(g.q0, 5, (x0 >> 16) & 0xf0u);
        GX(g.q0, 4, (x0 >> 12) & 0xf0u);
        GWORD(g.q1, x1);
        GWORD(g.q2, x2);
        GWORD(g.q3, x3);
        y0 = z0, y1 = z1, y2 = z2, y3 = z3;
    }
    y[0] = y0, y[1] = y1, y[2] = y2, y[3] = y3;
}

int main(void)
{
    const uint32_t op = AES_KEY_SYM.op, nr = AES_KEY_SYM.nr;
    const uint32_t *rk = AES_KEY_SYM.rk;
    const uint32_t t = me();
    uint32_t *buf = buffers[t];

    if (tab_op != op)
        build_tables(op);
    barrier_wait(&tables_ready);
    if (t == 0) {
        tab_op = op;
        /* H = E_K(0^128): one block through the ECB kernels (a step of 8) */
        for (uint32_t i = 0; i < 4 * STEP; i++)
            buf[i] = 0;
        ecb_chunk(buf, 1, rk, nr, enc_round);
        GCM_H_SYM[0] = buf[0], GCM_H_SYM[1] = buf[1], GCM_H_SYM[2] = buf[2];
        GCM_H_SYM[3] = buf[3];
        wipe_words(buf, 4 * STEP);
    }
    barrier_wait(&h_ready);
    build_gtab(t, GCM_H_SYM);
    barrier_wait(&gtab_ready);
    build_gtab8(t);
    barrier_wait(&gtab8_ready);

    /* the partition of aes.c: runs of whole steps */
    const uint32_t nblk = GCM_JOB_SYM.nbytes / 16u, nstep = (nblk + STEP - 1) / STEP;
    uint32_t b = STEP * TASKLET_BEGIN(nstep, t);
    uint32_t last = STEP * TASKLET_END(nstep, t);
    if (last > nblk)
        last = nblk;
    uint32_t c[4] = {GCM_JOB_SYM.ctr[0], GCM_JOB_SYM.ctr[1], GCM_JOB_SYM.ctr[2],
                     GCM_JOB_SYM.ctr[3] + b}; /* inc32: no carry out of c[3] */
    const uint32_t tail = GCM_JOB_SYM.tail;
    uint32_t y[4] = {0, 0, 0, 0};
    const uint8_t *tb = (const uint8_t *)GCM_TAB_SYM;
    const struct gtabs g = {tb,
                            tb + 2048,
                            tb + 4096,
                            tb + 6144,
                            (const uint8_t *)GCM_TAB8_SYM[0],
                            (const uint8_t *)GCM_TAB8_SYM[1]};
    __mram_ptr uint8_t *data = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;

    while (b < last) {
        uint32_t n = last - b < CTR_BLOCKS ? last - b : CTR_BLOCKS;
        /* a chunk never crosses a wrap of the counter's last byte (aes.c) */
        if (n > CTR_BLOCKS - (c[3] & (CTR_BLOCKS - 1)))
            n = CTR_BLOCKS - (c[3] & (CTR_BLOCKS - 1));
        mram_read(data + 16u * b, buf, 16u * n);
        if (op == GCM_OP_DEC)
            ghash_sweep(buf, n, y, g);
        ctr_chunk(buf, n, c, rk, nr);
        c[3] += n;
        if (op == GCM_OP_ENC) {
            if (b + n == nblk && tail < 16) {
                /* the message's last, partial block: GHASH pads the
                 * ciphertext with zeros (the host keeps only tail bytes) */
                uint8_t *lastb = (uint8_t *)(buf + 4 * (n - 1));
                for (uint32_t i = tail; i < 16; i++)
                    lastb[i] = 0;
            }
            ghash_sweep(buf, n, y, g);
        }
        mram_write(buf, data + 16u * b, 16u * n);
        b += n;
    }
    GCM_PART_SYM[t][0] = y[0], GCM_PART_SYM[t][1] = y[1];
    GCM_PART_SYM[t][2] = y[2], GCM_PART_SYM[t][3] = y[3];
    wipe_words(y, 4);
    /* No key material left in WRAM: the last keystream, and once every
     * tasklet is done with them, the GHASH tables (each tasklet its own
     * positions), H and the round keys. */
    wipe_words(buf + CTR_KS_WORDS, CHUNK / 8u);
    barrier_wait(&all_done);
    for (uint32_t p = t; p < 32; p += NR_TASKLETS)
        wipe_words(GENTRY(p, 0), 64);
    for (uint32_t k = t; k < 2 * 256; k += NR_TASKLETS)
        wipe_words(GCM_TAB8_SYM[k / 256] + 4 * (k & 255), 4);
    if (t == 0) {
        wipe_words(GCM_H_SYM, 4);
        wipe_words((uint32_t *)&AES_KEY_SYM, sizeof AES_KEY_SYM / 4u);
    }
    return 0;
}
