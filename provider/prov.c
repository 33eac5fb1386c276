/*
 * prov.c -- the entry point of the cryptopim OpenSSL 3 provider: the
 * algorithm tables, the provider's parameters and configuration, its error
 * strings, and the engine that picks a backend for each operation (prov.h).
 */
#define _GNU_SOURCE /* secure_getenv, getrandom */
#include "prov.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "cnf.h"

/* The default of `pim-threshold`: from 1 MiB, the fixed cost of a DPU round
 * trip (launch and transfers of one rank, modeled) is under a third of an
 * AES operation's modeled time; smaller operations stay on the CPU.
 * docs/PROVIDER.md has the table and the command that gives it. */
#define CPP_DEFAULT_THRESHOLD (1ull << 20)

/* ---- errors -------------------------------------------------------------- */

static const OSSL_ITEM reason_strings[] = {
    {CPP_R_INVALID_KEY_LENGTH, "invalid key length"},
    {CPP_R_INVALID_IV_LENGTH, "invalid iv length"},
    {CPP_R_OUTPUT_BUFFER_TOO_SMALL, "output buffer too small"},
    {CPP_R_WRONG_FINAL_BLOCK_LENGTH, "wrong final block length"},
    {CPP_R_BAD_DECRYPT, "bad decrypt"},
    {CPP_R_NO_KEY_SET, "no key set"},
    {CPP_R_IV_NOT_SET, "iv not set"},
    {CPP_R_INVALID_TAG, "invalid tag"},
    {CPP_R_INVALID_TAG_LENGTH, "invalid tag length"},
    {CPP_R_TAG_NOT_SET, "tag not set"},
    {CPP_R_INVALID_DATA_LENGTH, "invalid data length"},
    {CPP_R_XTS_DUPLICATED_KEYS, "xts duplicated keys"},
    {CPP_R_UNSUPPORTED_DIGEST, "unsupported digest (only SHA2-256)"},
    {CPP_R_MISSING_PASS, "missing pass"},
    {CPP_R_MISSING_SALT, "missing salt"},
    {CPP_R_INVALID_ITERATION_COUNT, "invalid iteration count"},
    {CPP_R_FAILED_TO_GET_PARAMETER, "failed to get parameter"},
    {CPP_R_FAILED_TO_SET_PARAMETER, "failed to set parameter"},
    {CPP_R_UNKNOWN_BACKEND, "unknown or unavailable cryptopim backend"},
    {CPP_R_MISSING_KEY, "missing key"},
    {CPP_R_BACKEND_FAILED, "cryptopim backend failed"},
    {CPP_R_AAD_AFTER_DATA, "aad after data"},
    {CPP_R_OPERATION_FINISHED, "operation already finished (reinitialise)"},
    {CPP_R_NOT_INITIALISED, "context not initialised"},
    {CPP_R_INVALID_THRESHOLD, "invalid pim threshold"},
    {0, NULL},
};

int cpp_err_at(const cpp_prov *p, const char *file, int line, const char *func, int reason,
               const char *fmt, ...)
{
    if (p == NULL || p->new_error == NULL || p->vset_error == NULL)
        return 0;
    p->new_error(p->handle);
    if (p->set_error_debug != NULL)
        p->set_error_debug(p->handle, file, line, func);
    va_list ap;
    va_start(ap, fmt);
    p->vset_error(p->handle, (uint32_t)reason, fmt, ap);
    va_end(ap);
    return 0;
}

/* ---- the engine ----------------------------------------------------------- */

/* A backend name the library knows (pim included); the error otherwise. */
static int backend_known(const char *name)
{
    cpim_backend_info info;
    return cpim_backend_info_by_name(name, &info) == CPIM_OK;
}

