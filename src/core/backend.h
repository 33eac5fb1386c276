/*
 * backend.h -- the seam between the public API (src/core/) and the backends
 * (src/cpu/, src/pim/).
 *
 * A backend is one const cpim_backend row: a name, metadata (availability
 * and its reason, the preferred bytes per call, constant time or not) and a
 * set of *engines*, one interface per algorithm family: AES (ECB, CTR, XTS,
 * GCM), SHA-256 (whole messages, the streaming blocks, HMAC, PBKDF2), the
 * NTT, resident regions.  A backend fills in the engines it implements and
 * names, in `from`, the backend whose engine serves each family it does not
 * (`shani`: AES and the NTT are cpu's); `auto` has no engine of its own and
 * `choose`s one per family when a context opens.  A context opens each
 * backend that serves one of its families once (open/close below) and calls
 * that backend's engine with that state.  Rows are defined at the end of
 * the backend's own file and listed in the registry (src/core/registry.c).
 * The core calls engines only through the named wrappers of engine.h
 * (engine.c), the one place that calls an engine.
 *
 * Contract for implementations:
 *  - available(): cheap, no side effects; 1 when usable now, else 0 and a
 *    static reason in *why.  Hardware backends check CPUID here; they are
 *    always compiled in (per-function target attributes), never a link error.
 *  - available_for(): optional; when set, cpim_open() asks it, with the
 *    context's options, instead of available(): options can make a backend
 *    usable that is not by default (pim: a cpim_options.dpu_dir of its own
 *    when the built-in folder has no DPU programs).
 *  - chunk: the bytes per call a streaming front end should hand this
 *    backend (cpim_backend_chunk): enough to amortise a call's fixed cost
 *    (pim: a DPU launch), small enough to overlap reading and writing.
 *  - constant_time: 1 when no secret reaches a branch or a memory address
 *    on this host (docs/SECURITY.md); cpu-table's T-table AES is 0.
 *  - open(): allocate per-context state (may be NULL for stateless ones);
 *    close(): wipe keys, free state.  Every engine of the row gets that
 *    state.
 *  - aes.set_key(): expand a 16/24/32-byte key into the state (length
 *    already checked by the core); the old key must be wiped first.
 *  - aes.ecb / aes.ctr / sha.batch: arguments already validated by the core
 *    (ECB len % 16 == 0, key set, len and count >= 1).  An operation an
 *    engine does not provide is a NULL pointer (a family a row has no engine
 *    for, a NULL engine): the core answers CPIM_ERR_UNSUPPORTED.
 *  - sha.blocks: the compression function on whole blocks of many
 *    independent streams (the streaming API of sha_api.c keeps partial
 *    blocks, padding and lengths): for i < count, h[i] (8 words, FIPS 180-4
 *    order) absorbs nblocks[i] 64-byte blocks from p[i] (nblocks[i] may be
 *    0, and p[i] then NULL).  NULL if the engine cannot (the core answers
 *    CPIM_ERR_UNSUPPORTED to the streaming calls).
 *  - sha.hmac / sha.pbkdf2: optional (NULL: the core computes them through
 *    sha.blocks, hmac_api.c, which then calls sha.blocks from several
 *    threads at once on one state: an engine without its own pbkdf2 must
 *    allow that); arguments validated by the core (count >= 1,
 *    iterations >= 1, out_len >= 1 and <= (2^32 - 1) * 32).  An engine that
 *    provides them wipes every copy of keys, passwords and the derived HMAC
 *    states it made (DPU WRAM and MRAM included) before returning.
 *  - aes.gcm: AES-GCM (SP 800-38D) with the key of set_key; arguments
 *    validated by the core (iv_len >= 1, len <= 2^36 - 32, pointers).
 *    CPIM_ENCRYPT writes the ciphertext and the tag; CPIM_DECRYPT writes the
 *    plaintext and the tag it computed over `in`: the core compares that
 *    with the expected tag in constant time and wipes `out` on a mismatch,
 *    so no engine releases plaintext by itself.  len may be 0.
 *  - aes.gcm_range: optional, GCM's bulk over one range of a message with
 *    the key of set_key (gcm_split.c): CTR over len >= 1 bytes from counter
 *    block c with GCM's inc32 (the low 32 bits wrap alone; c is advanced
 *    by the blocks used), and y = GHASH of the ciphertext (`in` for
 *    CPIM_DECRYPT, else `out`) continued from y, a last partial block
 *    padded with zeros; in == out allowed.  NULL: the core runs the range
 *    on aes.ctr and the portable GHASH of src/crypto.
 *  - Each operation fills `st` (times on the measured clock at least; the pim
 *    backend also the modeled clock and its phases).  The core has zeroed it.
 *  - aes.xts_set_key / aes.xts: the XTS key slot (cryptopim.h), separate
 *    from set_key's: key_len 32 or 64 with unequal halves (checked by the
 *    core); xts gets unit_size in [16, 16 MiB] and len >= 1 with a last unit
 *    of at least 16 bytes (checked by the core).  Both NULL, or both set.
 *  - ntt.run: cryptopim_ntt.h, ntt_plan.h: `op` on count batch elements of
 *    the plan's ring, layout as in cryptopim_ntt.h (count polynomials; for
 *    CPIM_NTT_OP_TENSOR count ciphertexts, 2 polynomials each in a and b, 3
 *    in out).  The core has checked the parameters, that count >= 1, that
 *    the sizes fit a size_t and that every input coefficient is < its
 *    modulus; b is NULL for FORWARD and INVERSE.  a or b may equal out (not
 *    for TENSOR).  Outputs are fully reduced (< q).
 *  - ntt.kernels: optional, the per-polynomial host kernels (ntt_run.h) this
 *    backend's NTT runs on, for the core's one-limb path
 *    (cpim_ntt_forward_limb), which calls them on the caller's thread
 *    without the backend; any thread may call it at any time (it reads
 *    nothing the backend changes).  NULL: no host kernels (pim), the
 *    one-limb path answers CPIM_ERR_UNSUPPORTED.
 *  - region: resident regions (cryptopim.h).  The core checks the arguments
 *    (pointers, key lengths, XTS weak keys, offsets within the region and
 *    multiples of 8) and the interrupted state; create gets unit in
 *    [128, 1 MiB], a multiple of 128.  crypt gets raw keys and wipes every
 *    copy it makes, on the host and the DPUs.  An op that fails mid-way
 *    leaves the region resumable by the same op: the core then calls it
 *    again with the same seq, and crypt refuses
 *    (CPIM_ERR_REGION_INTERRUPTED) keys or nonces other than the
 *    interrupted call's (it keeps a fingerprint of them, not the keys).
 */
