/*
 * aes_ct.h -- constant-time AES and GHASH for the host CPU.
 *
 * The portable AES of aes.h is table-driven: right on a DPU (WRAM has no
 * cache), but on a CPU with caches the key- and data-dependent table indexes
 * leak through cache timing.  This is the host's constant-time replacement:
 *
 *  - AES: bitsliced (Kaesper-Schwabe; the 64-bit "ct64" layout of BearSSL,
 *    our own code): the rounds are a boolean circuit on 8 bit planes, 4
 *    blocks per 64-bit word (aes_ct_core.h).  The same rounds compiled for
 *    wider words run 16 blocks in AVX2 registers and 32 in AVX-512 ones
 *    (src/cpu/aes_ct_x86.c, chosen by CPUID); every width gives the same
 *    output.  One key schedule serves encryption and decryption.
 *  - GHASH: carry-less multiplication from integer multiplies with the
 *    operands' bits spread 4 apart ("holes", as BearSSL's ghash_ctmul64), so
 *    no carry crosses into a kept bit; no table indexed by data.
 *
 * Constant time means: no branch and no memory address depends on the key,
 * the data, H or the tweak; lengths, counters and data unit numbers are
 * public.  tests/ct/ct_valgrind.c checks it under valgrind (memcheck with
 * the secrets marked undefined).
 *
 * Host only (64-bit arithmetic, size_t); fixed-width key structures.
 */
#ifndef CPIM_AES_CT_H
#define CPIM_AES_CT_H

#include <stddef.h>
#include <stdint.h>

#include "aes.h"

/* A bitsliced key schedule: 8 planes per round key, each the round key's
 * bits replicated for the 4 blocks of a 64-bit word. */
typedef struct cpim_crypto_aes_ct_ks {
    uint64_t rk[8 * (CPIM_AES_MAX_ROUNDS + 1)];
    uint32_t nr; /* 10, 12 or 14 */
} cpim_crypto_aes_ct_ks;

/* One width of the rounds: ECB over any number of blocks (dec = 0:
 * encrypt, 1: decrypt); in == out allowed. */
typedef void (*cpim_crypto_aes_ct_fn)(const cpim_crypto_aes_ct_ks *ks, int dec, const uint8_t *in,
                                      uint8_t *out, size_t nblocks);

typedef struct cpim_crypto_aes_ct_impl {
    const char *name; /* "ct64", "ct64-avx2", "ct64-avx512" */
    unsigned par;     /* blocks one pass of the rounds takes (4, 16, 32) */
    cpim_crypto_aes_ct_fn blocks;
} cpim_crypto_aes_ct_impl;

/* The portable width (plain C on uint64_t): any CPU. */
extern const cpim_crypto_aes_ct_impl cpim_crypto_aes_ct64;
void cpim_crypto_aes_ct_blocks(const cpim_crypto_aes_ct_ks *ks, int dec, const uint8_t *in,
                               uint8_t *out, size_t nblocks);

/* Key expansion (FIPS-197 5.2) in constant time (SubWord through the
 * bitsliced S-box).  Returns the rounds, or 0 (ks untouched) for a key
 * length other than 16, 24 or 32. */
uint32_t cpim_crypto_aes_ct_expand(cpim_crypto_aes_ct_ks *ks, const uint8_t *key, uint32_t key_len);

/* The same expansion in constant time, written as aes.h's T-table schedules
 * (for the DPUs: their table code takes these; the host must not build them
 * with a table S-box): ek the encryption schedule, dk (if not NULL) the
 * equivalent inverse cipher's.  Returns the rounds or 0. */
uint32_t cpim_crypto_aes_ct_expand_words(cpim_crypto_aes_ks *ek, cpim_crypto_aes_ks *dk,
                                         const uint8_t *key, uint32_t key_len);

/* CTR as cpim_crypto_aes_ctr (aes.h): 128-bit big-endian counter, advanced
 * by ceil(len / 16). */
void cpim_crypto_aes_ct_ctr(const cpim_crypto_aes_ct_impl *im, const cpim_crypto_aes_ct_ks *ks,
                            uint8_t ctr[16], const uint8_t *in, uint8_t *out, size_t len);

/* The same with GCM's inc32: only the low 32 bits (bytes 12..15) count,
 * mod 2^32; the other 96 stay.  No branch on the counter (J0 can be secret). */
void cpim_crypto_aes_ct_ctr32(const cpim_crypto_aes_ct_impl *im, const cpim_crypto_aes_ct_ks *ks,
                              uint8_t ctr[16], const uint8_t *in, uint8_t *out, size_t len);

/* XTS on one data unit, as cpim_crypto_aes_xts_unit (aes.h): k1 key1's
 * schedule (both directions), k2 key2's. */
void cpim_crypto_aes_ct_xts_unit(const cpim_crypto_aes_ct_impl *im, const cpim_crypto_aes_ct_ks *k1,
                                 const cpim_crypto_aes_ct_ks *k2, int dec, uint64_t unit,
                                 const uint8_t *in, uint8_t *out, size_t len);

/* ---- GHASH (SP 800-38D), constant time ---- */

/* H in the "normal" polynomial order (bit i = coefficient of x^i, the
 * reverse of GCM's bit order), with the bit-reversed halves the
 * multiplication needs. */
typedef struct cpim_crypto_ghash_ct_key {
    uint64_t h0, h1, h0r, h1r, h2, h2r; /* low, high, reversed, h0 ^ h1 */
} cpim_crypto_ghash_ct_key;

void cpim_crypto_ghash_ct_init(cpim_crypto_ghash_ct_key *k, const uint8_t h[16]);
/* For each of nblocks blocks B: y = (y ^ B) * H. */
void cpim_crypto_ghash_ct_blocks(const cpim_crypto_ghash_ct_key *k, uint8_t y[16], const uint8_t *p,
                                 size_t nblocks);
/* GHASH over len bytes, a partial last block zero-padded. */
void cpim_crypto_ghash_ct_bytes(const cpim_crypto_ghash_ct_key *k, uint8_t y[16], const uint8_t *p,
                                uint64_t len);
/* GCM's pre-counter block J0, as cpim_crypto_gcm_j0 (gcm.h). */
void cpim_crypto_gcm_ct_j0(const cpim_crypto_ghash_ct_key *k, const uint8_t *iv, uint64_t iv_len,
                           uint8_t j0[16]);

/* Zeroes n bytes; volatile stores, so they are kept (8 bytes at a time
 * where p is 8-byte aligned: the modes wipe their buffers on every call). */
static inline void cpim_crypto_ct_wipe(void *p, size_t n)
{
    if (((uintptr_t)p & 7u) == 0) {
        volatile uint64_t *w = (volatile uint64_t *)p;
        for (; n >= 8; n -= 8)
            *w++ = 0;
        p = (void *)(uintptr_t)w;
    }
    volatile uint8_t *v = (volatile uint8_t *)p;
    while (n--)
        *v++ = 0;
}

#endif /* CPIM_AES_CT_H */
