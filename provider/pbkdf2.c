/*
 * pbkdf2.c -- PBKDF2 (EVP_KDF "PBKDF2") for the provider: with SHA2-256 on
 * cpim_pbkdf2_sha256.  As OpenSSL's default provider: pass and salt
 * required, iter >= 1 (default 2048), none of SP 800-132's lower bounds
 * (the default provider leaves them off too; `pkcs5` is accepted).
 * OpenSSL's default digest is SHA-1, which this provider does not have: a
 * derivation with it, or with any digest but SHA-256, is passed through to
 * OpenSSL's PBKDF2 of the other providers (prov.h, `child`), so that
 * preferring this provider never changes an application's result.
 * Password and salt are wiped on reset, on a new value and on free.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prov.h"

typedef struct kdf_ctx {
    cpp_eng eng;
    uint8_t *pass, *salt;
    size_t passlen, saltlen;
    uint64_t iter;
    char digest[64]; /* as set; "" for OpenSSL's default (SHA-1) */
    int pkcs5, pkcs5_set;
} kdf_ctx;

static void *kdf_new(void *provctx)
{
    kdf_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    cpp_eng_init(&c->eng, provctx);
    c->iter = 2048; /* OpenSSL's PKCS5_DEFAULT_ITER */
    return c;
}

static void kdf_clear(kdf_ctx *c)
{
    if (c->pass != NULL)
        OPENSSL_clear_free(c->pass, c->passlen);
    if (c->salt != NULL)
        OPENSSL_clear_free(c->salt, c->saltlen);
    c->pass = c->salt = NULL;
    c->passlen = c->saltlen = 0;
}

static void kdf_free(void *vctx)
{
    kdf_ctx *c = vctx;
    if (c == NULL)
        return;
    kdf_clear(c);
    cpp_eng_free(&c->eng);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

static void kdf_reset(void *vctx)
{
    kdf_ctx *c = vctx;
    kdf_clear(c);
    cpp_prov *p = c->eng.prov;
    cpp_eng_free(&c->eng);
    cpp_eng_init(&c->eng, p);
    c->iter = 2048;
    c->digest[0] = '\0';
    c->pkcs5_set = 0;
}

static int dup_bytes(uint8_t **dst, size_t *dlen, const uint8_t *src, size_t len)
{
    *dst = OPENSSL_malloc(len ? len : 1);
    if (*dst == NULL)
        return 0;
    if (len > 0)
        memcpy(*dst, src, len);
    *dlen = len;
    return 1;
}

static void *kdf_dup(void *vctx)
{
    const kdf_ctx *s = vctx;
    kdf_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    cpp_eng_dup(&c->eng, &s->eng);
    c->iter = s->iter;
    memcpy(c->digest, s->digest, sizeof c->digest);
    c->pkcs5 = s->pkcs5;
    c->pkcs5_set = s->pkcs5_set;
    if ((s->pass != NULL && !dup_bytes(&c->pass, &c->passlen, s->pass, s->passlen)) ||
        (s->salt != NULL && !dup_bytes(&c->salt, &c->saltlen, s->salt, s->saltlen))) {
        kdf_free(c);
        return NULL;
    }
    return c;
}

static int set_octets(kdf_ctx *c, const OSSL_PARAM *q, uint8_t **dst, size_t *dlen,
                      const char *what)
{
    if (q->data_type != OSSL_PARAM_OCTET_STRING || (q->data == NULL && q->data_size != 0))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "%s", what);
    uint8_t *n;
    size_t nlen;
    if (!dup_bytes(&n, &nlen, q->data, q->data_size))
        return 0;
    if (*dst != NULL)
        OPENSSL_clear_free(*dst, *dlen);
    *dst = n;
    *dlen = nlen;
    return 1;
}

static int kdf_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    kdf_ctx *c = vctx;
    const OSSL_PARAM *q;
    if (params == NULL)
        return 1;
    if ((q = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_DIGEST)) != NULL) {
        const char *name = NULL;
        if (!OSSL_PARAM_get_utf8_string_ptr(q, &name))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "digest");
        EVP_MD *md = NULL;
        if (strlen(name) >= sizeof c->digest ||
            (!cpp_is_sha256(name) &&
             (md = EVP_MD_fetch(c->eng.prov->child, name, CPP_OTHERS)) == NULL))
            return cpp_err(c->eng.prov, CPP_R_UNSUPPORTED_DIGEST, "%.40s", name);
        EVP_MD_free(md);
        snprintf(c->digest, sizeof c->digest, "%s", name);
    }
    if ((q = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_PASSWORD)) != NULL &&
        !set_octets(c, q, &c->pass, &c->passlen, "pass"))
        return 0;
    if ((q = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_SALT)) != NULL &&
        !set_octets(c, q, &c->salt, &c->saltlen, "salt"))
        return 0;
    if ((q = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_ITER)) != NULL) {
        uint64_t v;
        if (!OSSL_PARAM_get_uint64(q, &v))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "iter");
        if (v < 1 || v > UINT32_MAX)
            return cpp_err(c->eng.prov, CPP_R_INVALID_ITERATION_COUNT, NULL);
        c->iter = v;
    }
    if ((q = OSSL_PARAM_locate_const(params, OSSL_KDF_PARAM_PKCS5)) != NULL) {
        int v;
        if (!OSSL_PARAM_get_int(q, &v))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "pkcs5");
        c->pkcs5 = v;
        c->pkcs5_set = 1;
    }
    return cpp_eng_set_params(&c->eng, params);
}

