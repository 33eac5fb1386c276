/*
 * compare.h -- external reference libraries for `cryptopim speed --compare`
 * (bench/compare.c): OpenSSL's EVP API (HAVE_OPENSSL) and Intel's
 * multi-buffer library intel-ipsec-mb (HAVE_IPSEC_MB).  Each is measured on
 * the same workloads as our backends, and its output is checked once against
 * our cpu backend, so the comparison is also a test.
 *
 * All work with AES-128 only (XTS: two AES-128 keys) and run on one thread.  An operation a library
 * does not provide is a NULL pointer.  Functions return 0, or -1 on a
 * library error (the library's message, if any, in the `why` of open).
 */
#ifndef CPIM_COMPARE_H
#define CPIM_COMPARE_H

#include <stddef.h>
#include <stdint.h>

typedef struct cmp_impl {
    const char *name; /* "openssl", "ipsec-mb" */
    /* NULL on failure, with a static reason in *why. */
    void *(*open)(const uint8_t key[16], const char **why);
    void (*close)(void *state);
    int (*ecb_enc)(void *state, const uint8_t *in, uint8_t *out, size_t len);
    /* CTR from the counter block iv (not advanced: every call restarts). */
    int (*ctr)(void *state, const uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t len);
    /* AES-128-GCM encryption: 12-byte IV, no AAD, 16-byte tag. */
    int (*gcm_enc)(void *state, const uint8_t iv[12], const uint8_t *in, uint8_t *out, size_t len,
                   uint8_t tag[16]);
    /* AES-128-XTS encryption (key: cmp_xts_key) in data units of
     * CMP_XTS_UNIT bytes, unit i's tweak the 16-byte little-endian number i
     * (dm-crypt's plain64); len a multiple of the unit. */
    int (*xts_enc)(void *state, const uint8_t *in, uint8_t *out, size_t len);
    /* Why xts_enc is NULL (printed in its row), or NULL. */
    const char *no_xts;
    int (*sha256_batch)(void *state, const uint8_t *const *msgs, const size_t *lens, size_t n,
                        uint8_t (*digests)[32]);
    /* The longest message sha256_batch takes (0: any); a batch with a longer
     * one is not measured. */
    size_t sha_max_len;
} cmp_impl;

#define CMP_XTS_UNIT 4096u

/* The XTS key of the comparisons: the AES key, then the tweak key (the same
 * bytes xored with 0x5a: the halves must differ). */
static inline void cmp_xts_key(const uint8_t key[16], uint8_t xk[32])
{
    for (int i = 0; i < 16; i++)
        xk[i] = key[i], xk[16 + i] = (uint8_t)(key[i] ^ 0x5a);
}

/* The libraries compiled in (possibly none). */
size_t cmp_count(void);
const cmp_impl *cmp_at(size_t i);

#endif /* CPIM_COMPARE_H */
