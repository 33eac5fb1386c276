/*
 * prov.h -- the cryptopim OpenSSL 3 provider's internal contracts (provider/).
 *
 * The provider (cryptopim.so) implements OpenSSL's algorithms on the public
 * API of libcryptopim (include/cryptopim.h) and nothing else of the library.
 * One file per algorithm family: ECB and CTR (ciph_block.c), GCM
 * (ciph_gcm.c), XTS (ciph_xts.c), SHA-256 (sha256.c), HMAC (hmac.c), PBKDF2
 * (pbkdf2.c); prov.c is the entry point, the parameters, the errors and the
 * backend choice (the "engine" below).
 *
 * Backend choice (docs/PROVIDER.md): every operation context has an engine.
 * Its backend is, by precedence, the context's "cryptopim-backend" param,
 * the environment variable CRYPTOPIM_PROVIDER_BACKEND, the module's
 * `backend` key in openssl.cnf, else "auto".  With "pim", an operation of at
 * least `threshold` bytes runs on the provider's one shared pim context (the
 * DPUs are allocated once, on first use, and serialised by a mutex); smaller
 * ones run on the context's own CPU context ("auto").
 */
#ifndef CPIM_PROV_H
#define CPIM_PROV_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cryptopim.h"

/* ---- errors (reason codes of the provider; strings in prov.c) ---- */
enum {
    CPP_R_INVALID_KEY_LENGTH = 1,
    CPP_R_INVALID_IV_LENGTH,
    CPP_R_OUTPUT_BUFFER_TOO_SMALL,
    CPP_R_WRONG_FINAL_BLOCK_LENGTH,
    CPP_R_BAD_DECRYPT,
    CPP_R_NO_KEY_SET,
    CPP_R_IV_NOT_SET,
    CPP_R_INVALID_TAG,
    CPP_R_INVALID_TAG_LENGTH,
    CPP_R_TAG_NOT_SET,
    CPP_R_INVALID_DATA_LENGTH,
    CPP_R_XTS_DUPLICATED_KEYS,
    CPP_R_UNSUPPORTED_DIGEST,
    CPP_R_MISSING_PASS,
    CPP_R_MISSING_SALT,
    CPP_R_INVALID_ITERATION_COUNT,
    CPP_R_FAILED_TO_GET_PARAMETER,
    CPP_R_FAILED_TO_SET_PARAMETER,
    CPP_R_UNKNOWN_BACKEND,
    CPP_R_MISSING_KEY,
    CPP_R_BACKEND_FAILED,
    CPP_R_AAD_AFTER_DATA,
    CPP_R_OPERATION_FINISHED,
    CPP_R_NOT_INITIALISED,
    CPP_R_INVALID_THRESHOLD,
    CPP_R_COUNT_
};

/* Operation classes, for the provider's counters. */
enum { CPP_OP_CIPHER, CPP_OP_DIGEST, CPP_OP_MAC, CPP_OP_KDF, CPP_OP_COUNT_ };

#define CPP_BACKEND_MAX 32
/* Keyless CPU contexts kept for reuse (see cpp_eng.keyless) */
#define CPP_SPARES 8

/* The provider context (one per loaded instance of the module). */
typedef struct cpp_prov {
    const OSSL_CORE_HANDLE *handle;
    /* OpenSSL's other providers, as seen from here: HMAC and PBKDF2 with a
     * digest other than SHA-256 are passed through to them (hmac.c, pbkdf2.c) */
    OSSL_LIB_CTX *child;
    OSSL_FUNC_core_new_error_fn *new_error;
    OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
    OSSL_FUNC_core_vset_error_fn *vset_error;
    char backend[CPP_BACKEND_MAX]; /* default backend of new contexts */
    uint64_t threshold;            /* pim: bytes from which an operation goes to the DPUs */
    unsigned threads;              /* host threads of a CPU context (cpim_options.threads) */
    unsigned dpus;                 /* pim: DPUs to allocate (0: one rank) */
    char *profile;                 /* pim: UPMEM profile string, or NULL */
    char *dpu_dir;                 /* pim: folder of the DPU programs, or NULL */
    pthread_mutex_t pim_lock;      /* serialises the shared pim context */
    cpim_ctx *pim;                 /* opened on first use */
    /* CPU contexts of freed keyless algorithm contexts, with the backend
     * each was opened for: the next one takes it instead of opening one
     * (EVP_Digest makes a new context per message, and a cpim_open costs
     * more than hashing a few KiB) */
    pthread_mutex_t spare_lock;
    cpim_ctx *spare[CPP_SPARES];
    char spare_backend[CPP_SPARES][CPP_BACKEND_MAX];
    /* counters, readable as provider params (docs/PROVIDER.md) */
    _Atomic uint64_t ops_cpu[CPP_OP_COUNT_];
    _Atomic uint64_t ops_pim[CPP_OP_COUNT_];
    double modeled_total_s; /* pim: modeled seconds of every operation (under pim_lock) */
} cpp_prov;