int cpp_random(cpp_prov *p, unsigned char *buf, size_t n)
{
    ERR_set_mark();
    if (RAND_bytes_ex(p->child, buf, n, 0) > 0) {
        ERR_pop_to_mark();
        return 1;
    }
    ERR_pop_to_mark(); /* no DRBG among the other providers: the kernel's */
    while (n > 0) {
        ssize_t got = getrandom(buf, n, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 0;
        buf += got, n -= (size_t)got;
    }
    return 1;
}

void cpp_eng_init(cpp_eng *e, cpp_prov *p)
{
    memset(e, 0, sizeof *e);
    e->prov = p;
    /* a copy of the whole array (NUL-terminated, same size): EVP_Digest
     * makes a context per message, and snprintf was 0.5% of a 16 KiB one */
    memcpy(e->backend, p->backend, sizeof e->backend);
    e->threshold = p->threshold;
    e->last = "";
}

void cpp_eng_dup(cpp_eng *dst, const cpp_eng *src)
{
    *dst = *src;
    dst->cpu = NULL;
    dst->cpu_keyed = 0;
}

/* (no strcmp call: this runs twice per EVP digest) */
static int is_pim(const char *backend)
{
    return backend[0] == 'p' && backend[1] == 'i' && backend[2] == 'm' && backend[3] == '\0';
}

/* The CPU context backend names, opened with the provider's options:
 * a spare one for it, or NULL. */
static cpim_ctx *spare_take(cpp_prov *p, const char *name)
{
    cpim_ctx *x = NULL;
    pthread_mutex_lock(&p->spare_lock);
    for (int i = 0; i < CPP_SPARES && x == NULL; i++)
        if (p->spare[i] != NULL && p->spare_backend[i][0] == name[0] &&
            strcmp(p->spare_backend[i], name) == 0)
            x = p->spare[i], p->spare[i] = NULL;
    pthread_mutex_unlock(&p->spare_lock);
    return x;
}

/* x (opened for backend `name`, holding no key) kept, or closed when the
 * spares are full. */
static void spare_put(cpp_prov *p, const char *name, cpim_ctx *x)
{
    pthread_mutex_lock(&p->spare_lock);
    for (int i = 0; i < CPP_SPARES && x != NULL; i++)
        if (p->spare[i] == NULL) {
            p->spare[i] = x;
            size_t n = strnlen(name, CPP_BACKEND_MAX - 1); /* not snprintf: see cpp_eng_init */
            memcpy(p->spare_backend[i], name, n);
            p->spare_backend[i][n] = '\0';
            x = NULL;
        }
    pthread_mutex_unlock(&p->spare_lock);
    cpim_close(x);
}

/* The backend a CPU context of e is opened for. */
static const char *cpu_backend(const cpp_eng *e)
{
    return is_pim(e->backend) ? "auto" : e->backend;
}

void cpp_eng_free(cpp_eng *e)
{
    if (e->keyless && e->cpu != NULL)
        spare_put(e->prov, cpu_backend(e), e->cpu);
    else
        cpim_close(e->cpu); /* wipes the key it holds */
    e->cpu = NULL;
    e->cpu_keyed = 0;
}

cpim_ctx *cpp_eng_acquire(cpp_eng *e, uint64_t len, int *pim)
{
    cpp_prov *p = e->prov;
    *pim = 0;
    if (is_pim(e->backend) && len >= e->threshold) {
        pthread_mutex_lock(&p->pim_lock);
        if (p->pim == NULL) {
            cpim_options opt;
            cpim_options_init(&opt);
            opt.threads = p->threads;
            opt.unmeasured = 1; /* the provider reads only the modeled clock */
            opt.dpus = p->dpus;
            opt.profile = p->profile;
            opt.dpu_dir = p->dpu_dir;
            cpim_err rc = cpim_open(&p->pim, "pim", &opt);
            if (rc != CPIM_OK) {
                p->pim = NULL;
                pthread_mutex_unlock(&p->pim_lock);
                cpp_err(p, CPP_R_BACKEND_FAILED, "opening the pim backend: %s", cpim_strerror(rc));
                return NULL;
            }
        }
        *pim = 1;
        return p->pim;
    }
    if (e->cpu == NULL && e->keyless && (e->cpu = spare_take(p, cpu_backend(e))) != NULL)
        e->cpu_name = cpim_ctx_backend(e->cpu);
    if (e->cpu == NULL) {
        /* below the threshold, "pim" contexts run on the best CPU backend */
        const char *name = cpu_backend(e);
        cpim_options opt;
        cpim_options_init(&opt);
        opt.threads = p->threads;
        opt.unmeasured = 1; /* the provider reads only the modeled clock */
        cpim_err rc = cpim_open(&e->cpu, name, &opt);
        if (rc != CPIM_OK) {
            e->cpu = NULL;
            cpp_err(p, CPP_R_BACKEND_FAILED, "opening backend %s: %s", name, cpim_strerror(rc));
            return NULL;
        }
        e->cpu_keyed = 0;
        e->cpu_name = cpim_ctx_backend(e->cpu);
    }
    return e->cpu;
}

void cpp_eng_release(cpp_eng *e, cpim_ctx *ctx, int pim, int op, int wipe, int ok)
{
    cpp_prov *p = e->prov;
    cpim_stats st;
    e->modeled_s = 0;
    e->last_pim = pim;
    e->last = pim ? "pim" : e->cpu_name;
    /* only the DPUs have a modeled clock (the CPU backends' is never set) */
    if (pim && ok && cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled)
        e->modeled_s = st.modeled.total_s;
    if (pim) {
        /* the shared context keeps no key of this one: overwrite the slot */
        static const uint8_t zero[32];
        static const uint8_t xts_dummy[32] = {1};
        if (wipe == 1)
            (void)cpim_aes_set_key(ctx, zero, 16);
        else if (wipe == 2)
            (void)cpim_xts_set_key(ctx, xts_dummy, 32);
        p->modeled_total_s += e->modeled_s;
        pthread_mutex_unlock(&p->pim_lock);
    }
    if (ok && op >= 0 && op < CPP_OP_COUNT_)
        atomic_fetch_add(pim ? &p->ops_pim[op] : &p->ops_cpu[op], 1);
}

void cpp_params_find(const OSSL_PARAM *params, const char *const names[], size_t n,
                     const OSSL_PARAM *found[])
{
    for (size_t i = 0; i < n; i++)
        found[i] = NULL;
    for (const OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++)
        for (size_t i = 0; i < n; i++) /* the first letters first: no call for most */
            if (p->key[0] == names[i][0] && strcmp(p->key, names[i]) == 0) {
                if (found[i] == NULL)
                    found[i] = p;
                break;
            }
}

/* 1 when some param of params is an engine param (CPP_PARAM_PREFIX). */
static int has_eng_param(const OSSL_PARAM *params)
{
    for (const OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++)
        if (p->key[0] == CPP_PARAM_PREFIX[0] &&
            strncmp(p->key, CPP_PARAM_PREFIX, sizeof CPP_PARAM_PREFIX - 1) == 0)
            return 1;
    return 0;
}

int cpp_eng_set_params(cpp_eng *e, const OSSL_PARAM params[])
{
    const OSSL_PARAM *q;
    if (!has_eng_param(params))
        return 1;
    if ((q = OSSL_PARAM_locate_const(params, CPP_PARAM_BACKEND)) != NULL) {
        const char *name = NULL;
        if (!OSSL_PARAM_get_utf8_string_ptr(q, &name) || strlen(name) >= sizeof e->backend)
            return cpp_err(e->prov, CPP_R_FAILED_TO_SET_PARAMETER, "%s", CPP_PARAM_BACKEND);
        if (!backend_known(name))
            return cpp_err(e->prov, CPP_R_UNKNOWN_BACKEND, "%s", name);
        if (strcmp(name, e->backend) != 0) {
            cpp_eng_free(e); /* the next operation opens the new backend */
            snprintf(e->backend, sizeof e->backend, "%s", name);
        }
    }
    if ((q = OSSL_PARAM_locate_const(params, CPP_PARAM_THRESHOLD)) != NULL) {
        uint64_t v;
        if (!OSSL_PARAM_get_uint64(q, &v))
            return cpp_err(e->prov, CPP_R_INVALID_THRESHOLD, NULL);
        e->threshold = v;
    }
    return 1;
}

int cpp_eng_get_params(const cpp_eng *e, OSSL_PARAM params[])
{
    OSSL_PARAM *q;
    if (!has_eng_param(params))
        return 1;
    if ((q = OSSL_PARAM_locate(params, CPP_PARAM_BACKEND)) != NULL &&
        !OSSL_PARAM_set_utf8_string(q, e->backend))
        return cpp_err(e->prov, CPP_R_FAILED_TO_GET_PARAMETER, "%s", CPP_PARAM_BACKEND);
    if ((q = OSSL_PARAM_locate(params, CPP_PARAM_THRESHOLD)) != NULL &&
        !OSSL_PARAM_set_uint64(q, e->threshold))
        return cpp_err(e->prov, CPP_R_FAILED_TO_GET_PARAMETER, "%s", CPP_PARAM_THRESHOLD);
    if ((q = OSSL_PARAM_locate(params, CPP_PARAM_MODELED)) != NULL &&
        !OSSL_PARAM_set_double(q, e->modeled_s))
        return cpp_err(e->prov, CPP_R_FAILED_TO_GET_PARAMETER, "%s", CPP_PARAM_MODELED);
    if ((q = OSSL_PARAM_locate(params, CPP_PARAM_LAST)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(q, e->last))
        return cpp_err(e->prov, CPP_R_FAILED_TO_GET_PARAMETER, "%s", CPP_PARAM_LAST);
    return 1;
}

int cpp_is_sha256(const char *name)
{
    static const char *const names[] = {"SHA2-256", "SHA-256", "SHA256", "2.16.840.1.101.3.4.2.1"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(name, names[i]) == 0)
            return 1;
    return 0;
}

/* ---- algorithm-level cipher params ------------------------------------------ */

int cpp_cipher_get_params(OSSL_PARAM params[], unsigned mode, size_t keylen, size_t blocksize,
                          size_t ivlen, int aead, int custom_iv, int cts)
{
    OSSL_PARAM *q;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) != NULL &&
        !OSSL_PARAM_set_uint(q, mode))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL &&
        !OSSL_PARAM_set_size_t(q, keylen))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) != NULL &&
        !OSSL_PARAM_set_size_t(q, blocksize))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL &&
        !OSSL_PARAM_set_size_t(q, ivlen))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) != NULL &&
        !OSSL_PARAM_set_int(q, aead))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) != NULL &&
        !OSSL_PARAM_set_int(q, custom_iv))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CTS)) != NULL &&
        !OSSL_PARAM_set_int(q, cts))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK)) != NULL &&
        !OSSL_PARAM_set_int(q, 0))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY)) != NULL &&
        !OSSL_PARAM_set_int(q, 0))
        return 0;
    return 1;
}

