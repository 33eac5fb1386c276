/*
 * cryptopim.h -- the one public API of libcryptopim.
 *
 * cryptopim runs bulk AES and SHA-256 on one of several backends behind the
 * same calls:
 *
 *   name       what it is                                          constant-time
 *   ---------  --------------------------------------------------  -------------
 *   cpu        portable C, multi-threaded for bulk: bitsliced AES  yes (AES, GHASH)
 *              (AVX2 / AVX-512 words by CPUID), masked GHASH
 *   aesni      AES-NI / VAES for AES, the portable code for SHA    AES: yes
 *   shani      SHA-NI (4 messages interleaved), `cpu`'s AES        yes
 *   pim        UPMEM DPUs (real SDK, or the built-in virtual one)  yes (see below)
 *   auto       the best available backend per operation           yes
 *   cpu-table  `cpu` with the DPUs' T-table AES and 4-bit GHASH    no
 *
 * The DPUs' AES is table-driven: that is the form that runs well on a DPU,
 * and there it leaks nothing (WRAM has uniform latency and no cache).  On a
 * CPU with caches the same table lookups are NOT constant-time, so the host
 * runs a constant-time AES (docs/SECURITY.md): the `cpu` backend, the AES
 * of `shani` and `auto`'s fallback, and the pim backend's host part (key
 * schedules, H, E_K(J0), GHASH of IV/AAD and the partial hashes).  The
 * T-table code stays selectable on the CPU as `cpu-table`, for comparison.
 * (Lengths, counters, IVs and XTS unit numbers are public, as usual.)
 *
 * Conventions (hold for every function below):
 *  - Every function that can fail returns a cpim_err; CPIM_OK is 0.
 *    cpim_strerror() gives a static string the caller never frees.
 *  - The library never prints and never calls exit().
 *  - Buffers may be the same (in == out, in-place) but must not otherwise
 *    overlap.
 *  - Key material handed to the library is copied into the context and wiped
 *    when the key is replaced or the context is closed.
 *  - A context is used by one thread at a time; distinct contexts are
 *    independent.  An operation or cpim_aes_set_key that finds its context
 *    in use by another thread returns CPIM_ERR_BUSY and touches nothing
 *    (a cpim_close racing with a call is still undefined).
 */
#ifndef CRYPTOPIM_H
#define CRYPTOPIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ----------------------------------------------------------- */

/* The version of this header; the shared library's soname carries the
 * major number (libcryptopim.so.MAJOR). */
#define CPIM_VERSION_MAJOR  0
#define CPIM_VERSION_MINOR  3
#define CPIM_VERSION_PATCH  0
#define CPIM_VERSION_STRING "0.3.0"

/* The version of the library linked at run time ("MAJOR.MINOR.PATCH"). */
const char *cpim_version(void);

/* ---- errors ------------------------------------------------------------ */

typedef enum cpim_err {
    CPIM_OK = 0,
    CPIM_ERR_INVALID_ARG,     /* NULL pointer, bad option value */
    CPIM_ERR_UNKNOWN_BACKEND, /* no backend of that name compiled in */
    CPIM_ERR_UNAVAILABLE,     /* compiled in, but not usable on this machine */
    CPIM_ERR_UNSUPPORTED,     /* the backend does not do this operation */
    CPIM_ERR_KEY_LENGTH,      /* AES key is not 16, 24 or 32 bytes */
    CPIM_ERR_NO_KEY,          /* AES call before cpim_aes_set_key() */
    CPIM_ERR_LENGTH,          /* ECB: not a multiple of 16; XTS: unit < 16 */
    CPIM_ERR_NOMEM,           /* memory allocation failed */
    CPIM_ERR_THREAD,          /* could not start a worker thread */
    CPIM_ERR_PIM_ALLOC,       /* not enough DPUs / ranks */
    CPIM_ERR_PIM_LOAD,        /* DPU program missing or invalid */
    CPIM_ERR_PIM_FAULT,       /* a DPU faulted while running a kernel */
    CPIM_ERR_PIM,             /* any other error of the UPMEM layer */
    CPIM_ERR_TIMING_ONLY,     /* cpim_options.timing_only: timed, no output */
    CPIM_ERR_BUSY,            /* the context is in use by another thread */
    CPIM_ERR_XTS_WEAK_KEY,    /* XTS key whose two halves are equal */
    CPIM_ERR_AUTH,            /* GCM: the tag does not match (no plaintext out) */
    /* NTT (cryptopim_ntt.h) */
    CPIM_ERR_NTT_PARAM, /* NTT ring: N, a modulus or a batch size refused */
    CPIM_ERR_NTT_COEFF, /* NTT input: a coefficient >= its modulus */
    /* resident regions */
    CPIM_ERR_REGION_SIZE,        /* region larger than its DPUs' MRAM */
    CPIM_ERR_REGION_INTERRUPTED, /* an earlier region operation was interrupted */
    CPIM_ERR_COUNT_              /* number of codes; not an error */
} cpim_err;