/* Raises an OpenSSL error of this provider: reason is a CPP_R_* code, fmt an
 * optional detail (printf-like, NULL for none).  Returns 0, so that callers
 * may `return cpp_err(...)`. */
int cpp_err_at(const cpp_prov *p, const char *file, int line, const char *func, int reason,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));
#define cpp_err(p, reason, ...) cpp_err_at(p, __FILE__, __LINE__, __func__, reason, __VA_ARGS__)
/* CPP_R_BACKEND_FAILED naming the library's error. */
#define cpp_err_lib(p, rc) cpp_err(p, CPP_R_BACKEND_FAILED, "%s", cpim_strerror(rc))

/* ---- engine: where one context's operations run ---- */
typedef struct cpp_eng {
    cpp_prov *prov;
    char backend[CPP_BACKEND_MAX];
    uint64_t threshold;
    cpim_ctx *cpu;        /* the context's own CPU context, opened on first use */
    int cpu_keyed;        /* the algorithm's key is loaded in `cpu` */
    double modeled_s;     /* modeled seconds of the last operation (0 on the CPU) */
    int last_pim;         /* the last operation ran on the DPUs */
    const char *last;     /* the backend of the last operation */
    const char *cpu_name; /* the backend of `cpu` */
    /* the algorithm never loads a key into `cpu` (SHA-256): its CPU
     * context goes back to the provider's spares when freed */
    int keyless;
} cpp_eng;

/* n random bytes (IVs): OpenSSL's DRBG of the provider's library context
 * (a provider that offers one loaded beside this one), else the kernel's
 * getrandom(2), since this provider has no DRBG of its own.  0 on failure. */
int cpp_random(cpp_prov *p, unsigned char *buf, size_t n);

void cpp_eng_init(cpp_eng *e, cpp_prov *p);
/* A copy for a dup'ed context: same settings, no CPU context yet. */
void cpp_eng_dup(cpp_eng *dst, const cpp_eng *src);
void cpp_eng_free(cpp_eng *e);
/* The context the next operation of `len` bytes runs on; *pim says whether
 * it is the shared pim context (then locked until cpp_eng_release, and the
 * caller must load its key into it).  NULL after raising an error. */
cpim_ctx *cpp_eng_acquire(cpp_eng *e, uint64_t len, int *pim);
/* Ends the operation: records its statistics and counts it under `op`;
 * for the pim context, `wipe` overwrites the AES (1), XTS (2) or no (0) key
 * slot it used and unlocks it. */
void cpp_eng_release(cpp_eng *e, cpim_ctx *ctx, int pim, int op, int wipe, int ok);
/* The engine's settable / gettable context params (merged into each
 * algorithm's tables with the macros below). */
int cpp_eng_set_params(cpp_eng *e, const OSSL_PARAM params[]);
int cpp_eng_get_params(const cpp_eng *e, OSSL_PARAM params[]);

/* Every engine param's name begins with this (cpp_eng_*_params skip a
 * params array with none at the cost of one short compare per param). */
#define CPP_PARAM_PREFIX    "cryptopim-"
#define CPP_PARAM_BACKEND   "cryptopim-backend"
#define CPP_PARAM_THRESHOLD "cryptopim-pim-threshold"
#define CPP_PARAM_MODELED   "cryptopim-modeled-seconds"
#define CPP_PARAM_LAST      "cryptopim-last-backend"
#define CPP_ENG_SETTABLE                                                                           \
    OSSL_PARAM_utf8_string(CPP_PARAM_BACKEND, NULL, 0), OSSL_PARAM_uint64(CPP_PARAM_THRESHOLD, NULL)
