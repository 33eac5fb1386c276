/*
 * sha256.c -- SHA2-256 for the provider (EVP_MD): streaming with any split
 * on cpim_sha256_init / update / final, one-shot EVP_Digest, dup.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>

#include "prov.h"

typedef struct sha_ctx {
    cpp_eng eng;
    cpim_sha256_state st;
    int ready;
} sha_ctx;

static void *sha_new(void *provctx)
{
    sha_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    cpp_eng_init(&c->eng, provctx);
    c->eng.keyless = 1;
    return c;
}

static void sha_free(void *vctx)
{
    sha_ctx *c = vctx;
    if (c == NULL)
        return;
    cpp_eng_free(&c->eng);
    OPENSSL_cleanse(&c->st, sizeof c->st); /* message bytes; the rest holds none */
    free(c);
}

static void *sha_dup(void *vctx)
{
    const sha_ctx *s = vctx;
    sha_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    cpp_eng_dup(&c->eng, &s->eng);
    return c;
}

static int sha_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int sha_init(void *vctx, const OSSL_PARAM params[])
{
    sha_ctx *c = vctx;
    if (!sha_set_ctx_params(c, params))
        return 0;
    (void)cpim_sha256_init(&c->st);
    c->ready = 1;
    return 1;
}

static int sha_update(void *vctx, const unsigned char *in, size_t inl)
{
    sha_ctx *c = vctx;
    if (!c->ready)
        return cpp_err(c->eng.prov, CPP_R_NOT_INITIALISED, NULL);
    if (inl == 0)
        return 1;
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, inl, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = cpim_sha256_update(x, &c->st, in, inl);
    cpp_eng_release(&c->eng, x, pim, CPP_OP_DIGEST, 0, rc == CPIM_OK);
    return rc == CPIM_OK ? 1 : cpp_err_lib(c->eng.prov, rc);
}

static int sha_final(void *vctx, unsigned char *out, size_t *outl, size_t outsz)
{
    sha_ctx *c = vctx;
    if (!c->ready)
        return cpp_err(c->eng.prov, CPP_R_NOT_INITIALISED, NULL);
    if (outsz < 32)
        return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, 0, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = cpim_sha256_final(x, &c->st, out);
    cpp_eng_release(&c->eng, x, pim, CPP_OP_DIGEST, 0, rc == CPIM_OK);
    c->ready = 0;
    if (rc != CPIM_OK)
        return cpp_err_lib(c->eng.prov, rc);
    *outl = 32;
    return 1;
}

static int sha_digest(void *provctx, const unsigned char *in, size_t inl, unsigned char *out,
                      size_t *outl, size_t outsz)
{
    sha_ctx c;
    memset(&c, 0, sizeof c);
    cpp_eng_init(&c.eng, provctx);
    c.eng.keyless = 1;
    int ok = sha_init(&c, NULL) && sha_update(&c, in, inl) && sha_final(&c, out, outl, outsz);
    cpp_eng_free(&c.eng);
    OPENSSL_cleanse(&c.st, sizeof c.st);
    return ok;
}

static int sha_get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *q;
    if ((q = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != NULL &&
        !OSSL_PARAM_set_size_t(q, 64))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_SIZE)) != NULL &&
        !OSSL_PARAM_set_size_t(q, 32))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_XOF)) != NULL && !OSSL_PARAM_set_int(q, 0))
        return 0;
    if ((q = OSSL_PARAM_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) != NULL &&
        !OSSL_PARAM_set_int(q, 1))
        return 0;
    return 1;
}

static const OSSL_PARAM sha_params[] = {
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, NULL), OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, NULL),
    OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, NULL), OSSL_PARAM_END};
static const OSSL_PARAM sha_gettable[] = {CPP_ENG_GETTABLE, OSSL_PARAM_END};
static const OSSL_PARAM sha_settable[] = {CPP_ENG_SETTABLE, OSSL_PARAM_END};

static const OSSL_PARAM *sha_gettable_params(void *provctx)
{
    (void)provctx;
    return sha_params;
}

static const OSSL_PARAM *sha_gettable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return sha_gettable;
}

static const OSSL_PARAM *sha_settable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return sha_settable;
}

static int sha_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    return cpp_eng_get_params(&((sha_ctx *)vctx)->eng, params);
}

static int sha_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    if (params == NULL)
        return 1;
    return cpp_eng_set_params(&((sha_ctx *)vctx)->eng, params);
}

const OSSL_DISPATCH cpp_sha256_functions[] = {
    CPP_FN(OSSL_FUNC_DIGEST_NEWCTX, sha_new),
    CPP_FN(OSSL_FUNC_DIGEST_FREECTX, sha_free),
    CPP_FN(OSSL_FUNC_DIGEST_DUPCTX, sha_dup),
    CPP_FN(OSSL_FUNC_DIGEST_INIT, sha_init),
    CPP_FN(OSSL_FUNC_DIGEST_UPDATE, sha_update),
    CPP_FN(OSSL_FUNC_DIGEST_FINAL, sha_final),
    CPP_FN(OSSL_FUNC_DIGEST_DIGEST, sha_digest),
    CPP_FN(OSSL_FUNC_DIGEST_GET_PARAMS, sha_get_params),
    CPP_FN(OSSL_FUNC_DIGEST_GETTABLE_PARAMS, sha_gettable_params),
    CPP_FN(OSSL_FUNC_DIGEST_GET_CTX_PARAMS, sha_get_ctx_params),
    CPP_FN(OSSL_FUNC_DIGEST_SET_CTX_PARAMS, sha_set_ctx_params),
    CPP_FN(OSSL_FUNC_DIGEST_GETTABLE_CTX_PARAMS, sha_gettable_ctx),
    CPP_FN(OSSL_FUNC_DIGEST_SETTABLE_CTX_PARAMS, sha_settable_ctx),
    {0, NULL}};