/* Static, never NULL, never freed by the caller. Unknown codes give a
 * generic text. */
const char *cpim_strerror(cpim_err err);

/* ---- backends ----------------------------------------------------------- */

typedef struct cpim_backend_info {
    const char *name;        /* "cpu", "aesni", ... */
    const char *description; /* one line */
    int available;           /* 1 if usable on this machine now */
    const char *why;         /* when !available: the reason; else "" */
} cpim_backend_info;

/* Number of backends compiled in, and their descriptions (index < count). */
size_t cpim_backend_count(void);
cpim_err cpim_backend_info_at(size_t index, cpim_backend_info *info);
/* Same, by name. CPIM_ERR_UNKNOWN_BACKEND if not compiled in. */
cpim_err cpim_backend_info_by_name(const char *name, cpim_backend_info *info);
/* The bytes per call that suit backend `name` when a front end streams data
 * through it in chunks (pim: a DPU launch per call, so several MiB; the
 * host backends: 1 MiB); for a name not compiled in, the host backends'
 * (cpim_open then reports the name). */
size_t cpim_backend_chunk(const char *name);
/* 1 if backend `name` lets no key or data reach a branch or a memory
 * address on this host (docs/SECURITY.md; cpu-table's T-table AES is 0),
 * -1 if not compiled in. */
int cpim_backend_constant_time(const char *name);

/* ---- options ------------------------------------------------------------ */

/* Host orchestration of the pim backend: the three modes of the CryptoPIM
 * study (Algorithms 1 and 2). */
typedef enum cpim_pim_mode {
    CPIM_PIM_SYNC = 0,   /* transfer all, launch all, gather all */
    CPIM_PIM_ASYNC_XFER, /* PIM #1: per rank, asynchronous transfers */
    CPIM_PIM_ASYNC_EXEC  /* PIM #2: per rank, sync transfer + async launch */
} cpim_pim_mode;

/* cpim_options.dpus: every DPU of the machine (the SDK's DPU_ALLOCATE_ALL). */
#define CPIM_DPUS_ALL 0xffffffffu

typedef struct cpim_options {
    unsigned threads; /* host threads for bulk work; 0 = all cores */
    /* pim backend only (ignored by the others): */
    unsigned dpus;       /* DPUs to allocate; 0 = see ranks; CPIM_DPUS_ALL = all */
    unsigned ranks;      /* ranks to allocate when dpus == 0; 0 = 1 rank */
    unsigned tasklets;   /* tasklets per DPU (1..24); 0 = 16 */
    cpim_pim_mode mode;  /* host mode; default CPIM_PIM_SYNC */
    const char *profile; /* UPMEM profile string, NULL = default */
    const char *dpu_dir; /* folder of the DPU programs; NULL = next to the
                            library as installed, else its build tree */
    /* pim backend: a timing-only run, for experiments.  Every operation does
     * its transfers and launches and fills the statistics, but returns
     * CPIM_ERR_TIMING_ONLY with its output zeroed (digests too; a CTR
     * counter is not advanced) instead of a result.  On the virtual UPMEM
     * it times one DPU per rank and launch (profile key sampleDpus=1 unless
     * the profile sets sampleDpus itself); sampleDpus in `profile` without
     * timing_only is refused (CPIM_ERR_INVALID_ARG), and the virtual UPMEM
     * refuses it from the environment. */
    int timing_only;
    /* 1: the calls read no measured clock, and cpim_last_stats' `measured`
     * figures are 0 (its modeled ones are as usual).  Two clock reads per
     * call are a few per cent of a short call on the CPU backends; for
     * callers that never read the measured figures (the OpenSSL provider,
     * docs/PROVIDER.md). */
    int unmeasured;
} cpim_options;