#define CPP_ENG_GETTABLE                                                                           \
    OSSL_PARAM_utf8_string(CPP_PARAM_BACKEND, NULL, 0),                                            \
        OSSL_PARAM_uint64(CPP_PARAM_THRESHOLD, NULL), OSSL_PARAM_double(CPP_PARAM_MODELED, NULL),  \
        OSSL_PARAM_utf8_ptr(CPP_PARAM_LAST, NULL, 0)

/* found[i] = the first of params named names[i], or NULL, for i < n, in
 * one pass over params (each compared with the names until one matches).
 * Where OSSL_PARAM_locate per name costs a pass and a string compare per
 * param for every name, and EVP asks a context's params several times per
 * message (EVP_CipherInit_ex alone reads the IV and key lengths and sets
 * the padding), this is a compare or two. */
void cpp_params_find(const OSSL_PARAM *params, const char *const names[], size_t n,
                     const OSSL_PARAM *found[]);

/* Algorithm-level cipher params (mode, keylen, ivlen, blocksize, aead...). */
int cpp_cipher_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t blocksize,
                          size_t ivlen, int aead, int custom_iv, int cts);
const OSSL_PARAM *cpp_cipher_gettable_params(void *provctx);

/* ---- dispatch tables (one per algorithm) ---- */

/* One entry of an OSSL_DISPATCH table. */
#define CPP_FN(id, f)                                                                              \
    {                                                                                              \
        id, (void (*)(void))(f)                                                                    \
    }
/* The table of cipher NAME: its own NAME_new and NAME_get_params, the rest
 * the functions of its family FAM (FAM_free, FAM_dup, FAM_einit, ...). */
#define CPP_CIPHER_DISPATCH(name, fam)                                                             \
    const OSSL_DISPATCH cpp_##name##_functions[] = {                                               \
        CPP_FN(OSSL_FUNC_CIPHER_NEWCTX, name##_new),                                               \
        CPP_FN(OSSL_FUNC_CIPHER_FREECTX, fam##_free),                                              \
        CPP_FN(OSSL_FUNC_CIPHER_DUPCTX, fam##_dup),                                                \
        CPP_FN(OSSL_FUNC_CIPHER_ENCRYPT_INIT, fam##_einit),                                        \
        CPP_FN(OSSL_FUNC_CIPHER_DECRYPT_INIT, fam##_dinit),                                        \
        CPP_FN(OSSL_FUNC_CIPHER_UPDATE, fam##_update),                                             \
        CPP_FN(OSSL_FUNC_CIPHER_FINAL, fam##_final),                                               \
        CPP_FN(OSSL_FUNC_CIPHER_CIPHER, fam##_cipher),                                             \
        CPP_FN(OSSL_FUNC_CIPHER_GET_PARAMS, name##_get_params),                                    \
        CPP_FN(OSSL_FUNC_CIPHER_GETTABLE_PARAMS, cpp_cipher_gettable_params),                      \
        CPP_FN(OSSL_FUNC_CIPHER_GET_CTX_PARAMS, fam##_get_ctx_params),                             \
        CPP_FN(OSSL_FUNC_CIPHER_SET_CTX_PARAMS, fam##_set_ctx_params),                             \
        CPP_FN(OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, fam##_gettable_ctx),                          \
        CPP_FN(OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, fam##_settable_ctx),                          \
        {0, NULL}}

extern const OSSL_DISPATCH cpp_aes128ecb_functions[], cpp_aes192ecb_functions[],
    cpp_aes256ecb_functions[];
extern const OSSL_DISPATCH cpp_aes128ctr_functions[], cpp_aes192ctr_functions[],
    cpp_aes256ctr_functions[];
extern const OSSL_DISPATCH cpp_aes128gcm_functions[], cpp_aes192gcm_functions[],
    cpp_aes256gcm_functions[];
extern const OSSL_DISPATCH cpp_aes128xts_functions[], cpp_aes256xts_functions[];
extern const OSSL_DISPATCH cpp_sha256_functions[];
extern const OSSL_DISPATCH cpp_hmac_functions[];
extern const OSSL_DISPATCH cpp_pbkdf2_functions[];

/* 1 when `name` names SHA-256 (the only digest of HMAC and PBKDF2 here). */
int cpp_is_sha256(const char *name);
/* The property query of the pass-through: any provider but this one. */
#define CPP_OTHERS "provider!=cryptopim"

#endif /* CPIM_PROV_H */
