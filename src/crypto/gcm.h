/*
 * gcm.h -- GHASH and the GCM helpers of SP 800-38D, portable C.
 *
 * The multiplication in GF(2^128) uses the bit order of SP 800-38D: bit 0 of
 * an element (the coefficient of x^0) is the most significant bit of its
 * first byte; multiplying by x is a right shift of the 128-bit big-endian
 * number, folding the bit that falls off back as 0xe1 || 0^120.
 *
 * cpim_crypto_ghash_* is the "4-bit Shoup" table method: per key, the 16
 * products i * H (i a 4-bit polynomial) in 256 bytes, then a block costs 32
 * lookups and 32 four-bit shifts with a 16-entry reduction table.  It is
 * what the `cpu` backend and the hosts of the other backends use for the
 * short parts (IV, AAD, length block); the bulk runs in the backends'
 * own GHASH (PCLMULQDQ in `aesni`, 4-bit per-position tables on the DPUs).
 *
 * NOT CONSTANT-TIME on a CPU with caches (table lookups indexed by data),
 * like the portable AES (aes.h): use the `aesni` backend for secrets on a
 * shared CPU.  Host-only (uses 64-bit arithmetic; the DPU kernel has its
 * own form, dpu/gcm.c); fixed-width types only, as aes.h.
 */
#ifndef CPIM_GCM_H
#define CPIM_GCM_H

#include <stdint.h>

/* The 4-bit table of one hash key H: hi/lo 64-bit halves of i * H. */
typedef struct cpim_crypto_ghash_key {
    uint64_t hh[16], hl[16];
} cpim_crypto_ghash_key;

/* x = x * y in GF(2^128) (SP 800-38D Algorithm 1, bit by bit: slow, for
 * the few products the hosts need, e.g. powers of H). */
void cpim_crypto_gf128_mul(uint8_t x[16], const uint8_t y[16]);

/* The table of H (16 bytes). */
void cpim_crypto_ghash_init(cpim_crypto_ghash_key *k, const uint8_t h[16]);

/* x = x * H with the table. */
void cpim_crypto_ghash_mul(const cpim_crypto_ghash_key *k, uint8_t x[16]);

/* GHASH over nblocks whole blocks: for each block B, y = (y ^ B) * H. */
void cpim_crypto_ghash_blocks(const cpim_crypto_ghash_key *k, uint8_t y[16], const uint8_t *p,
                              uint64_t nblocks);

/* GHASH over len bytes, the last block (if partial) padded with zeros. */
void cpim_crypto_ghash_bytes(const cpim_crypto_ghash_key *k, uint8_t y[16], const uint8_t *p,
                             uint64_t len);

/* The length block [8 * aad_len]_64 || [8 * len]_64. */
void cpim_crypto_gcm_len_block(uint8_t b[16], uint64_t aad_len, uint64_t len);

/* The pre-counter block J0 (SP 800-38D 7.1 step 2): IV || 0^31 || 1 for a
 * 96-bit IV, else GHASH(IV || 0^s || 0^64 || [8 * iv_len]_64). */
void cpim_crypto_gcm_j0(const cpim_crypto_ghash_key *k, const uint8_t *iv, uint64_t iv_len,
                        uint8_t j0[16]);

/* J0's start, shared by cpim_crypto_gcm_j0 and the constant-time
 * cpim_crypto_gcm_ct_j0 (aes_ct.h), which differ only in their GHASH: for a
 * 96-bit IV, j0 = IV || 0^31 || 1 and 1 (done); else j0 = 0, GHASH's start
 * value, and 0.  It branches on iv_len only (public), never on the IV. */
int cpim_crypto_gcm_j0_iv96(const uint8_t *iv, uint64_t iv_len, uint8_t j0[16]);

/* The low 32 bits of a counter block (big-endian bytes 12..15) += n, mod
 * 2^32: GCM's inc32, the other 96 bits unchanged. */
void cpim_crypto_gcm_inc32(uint8_t ctr[16], uint32_t n);

#endif /* CPIM_GCM_H */