/* Fills in the defaults (all zero / NULL, CPIM_PIM_SYNC). */
void cpim_options_init(cpim_options *opt);

/* ---- contexts ----------------------------------------------------------- */

typedef struct cpim_ctx cpim_ctx;

/* Opens a context on the backend called `backend` ("auto" for the best one).
 * opt may be NULL for the defaults. On error *ctx is NULL. */
cpim_err cpim_open(cpim_ctx **ctx, const char *backend, const cpim_options *opt);
/* Wipes the key and frees everything. NULL is fine. */
void cpim_close(cpim_ctx *ctx);
/* The backend name this context runs on (for "auto": "auto"). */
const char *cpim_ctx_backend(const cpim_ctx *ctx);

/* ---- AES ---------------------------------------------------------------- */

typedef enum cpim_dir { CPIM_ENCRYPT = 0, CPIM_DECRYPT = 1 } cpim_dir;

/* Sets (expands) the AES key: key_len is 16, 24 or 32 bytes. The previous
 * key, if any, is wiped. */
cpim_err cpim_aes_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len);

/* AES-ECB, no padding: len must be a multiple of 16 (0 is fine). */
cpim_err cpim_aes_ecb(cpim_ctx *ctx, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len);

/* AES-CTR as in SP 800-38A / OpenSSL: the 16-byte counter block is a 128-bit
 * big-endian integer incremented once per block (wrapping mod 2^128).
 * Encryption and decryption are the same operation.  On return `counter`
 * has been advanced by ceil(len / 16) blocks, so consecutive calls continue
 * the stream when every call but the last has a length that is a multiple
 * of 16. */
cpim_err cpim_aes_ctr(cpim_ctx *ctx, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                      size_t len);

/* ---- AES-XTS --------------------------------------------------------------- */

/* AES-XTS (IEEE 1619-2007 / NIST SP 800-38E) as dm-crypt's `aes-xts-plain64`
 * and OpenSSL's EVP_aes_{128,256}_xts applied per data unit.
 *
 * XTS has its own key slot, independent of cpim_aes_set_key: key_len is 32
 * (AES-128-XTS) or 64 (AES-256-XTS) bytes, key1 (data) followed by key2
 * (tweak).  Equal halves are refused with CPIM_ERR_XTS_WEAK_KEY, as OpenSSL
 * refuses them (SP 800-38E leaves the check to the implementation; with
 * key1 == key2 the mode loses its security proof); the slot then keeps its
 * previous key.  Other lengths: CPIM_ERR_KEY_LENGTH. */
cpim_err cpim_xts_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len);

/* Encrypts or decrypts len bytes as consecutive data units of unit_size
 * bytes (16 <= unit_size <= 16 MiB, the IEEE 1619 limit of 2^20 blocks):
 * unit i (from 0) is in[i * unit_size ..) and gets the tweak
 * first_unit + i (mod 2^64) as a 64-bit little-endian number followed by
 * 8 zero bytes (dm-crypt's plain64).  A unit whose length is not a multiple
 * of 16 uses ciphertext stealing, so output length = input length.
 * len need not be a multiple of unit_size: the last unit is then shorter,
 * and must be at least 16 bytes (else CPIM_ERR_LENGTH and nothing is
 * written); len 0 is fine.  Units are independent, so any split of a buffer
 * at unit boundaries (with first_unit advanced accordingly) gives the same
 * bytes.  CPIM_ERR_NO_KEY before cpim_xts_set_key. */
