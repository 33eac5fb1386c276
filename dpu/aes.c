/*
 * aes.c -- the AES DPU program: ECB encryption and decryption and CTR with
 * 128/192/256-bit keys, in place on this DPU's share of the buffer.
 *
 * XTS (data units, tweaks made on the DPU): see "XTS" below.
 *
 * Contract with the host: aes_args.h.  The round keys are expanded on the
 * host (src/crypto) and broadcast; the share lives in MRAM at
 * DPU_MRAM_HEAP_POINTER.
 *
 * Partitioning: the share's `nbytes / 16` blocks, in steps of STEP = 8
 * blocks (the unit the kernels below work in), are split into NR_TASKLETS
 * contiguous runs that differ by at most one step (tasklet t takes steps
 * [s*t/T, s*(t+1)/T), the last run cut at the share's end), so every tasklet
 * does the same work and none waits for a straggler; only the share's last
 * step can be partial.  Each tasklet streams its run through its own WRAM buffer:
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
 * hold equal to it; every count below is in instructions and was checked in
 * the compiled code):
 *
 * - The state stays in WRAM, in the chunk buffer itself, and the chunk is
 *   processed one round at a time ("sweeps"): round r runs over every block
 *   of the chunk before round r + 1 starts.  The four round-key words are
 *   loaded once per sweep, not once per block and round (that alone was 4 of
 *   the 72 instructions of a block-round when each block ran all its rounds
 *   from registers), and the whole cipher is one small loop for every key
 *   size, so it fits IRAM many times over.
 * - A table index is one `lbu` at a fixed offset from the block: ShiftRows
 *   (and InvShiftRows) is just the choice of offsets.  A lookup is
 *   `lbu` + `sh2add` + `lw` + `xor`; a block-round is 16 of those plus the 4
 *   `sw` of the new state, 68 in all.  Taking the bytes from registers
 *   instead (`andi` / `srli` for rows 0 and 3, a rotate by 16 for rows 1
 *   and 2) costs what the stores cost, but holds input, rotated and output
 *   words of a block in 12 registers, so blocks cannot share round keys
 *   that way; it was 72 per block-round.
 * - Eight blocks per loop step: the sweep's `addi` + `bne` is then a quarter
 *   of an instruction per block-round.  Chunks are rounded up to whole
 *   steps; the extra blocks are stale buffer contents that are computed and
 *   never written back (the buffer holds whole steps).
 * - Little-endian tables: the state bytes are the block's bytes in order
 *   (byte 4c + r is row r of column c) and a table word has row r in byte r
 *   (the byte swap of FIPS-197's tables; the host swaps the round keys to
 *   match), so nothing is byte-swapped at input or output.
 * - The last round uses S-box tables pre-shifted into each row and runs
 *   through the same sweep as a middle round; the initial AddRoundKey is its
 *   own word-wide sweep (12 per block: cheaper than xoring the key byte into
 *   each of the first round's 16 indices).
 * - CTR: the keystream is built in the upper half of the buffer, the data
 *   sits in the lower half, and the last round xors the keystream straight
 *   into the data.  Chunks are aligned to CTR_BLOCKS in counter space, so a
 *   chunk never crosses a wrap of the counter's last byte and within a
 *   chunk only that byte varies.  It enters one lookup of round 1, which
 *   changes one column, which enters one lookup per column of round 2; the
 *   rest of both rounds is computed once per chunk (counter-mode caching, as
 *   in Bernstein and Schwabe's AES work), and a block's first two rounds
 *   cost ~30 instructions instead of AddRoundKey + two rounds (~148).
 */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "dpu_lib.h"

/* 2048 bytes (the largest DMA) up to 16 tasklets, 1024 above: WRAM less
 * the tables (8 KiB) and 24 tasklets' stacks leaves 32 KiB to buffers. */
#define CHUNK DPU_CHUNK(2048u, 32768u)
#include "aes_kernels.h"

DPU_WRAM_CHECK(sizeof buffers + sizeof tab);

/* ---- XTS ------------------------------------------------------------------------ */