#ifndef CPIM_BACKEND_H
#define CPIM_BACKEND_H

#include "cryptopim.h"
#include "ntt_plan.h"
#include "ntt_run.h"

/* One in-place operation on a resident region (see the contract above and
 * cryptopim.h). */
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

/* The families, each with its engine interface. */
typedef enum cpim_family {
    CPIM_FAMILY_AES,
    CPIM_FAMILY_SHA,
    CPIM_FAMILY_NTT,
    CPIM_FAMILY_REGION,
    CPIM_FAMILIES
} cpim_family;

typedef struct cpim_aes_engine {
    cpim_err (*set_key)(void *state, const uint8_t *key, size_t key_len);
    cpim_err (*ecb)(void *state, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                    cpim_stats *st);
    cpim_err (*ctr)(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len,
                    cpim_stats *st);
    cpim_err (*xts_set_key)(void *state, const uint8_t *key, size_t key_len);
    cpim_err (*xts)(void *state, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                    const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st);
    cpim_err (*gcm)(void *state, cpim_dir dir, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                    size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16],
                    cpim_stats *st);
    cpim_err (*gcm_range)(void *state, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                          const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st);
} cpim_aes_engine;

typedef struct cpim_sha_engine {
    cpim_err (*batch)(void *state, const uint8_t *const *msgs, const size_t *lens, size_t count,
                      uint8_t (*digests)[32], cpim_stats *st);
    cpim_err (*blocks)(void *state, uint32_t *const *h, const uint8_t *const *p,
                       const size_t *nblocks, size_t count, cpim_stats *st);
    /* optional: one stream's nblocks (>= 1) whole blocks into h on the
     * calling thread; cannot fail.  The streaming calls on one message (every
     * EVP digest) use it instead of `blocks`, its argument arrays and the
     * working copies a fallible engine needs (NULL: they use `blocks`). */
    void (*stream)(void *state, uint32_t h[8], const uint8_t *p, size_t nblocks);
    cpim_err (*hmac)(void *state, const uint8_t *const *keys, const size_t *key_lens,
                     const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                     uint8_t (*macs)[32], cpim_stats *st);
    cpim_err (*pbkdf2)(void *state, const uint8_t *const *passes, const size_t *pass_lens,
                       const uint8_t *const *salts, const size_t *salt_lens, size_t count,
                       uint32_t iterations, uint8_t *const *outs, size_t out_len, cpim_stats *st);
} cpim_sha_engine;