cpim_err cpim_aes_xts(cpim_ctx *ctx, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                      const uint8_t *in, uint8_t *out, size_t len);
/* AES-GCM (NIST SP 800-38D) with the key of cpim_aes_set_key (16, 24 or 32
 * bytes): authenticated encryption of in[0..len) to out, with aad[0..aad_len)
 * authenticated but not encrypted, and a 16-byte tag.
 *  - iv: any length >= 1 byte (12 bytes is the fast and recommended case;
 *    other lengths are hashed into the counter block as SP 800-38D says).
 *    Never reuse an IV with the same key: that reveals the hash key.
 *  - len <= 2^36 - 32 bytes (SP 800-38D's limit), else CPIM_ERR_INVALID_ARG;
 *    len and aad_len may be 0 (aad and in/out then may be NULL).
 *  - encrypt writes the tag; the layout "ciphertext || tag" is the caller's.
 *  - decrypt checks `tag` in constant time.  On a mismatch it returns
 *    CPIM_ERR_AUTH and out[0..len) is all zeros: no unauthenticated
 *    plaintext is released (in place, the ciphertext is then gone too).
 * pim backend: CTR and GHASH both run on the DPUs, one message spread over
 * all of them (the host combines their partial hashes). */
cpim_err cpim_aes_gcm_encrypt(cpim_ctx *ctx, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                              size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                              uint8_t tag[16]);
cpim_err cpim_aes_gcm_decrypt(cpim_ctx *ctx, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                              size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                              const uint8_t tag[16]);

/* ---- AES-GCM split over processes (cryptopim-mpi, docs/MPI.md) ---------- */

/* One GCM message cut into consecutive ranges processed separately (by
 * different processes or servers), then one tag.  GHASH is linear: with
 * H = AES_K(0^128), GHASH(A || B) = GHASH(A) * H^blocks(B) + GHASH(B), so
 * each range contributes its own partial GHASH, and cpim_aes_gcm_finish()
 * chains the partials with powers of H, adds the AAD and the length block
 * and makes (or checks) the tag.  The bytes and tag equal one
 * cpim_aes_gcm_encrypt / decrypt of the whole message.
 *
 * cpim_aes_gcm_range: bytes [16 * first_block, 16 * first_block + len) of
 * the message: CTR with the counter inc32(J0, 1 + first_block) (split where
 * its low 32 bits wrap), and ghash[16] = GHASH of the range's ciphertext
 * (the input when decrypting, the output when encrypting) from zero, a last
 * partial block padded with zeros.  Every range but the last must have a
 * length that is a multiple of 16 (cpim_aes_gcm_finish checks it).  in may
 * equal out.  Decrypting releases plaintext before the tag is checked: the
 * caller must not use it unless cpim_aes_gcm_finish says CPIM_OK (the CLI
 * writes it to a temporary file that only a good tag renames into place).
 * The CTR pass runs on the context's backend (its statistics are the
 * call's); the GHASH of the range, and cpim_aes_gcm_finish's of the AAD and
 * the length block, run on the backend too where it has its own
 * (`aesni`, and `auto` when it picks it: constant-time carry-less
 * multiplication), else on the host (src/crypto, the portable 4-bit
 * tables), outside the statistics.
 *
 * cpim_aes_gcm_finish: the n ranges' partial GHASH values (in message
 * order) and byte lengths, the AAD; encrypt: writes tag; decrypt: compares
 * with tag in constant time, CPIM_ERR_AUTH on a mismatch.  The total length
 * has SP 800-38D's limit (2^36 - 32 bytes), else CPIM_ERR_INVALID_ARG. */
cpim_err cpim_aes_gcm_range(cpim_ctx *ctx, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                            uint64_t first_block, const uint8_t *in, uint8_t *out, size_t len,
                            uint8_t ghash[16]);
cpim_err cpim_aes_gcm_finish(cpim_ctx *ctx, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                             const uint8_t *aad, size_t aad_len, const uint8_t (*ghash)[16],
                             const uint64_t *lens, size_t n, uint8_t tag[16]);

/* ---- SHA-256 ------------------------------------------------------------ */

/* Digests of `count` independent messages: digests[i] = SHA-256(msgs[i][0..
 * lens[i])). A message of length 0 may have a NULL pointer. */
cpim_err cpim_sha256_batch(cpim_ctx *ctx, const uint8_t *const *msgs, const size_t *lens,
                           size_t count, uint8_t (*digests)[32]);

/* ---- SHA-256, streaming ------------------------------------------------------ */