/* XTS (IEEE 1619, plain64 tweaks) runs the ECB sweeps above in the CTR
 * layout: the state in the upper half of the buffer, the tweaks in the
 * lower half.  One word-wide pass before round 1 xors the tweak and round
 * key 0 into the state (replacing add_key) and stores the tweak in the
 * lower half; the last round is ctr_last_round (decryption: dec_last_xor),
 * which xors its result into the stored tweak, so the output lands in the
 * lower half with no second pass over the state (16 instructions per block
 * less than a separate pass that recomputes the tweaks).  The tweak of a
 * unit's first block is E(key2, unit number), one single-block encryption
 * per data unit (xts_tweak: key2's schedule comes in FIPS order; src/crypto's
 * te0..te3 add 4 KiB of WRAM); each next block's tweak is the previous one times
 * alpha in registers (no branch), so no tweak crosses the bus.  The DPU
 * state words are little-endian, as the tweak's 128-bit number is: word 0
 * holds its low 32 bits, so the multiplication is a 4-word shift with 0x87
 * folded in when bit 127 drops out.
 *
 * The share is whole units (aes_args.h); tasklet t takes units
 * [u * t / T, u * (t + 1) / T), so tasklets differ by at most one unit.  A
 * chunk holds up to XTS_MAXB blocks (half the buffer less 8) and XTS_SEGS
 * segments (a segment: the blocks of one unit inside the chunk; a unit
 * larger than the chunk is split over chunks, its running tweak carried).
 * The last 8 blocks of each half are per-chunk scratch: the segments' tweaks
 * (lower), the short blocks of ciphertext-stealing units (upper).
 *
 * Ciphertext stealing (a unit that is not a multiple of 16 bytes; its last
 * slot block is "short", r bytes): the chunk is never cut between a unit's
 * last two blocks.  The sweeps process block m-1 as usual (decryption: with
 * T_m and the short slot with T_m-1, IEEE 1619 5.4.2's swap), which gives CC
 * (encrypt) or PP (decrypt); then the short block's output is CC[:r] (PP[:r]),
 * the saved short input followed by CC[r:] (PP[r:]) goes through one more
 * sweep over the scratch blocks with the tweak the short slot had, and lands
 * in block m-1. */
#define XTS_MAXB (CTR_BLOCKS - 8u)
#define XTS_SEGS 8u
_Static_assert(XTS_MAXB % STEP == 0 && XTS_MAXB >= 2, "XTS chunks hold whole steps");

/* (a << 1) + b in one instruction: Zba's sh1add (the DPU ISA's lsl_add
 * does the same).  Written in asm because clang sees that the bit b lands
 * on is 0 and emits slli + or instead. */
static inline uint32_t sh1add(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__("sh1add %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* T *= alpha, branch-free (the tweak is secret: no tweak-dependent
 * instruction count); the empty asm keeps the compiler from turning the
 * mask into a branch.  Each carry is added into its word shifted left
 * (sh1add): 10 instructions, not 13 with shift / shift / or. */
#define ALPHA(t0, t1, t2, t3)                                                                      \
    do {                                                                                           \
        uint32_t c_ = (uint32_t)((int32_t)(t3) >> 31);                                             \
        __asm__("" : "+r"(c_));                                                                    \
        t3 = sh1add(t3, (t2) >> 31);                                                               \
        t2 = sh1add(t2, (t1) >> 31);                                                               \
        t1 = sh1add(t1, (t0) >> 31);                                                               \
        t0 = (t0) << 1 ^ (c_ & 0x87u);                                                             \
    } while (0)

/* n state blocks at w ^= T_j ^ k, T_j stored CTR_KS_WORDS words below;
 * the running tweak T is advanced past the n blocks. */
static __attribute__((noinline)) void xts_whiten(uint32_t *w, uint32_t n, uint32_t T[4],
                                                 const uint32_t *k)
{
    uint32_t t0 = T[0], t1 = T[1], t2 = T[2], t3 = T[3];
    const uint32_t k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3];
#pragma clang loop unroll_count(2)
    for (uint32_t *end = w + 4 * n; w != end; w += 4) {
        uint32_t *o = w - CTR_KS_WORDS;
        o[0] = t0, o[1] = t1, o[2] = t2, o[3] = t3;
        w[0] ^= t0 ^ k0, w[1] ^= t1 ^ k1, w[2] ^= t2 ^ k2, w[3] ^= t3 ^ k3;
        ALPHA(t0, t1, t2, t3);
    }
    T[0] = t0, T[1] = t1, T[2] = t2, T[3] = t3;
}