/* A digest other than SHA-256: OpenSSL's PBKDF2 of the other providers. */
static int kdf_pass_through(kdf_ctx *c, unsigned char *key, size_t keylen)
{
    EVP_KDF *kdf = EVP_KDF_fetch(c->eng.prov->child, "PBKDF2", CPP_OTHERS);
    EVP_KDF_CTX *k = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
    EVP_KDF_free(kdf);
    if (k == NULL)
        return cpp_err(c->eng.prov, CPP_R_UNSUPPORTED_DIGEST, "no other PBKDF2 for %s",
                       c->digest[0] ? c->digest : "SHA-1");
    OSSL_PARAM prm[6], *q = prm;
    if (c->digest[0] != '\0')
        *q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, c->digest, 0);
    *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, c->pass, c->passlen);
    *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, c->salt, c->saltlen);
    *q++ = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &c->iter);
    if (c->pkcs5_set)
        *q++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_PKCS5, &c->pkcs5);
    *q = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(k, key, keylen, prm);
    EVP_KDF_CTX_free(k); /* it wipes its copies of the password */
    return ok;
}

static int kdf_derive(void *vctx, unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
    kdf_ctx *c = vctx;
    if (!kdf_set_ctx_params(c, params))
        return 0;
    if (c->pass == NULL)
        return cpp_err(c->eng.prov, CPP_R_MISSING_PASS, NULL);
    if (c->salt == NULL)
        return cpp_err(c->eng.prov, CPP_R_MISSING_SALT, NULL);
    if (!cpp_is_sha256(c->digest))
        return kdf_pass_through(c, key, keylen);
    if (keylen > (size_t)UINT32_MAX * 32)
        return cpp_err(c->eng.prov, CPP_R_INVALID_DATA_LENGTH, "output too long");
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, keylen, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = cpim_pbkdf2_sha256(x, c->pass, c->passlen, c->salt, c->saltlen, (uint32_t)c->iter,
                                     key, keylen);
    cpp_eng_release(&c->eng, x, pim, CPP_OP_KDF, 0, rc == CPIM_OK);
    if (rc != CPIM_OK) {
        OPENSSL_cleanse(key, keylen);
        return cpp_err_lib(c->eng.prov, rc);
    }
    return 1;
}

static const OSSL_PARAM kdf_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_KDF_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_KDF_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_KDF_PARAM_PASSWORD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_KDF_PARAM_SALT, NULL, 0),
    OSSL_PARAM_uint64(OSSL_KDF_PARAM_ITER, NULL),
    OSSL_PARAM_int(OSSL_KDF_PARAM_PKCS5, NULL),
    CPP_ENG_SETTABLE,
    OSSL_PARAM_END};
static const OSSL_PARAM kdf_gettable[] = {OSSL_PARAM_size_t(OSSL_KDF_PARAM_SIZE, NULL),
                                          CPP_ENG_GETTABLE, OSSL_PARAM_END};

static const OSSL_PARAM *kdf_settable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return kdf_settable;
}

static const OSSL_PARAM *kdf_gettable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return kdf_gettable;
}

static int kdf_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    kdf_ctx *c = vctx;
    OSSL_PARAM *q;
    if ((q = OSSL_PARAM_locate(params, OSSL_KDF_PARAM_SIZE)) != NULL &&
        !OSSL_PARAM_set_size_t(q, SIZE_MAX))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "size");
    return cpp_eng_get_params(&c->eng, params);
}

const OSSL_DISPATCH cpp_pbkdf2_functions[] = {
    CPP_FN(OSSL_FUNC_KDF_NEWCTX, kdf_new),
    CPP_FN(OSSL_FUNC_KDF_DUPCTX, kdf_dup),
    CPP_FN(OSSL_FUNC_KDF_FREECTX, kdf_free),
    CPP_FN(OSSL_FUNC_KDF_RESET, kdf_reset),
    CPP_FN(OSSL_FUNC_KDF_DERIVE, kdf_derive),
    CPP_FN(OSSL_FUNC_KDF_SETTABLE_CTX_PARAMS, kdf_settable_ctx),
    CPP_FN(OSSL_FUNC_KDF_SET_CTX_PARAMS, kdf_set_ctx_params),
    CPP_FN(OSSL_FUNC_KDF_GETTABLE_CTX_PARAMS, kdf_gettable_ctx),
    CPP_FN(OSSL_FUNC_KDF_GET_CTX_PARAMS, kdf_get_ctx_params),
    {0, NULL}};
