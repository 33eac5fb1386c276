/*
 * gcm_run.h -- AES-GCM (SP 800-38D) on the host from a backend's AES-CTR
 * and GHASH: the `cpu` and `aesni` backends are this driver
 * with their own kernels; the DPU backend has its own (src/pim/).
 *
 * The work goes in pieces of GCM_RUN_PIECE bytes, each encrypted (CTR,
 * multi-threaded by the backend) and hashed (one thread) while it is still
 * in cache: encryption hashes the ciphertext it wrote, decryption the
 * ciphertext before it decrypts it (so in == out works).  GHASH, a serial
 * chain of products, is split over threads as on the DPUs: each thread
 * hashes a part from zero, and the parts are chained by GHASH's linearity,
 * acc = acc * H^L ^ Y_part (L: the part's blocks).  A backend with a
 * one-pass kernel (ops->stitch) runs the pieces' whole blocks through it
 * instead, split over threads in the same way.
 */
#ifndef CPIM_GCM_RUN_H
#define CPIM_GCM_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "cryptopim.h"

#define GCM_RUN_PIECE (1u << 20)

typedef struct cpim_gcm_ops {
    void *state;
    /* CTR as cpim_aes_ctr: 128-bit big-endian counter, advanced by the
     * blocks used (the driver keeps GCM's 32-bit wrap itself). */
    void (*ctr)(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len);
    /* y = (y ^ B) * H for each of nblocks whole blocks (H of the state's key). */
    void (*ghash)(void *state, uint8_t y[16], const uint8_t *p, size_t nblocks);
    /* One block of AES encryption. */
    void (*encrypt1)(void *state, const uint8_t in[16], uint8_t out[16]);
    unsigned threads; /* for GHASH (0 = all cores); CTR threads itself */
    /* Optional (the constant-time engines): CTR with GCM's inc32 itself (the low 32 bits
     * wrap, no carry), in constant time.  When set, cpim_gcm_ctr32 calls it
     * instead of splitting at the wrap: that split branches on the counter,
     * and J0 is derived from H (secret) when the IV is not 96 bits. */
    void (*ctr32)(void *state, uint8_t c[16], const uint8_t *in, uint8_t *out, size_t len);
    /* Optional: CTR (inc32, c advanced) and y = GHASH of the ciphertext
     * continued from y, over nblocks whole blocks in one pass (in == out
     * fine).  When set, the driver's pieces use it for their whole blocks
     * instead of ctr then ghash, split over threads as GHASH is. */
    void (*stitch)(void *state, cpim_dir dir, uint8_t c[16], uint8_t y[16], const uint8_t *in,
                   uint8_t *out, size_t nblocks);
} cpim_gcm_ops;

/* The backend operation (backend.h, aes_gcm): the tag of `in` (decrypt)
 * or of what it wrote to out (encrypt) in tag. */
void cpim_gcm_run(const cpim_gcm_ops *ops, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                  const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                  uint8_t tag[16]);

/* The message's bulk: CTR over len bytes from counter block c (advanced,
 * inc32) and y = GHASH of the ciphertext continued from y, a partial last
 * block zero-padded (the backend operation aes.gcm_range, backend.h). */
void cpim_gcm_bulk(const cpim_gcm_ops *ops, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                   const uint8_t *in, uint8_t *out, size_t len);

/* y = CTR and GHASH of nblocks whole blocks from counter c (advanced,
 * inc32) with ops->stitch, in parts over threads when large. */
void cpim_gcm_stitch(const cpim_gcm_ops *ops, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                     const uint8_t *in, uint8_t *out, size_t nblocks);

/* GHASH over len bytes with ops->ghash, a partial last block zero-padded. */
void cpim_gcm_ghash_bytes(const cpim_gcm_ops *ops, uint8_t y[16], const uint8_t *p, size_t len);

/* The pre-counter block J0 with ops->ghash (see cpim_crypto_gcm_j0). */
void cpim_gcm_j0(const cpim_gcm_ops *ops, const uint8_t *iv, size_t iv_len, uint8_t j0[16]);

/* CTR over len bytes from counter block c with GCM's inc32 (the low 32 bits
 * wrap without carrying into the other 96): split at the wrap so that
 * ops->ctr's 128-bit increments agree.  c is advanced (inc32). */
void cpim_gcm_ctr32(const cpim_gcm_ops *ops, uint8_t c[16], const uint8_t *in, uint8_t *out,
                    size_t len);

#endif /* CPIM_GCM_RUN_H */
