/*
 * aes.c -- the AES DPU program: ECB encryption and decryption and CTR with
 * 128/192/256-bit keys, in place on this DPU's share of the buffer.
 *
 * Contract with the host: aes_args.h.  The round keys are expanded on the
 * host (src/crypto) and broadcast; the share lives in MRAM at
 * DPU_MRAM_HEAP_POINTER.
 *
 * Partitioning: the share's `nbytes / 16` blocks are split into NR_TASKLETS
 * contiguous runs that differ by at most one block (tasklet t takes blocks
 * [n*t/T, n*(t+1)/T)), so every tasklet does the same work and none waits for
 * a straggler.  Each tasklet streams its run through its own WRAM buffer:
 * read a chunk by DMA, process it in place, write it back.  The chunk is
 * 2048 bytes (the largest DMA) up to 16 tasklets: the DMA's fixed cost
 * (~77 cycles) is then amortised over ~90k instructions of AES, and while
 * one tasklet waits for its DMA the other tasklets keep the pipeline full.
 * Above 16 tasklets the chunk is 1024 bytes so that the buffers, stacks and
 * tables still fit the 64 KiB of WRAM.
 *
 * Tables: the four round T-tables and four last-round S-box tables live in
 * WRAM (8 KiB), shared read-only by all tasklets.  On a DPU, WRAM has a
 * uniform one-cycle access and no cache, so these data-dependent lookups
 * take the same time whatever the index: they do not leak the key through
 * timing as they would on a CPU with caches.  They are built at the first
 * launch of an operation from the portable S-boxes of src/crypto (each
 * tasklet fills every NR_TASKLETS-th entry, then a barrier) and kept across
 * launches (WRAM persists while the program stays loaded).
 *
 * Tuning for the DPU (the form of src/crypto's T-table AES that the tests
 * hold equal to it): the state is four little-endian column words, so a
 * block is four plain word loads with no byte swap; the tables are the byte
 * swaps of FIPS-197's (the host swaps the round keys to match); of the four
 * bytes of a word, rows 0 and 3 are one `andi` / `srli` away and rows 1 and 2
 * one `andi` / `srli` away from the word rotated by 16 (five instructions for
 * four bytes instead of six); AES-128 is fully unrolled, the state ping-pongs
 * between two sets of variables so no register is moved between rounds; the
 * last round uses S-box tables pre-shifted into each row, so it costs what a
 * middle round costs.
 */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "aes.h"
#include "aes_args.h"

#if NR_TASKLETS <= 16
#define CHUNK 2048u
#else
#define CHUNK 1024u
#endif
#define CHUNK_BLOCKS (CHUNK / 16u)

__host struct aes_key_args AES_KEY_SYM;

/* One MRAM variable so that DPU_MRAM_HEAP_POINTER lands in MRAM: the virtual
 * UPMEM's linker script mis-places it in a program without any (8 bytes). */
__mram_noinit uint64_t aes_mram_anchor;
__host struct aes_job_args AES_JOB_SYM;

/* tab[0..3]: round tables, tab[4..7]: last-round tables (see above). */
static uint32_t tab[8][256];
/* Which operation tab holds; persists across launches. */
static uint32_t tab_op = 0xffffffffu;

static __dma_aligned uint32_t buffers[NR_TASKLETS][CHUNK / 4];

BARRIER_INIT(tables_ready, NR_TASKLETS);

static inline uint32_t rotl(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32u - n));
}

static inline uint32_t xt(uint32_t x)
{
    return ((x << 1) ^ ((x >> 7) * 0x1bu)) & 0xffu;
}

static void build_tables(uint32_t op)
{
    for (uint32_t x = me(); x < 256; x += NR_TASKLETS) {
        uint32_t t0, s;
        if (op == AES_OP_ECB_DEC) {
            s = cpc_aes_inv_sbox[x];
            uint32_t x2 = xt(s), x4 = xt(x2), x8 = xt(x4);
            t0 = (x8 ^ x4 ^ x2) | (x8 ^ s) << 8 | (x8 ^ x4 ^ s) << 16 | (x8 ^ x2 ^ s) << 24;
        } else {
            s = cpc_aes_sbox[x];
            uint32_t s2 = xt(s);
            t0 = s2 | s << 8 | s << 16 | (s2 ^ s) << 24;
        }
        for (unsigned r = 0; r < 4; r++) {
            tab[r][x] = r ? rotl(t0, 8 * r) : t0;
            tab[4 + r][x] = s << (8 * r);
        }
    }
}

/* Rows 1 and 2 of a column word come from the word rotated by 16.  The empty
 * asm keeps the compiler from folding `ror16(x) >> 24` back into
 * `(x >> 8) & 0xff`, which would cost one instruction more per word. */