/* One state block ^= t ^ k, t stored below it (see xts_whiten). */
static void xts_one(uint32_t *w, const uint32_t *t, const uint32_t *k)
{
    for (int i = 0; i < 4; i++)
        w[i - (int)CTR_KS_WORDS] = t[i], w[i] ^= t[i] ^ k[i];
}

/* The first pass over a chunk's segments (state at w); cts: decryption's
 * swap of the last two tweaks of a stealing unit.  *carry: the running
 * tweak after the last segment (the next block's when that unit goes on in
 * the next chunk).  Each stealing segment's tw entry becomes the tweak of
 * its short slot (its start tweak is not needed any more). */
static void xts_pass(uint32_t *w, uint32_t ns, const uint32_t *cnt, const uint32_t *rr,
                     uint32_t *tw, int dec, const uint32_t *k, uint32_t carry[4])
{
    for (uint32_t s = 0; s < ns; s++) {
        uint32_t T[4] = {tw[4 * s], tw[4 * s + 1], tw[4 * s + 2], tw[4 * s + 3]};
        uint32_t n = cnt[s];
        if (rr[s]) { /* block m-1, short block */
            xts_whiten(w, n - 2, T, k);
            uint32_t Tm[4] = {T[0], T[1], T[2], T[3]};
            ALPHA(Tm[0], Tm[1], Tm[2], Tm[3]);
            const uint32_t *a = dec ? Tm : T, *b = dec ? T : Tm;
            xts_one(w + 4 * (n - 2), a, k);
            xts_one(w + 4 * (n - 1), b, k);
            for (int i = 0; i < 4; i++)
                tw[4 * s + i] = b[i];
            wipe_words(Tm, 4);
        } else {
            xts_whiten(w, n, T, k);
        }
        w += 4 * n;
        for (int i = 0; i < 4; i++)
            carry[i] = T[i];
        wipe_words(T, 4);
    }
}

/* Decryption's last round xored into the block CTR_KS_WORDS words below (as
 * ctr_last_round, with dec_round's offsets).  Not unrolled: IRAM has no room
 * for another 8-block copy, and it costs 1.75 instructions per block. */
static __attribute__((noinline)) void dec_last_xor(uint32_t *w, uint32_t n, struct rtab T,
                                                   const uint32_t *k)
{
    const uint32_t k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3];
#pragma clang loop unroll(disable)
    for (uint32_t *end = w + 4 * n; w != end; w += 4) {
        uint32_t *d = w - CTR_KS_WORDS;
        const uint8_t *s = (const uint8_t *)w;
        d[0] ^= LK(T, 0, s, 0) ^ LK(T, 1, s, 13) ^ LK(T, 2, s, 10) ^ LK(T, 3, s, 7) ^ k0;
        d[1] ^= LK(T, 0, s, 4) ^ LK(T, 1, s, 1) ^ LK(T, 2, s, 14) ^ LK(T, 3, s, 11) ^ k1;
        d[2] ^= LK(T, 0, s, 8) ^ LK(T, 1, s, 5) ^ LK(T, 2, s, 2) ^ LK(T, 3, s, 15) ^ k2;
        d[3] ^= LK(T, 0, s, 12) ^ LK(T, 1, s, 9) ^ LK(T, 2, s, 6) ^ LK(T, 3, s, 3) ^ k3;
    }
}

/* Round 1 of the tweak cipher for the units that share `unit >> 8`: of
 * its input only byte 0 (the unit number's low byte) differs between them,
 * and that byte reaches only one lookup of round 1 (te0 of column 0).  So
 * the rest of round 1 is kept, and a unit of the same 256 costs one lookup
 * instead of a round (~75 instructions of ~900; a tasklet's units are
 * consecutive, so it misses once per 256 units and at its first).  Unit
 * numbers are public: the instruction count depends on them, never on key
 * or data. */
