/*
 * portable.h -- the portable primitives of src/crypto/ spread over host
 * threads.  The `cpu` backend's engines are these functions; the hardware
 * backends take cpu's engine for the family they do not accelerate
 * (`aesni`: SHA-256, `shani`: AES and the NTT; backend.h, `from`), so there
 * is one multi-threaded portable path.
 *
 * Splitting (threads = 0: all cores; small jobs stay on the calling thread):
 *  - ECB and CTR: by whole blocks; a CTR range starts from counter + its first
 *    block index (a 128-bit addition), so ranges are independent and only the
 *    last can end in a partial block.
 *  - XTS: by whole data units (independent by construction).
 *  - SHA-256 batch: by messages, in contiguous runs of about equal bytes
 *    (cpim_parallel_msgs).
 * Arguments are those the core has already validated (backend.h).
 */
#ifndef CPIM_PORTABLE_H
#define CPIM_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "aes.h"
#include "aes_ct.h"
#include "cryptopim.h"
#include "gcm.h"

/* Two implementations behind one interface: by default the
 * constant-time one (aes_ct.h: bitsliced AES at the widest width the CPU
 * has, GHASH by masked integer multiplies), or with `table` set the
 * T-table code the DPUs run (aes.h, gcm.h: faster where there is no
 * attacker on the same CPU; the `cpu-table` backend, for comparison).  Only
 * the chosen one's keys are filled in. */
typedef struct cpim_portable_aes {
    int table;                    /* 1: the T-table code */
    cpim_crypto_aes_ks ek, dk;    /* table: encryption and decryption round keys */
    cpim_crypto_ghash_key gh;     /* table: the 4-bit table of H = E_K(0^128) */
    cpim_crypto_aes_ct_ks ct;     /* constant time: the bitsliced schedule */
    cpim_crypto_ghash_ct_key gct; /* constant time: H */
} cpim_portable_aes;

/* Expands a 16/24/32-byte key into k for the constant-time code (the old
 * keys are wiped first); _table for the T-table code. */
cpim_err cpim_portable_set_key(cpim_portable_aes *k, const uint8_t *key, size_t key_len);
cpim_err cpim_portable_set_key_table(cpim_portable_aes *k, const uint8_t *key, size_t key_len);
/* The constant-time AES width for this CPU (aes_ct_x86.c): AVX-512, AVX2 or
 * the 64-bit code, as cpim_x86_features() allows at the time of the call. */
const cpim_crypto_aes_ct_impl *cpim_aes_ct_impl(void);
void cpim_portable_ecb(const cpim_portable_aes *k, unsigned threads, cpim_dir dir,
                       const uint8_t *in, uint8_t *out, size_t len);
/* counter is advanced by ceil(len / 16) blocks. */
void cpim_portable_ctr(const cpim_portable_aes *k, unsigned threads, uint8_t counter[16],
                       const uint8_t *in, uint8_t *out, size_t len);
/* AES-XTS: key1's encryption and decryption schedules, key2's encryption
 * schedule (the tweak key). */
typedef struct cpim_portable_xts {
    int table;                        /* as cpim_portable_aes */
    cpim_crypto_aes_ks k1e, k1d, k2e; /* table */
    cpim_crypto_aes_ct_ks c1, c2;     /* constant time: key1 (both ways), key2 */
} cpim_portable_xts_keys;

/* key_len 32 or 64 (halves already checked by the core); old keys wiped;
 * _table for the T-table code. */
cpim_err cpim_portable_xts_set_key(cpim_portable_xts_keys *k, const uint8_t *key, size_t key_len);
cpim_err cpim_portable_xts_set_key_table(cpim_portable_xts_keys *k, const uint8_t *key,
                                         size_t key_len);
/* cpim_aes_xts (cryptopim.h) with the arguments validated; units spread
 * over threads. */
void cpim_portable_xts(const cpim_portable_xts_keys *k, unsigned threads, cpim_dir dir,
                       uint64_t first_unit, size_t unit_size, const uint8_t *in, uint8_t *out,
                       size_t len);
void cpim_portable_sha256_batch(unsigned threads, const uint8_t *const *msgs, const size_t *lens,
                                size_t count, uint8_t (*digests)[32]);
/* AES-GCM (backend.h, aes_gcm) with the portable CTR and GHASH
 * (gcm_run.h). */
void cpim_portable_gcm(const cpim_portable_aes *k, unsigned threads, cpim_dir dir,
                       const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                       const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16]);
/* The streaming API's compression: h[i] absorbs nblocks[i] whole blocks
 * from p[i], streams spread over threads (backend.h, sha256_blocks). */
void cpim_portable_sha256_blocks(unsigned threads, uint32_t *const *h, const uint8_t *const *p,
                                 const size_t *nblocks, size_t count);
/* One stream's nblocks whole blocks into h, on the calling thread. */
void cpim_portable_sha256_stream(uint32_t h[8], const uint8_t *p, size_t nblocks);

#endif /* CPIM_PORTABLE_H */