static const OSSL_PARAM cipher_known_gettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END};

const OSSL_PARAM *cpp_cipher_gettable_params(void *provctx)
{
    (void)provctx;
    return cipher_known_gettable;
}

/* ---- the provider's algorithms and params ------------------------------------ */

#define PROPS "provider=cryptopim"
static const OSSL_ALGORITHM ciphers[] = {
    {"AES-128-ECB:2.16.840.1.101.3.4.1.1", PROPS, cpp_aes128ecb_functions, NULL},
    {"AES-192-ECB:2.16.840.1.101.3.4.1.21", PROPS, cpp_aes192ecb_functions, NULL},
    {"AES-256-ECB:2.16.840.1.101.3.4.1.41", PROPS, cpp_aes256ecb_functions, NULL},
    {"AES-128-CTR", PROPS, cpp_aes128ctr_functions, NULL},
    {"AES-192-CTR", PROPS, cpp_aes192ctr_functions, NULL},
    {"AES-256-CTR", PROPS, cpp_aes256ctr_functions, NULL},
    {"AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", PROPS, cpp_aes128gcm_functions, NULL},
    {"AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", PROPS, cpp_aes192gcm_functions, NULL},
    {"AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", PROPS, cpp_aes256gcm_functions, NULL},
    {"AES-128-XTS:1.3.111.2.1619.0.1.1", PROPS, cpp_aes128xts_functions, NULL},
    {"AES-256-XTS:1.3.111.2.1619.0.1.2", PROPS, cpp_aes256xts_functions, NULL},
    {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM digests[] = {
    {"SHA2-256:SHA-256:SHA256:2.16.840.1.101.3.4.2.1", PROPS, cpp_sha256_functions, NULL},
    {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM macs[] = {{"HMAC", PROPS, cpp_hmac_functions, NULL},
                                      {NULL, NULL, NULL, NULL}};
static const OSSL_ALGORITHM kdfs[] = {
    {"PBKDF2:1.2.840.113549.1.5.12", PROPS, cpp_pbkdf2_functions, NULL}, {NULL, NULL, NULL, NULL}};

static const OSSL_ALGORITHM *prov_query(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_CIPHER:
        return ciphers;
    case OSSL_OP_DIGEST:
        return digests;
    case OSSL_OP_MAC:
        return macs;
    case OSSL_OP_KDF:
        return kdfs;
    }
    return NULL;
}

#define PARAM_OPS_CIPHER "cryptopim-cipher-ops"
#define PARAM_OPS_DIGEST "cryptopim-digest-ops"
#define PARAM_OPS_MAC    "cryptopim-mac-ops"
#define PARAM_OPS_KDF    "cryptopim-kdf-ops"
#define PARAM_OPS_PIM    "cryptopim-pim-ops"

static const OSSL_PARAM prov_param_types[] = {
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
    OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
    OSSL_PARAM_utf8_ptr(CPP_PARAM_BACKEND, NULL, 0),
    OSSL_PARAM_uint64(CPP_PARAM_THRESHOLD, NULL),
    OSSL_PARAM_uint64(PARAM_OPS_CIPHER, NULL),
    OSSL_PARAM_uint64(PARAM_OPS_DIGEST, NULL),
    OSSL_PARAM_uint64(PARAM_OPS_MAC, NULL),
    OSSL_PARAM_uint64(PARAM_OPS_KDF, NULL),
    OSSL_PARAM_uint64(PARAM_OPS_PIM, NULL),
    OSSL_PARAM_double(CPP_PARAM_MODELED, NULL),
    OSSL_PARAM_END};

static const OSSL_PARAM *prov_gettable_params(void *provctx)
{
    (void)provctx;
    return prov_param_types;
}

static uint64_t ops_total(cpp_prov *p, int op)
{
    return atomic_load(&p->ops_cpu[op]) + atomic_load(&p->ops_pim[op]);
}

static int prov_get_params(void *provctx, OSSL_PARAM params[])
{
    cpp_prov *p = provctx;
    OSSL_PARAM *q;
    if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(q, "cryptopim provider (AES, SHA-256, HMAC, PBKDF2)"))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(q, cpim_version()))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(q, CPIM_VERSION_STRING))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL &&
        !OSSL_PARAM_set_int(q, 1))
        return 0;
    if ((q = OSSL_PARAM_locate(params, CPP_PARAM_BACKEND)) != NULL &&
        !OSSL_PARAM_set_utf8_ptr(q, p->backend))
        return 0;
    if ((q = OSSL_PARAM_locate(params, CPP_PARAM_THRESHOLD)) != NULL &&
        !OSSL_PARAM_set_uint64(q, p->threshold))
        return 0;
    static const struct {
        const char *name;
        int op;
    } ops[] = {{PARAM_OPS_CIPHER, CPP_OP_CIPHER},
               {PARAM_OPS_DIGEST, CPP_OP_DIGEST},
               {PARAM_OPS_MAC, CPP_OP_MAC},
               {PARAM_OPS_KDF, CPP_OP_KDF}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if ((q = OSSL_PARAM_locate(params, ops[i].name)) != NULL &&
            !OSSL_PARAM_set_uint64(q, ops_total(p, ops[i].op)))
            return 0;
    if ((q = OSSL_PARAM_locate(params, PARAM_OPS_PIM)) != NULL) {
        uint64_t n = 0;
        for (int i = 0; i < CPP_OP_COUNT_; i++)
            n += atomic_load(&p->ops_pim[i]);
        if (!OSSL_PARAM_set_uint64(q, n))
            return 0;
    }
    if ((q = OSSL_PARAM_locate(params, CPP_PARAM_MODELED)) != NULL) {
        pthread_mutex_lock(&p->pim_lock);
        double s = p->modeled_total_s;
        pthread_mutex_unlock(&p->pim_lock);
        if (!OSSL_PARAM_set_double(q, s))
            return 0;
    }
    return 1;
}

