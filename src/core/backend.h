/*
 * backend.h -- the seam between the public API (src/core/api.c) and the
 * backends (src/cpu/, src/pim/).
 *
 * A backend is one const cpim_backend_vt, defined at the end of its own file
 * and listed in the registry (src/core/registry.c).  The core always calls
 * through the thin wrappers in api.c, never `vt->fn` from elsewhere: that is
 * the one place that checks arguments and records statistics.
 *
 * Contract for implementations:
 *  - available(): cheap, no side effects; 1 when usable now, else 0 and a
 *    static reason in *why.  Hardware backends check CPUID here; they are
 *    always compiled in (per-function target attributes), never a link error.
 *  - available_for(): optional; when set, cpim_open() asks it, with the
 *    context's options, instead of available(): options can make a backend
 *    usable that is not by default (pim: a cpim_options.dpu_dir of its own
 *    when the built-in folder has no DPU programs).
 *  - open(): allocate per-context state (may be NULL for stateless ones).
 *  - set_key(): expand a 16/24/32-byte key into the state (length already
 *    checked by the core); the old key must be wiped first.
 *  - aes_ecb/aes_ctr/sha256_batch: arguments already validated by the core
 *    (ECB len % 16 == 0, key set).  An operation a backend does not provide is
 *    a NULL pointer: the core answers CPIM_ERR_UNSUPPORTED.
 *  - sha256_blocks: the compression function on whole blocks of many
 *    independent streams (the streaming API of api.c keeps partial blocks,
 *    padding and lengths): for i < count, h[i] (8 words, FIPS 180-4 order)
 *    absorbs nblocks[i] 64-byte blocks from p[i] (nblocks[i] may be 0, and
 *    p[i] then NULL).  NULL if the backend cannot (the core answers
 *    CPIM_ERR_UNSUPPORTED to the streaming calls).
 *  - hmac_sha256_batch / pbkdf2_sha256_batch: optional (NULL: the core
 *    computes them through sha256_blocks, src/core/hmac.c, which then calls
 *    sha256_blocks from several threads at once on one state: a backend
 *    without its own pbkdf2_sha256_batch must allow that); arguments
 *    validated by the core (count >= 1, iterations >= 1, out_len >= 1 and
 *    <= (2^32 - 1) * 32).  A backend that provides them wipes every copy of
 *    keys, passwords and the derived HMAC states it made (DPU WRAM and MRAM
 *    included) before returning.
 *  - aes_gcm: AES-GCM (SP 800-38D) with the key of set_key; arguments
 *    validated by the core (iv_len >= 1, len <= 2^36 - 32, pointers).
 *    CPIM_ENCRYPT writes the ciphertext and the tag; CPIM_DECRYPT writes the
 *    plaintext and the tag it computed over `in`: the core compares that
 *    with the expected tag in constant time and wipes `out` on a mismatch,
 *    so no backend releases plaintext by itself.  len may be 0.
 *  - Each operation fills `st` (times on the measured clock at least; the pim
 *    backend also the modeled clock and its phases).  The core has zeroed it.
 *  - xts_set_key()/aes_xts(): the XTS key slot (cryptopim.h), separate from
 *    set_key's: key_len 32 or 64 with unequal halves (checked by the core);
 *    aes_xts gets unit_size in [16, 16 MiB] and len 0 or with a last unit of
 *    at least 16 bytes (checked by the core).  Both NULL, or both set.
 *  - ntt(): issue 16 (cryptopim_ntt.h, ntt_plan.h): `op` on count batch
 *    elements of the plan's ring, layout as in cryptopim_ntt.h (count
 *    polynomials; for CPIM_NTT_OP_TENSOR count ciphertexts, 2 polynomials each
 *    in a and b, 3 in out).  The core has checked the parameters, that
 *    count >= 1, that the sizes fit a size_t and that every input
 *    coefficient is < its modulus; b is NULL for FORWARD and INVERSE.  a or
 *    b may equal out (not for TENSOR).  Outputs are fully reduced (< q).
 *    NULL: CPIM_ERR_UNSUPPORTED.
 *  - region: resident regions (issue 17, cryptopim.h), a table of ops or
 *    NULL (the core answers CPIM_ERR_UNSUPPORTED).  The core checks the
 *    arguments (pointers, key lengths, XTS weak keys, offsets within the
 *    region and multiples of 8) and the interrupted state; create gets
 *    unit in [128, 1 MiB], a multiple of 128.  crypt gets raw keys and
 *    wipes every copy it makes, on the host and the DPUs.  An op that
 *    fails mid-way leaves the region resumable by the same op: the core
 *    then calls it again with the same seq, and crypt refuses
 *    (CPIM_ERR_REGION_INTERRUPTED) keys or nonces other than the
 *    interrupted call's (it keeps a fingerprint of them, not the keys).
 *  - close(): wipe keys, free state.
 */