typedef struct cpim_ntt_engine {
    cpim_err (*run)(void *state, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                    const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st);
    const cpim_ntt_kernels *(*kernels)(void);
} cpim_ntt_engine;

typedef struct cpim_region_engine {
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
} cpim_region_engine;

typedef struct cpim_backend {
    const char *name;
    const char *description;
    int (*available)(const char **why);
    int (*available_for)(const cpim_options *opt, const char **why); /* optional */
    size_t chunk;      /* preferred bytes per call of a streaming front end */
    int constant_time; /* 1: no secret-dependent branch or address on this host */
    cpim_err (*open)(void **state, const cpim_options *opt);
    void (*close)(void *state);
    /* its own engines (NULL: none, or the family is served from[] another) */
    const cpim_aes_engine *aes;
    const cpim_sha_engine *sha;
    const cpim_ntt_engine *ntt;
    const cpim_region_engine *region;
    /* the backend whose engine (and state) serves a family this row has no
     * engine for (NULL: none, CPIM_ERR_UNSUPPORTED) */
    const struct cpim_backend *from[CPIM_FAMILIES];
    /* optional (auto): the backend serving family f, chosen when a context
     * opens; replaces the engines and from[] */
    const struct cpim_backend *(*choose)(cpim_family f);
} cpim_backend;

/* The chunk of the host backends: 1 MiB stays in the caches of a core while
 * a front end's reader and writer threads overlap with the work. */
#define CPIM_BACKEND_CHUNK (1u << 20)

/* The backend whose own engine serves family f for `b` (following choose
 * and from[]), or NULL when none does (registry.c). */
const cpim_backend *cpim_backend_serving(const cpim_backend *b, cpim_family f);
/* That backend's engine for f: its aes, sha, ntt or region (registry.c). */
const void *cpim_backend_engine(const cpim_backend *b, cpim_family f);

/* The backends (each defined in its own file). */
extern const cpim_backend cpim_backend_cpu;       /* src/cpu/cpu.c */
extern const cpim_backend cpim_backend_aesni;     /* src/cpu/aesni.c */
extern const cpim_backend cpim_backend_shani;     /* src/cpu/shani.c */
extern const cpim_backend cpim_backend_pim;       /* src/pim/backend.c */
extern const cpim_backend cpim_backend_auto;      /* src/core/auto.c */
extern const cpim_backend cpim_backend_cpu_table; /* src/cpu/cpu.c */

/* Registry (src/core/registry.c): NULL when no such name. */
const cpim_backend *cpim_backend_find(const char *name);
size_t cpim_backend_nr(void);
const cpim_backend *cpim_backend_at(size_t i);

#endif /* CPIM_BACKEND_H */