static const OSSL_ITEM *prov_reason_strings(void *provctx)
{
    (void)provctx;
    return reason_strings;
}

/* CRYPTOPIM_PROVIDER_STATS=FILE: at unload, one line of counters appended
 * to FILE (what shows that an application really ran on the provider; no
 * key, no data).  Never stdout or stderr; ignored in set-id programs. */
static void prov_write_stats(cpp_prov *p)
{
    const char *path = secure_getenv("CRYPTOPIM_PROVIDER_STATS");
    if (path == NULL || *path == '\0')
        return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    uint64_t pim = 0;
    for (int i = 0; i < CPP_OP_COUNT_; i++)
        pim += atomic_load(&p->ops_pim[i]);
    char line[320];
    int n = snprintf(line, sizeof line,
                     "cryptopim-provider pid=%ld backend=%s cipher=%llu digest=%llu mac=%llu "
                     "kdf=%llu pim=%llu modeled_s=%.9f\n",
                     (long)getpid(), p->backend, (unsigned long long)ops_total(p, CPP_OP_CIPHER),
                     (unsigned long long)ops_total(p, CPP_OP_DIGEST),
                     (unsigned long long)ops_total(p, CPP_OP_MAC),
                     (unsigned long long)ops_total(p, CPP_OP_KDF), (unsigned long long)pim,
                     p->modeled_total_s);
    if (n > 0 && (size_t)n < sizeof line)
        (void)!write(fd, line, (size_t)n);
    close(fd);
}

