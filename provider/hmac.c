/*
 * hmac.c -- HMAC (EVP_MAC "HMAC", digest SHA2-256 only) for the provider:
 * RFC 2104 on the streaming SHA-256 of cryptopim.h, so that a message may
 * arrive in any number of updates.  The key block (K0, the key padded or
 * hashed to 64 bytes) is kept for reinit with a NULL key, as OpenSSL does,
 * and wiped on free, on a new key and after final's outer hash.
 *
 * Any other digest (TLS 1.3's HMAC-SHA384, say) is passed through: the
 * context then drives OpenSSL's HMAC from the other providers (prov.h,
 * `child`), so that preferring this provider never breaks an application.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>

#include "prov.h"

#define HBLK 64

typedef struct hmac_ctx {
    cpp_eng eng;
    int digest_set, key_set, ready; /* digest_set: SHA-256 here */
    EVP_MAC_CTX *other;             /* another digest: the pass-through */
    uint8_t k0[HBLK];
    cpim_sha256_state inner;
} hmac_ctx;

static void *hmac_new(void *provctx)
{
    hmac_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    cpp_eng_init(&c->eng, provctx);
    return c;
}

static void hmac_free(void *vctx)
{
    hmac_ctx *c = vctx;
    if (c == NULL)
        return;
    EVP_MAC_CTX_free(c->other);
    cpp_eng_free(&c->eng);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

static void *hmac_dup(void *vctx)
{
    const hmac_ctx *s = vctx;
    hmac_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    cpp_eng_dup(&c->eng, &s->eng);
    if (s->other != NULL && (c->other = EVP_MAC_CTX_dup(s->other)) == NULL) {
        OPENSSL_cleanse(c, sizeof *c);
        free(c);
        return NULL;
    }
    return c;
}

/* SHA-256 of parts on the engine (the key hash, the outer hash). */
static cpim_err hmac_hash(hmac_ctx *c, cpim_ctx *x, cpim_sha256_state *s, const uint8_t *a,
                          size_t alen, const uint8_t *b, size_t blen, uint8_t out[32])
{
    cpim_err rc = cpim_sha256_init(s);
    if (rc == CPIM_OK)
        rc = cpim_sha256_update(x, s, a, alen);
    if (rc == CPIM_OK)
        rc = cpim_sha256_update(x, s, b, blen);
    if (rc == CPIM_OK)
        rc = cpim_sha256_final(x, s, out);
    (void)c;
    return rc;
}

static int hmac_setkey(hmac_ctx *c, const uint8_t *key, size_t keylen)
{
    OPENSSL_cleanse(c->k0, sizeof c->k0);
    if (keylen > HBLK) {
        int pim;
        cpim_ctx *x = cpp_eng_acquire(&c->eng, keylen, &pim);
        if (x == NULL)
            return 0;
        cpim_sha256_state s;
        cpim_err rc = hmac_hash(c, x, &s, key, keylen, NULL, 0, c->k0);
        OPENSSL_cleanse(&s, sizeof s);
        cpp_eng_release(&c->eng, x, pim, -1, 0, rc == CPIM_OK);
        if (rc != CPIM_OK)
            return cpp_err_lib(c->eng.prov, rc);
    } else if (keylen > 0) {
        memcpy(c->k0, key, keylen);
    }
    c->key_set = 1;
    return 1;
}

/* inner = SHA-256 started with K0 ^ ipad */
static int hmac_start(hmac_ctx *c)
{
    uint8_t pad[HBLK];
    for (int i = 0; i < HBLK; i++)
        pad[i] = c->k0[i] ^ 0x36;
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, HBLK, &pim);
    cpim_err rc = CPIM_ERR_INVALID_ARG;
    if (x != NULL) {
        rc = cpim_sha256_init(&c->inner);
        if (rc == CPIM_OK)
            rc = cpim_sha256_update(x, &c->inner, pad, HBLK);
        cpp_eng_release(&c->eng, x, pim, -1, 0, rc == CPIM_OK);
    }
    OPENSSL_cleanse(pad, sizeof pad);
    if (x == NULL)
        return 0;
    if (rc != CPIM_OK)
        return cpp_err_lib(c->eng.prov, rc);
    c->ready = 1;
    return 1;
}

static int hmac_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int hmac_init(void *vctx, const unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
    hmac_ctx *c = vctx;
    c->ready = 0;
    if (!hmac_set_ctx_params(c, params))
        return 0;
    if (c->other != NULL)
        return EVP_MAC_init(c->other, key, keylen, NULL);
    if (!c->digest_set)
        return cpp_err(c->eng.prov, CPP_R_UNSUPPORTED_DIGEST, "no digest set");
    if (key != NULL && !hmac_setkey(c, key, keylen))
        return 0;
    if (!c->key_set)
        return cpp_err(c->eng.prov, CPP_R_NO_KEY_SET, NULL);
    return hmac_start(c);
}