static inline uint32_t ror16(uint32_t x)
{
    uint32_t r = (x >> 16) | (x << 16);
    __asm__("" : "+r"(r));
    return r;
}

/* Row 3 of a word: `x >> 24`, which then indexes a table with one `sh2add`.
 * Left alone, the compiler rewrites `T[x >> 24]` as `(x >> 22) & 0x3fc` plus an
 * `add`: one instruction more; the empty asm keeps the shift as written. */
static inline uint32_t top8(uint32_t x)
{
    uint32_t r = x >> 24;
    __asm__("" : "+r"(r));
    return r;
}

#define B0(x) ((x)&0xffu)
#define B3(x) top8(x)

/* One encryption round (T = tab: middle round, T = tab + 4: last round):
 * o = T-lookups of ShiftRows(i) ^ round key k. */
#define EROUND(T, k, o0, o1, o2, o3, i0, i1, i2, i3)                                         \
    do {                                                                                     \
        uint32_t r0_ = ror16(i0), r1_ = ror16(i1), r2_ = ror16(i2), r3_ = ror16(i3);         \
        o0 = (T)[0][B0(i0)] ^ (T)[1][B3(r1_)] ^ (T)[2][B0(r2_)] ^ (T)[3][B3(i3)] ^ (k)[0];   \
        o1 = (T)[0][B0(i1)] ^ (T)[1][B3(r2_)] ^ (T)[2][B0(r3_)] ^ (T)[3][B3(i0)] ^ (k)[1];   \
        o2 = (T)[0][B0(i2)] ^ (T)[1][B3(r3_)] ^ (T)[2][B0(r0_)] ^ (T)[3][B3(i1)] ^ (k)[2];   \
        o3 = (T)[0][B0(i3)] ^ (T)[1][B3(r0_)] ^ (T)[2][B0(r1_)] ^ (T)[3][B3(i2)] ^ (k)[3];   \
    } while (0)

/* One decryption round (equivalent inverse cipher: InvShiftRows takes row r
 * of column c from column c - r). */
#define DROUND(T, k, o0, o1, o2, o3, i0, i1, i2, i3)                                         \
    do {                                                                                     \
        uint32_t r0_ = ror16(i0), r1_ = ror16(i1), r2_ = ror16(i2), r3_ = ror16(i3);         \
        o0 = (T)[0][B0(i0)] ^ (T)[1][B3(r3_)] ^ (T)[2][B0(r2_)] ^ (T)[3][B3(i1)] ^ (k)[0];   \
        o1 = (T)[0][B0(i1)] ^ (T)[1][B3(r0_)] ^ (T)[2][B0(r3_)] ^ (T)[3][B3(i2)] ^ (k)[1];   \
        o2 = (T)[0][B0(i2)] ^ (T)[1][B3(r1_)] ^ (T)[2][B0(r0_)] ^ (T)[3][B3(i3)] ^ (k)[2];   \
        o3 = (T)[0][B0(i3)] ^ (T)[1][B3(r2_)] ^ (T)[2][B0(r1_)] ^ (T)[3][B3(i0)] ^ (k)[3];   \
    } while (0)

/* All rounds of one block: s* holds the input already xored with rk[0..3];
 * the result is left in t*.  NR is a constant (fully unrolled) or the
 * variable nr (a loop of two rounds per iteration). */
#define CIPHER(ROUND, NR, PRAGMA)                                                            \
    do {                                                                                     \
        PRAGMA for (uint32_t r_ = 4; r_ < 4 * (NR)-4; r_ += 8)                               \
        {                                                                                    \
            ROUND(tab, rk + r_, t0, t1, t2, t3, s0, s1, s2, s3);                             \
            ROUND(tab, rk + r_ + 4, s0, s1, s2, s3, t0, t1, t2, t3);                         \
        }                                                                                    \
        ROUND(tab, rk + 4 * (NR)-4, t0, t1, t2, t3, s0, s1, s2, s3);                         \
        ROUND(tab + 4, rk + 4 * (NR), s0, s1, s2, s3, t0, t1, t2, t3);                       \
        t0 = s0, t1 = s1, t2 = s2, t3 = s3;                                                  \
    } while (0)

#define UNROLL _Pragma("clang loop unroll(full)")
#define NO_UNROLL _Pragma("clang loop unroll(disable)")