static void prov_teardown(void *provctx)
{
    cpp_prov *p = provctx;
    if (p == NULL)
        return;
    if (p->handle != NULL)
        prov_write_stats(p);
    cpim_close(p->pim);
    for (int i = 0; i < CPP_SPARES; i++)
        cpim_close(p->spare[i]);
    OSSL_LIB_CTX_free(p->child);
    pthread_mutex_destroy(&p->pim_lock);
    pthread_mutex_destroy(&p->spare_lock);
    free(p->profile);
    free(p->dpu_dir);
    free(p);
}

static const OSSL_DISPATCH prov_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))prov_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))prov_query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))prov_reason_strings},
    {0, NULL}};

/* The module's openssl.cnf keys (docs/PROVIDER.md), then the environment. */
static int prov_configure(cpp_prov *p, const OSSL_DISPATCH *in)
{
    OSSL_FUNC_core_get_params_fn *get_params = NULL;
    for (; in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_GET_PARAMS:
            get_params = OSSL_FUNC_core_get_params(in);
            break;
        case OSSL_FUNC_CORE_NEW_ERROR:
            p->new_error = OSSL_FUNC_core_new_error(in);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            p->set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            p->vset_error = OSSL_FUNC_core_vset_error(in);
            break;
        }
    }
    const char *backend = NULL, *threshold = NULL, *threads = NULL, *dpus = NULL, *profile = NULL,
               *dpu_dir = NULL;
    if (get_params != NULL) {
        OSSL_PARAM cfg[] = {OSSL_PARAM_utf8_ptr("backend", &backend, 0),
                            OSSL_PARAM_utf8_ptr("pim-threshold", &threshold, 0),
                            OSSL_PARAM_utf8_ptr("threads", &threads, 0),
                            OSSL_PARAM_utf8_ptr("pim-dpus", &dpus, 0),
                            OSSL_PARAM_utf8_ptr("pim-profile", &profile, 0),
                            OSSL_PARAM_utf8_ptr("pim-dpu-dir", &dpu_dir, 0),
                            OSSL_PARAM_END};
        if (!get_params(p->handle, cfg))
            return 0;
    }
    const char *env = getenv("CRYPTOPIM_PROVIDER_BACKEND");
    if (env != NULL && *env != '\0')
        backend = env;
    if (backend == NULL)
        backend = "auto";
    if (strlen(backend) >= sizeof p->backend || !backend_known(backend))
        return cpp_err(p, CPP_R_UNKNOWN_BACKEND, "%.40s", backend);
    snprintf(p->backend, sizeof p->backend, "%s", backend);
    p->threshold = CPP_DEFAULT_THRESHOLD;
    uint64_t v;
    if (threshold != NULL) {
        if (!cpp_parse_size(threshold, UINT64_MAX, &v))
            return cpp_err(p, CPP_R_INVALID_THRESHOLD, "pim-threshold = %.40s", threshold);
        p->threshold = v;
    }
    p->threads = 1; /* one core per operation, as OpenSSL's own ciphers */
    if (threads != NULL) {
        if (!cpp_parse_size(threads, 1024, &v))
            return cpp_err(p, CPP_R_FAILED_TO_SET_PARAMETER, "threads = %.40s", threads);
        p->threads = (unsigned)v;
    }
    if (dpus != NULL) {
        if (!cpp_parse_size(dpus, CPIM_DPUS_ALL, &v))
            return cpp_err(p, CPP_R_FAILED_TO_SET_PARAMETER, "pim-dpus = %.40s", dpus);
        p->dpus = (unsigned)v;
    }
    if (profile != NULL && (p->profile = strdup(profile)) == NULL)
        return 0;
    if (dpu_dir != NULL && (p->dpu_dir = strdup(dpu_dir)) == NULL)
        return 0;
    return 1;
}

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx);

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    cpp_prov *p = calloc(1, sizeof *p);
    if (p == NULL)
        return 0;
    p->handle = handle;
    if (pthread_mutex_init(&p->pim_lock, NULL) != 0) {
        free(p);
        return 0;
    }
    if (pthread_mutex_init(&p->spare_lock, NULL) != 0) {
        pthread_mutex_destroy(&p->pim_lock);
        free(p);
        return 0;
    }
    if (!prov_configure(p, in) || (p->child = OSSL_LIB_CTX_new_child(handle, in)) == NULL) {
        prov_teardown(p);
        return 0;
    }
    *out = prov_functions;
    *provctx = p;
    return 1;
}