static int hmac_update(void *vctx, const unsigned char *in, size_t inl)
{
    hmac_ctx *c = vctx;
    if (c->other != NULL)
        return EVP_MAC_update(c->other, in, inl);
    if (!c->ready)
        return cpp_err(c->eng.prov, CPP_R_NOT_INITIALISED, NULL);
    if (inl == 0)
        return 1;
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, inl, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = cpim_sha256_update(x, &c->inner, in, inl);
    cpp_eng_release(&c->eng, x, pim, CPP_OP_MAC, 0, rc == CPIM_OK);
    return rc == CPIM_OK ? 1 : cpp_err_lib(c->eng.prov, rc);
}

static int hmac_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    hmac_ctx *c = vctx;
    if (c->other != NULL)
        return EVP_MAC_final(c->other, out, outl, outsize);
    if (!c->ready)
        return cpp_err(c->eng.prov, CPP_R_NOT_INITIALISED, NULL);
    if (outsize < 32)
        return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, 0, &pim);
    if (x == NULL)
        return 0;
    uint8_t ih[32], pad[HBLK];
    cpim_sha256_state s;
    cpim_err rc = cpim_sha256_final(x, &c->inner, ih);
    for (int i = 0; i < HBLK; i++)
        pad[i] = c->k0[i] ^ 0x5c;
    if (rc == CPIM_OK)
        rc = hmac_hash(c, x, &s, pad, HBLK, ih, sizeof ih, out);
    cpp_eng_release(&c->eng, x, pim, CPP_OP_MAC, 0, rc == CPIM_OK);
    OPENSSL_cleanse(ih, sizeof ih);
    OPENSSL_cleanse(pad, sizeof pad);
    OPENSSL_cleanse(&s, sizeof s);
    c->ready = 0;
    if (rc != CPIM_OK) {
        OPENSSL_cleanse(out, 32);
        return cpp_err_lib(c->eng.prov, rc);
    }
    *outl = 32;
    return 1;
}

static const OSSL_PARAM hmac_gettable[] = {OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
                                           OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL),
                                           CPP_ENG_GETTABLE, OSSL_PARAM_END};
static const OSSL_PARAM hmac_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_DIGEST, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0), CPP_ENG_SETTABLE, OSSL_PARAM_END};

static const OSSL_PARAM *hmac_gettable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return hmac_gettable;
}

static const OSSL_PARAM *hmac_settable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return hmac_settable;
}

static int hmac_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    hmac_ctx *c = vctx;
    OSSL_PARAM *q;
    if (c->other != NULL)
        return EVP_MAC_CTX_get_params(c->other, params);
    if ((q = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE)) != NULL &&
        !OSSL_PARAM_set_size_t(q, 32))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "size");
    if ((q = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE)) != NULL &&
        !OSSL_PARAM_set_size_t(q, HBLK))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "block-size");
    return cpp_eng_get_params(&c->eng, params);
}

static int hmac_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    hmac_ctx *c = vctx;
    const OSSL_PARAM *q;
    if (params == NULL)
        return 1;
    if ((q = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_DIGEST)) != NULL) {
        const char *name = NULL;
        if (!OSSL_PARAM_get_utf8_string_ptr(q, &name))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "digest");
        EVP_MAC_CTX_free(c->other);
        c->other = NULL;
        c->digest_set = 0;
        if (cpp_is_sha256(name)) {
            c->digest_set = 1;
        } else {
            EVP_MAC *mac = EVP_MAC_fetch(c->eng.prov->child, "HMAC", CPP_OTHERS);
            c->other = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
            EVP_MAC_free(mac);
            if (c->other == NULL)
                return cpp_err(c->eng.prov, CPP_R_UNSUPPORTED_DIGEST, "%.40s", name);
        }
    }
    if (c->other != NULL) {
        /* the key is the pass-through's from now on: none is kept here */
        OPENSSL_cleanse(c->k0, sizeof c->k0);
        c->key_set = 0;
        return EVP_MAC_CTX_set_params(c->other, params);
    }
    if (!cpp_eng_set_params(&c->eng, params))
        return 0;
    if ((q = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY)) != NULL) {
        if (q->data_type != OSSL_PARAM_OCTET_STRING || (q->data == NULL && q->data_size != 0))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "key");
        if (!hmac_setkey(c, q->data, q->data_size))
            return 0;
        if (c->digest_set && !hmac_start(c))
            return 0;
    }
    return 1;
}

const OSSL_DISPATCH cpp_hmac_functions[] = {
    CPP_FN(OSSL_FUNC_MAC_NEWCTX, hmac_new),
    CPP_FN(OSSL_FUNC_MAC_FREECTX, hmac_free),
    CPP_FN(OSSL_FUNC_MAC_DUPCTX, hmac_dup),
    CPP_FN(OSSL_FUNC_MAC_INIT, hmac_init),
    CPP_FN(OSSL_FUNC_MAC_UPDATE, hmac_update),
    CPP_FN(OSSL_FUNC_MAC_FINAL, hmac_final),
    CPP_FN(OSSL_FUNC_MAC_GET_CTX_PARAMS, hmac_get_ctx_params),
    CPP_FN(OSSL_FUNC_MAC_SET_CTX_PARAMS, hmac_set_ctx_params),
    CPP_FN(OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, hmac_gettable_ctx),
    CPP_FN(OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, hmac_settable_ctx),
    {0, NULL}};