/* The state of one message being hashed incrementally: owned by the caller
 * (plain memory, any number of them), independent of any context, so that
 * one message may be fed through different contexts or backends.  Digests
 * equal cpim_sha256_batch's for every split of the message. */
typedef struct cpim_sha256_state {
    uint32_t h[8];   /* chaining value */
    uint64_t bytes;  /* message bytes absorbed so far */
    uint8_t buf[64]; /* the partial block */
    uint32_t nbuf;   /* bytes in buf, < 64 */
    uint32_t ready;  /* set by init, cleared by final */
} cpim_sha256_state;

/* Starts a message.  CPIM_ERR_INVALID_ARG for a NULL state. */
cpim_err cpim_sha256_init(cpim_sha256_state *s);

/* Absorbs p[0..len) (len may be 0, p then NULL) on ctx's backend.  Only
 * whole 64-byte blocks reach the backend; the rest waits in s->buf.
 * CPIM_ERR_INVALID_ARG for a state not initialised (or already final). */
cpim_err cpim_sha256_update(cpim_ctx *ctx, cpim_sha256_state *s, const uint8_t *p, size_t len);

/* Pads, writes the digest and clears the state (wiped; init again to reuse). */
cpim_err cpim_sha256_final(cpim_ctx *ctx, cpim_sha256_state *s, uint8_t digest[32]);

/* Many messages fed at once (what hashing many large files needs): stream
 * i absorbs p[i][0..lens[i]); the whole blocks of all streams go to the
 * backend in one call, which spreads them over threads, SIMD lanes or DPUs.
 * The states must be distinct.  On an error no state has changed. */
cpim_err cpim_sha256_update_many(cpim_ctx *ctx, cpim_sha256_state *const *s,
                                 const uint8_t *const *p, const size_t *lens, size_t count);

/* final for count states at once; digests[i] for s[i]. */
cpim_err cpim_sha256_final_many(cpim_ctx *ctx, cpim_sha256_state *const *s, size_t count,
                                uint8_t (*digests)[32]);

/* ---- HMAC-SHA256 and PBKDF2-HMAC-SHA256 ------------------------------------ */

/* HMAC-SHA256 (RFC 2104, FIPS 198-1): mac = HMAC(key, msg), the full 32
 * bytes (a caller that wants a truncated MAC, RFC 4231 4.6, keeps the
 * leftmost bytes).  Any key length (0 too; a key longer than 64 bytes is
 * hashed first, as the RFC says); a NULL pointer only with length 0.
 * Keys are used, never kept: every copy the library makes, on the host and
 * on DPUs, is wiped before the call returns. */
cpim_err cpim_hmac_sha256(cpim_ctx *ctx, const uint8_t *key, size_t key_len, const uint8_t *msg,
                          size_t msg_len, uint8_t mac[32]);

/* count independent MACs: macs[i] = HMAC(keys[i], msgs[i]) (keys may repeat). */
cpim_err cpim_hmac_sha256_batch(cpim_ctx *ctx, const uint8_t *const *keys, const size_t *key_lens,
                                const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                                uint8_t (*macs)[32]);

/* PBKDF2 with HMAC-SHA256 (RFC 8018 5.2): out_len bytes (any length up to
 * (2^32 - 1) * 32; 0 is fine) derived from the password and the salt with
 * `iterations` >= 1 (0 is CPIM_ERR_INVALID_ARG).  The password is wiped
 * like an HMAC key. */
cpim_err cpim_pbkdf2_sha256(cpim_ctx *ctx, const uint8_t *pass, size_t pass_len,
                            const uint8_t *salt, size_t salt_len, uint32_t iterations, uint8_t *out,
                            size_t out_len);

/* count independent derivations with the same iteration count and output
 * length: outs[i][0..out_len) from passes[i] and salts[i].  This is where
 * the speed is: the chains run side by side on SIMD lanes (`shani`) or on
 * DPU tasklets (`pim`, the iterations entirely on the DPUs). */
cpim_err cpim_pbkdf2_sha256_batch(cpim_ctx *ctx, const uint8_t *const *passes,
                                  const size_t *pass_lens, const uint8_t *const *salts,
                                  const size_t *salt_lens, size_t count, uint32_t iterations,
                                  uint8_t *const *outs, size_t out_len);

