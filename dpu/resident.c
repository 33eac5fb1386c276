/*
 * resident.c -- the resident-region DPU program: AES-XTS,
 * AES-CTR, re-keying and SHA-256 of data that stays in MRAM, in place, with
 * no data crossing the bus.  Contract and MRAM layout: resident_args.h.
 *
 * The AES sweeps (T-tables in WRAM, one round over a chunk at a time) and
 * the CTR chunk kernel are dpu/aes.c's (dpu/aes_kernels.h).
 * Each tasklet streams its units through its buffer in chunks of at most
 * CTR_BLOCKS blocks: the data in the lower half, the keystream (CTR) or the
 * tweaks (XTS) in the upper half.
 *
 * Built twice (dpu/dpu.mk): resident-tN does the AES operations, and with
 * RES_SHA_PROG resident-sha-tN the SHA-256 of every unit (the unrolled
 * compression function and the AES sweeps do not fit one IRAM together).
 *
 * Re-key: every chunk is decrypted with the old key and encrypted with the
 * new one in WRAM before it is written back, so MRAM never holds the clear
 * text.  XTS re-keying needs the decryption tables (in aes.c's `tab`) and
 * the encryption tables (tab_e here) at once: 16 KiB of WRAM, so the chunk
 * buffers are smaller than aes.c's (CHUNK below), as in dpu/gcm.c.
 */
#include <stdint.h>

#include "dpu_lib.h"

/* WRAM less the AES tables (8 KiB), the re-keying tables (8 KiB) and 24
 * tasklets' stacks, with gcm.c's budget: 16 KiB for the buffers -- 2048
 * bytes up to 8 tasklets, 1024 up to 16, 512 above. */
#define CHUNK DPU_CHUNK(2048u, 16384u)
#include "aes_kernels.h"
#include "resident_args.h"
#include "sha256.h"
#include "xts_alpha.h"

__host struct res_key_args RES_KEY_SYM;
__host struct res_job_args RES_JOB_SYM;

#ifndef RES_SHA_PROG
/* Encryption tables for XTS re-keying (aes.c's tab then holds decryption's). */
static uint32_t tab_e[8 * 256];
DPU_WRAM_CHECK(sizeof buffers + sizeof tab + sizeof tab_e);
#else
DPU_WRAM_CHECK(sizeof buffers + sizeof tab);
#endif

BARRIER_INIT(res_tab1, NR_TASKLETS);
BARRIER_INIT(res_tab2, NR_TASKLETS);
BARRIER_INIT(res_tab3, NR_TASKLETS);
BARRIER_INIT(res_done, NR_TASKLETS);

_Static_assert(NR_TASKLETS * 8 <= RES_HDR, "one progress slot per tasklet");
_Static_assert(RES_UNIT_ALIGN % (16 * STEP) == 0, "units hold whole steps");

#ifndef RES_SHA_PROG
static inline uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32u - n));
}

/* The tweak of block j of unit `unit`: E(k2, unit as plain64) * alpha^j.
 * One compact single-block cipher on FIPS-197 words with src/crypto's te0
 * and rotations (once per unit: src/crypto's unrolled one-block cipher
 * would not fit IRAM next to the sweeps). */
static void res_tweak(const cpim_crypto_aes_ks *k2, uint64_t unit, uint32_t j, uint32_t t[4])
{
    const uint32_t *rk = k2->rk, *T = cpim_crypto_aes_te0;
    const uint8_t *S = cpim_crypto_aes_sbox;
    uint32_t s[4] = {__builtin_bswap32((uint32_t)unit) ^ rk[0],
                     __builtin_bswap32((uint32_t)(unit >> 32)) ^ rk[1], rk[2], rk[3]};
    uint32_t o[4];
    for (uint32_t r = 1; r < k2->nr; r++) {
        rk += 4;
        for (int c = 0; c < 4; c++)
            o[c] = T[s[c] >> 24] ^ rotr(T[(s[(c + 1) & 3] >> 16) & 0xffu], 8) ^
                   rotr(T[(s[(c + 2) & 3] >> 8) & 0xffu], 16) ^
                   rotr(T[s[(c + 3) & 3] & 0xffu], 24) ^ rk[c];
        for (int c = 0; c < 4; c++)
            s[c] = o[c];
    }
    rk += 4;
    for (int c = 0; c < 4; c++)
        t[c] = __builtin_bswap32(((uint32_t)S[s[c] >> 24] << 24 |
                                  (uint32_t)S[(s[(c + 1) & 3] >> 16) & 0xffu] << 16 |
                                  (uint32_t)S[(s[(c + 2) & 3] >> 8) & 0xffu] << 8 |
                                  (uint32_t)S[s[(c + 3) & 3] & 0xffu]) ^
                                 rk[c]);
    wipe_words(s, 4), wipe_words(o, 4);
    while (j--)
        dpu_xts_alpha(t);
}