struct xts_tc {
    uint32_t c[4];     /* round 1's output words, c[0] without te0[byte 0] */
    uint32_t hi0, hi1; /* unit >> 8 they hold for; hi1 = ~0: none yet */
};

/* The tweak of a unit's first block: E(key2, unit as 64-bit little-endian
 * || 8 zero bytes), returned as little-endian words (how the block sits in
 * WRAM).  A compact T-table cipher on FIPS-197 big-endian words with
 * src/crypto's te0..te3 (4 KiB of WRAM; with te0's rotations instead it was
 * 12 instructions per round more) and one loop over the rounds: once per
 * data unit, so it is kept small for IRAM (the unrolled
 * cpim_crypto_aes_encrypt would not fit next to the sweeps).  Round 1 comes
 * from tc when it can (see struct xts_tc). */
static void xts_tweak(uint64_t unit, uint32_t out[4], struct xts_tc *tc)
{
    const uint32_t *rk = AES_KEY_SYM.xts_k2.rk, *T = cpim_crypto_aes_te0;
    const uint32_t *T1 = cpim_crypto_aes_te1, *T2 = cpim_crypto_aes_te2, *T3 = cpim_crypto_aes_te3;
    const uint8_t *S = cpim_crypto_aes_sbox;
    const uint32_t nr = AES_KEY_SYM.xts_k2.nr;
    const uint32_t hi0 = (uint32_t)(unit >> 8), hi1 = (uint32_t)(unit >> 40);
    uint32_t s0 = __builtin_bswap32((uint32_t)unit) ^ rk[0];
    uint32_t s1 = __builtin_bswap32((uint32_t)(unit >> 32)) ^ rk[1], s2 = rk[2], s3 = rk[3];
    uint32_t r = 1;
    if (tc->hi0 == hi0 && tc->hi1 == hi1) {
        s0 = tc->c[0] ^ T[s0 >> 24];
        s1 = tc->c[1], s2 = tc->c[2], s3 = tc->c[3];
        r = 2, rk += 4;
    }
#define COL(a, b, c, d, k)                                                                         \
    (T[(a) >> 24] ^ T1[((b) >> 16) & 0xffu] ^ T2[((c) >> 8) & 0xffu] ^ T3[(d)&0xffu] ^ (k))
    for (; r < nr; r++) {
        rk += 4;
        const uint32_t t0 = COL(s0, s1, s2, s3, rk[0]), t1 = COL(s1, s2, s3, s0, rk[1]);
        const uint32_t t2 = COL(s2, s3, s0, s1, rk[2]), t3 = COL(s3, s0, s1, s2, rk[3]);
        if (r == 1) {
            tc->c[0] = t0 ^ T[s0 >> 24], tc->c[1] = t1, tc->c[2] = t2, tc->c[3] = t3;
            tc->hi0 = hi0, tc->hi1 = hi1;
        }
        s0 = t0, s1 = t1, s2 = t2, s3 = t3;
    }
#define LASTCOL(a, b, c, d, k)                                                                     \
    ((uint32_t)S[(a) >> 24] << 24 | (uint32_t)S[((b) >> 16) & 0xffu] << 16 |                       \
     (uint32_t)S[((c) >> 8) & 0xffu] << 8 | (uint32_t)S[(d)&0xffu]) ^                              \
        (k)
    rk += 4;
    out[0] = __builtin_bswap32(LASTCOL(s0, s1, s2, s3, rk[0]));
    out[1] = __builtin_bswap32(LASTCOL(s1, s2, s3, s0, rk[1]));
    out[2] = __builtin_bswap32(LASTCOL(s2, s3, s0, s1, rk[2]));
    out[3] = __builtin_bswap32(LASTCOL(s3, s0, s1, s2, rk[3]));
#undef LASTCOL
#undef COL
}