/* ---- statistics ---------------------------------------------------------- */

/* Which clock a time is on.  MEASURED is wall time on this machine.
 * MODELED is what the real UPMEM machine would take, computed by the
 * virtual UPMEM's timing model; it is never a measurement. */
typedef enum cpim_clock { CPIM_CLOCK_MEASURED = 0, CPIM_CLOCK_MODELED = 1 } cpim_clock;

const char *cpim_clock_name(cpim_clock clock); /* "measured" / "modeled" */

/* The phases the CryptoPIM study reports.  CPU backends only fill total_s. */
typedef struct cpim_phases {
    cpim_clock clock;
    double cpu_dpu_s; /* host -> DPU transfers */
    double kernel_s;  /* DPU kernel */
    double dpu_cpu_s; /* DPU -> host transfers */
    double total_s;   /* whole call; with overlap it can be < the sum */
} cpim_phases;

typedef struct cpim_stats {
    uint64_t bytes; /* payload bytes processed by the last call */
    cpim_phases measured;
    int has_modeled; /* 1 when `modeled` is valid (virtual UPMEM) */
    cpim_phases modeled;
    /* pim backend: what was used by the last call */
    unsigned ranks, dpus, tasklets;
    int virtual_upmem; /* 1 when the DPUs are the virtual UPMEM's */
    /* Virtual UPMEM only (has_modeled): the modeled energy of the last call
     * in joules -- the power model of the allocated ranks (idle DPUs,
     * running kernels, transfers; docs/MODEL.md) over its modeled time.
     * Never a measurement; 0 otherwise. */
    double modeled_joules;
} cpim_stats;

/* Statistics of the last successful (or CPIM_ERR_TIMING_ONLY) AES,
 * SHA-256, HMAC or PBKDF2 call on ctx (for PBKDF2, `bytes` counts the
 * output bytes). */
cpim_err cpim_last_stats(const cpim_ctx *ctx, cpim_stats *stats);

/* ---- resident regions: encrypted PIM memory -------------------------------------- */

/* A resident region is data that lives in the DPUs' MRAM between calls and
 * is encrypted, decrypted, re-keyed and hashed there, in place: only keys
 * and a few per-DPU arguments cross the bus (docs/RESIDENT.md).  pim
 * backend only; every other backend answers CPIM_ERR_UNSUPPORTED.
 *
 *  - Placement: the region takes DPUs of its own, allocated with its
 *    context's options (dpus / ranks, tasklets, mode, profile, dpu_dir), so
 *    the context's other calls never touch it.  Its size is split evenly:
 *    every DPU holds bytes_per_dpu (size / DPUs rounded up to whole units)
 *    at the start of its MRAM heap, after a 256-byte progress header; DPU d
 *    holds region bytes [d * bytes_per_dpu, (d + 1) * bytes_per_dpu).
 *    cpim_region_size() is that rounded size; new regions are all zeros.
 *  - unit_size (a multiple of 128 bytes, at most 1 MiB; 0 = 4096) is the
 *    XTS data unit and the SHA-256 chunk; it must fit the DPUs.  A region
 *    whose share per DPU (with its digests, 32 bytes per unit) exceeds the
 *    MRAM a DPU program leaves (63 MiB) is CPIM_ERR_REGION_SIZE.
 *  - XTS: unit i of DPU d (its bytes [i * unit, (i + 1) * unit) of the
 *    share) has the IEEE 1619 plain64 tweak (d << 32) | i: the DPU and the
 *    MRAM location.  key as cpim_xts_set_key (32 or 64 bytes, halves
 *    unequal).  CTR: block j of DPU d uses the counter block nonce[0..8) ||
 *    d (32-bit big-endian) || j (32-bit big-endian); key 16, 24 or 32
 *    bytes.  Never reuse a nonce with the same CTR key.
 *  - Keys: passed to each call, expanded on the host, broadcast once to the
 *    DPUs' WRAM, wiped there by the kernel (with every buffer that held
 *    keystream, tweaks or a re-key's intermediate clear text) and on the
 *    host before the call returns.  No key ever goes to MRAM.  A re-key
 *    decrypts each chunk with the old key and encrypts it with the new one
 *    in WRAM: MRAM never holds the clear text.
 *  - Faults: DPU tasklets record their progress per chunk in MRAM.  A call
 *    that fails mid-way (a DPU fault, a failed launch or transfer) returns
 *    the error and leaves the region *interrupted*: some chunks converted,
 *    the others not, and which is recorded on the DPUs.  It is never
 *    silently half-converted: until the same operation is called again
 *    with the same keys and nonces (which converts only the rest), every
 *    other operation on the region and cpim_region_write answer
 *    CPIM_ERR_REGION_INTERRUPTED (reads still work: they return MRAM as it
 *    is).  A chunk is converted and its progress recorded by two
 *    consecutive DMAs of one tasklet; only a DPU that stops between those
 *    two would make one chunk ambiguous.
 *  - A region is used from its context's thread; free it before closing
 *    the context.  timing_only contexts: operations are timed and return
 *    CPIM_ERR_TIMING_ONLY; the region's contents are then undefined.
 *  - cpim_last_stats-like statistics: cpim_region_last_stats (both clocks,
 *    as cpim_stats says). */