#ifndef CPIM_BACKEND_H
#define CPIM_BACKEND_H

#include "cryptopim.h"
#include "ntt_plan.h"

/* issue 17: one in-place operation on a resident region (see backend.h's
 * contract and cryptopim.h). */
typedef enum cpim_region_kind {
    CPIM_REGION_XTS_ENC = 1,
    CPIM_REGION_XTS_DEC,
    CPIM_REGION_XTS_REKEY,
    CPIM_REGION_CTR,
    CPIM_REGION_CTR_REKEY
} cpim_region_kind;

typedef struct cpim_region_op {
    cpim_region_kind kind;
    const uint8_t *key_a, *key_b; /* the key (a re-key's old one), a re-key's new one */
    size_t len_a, len_b;
    uint8_t nonce_a[8], nonce_b[8]; /* CTR */
    uint32_t seq;                   /* operation number; a retry repeats it */
} cpim_region_op;

typedef struct cpim_region_vt {
    cpim_err (*create)(void *state, uint64_t size, uint32_t unit, void **region);
    void (*destroy)(void *region); /* zeroes its MRAM, frees its DPUs */
    void (*layout)(const void *region, uint32_t *dpus, uint64_t *per_dpu, uint32_t *unit);
    cpim_err (*xfer)(void *region, int to_dpus, uint64_t off, uint8_t *buf, size_t len,
                     cpim_stats *st);
    cpim_err (*crypt)(void *region, const cpim_region_op *op, cpim_stats *st);
    /* digests of every unit (region order; digests may be NULL) and their
     * Merkle root; seq as crypt's */
    cpim_err (*sha256)(void *region, uint32_t seq, uint8_t (*digests)[32], uint8_t root[32],
                       cpim_stats *st);
} cpim_region_vt;

typedef struct cpim_backend_vt {
    unsigned version; /* CPIM_BACKEND_VT_VERSION; lets the struct grow */
    const char *name;
    const char *description;
    int (*available)(const char **why);
    cpim_err (*open)(void **state, const cpim_options *opt);
    void (*close)(void *state);
    cpim_err (*set_key)(void *state, const uint8_t *key, size_t key_len);
    cpim_err (*aes_ecb)(void *state, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                        cpim_stats *st);
    cpim_err (*aes_ctr)(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t len, cpim_stats *st);
    cpim_err (*sha256_batch)(void *state, const uint8_t *const *msgs, const size_t *lens,
                             size_t count, uint8_t (*digests)[32], cpim_stats *st);
    int (*available_for)(const cpim_options *opt, const char **why);
    cpim_err (*sha256_blocks)(void *state, uint32_t *const *h, const uint8_t *const *p,
                              const size_t *nblocks, size_t count, cpim_stats *st);
    /* HMAC / PBKDF2 (issue 12 item 6) */
    cpim_err (*hmac_sha256_batch)(void *state, const uint8_t *const *keys, const size_t *key_lens,
                                  const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                                  uint8_t (*macs)[32], cpim_stats *st);
    cpim_err (*pbkdf2_sha256_batch)(void *state, const uint8_t *const *passes,
                                    const size_t *pass_lens, const uint8_t *const *salts,
                                    const size_t *salt_lens, size_t count, uint32_t iterations,
                                    uint8_t *const *outs, size_t out_len, cpim_stats *st);
    /* AES-XTS (see the contract above) */
    cpim_err (*xts_set_key)(void *state, const uint8_t *key, size_t key_len);
    cpim_err (*aes_xts)(void *state, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                        const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st);
    /* issue 15, GCM (see the contract above) */
    cpim_err (*aes_gcm)(void *state, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                        const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                        size_t len, uint8_t tag[16], cpim_stats *st);
    /* issue 16, NTT (see the contract above) */
    cpim_err (*ntt)(void *state, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                    const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st);
    /* issue 17, resident regions (see the contract above) */
    const cpim_region_vt *region;
} cpim_backend_vt;

#define CPIM_BACKEND_VT_VERSION 1u

/* The backends (each defined in its own file). */
extern const cpim_backend_vt cpim_backend_cpu;       /* src/cpu/cpu.c */
extern const cpim_backend_vt cpim_backend_aesni;     /* src/cpu/aesni.c */
extern const cpim_backend_vt cpim_backend_shani;     /* src/cpu/shani.c */
extern const cpim_backend_vt cpim_backend_pim;       /* src/pim/pim.c */
extern const cpim_backend_vt cpim_backend_auto;      /* src/core/auto.c */
extern const cpim_backend_vt cpim_backend_cpu_table; /* src/cpu/cpu.c (issue 19) */

/* Registry (src/core/registry.c): NULL when no such name. */
const cpim_backend_vt *cpim_backend_find(const char *name);
size_t cpim_backend_nr(void);
const cpim_backend_vt *cpim_backend_at(size_t i);

#endif /* CPIM_BACKEND_H */