/* XTS over the n blocks at w (n a multiple of STEP), tweaks stored in the
 * upper half; T advances past them.  R / L: round and last-round tables. */
static void res_xts_chunk(uint32_t *w, uint32_t n, uint32_t T[4], const uint32_t *rk, uint32_t nr,
                          const uint32_t *tables, round_fn *round)
{
    uint32_t *tw = w + CTR_KS_WORDS;
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++)
            tw[4 * i + k] = T[k], w[4 * i + k] ^= T[k];
        dpu_xts_alpha(T);
    }
    add_key(w, n, rk);
    for (uint32_t r = 1; r < nr; r++)
        round(w, n, rtab_at(tables), rk + 4 * r);
    round(w, n, rtab_at(tables + 4 * 256), rk + 4 * nr);
    for (uint32_t i = 0; i < 4 * n; i++)
        w[i] ^= tw[i];
}

#else
/* SHA-256 of the len bytes (a multiple of RES_UNIT_ALIGN) at src, read
 * through buf (CHUNK bytes). */
static void res_sha(__mram_ptr uint8_t *src, uint32_t len, uint32_t *buf, uint8_t out[32])
{
    uint32_t h[8] = CPIM_SHA256_IV;
    for (uint32_t o = 0; o < len;) {
        uint32_t n = len - o < CHUNK ? len - o : CHUNK;
        mram_read(src + o, buf, n);
        cpim_crypto_sha256_blocks(h, (const uint8_t *)buf, n / 64);
        o += n;
    }
    uint8_t *p = (uint8_t *)buf; /* the padding block: 0x80, zeros, bit length */
    for (int i = 0; i < 64; i++)
        p[i] = 0;
    p[0] = 0x80;
    const uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        p[63 - i] = (uint8_t)(bits >> (8 * i));
    cpim_crypto_sha256_blocks(h, p, 1);
    for (int i = 0; i < 8; i++)
        out[4 * i] = (uint8_t)(h[i] >> 24), out[4 * i + 1] = (uint8_t)(h[i] >> 16),
                out[4 * i + 2] = (uint8_t)(h[i] >> 8), out[4 * i + 3] = (uint8_t)h[i];
}

#endif