/* ECB rounds 1..nr over n blocks (round key 0 already added), in place. */
static void rounds_from_1(uint32_t *w, uint32_t n, const uint32_t *rk, uint32_t nr, round_fn *round)
{
    n = (n + STEP - 1) & ~(STEP - 1);
    for (uint32_t r = 1; r < nr; r++)
        round(w, n, rtab_at(tab), rk + 4 * r);
    round(w, n, rtab_at(TAB_LAST), rk + 4 * nr);
}

static void xts_run(uint32_t t, __mram_ptr uint8_t *data, const uint32_t *rk, uint32_t nr, int dec)
{
    const uint32_t usz = AES_JOB_SYM.ctr[2], last_len = AES_JOB_SYM.ctr[3];
    const uint32_t slot = (usz + 15) / 16, last_slot = (last_len + 15) / 16;
    const uint32_t nblk = AES_JOB_SYM.nbytes / 16;
    const uint64_t unit0 = (uint64_t)AES_JOB_SYM.ctr[1] << 32 | AES_JOB_SYM.ctr[0];
    const uint32_t nu = nblk ? (nblk - last_slot) / slot + 1 : 0;
    uint32_t u = TASKLET_BEGIN(nu, t);
    const uint32_t uend = TASKLET_END(nu, t);
    round_fn *round = dec ? dec_round : enc_round;
    /* out: tweaks, then output; st: state; tw, scr: scratch (see above) */
    uint32_t *out = buffers[t], *st = out + CTR_KS_WORDS;
    uint32_t *tw = out + 4 * XTS_MAXB, *scr = st + 4 * XTS_MAXB;
    uint32_t ob = 0, carry[4] = {0, 0, 0, 0};
    uint32_t cnt[XTS_SEGS], rr[XTS_SEGS];
    struct xts_tc tc = {{0, 0, 0, 0}, 0, ~0u};
    while (u < uend) {
        /* plan the chunk: segments of units u, u + 1, ... */
        const uint32_t b0 = u * slot + ob;
        uint32_t n = 0, ns = 0;
        while (u < uend && ns < XTS_SEGS && n < XTS_MAXB) {
            const uint32_t len = u + 1 == nu ? last_len : usz, nb = (len + 15) / 16;
            const uint32_t r = len % 16, left = nb - ob;
            uint32_t take = left;
            if (take > XTS_MAXB - n) { /* split: never between m-1 and the short block */
                take = XTS_MAXB - n;
                if (r && left - take == 1)
                    take--;
                if (!take)
                    break;
            }
            if (ob == 0)
                xts_tweak(unit0 + u, tw + 4 * ns, &tc);
            else
                for (int i = 0; i < 4; i++)
                    tw[4 * ns + i] = carry[i];
            cnt[ns] = take;
            rr[ns] = ob + take == nb ? r : 0;
            ns++, n += take, ob += take;
            if (ob != nb)
                break; /* the unit goes on in the next chunk */
            u++, ob = 0;
        }
        mram_read(data + 16u * b0, st, 16u * n);
        /* save the short blocks' inputs (stealing units) */
        uint32_t nk = 0;
        for (uint32_t s = 0, p = 0; s < ns; p += cnt[s], s++)
            if (rr[s]) {
                for (int i = 0; i < 4; i++)
                    scr[4 * nk + i] = st[4 * (p + cnt[s] - 1) + i];
                nk++;
            }
        xts_pass(st, ns, cnt, rr, tw, dec, rk, carry);
        const uint32_t n8 = (n + STEP - 1) & ~(STEP - 1);
        for (uint32_t r = 1; r < nr; r++)
            round(st, n8, rtab_at(tab), rk + 4 * r);
        if (dec)
            dec_last_xor(st, n8, rtab_at(TAB_LAST), rk + 4 * nr);
        else
            ctr_last_round(st, n8, rtab_at(TAB_LAST), rk + 4 * nr);
        if (nk) { /* ciphertext stealing (see above) */
            nk = 0;
            for (uint32_t s = 0, p = 0; s < ns; p += cnt[s], s++) {
                if (!rr[s])
                    continue;
                uint8_t *x = (uint8_t *)(out + 4 * (p + cnt[s] - 2)), *y = x + 16;
                uint8_t *z = (uint8_t *)(scr + 4 * nk);
                for (uint32_t i = 0; i < 16; i++) {
                    if (i >= rr[s])
                        z[i] = x[i];
                    y[i] = i < rr[s] ? x[i] : 0;
                }
                for (int i = 0; i < 4; i++)
                    scr[4 * nk + i] ^= tw[4 * s + i] ^ rk[i];
                nk++;
            }
            rounds_from_1(scr, nk, rk, nr, round);
            nk = 0;
            for (uint32_t s = 0, p = 0; s < ns; p += cnt[s], s++) {
                if (!rr[s])
                    continue;
                for (int i = 0; i < 4; i++)
                    out[4 * (p + cnt[s] - 2) + i] = scr[4 * nk + i] ^ tw[4 * s + i];
                nk++;
            }
        }
        mram_write(out, data + 16u * b0, 16u * n);
    }
    /* tweaks are key2-derived: none left in WRAM (the whole buffer: the
     * padding blocks of the last step hold tweak-derived words too) */
    wipe_words(buffers[t], CHUNK / 4u);
    wipe_words(carry, 4);
    wipe_words(tc.c, 4); /* key2-derived */
}

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

    __mram_ptr uint8_t *data = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;
    if (op == AES_OP_XTS_ENC || op == AES_OP_XTS_DEC) {
        xts_run(t, data, rk, nr, op == AES_OP_XTS_DEC);
        barrier_wait(&all_done);
        if (t == 0)
            wipe_words((uint32_t *)&AES_KEY_SYM, sizeof AES_KEY_SYM / 4u);
        return 0;
    }
    const uint32_t nblk = AES_JOB_SYM.nbytes / 16u, nstep = (nblk + STEP - 1) / STEP;
    uint32_t b = STEP * TASKLET_BEGIN(nstep, t);
    uint32_t last = STEP * TASKLET_END(nstep, t);
    if (last > nblk)
        last = nblk;
    uint32_t c[4] = {0, 0, 0, 0};
    if (op == AES_OP_CTR) { /* counter of block b: base + b, 128-bit */
        c[0] = AES_JOB_SYM.ctr[0], c[1] = AES_JOB_SYM.ctr[1];
        c[2] = AES_JOB_SYM.ctr[2], c[3] = AES_JOB_SYM.ctr[3];
        ctr_add(c, b);
    }
    uint32_t *buf = buffers[t];
    const uint32_t max = op == AES_OP_CTR ? CTR_BLOCKS : CHUNK_BLOCKS;
    round_fn *round = op == AES_OP_ECB_DEC ? dec_round : enc_round;

    while (b < last) {
        uint32_t n = last - b < max ? last - b : max;
        /* CTR: a chunk ends at a multiple of CTR_BLOCKS (a divisor of 256) in
         * counter space, so it never crosses a wrap of the counter's last
         * byte (ctr_chunk); only a run's first and last chunks are short. */
        if (op == AES_OP_CTR && n > CTR_BLOCKS - (c[3] & (CTR_BLOCKS - 1)))
            n = CTR_BLOCKS - (c[3] & (CTR_BLOCKS - 1));
        mram_read(data + 16u * b, buf, 16u * n);
        if (op == AES_OP_CTR) {
            ctr_chunk(buf, n, c, rk, nr);
            ctr_add(c, n);
        } else {
            ecb_chunk(buf, n, rk, nr, round);
        }
        mram_write(buf, data + 16u * b, 16u * n);
        b += n;
    }
    /* No key material left in WRAM: this tasklet's last CTR keystream, then
     * -- once every tasklet is past its last use of them -- the round keys
     * (the host sends them again before each launch). */
    if (op == AES_OP_CTR)
        wipe_words(buf + CTR_KS_WORDS, CHUNK / 8u);
    barrier_wait(&all_done);
    if (t == 0)
        wipe_words((uint32_t *)&AES_KEY_SYM, sizeof AES_KEY_SYM / 4u);
    return 0;
}