/* ECB over n blocks in place. */
#define ECB_FN(name, ROUND, NR, PRAGMA)                                                      \
    static void name(uint32_t *p, uint32_t n, const uint32_t *rk, uint32_t nr)               \
    {                                                                                        \
        (void)nr;                                                                            \
        for (uint32_t *end = p + 4 * n; p != end; p += 4) {                                  \
            uint32_t s0 = p[0] ^ rk[0], s1 = p[1] ^ rk[1], s2 = p[2] ^ rk[2],                \
                     s3 = p[3] ^ rk[3];                                                      \
            uint32_t t0, t1, t2, t3;                                                         \
            CIPHER(ROUND, NR, PRAGMA);                                                       \
            p[0] = t0, p[1] = t1, p[2] = t2, p[3] = t3;                                      \
        }                                                                                    \
    }

ECB_FN(ecb_enc_128, EROUND, 10, UNROLL)
ECB_FN(ecb_dec_128, DROUND, 10, UNROLL)
ECB_FN(ecb_enc_any, EROUND, nr, NO_UNROLL)
ECB_FN(ecb_dec_any, DROUND, nr, NO_UNROLL)

/* CTR over n blocks in place: block i of the run uses counter c + i (c[0]
 * most significant).  The counter block's bytes are c[0..3] big-endian, so
 * its little-endian column words are their byte swaps. */
#define CTR_FN(name, NR, PRAGMA)                                                             \
    static void name(uint32_t *p, uint32_t n, const uint32_t *rk, uint32_t nr, uint32_t c[4]) \
    {                                                                                        \
        (void)nr;                                                                            \
        uint32_t k0 = __builtin_bswap32(c[0]) ^ rk[0], k1 = __builtin_bswap32(c[1]) ^ rk[1], \
                 k2 = __builtin_bswap32(c[2]) ^ rk[2];                                       \
        for (uint32_t *end = p + 4 * n; p != end; p += 4) {                                  \
            uint32_t s0 = k0, s1 = k1, s2 = k2, s3 = __builtin_bswap32(c[3]) ^ rk[3];         \
            uint32_t t0, t1, t2, t3;                                                         \
            CIPHER(EROUND, NR, PRAGMA);                                                      \
            p[0] ^= t0, p[1] ^= t1, p[2] ^= t2, p[3] ^= t3;                                  \
            if (__builtin_expect(++c[3] == 0, 0)) {                                          \
                if (++c[2] == 0 && ++c[1] == 0)                                              \
                    ++c[0];                                                                  \
                k0 = __builtin_bswap32(c[0]) ^ rk[0], k1 = __builtin_bswap32(c[1]) ^ rk[1];  \
                k2 = __builtin_bswap32(c[2]) ^ rk[2];                                        \
            }                                                                                \
        }                                                                                    \
    }

CTR_FN(ctr_any, nr, NO_UNROLL)

int main(void)
{
    const uint32_t op = AES_KEY_SYM.op, nr = AES_KEY_SYM.nr;
    const uint32_t *rk = AES_KEY_SYM.rk;
    const uint32_t t = me();

    if (tab_op != op)
        build_tables(op);
    barrier_wait(&tables_ready);
    if (t == 0)
        tab_op = op; /* every tasklet has read tab_op before the barrier */

    const uint32_t nblk = AES_JOB_SYM.nbytes / 16u;
    uint32_t b = nblk * t / NR_TASKLETS;
    const uint32_t last = nblk * (t + 1) / NR_TASKLETS;
    uint32_t c[4] = { 0, 0, 0, 0 };
    if (op == AES_OP_CTR) { /* counter of block b: base + b, 128-bit */
        c[3] = AES_JOB_SYM.ctr[3] + b;
        uint32_t carry = c[3] < b;
        c[2] = AES_JOB_SYM.ctr[2] + carry;
        carry = carry && c[2] == 0;
        c[1] = AES_JOB_SYM.ctr[1] + carry;
        carry = carry && c[1] == 0;
        c[0] = AES_JOB_SYM.ctr[0] + carry;
    }
    uint32_t *buf = buffers[t];
    __mram_ptr uint8_t *data = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;

    while (b < last) {
        uint32_t n = last - b < CHUNK_BLOCKS ? last - b : CHUNK_BLOCKS;
        mram_read(data + 16u * b, buf, 16u * n);
        if (op == AES_OP_CTR)
            ctr_any(buf, n, rk, nr, c); /* IRAM: no unrolled copy for CTR */
        else if (op == AES_OP_ECB_DEC)
            (nr == 10 ? ecb_dec_128 : ecb_dec_any)(buf, n, rk, nr);
        else
            (nr == 10 ? ecb_enc_128 : ecb_enc_any)(buf, n, rk, nr);
        mram_write(buf, data + 16u * b, 16u * n);
        b += n;
    }
    return 0;
}