int main(void)
{
    const uint32_t op = RES_KEY_SYM.op, t = me();
    const struct res_job_args job = RES_JOB_SYM;
    __mram_ptr uint8_t *heap = (__mram_ptr uint8_t *)DPU_MRAM_HEAP_POINTER;
    __mram_ptr uint8_t *data = heap + RES_HDR;

#ifndef RES_SHA_PROG
    /* tables: XTS re-key needs both directions (tab_e: encryption) */
    if (op == RES_OP_XTS_REKEY) {
        build_tables(AES_OP_ECB_ENC);
        barrier_wait(&res_tab1);
        for (uint32_t i = t; i < 8 * 256; i += NR_TASKLETS)
            tab_e[i] = tab[i];
        barrier_wait(&res_tab2);
    }
    if (op != RES_OP_SHA)
        build_tables(op == RES_OP_XTS_DEC || op == RES_OP_XTS_REKEY ? AES_OP_ECB_DEC
                                                                    : AES_OP_ECB_ENC);
    barrier_wait(&res_tab3);
#endif

    const uint32_t ublk = job.unit / 16, nu = job.nbytes / job.unit;
    const uint32_t u0 = TASKLET_BEGIN(nu, t), u1 = TASKLET_END(nu, t);
    const uint32_t first = u0 * ublk, total = (u1 - u0) * ublk; /* this tasklet's blocks */
    /* progress slot: resume when it is this operation's */
    uint32_t slot[2] __attribute__((aligned(8)));
    mram_read(heap + 8 * t, slot, 8);
    uint32_t done = slot[0] == job.seq && slot[1] <= total ? slot[1] : 0;
    slot[0] = job.seq;

    uint32_t *buf = buffers[t];
    uint32_t Ta[4] = {0, 0, 0, 0}, Tb[4] = {0, 0, 0, 0}, c[4];
    int fresh = 1; /* XTS: the running tweaks must be computed */
    (void)fresh;
    while (done < total) {
        const uint32_t b = first + done, u = b / ublk, j = b % ublk;
        uint32_t n = ublk - j < CTR_BLOCKS ? ublk - j : CTR_BLOCKS;
        if (op == RES_OP_SHA) {
#ifdef RES_SHA_PROG
            uint8_t dg[32] __attribute__((aligned(8)));
            res_sha(data + (uint64_t)u * job.unit, job.unit, buf, dg);
            mram_write(dg, data + job.nbytes + 32u * u, 32);
#endif
            n = ublk;
        }
#ifndef RES_SHA_PROG
        else if (op == RES_OP_CTR || op == RES_OP_CTR_REKEY) {
            /* a chunk never crosses a wrap of the counter's last byte (aes.c) */
            if (n > CTR_BLOCKS - (b & (CTR_BLOCKS - 1)))
                n = CTR_BLOCKS - (b & (CTR_BLOCKS - 1));
            mram_read(data + 16u * b, buf, 16u * n);
            c[0] = RES_KEY_SYM.a_iv[0], c[1] = RES_KEY_SYM.a_iv[1], c[2] = job.dpu, c[3] = b;
            ctr_chunk(buf, n, c, RES_KEY_SYM.a_rk, RES_KEY_SYM.a_nr);
            if (op == RES_OP_CTR_REKEY) {
                c[0] = RES_KEY_SYM.b_iv[0], c[1] = RES_KEY_SYM.b_iv[1];
                ctr_chunk(buf, n, c, RES_KEY_SYM.b_rk, RES_KEY_SYM.b_nr);
            }
            mram_write(buf, data + 16u * b, 16u * n);
        } else {
            const uint64_t unitno = (uint64_t)job.dpu << 32 | u;
            if (fresh || j == 0) {
                res_tweak(&RES_KEY_SYM.a_k2, unitno, j, Ta);
                if (op == RES_OP_XTS_REKEY)
                    res_tweak(&RES_KEY_SYM.b_k2, unitno, j, Tb);
                fresh = 0;
            }
            mram_read(data + 16u * b, buf, 16u * n);
            res_xts_chunk(buf, n, Ta, RES_KEY_SYM.a_rk, RES_KEY_SYM.a_nr, tab,
                          op == RES_OP_XTS_ENC ? enc_round : dec_round);
            if (op == RES_OP_XTS_REKEY)
                res_xts_chunk(buf, n, Tb, RES_KEY_SYM.b_rk, RES_KEY_SYM.b_nr, tab_e, enc_round);
            mram_write(buf, data + 16u * b, 16u * n);
        }
#endif
        done += n;
        slot[1] = done;
        mram_write(slot, heap + 8 * t, 8);
    }
    /* no key material left in WRAM: keystream, tweaks and a re-key's
     * intermediate clear text in the buffer, the running tweaks, then --
     * once every tasklet is past its last use -- the keys */
    wipe_words(buf, CHUNK / 4u);
    wipe_words(Ta, 4), wipe_words(Tb, 4), wipe_words(c, 4);
    barrier_wait(&res_done);
    if (t == 0) {
        wipe_words((uint32_t *)&RES_KEY_SYM, sizeof RES_KEY_SYM / 4u);
    }
    return 0;
}