typedef struct cpim_region cpim_region;

cpim_err cpim_region_create(cpim_ctx *ctx, uint64_t size, size_t unit_size, cpim_region **region);
/* Overwrites the region's MRAM with zeros, frees its DPUs.  NULL is fine. */
void cpim_region_free(cpim_region *region);
uint64_t cpim_region_size(const cpim_region *region);
/* Its DPUs, bytes per DPU and unit size (any pointer may be NULL). */
cpim_err cpim_region_layout(const cpim_region *region, uint32_t *dpus, uint64_t *bytes_per_dpu,
                            size_t *unit_size);

/* Transfers between the host and region bytes [off, off + len): off and len
 * multiples of 8 (MRAM's transfer granule), within the region, else
 * CPIM_ERR_INVALID_ARG.  The bytes move as they are (no cryptography). */
cpim_err cpim_region_write(cpim_region *region, uint64_t off, const uint8_t *buf, size_t len);
cpim_err cpim_region_read(cpim_region *region, uint64_t off, uint8_t *buf, size_t len);

/* In place, no data transfer: the whole region. */
cpim_err cpim_region_xts(cpim_region *region, cpim_dir dir, const uint8_t *key, size_t key_len);
cpim_err cpim_region_ctr(cpim_region *region, const uint8_t *key, size_t key_len,
                         const uint8_t nonce[8]);
cpim_err cpim_region_xts_rekey(cpim_region *region, const uint8_t *old_key, size_t old_len,
                               const uint8_t *new_key, size_t new_len);
cpim_err cpim_region_ctr_rekey(cpim_region *region, const uint8_t *old_key, size_t old_len,
                               const uint8_t old_nonce[8], const uint8_t *new_key, size_t new_len,
                               const uint8_t new_nonce[8]);

/* SHA-256 of every unit as it is in MRAM (region order: DPU 0's units, then
 * DPU 1's, ...) into digests (cpim_region_size / unit_size entries; NULL:
 * not wanted) and their Merkle root: each level pairs neighbours, parent =
 * SHA-256(left || right), an odd last node goes up unchanged; one unit's
 * root is its digest.  Only the digests cross the bus. */
cpim_err cpim_region_sha256(cpim_region *region, uint8_t (*digests)[32], uint8_t root[32]);

/* 1 while the region is interrupted (see Faults above), else 0. */
int cpim_region_interrupted(const cpim_region *region);
/* Statistics of the region's last successful (or timing-only) operation. */
cpim_err cpim_region_last_stats(const cpim_region *region, cpim_stats *stats);

/* ---- helpers -------------------------------------------------------------- */

/* Overwrites n bytes at p with zeros in a way the compiler keeps. */
void cpim_wipe(void *p, size_t n);

/* The project's one measured clock: seconds of CLOCK_MONOTONIC (only
 * differences mean something).  Every measured figure of the library, the
 * CLI and the experiments comes from it. */
double cpim_now(void);

/* Online CPU cores (>= 1): what cpim_options.threads = 0 uses. */
unsigned cpim_cores(void);

#ifdef __cplusplus
}
#endif
#endif /* CRYPTOPIM_H */
