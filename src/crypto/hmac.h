/*
 * hmac.h -- portable HMAC-SHA256 (RFC 2104, FIPS 198-1) and PBKDF2-HMAC-
 * SHA256 (RFC 8018 5.2) on the portable compression function (sha256.h).
 *
 * The host side of the pim backend uses it to turn keys and passwords into
 * the two precomputed HMAC states (so the key itself never reaches a DPU)
 * and for the first PBKDF2 block U1; the DPU program (dpu/hmac.c) runs the
 * iterations.  The tests use it as the reference of the backends.
 *
 * Same portability as sha256.h: <stdint.h> only, uint32_t lengths.
 */
#ifndef CPIM_HMAC_H
#define CPIM_HMAC_H

#include <stdint.h>

/* The chaining values after the one block K' ^ ipad (istate) and K' ^ opad
 * (ostate), K' the key padded with zeros to 64 bytes, or SHA-256(key) when
 * the key is longer than 64 bytes (RFC 2104 section 2).  Key-equivalent:
 * the caller wipes them. */
void cpim_crypto_hmac_sha256_pads(const uint8_t *key, uint32_t key_len, uint32_t istate[8],
                                  uint32_t ostate[8]);

/* The MAC of a 32-byte message given as 8 big-endian words (what a PBKDF2
 * iteration computes): out = HMAC(K, bytes of in), from the states. */
void cpim_crypto_hmac_sha256_32(const uint32_t istate[8], const uint32_t ostate[8],
                                const uint32_t in[8], uint32_t out[8]);

/* out = HMAC(K, m1 || m2) as 8 words, from K's states (either part may be
 * empty and then NULL). */
void cpim_crypto_hmac_sha256_states(const uint32_t istate[8], const uint32_t ostate[8],
                                    const uint8_t *m1, uint32_t l1, const uint8_t *m2, uint32_t l2,
                                    uint32_t out[8]);

/* mac = HMAC-SHA256(key, msg). */
void cpim_crypto_hmac_sha256(const uint8_t *key, uint32_t key_len, const uint8_t *msg,
                             uint32_t msg_len, uint8_t mac[32]);

/* PBKDF2-HMAC-SHA256 (RFC 8018 5.2): out_len bytes into out; iterations >= 1. */
void cpim_crypto_pbkdf2_sha256(const uint8_t *pass, uint32_t pass_len, const uint8_t *salt,
                               uint32_t salt_len, uint32_t iterations, uint8_t *out,
                               uint32_t out_len);

#endif /* CPIM_HMAC_H */
