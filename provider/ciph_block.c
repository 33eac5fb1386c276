/*
 * ciph_block.c -- AES-128/192/256 in ECB and CTR mode for the provider, with
 * the buffering, padding and `num` semantics of OpenSSL's default provider
 * (its generic block and stream ciphers), on cpim_aes_ecb / cpim_aes_ctr.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>

#include "prov.h"

#define BLK 16

typedef struct blk_ctx {
    cpp_eng eng;
    unsigned mode; /* EVP_CIPH_ECB_MODE or EVP_CIPH_CTR_MODE */
    size_t keylen;
    uint8_t key[32];
    int key_set, enc, pad, iv_set;
    uint8_t ctr[BLK]; /* CTR: counter block of the next fresh keystream block */
    uint8_t oiv[BLK]; /* CTR: the IV as set */
    uint8_t ks[BLK];  /* CTR: keystream of the block in use */
    unsigned num;     /* CTR: bytes of ks used (0..15) */
    uint8_t buf[BLK]; /* ECB: the partial (or held back) block */
    size_t bufsz;
} blk_ctx;

static void *blk_new(void *provctx, unsigned mode, size_t keylen)
{
    blk_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    cpp_eng_init(&c->eng, provctx);
    c->mode = mode;
    c->keylen = keylen;
    c->pad = 1;
    return c;
}

static void blk_free(void *vctx)
{
    blk_ctx *c = vctx;
    if (c == NULL)
        return;
    cpp_eng_free(&c->eng);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

static void *blk_dup(void *vctx)
{
    const blk_ctx *src = vctx;
    blk_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *src;
    cpp_eng_dup(&c->eng, &src->eng);
    return c;
}

/* ECB of whole blocks, or the CTR stream of whole blocks from c->ctr (which
 * advances), on the engine's backend. */
static int blk_run(blk_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
    if (len == 0)
        return 1;
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, len, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = CPIM_OK;
    if (pim || !c->eng.cpu_keyed) {
        rc = cpim_aes_set_key(x, c->key, c->keylen);
        if (rc == CPIM_OK && !pim)
            c->eng.cpu_keyed = 1;
    }
    if (rc == CPIM_OK) {
        if (c->mode == EVP_CIPH_ECB_MODE)
            rc = cpim_aes_ecb(x, c->enc ? CPIM_ENCRYPT : CPIM_DECRYPT, in, out, len);
        else
            rc = cpim_aes_ctr(x, c->ctr, in, out, len);
    }
    cpp_eng_release(&c->eng, x, pim, CPP_OP_CIPHER, 1, rc == CPIM_OK);
    if (rc != CPIM_OK) {
        OPENSSL_cleanse(out, len); /* never wrong data */
        return cpp_err_lib(c->eng.prov, rc);
    }
    return 1;
}

static int blk_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[], int enc);
static int blk_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int blk_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return blk_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int blk_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return blk_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int blk_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[], int enc)
{
    blk_ctx *c = vctx;
    c->enc = enc;
    c->num = 0;
    c->bufsz = 0;
    OPENSSL_cleanse(c->buf, sizeof c->buf);
    OPENSSL_cleanse(c->ks, sizeof c->ks);
    if (iv != NULL && c->mode == EVP_CIPH_CTR_MODE) {
        if (ivlen != BLK)
            return cpp_err(c->eng.prov, CPP_R_INVALID_IV_LENGTH, NULL);
        memcpy(c->ctr, iv, BLK);
        memcpy(c->oiv, iv, BLK);
        c->iv_set = 1;
    }
    if (key != NULL) {
        if (keylen != c->keylen)
            return cpp_err(c->eng.prov, CPP_R_INVALID_KEY_LENGTH, NULL);
        OPENSSL_cleanse(c->key, sizeof c->key); /* the old key */
        memcpy(c->key, key, keylen);
        c->key_set = 1;
        c->eng.cpu_keyed = 0;
    }
    return blk_set_ctx_params(c, params);
}

/* CTR over any length from the current keystream position. */
static int ctr_stream(blk_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
    while (len > 0 && c->num != 0) {
        *out++ = *in++ ^ c->ks[c->num];
        c->num = (c->num + 1) % BLK;
        len--;
    }
    size_t whole = len & ~(size_t)(BLK - 1);
    if (!blk_run(c, in, out, whole))
        return 0;
    in += whole;
    out += whole;
    len -= whole;
    if (len > 0) {
        /* the keystream block of the tail, kept for the next call */
        static const uint8_t zero[BLK];
        if (!blk_run(c, zero, c->ks, BLK))
            return 0;
        for (size_t i = 0; i < len; i++)
            out[i] = in[i] ^ c->ks[i];
        c->num = (unsigned)len;
    }
    return 1;
}

static int blk_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    blk_ctx *c = vctx;
    *outl = 0;
    if (inl == 0)
        return 1;
    if (!c->key_set)
        return cpp_err(c->eng.prov, CPP_R_NO_KEY_SET, NULL);
    if (c->mode == EVP_CIPH_CTR_MODE) {
        if (!c->iv_set)
            return cpp_err(c->eng.prov, CPP_R_IV_NOT_SET, NULL);
        if (outsize < inl)
            return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
        if (!ctr_stream(c, in, out, inl))
            return 0;
        *outl = inl;
        return 1;
    }
    /* ECB: OpenSSL's block buffering; decrypting with padding holds the last
     * whole block back, since it may be the padded one */
    size_t next, done = 0;
    if (c->bufsz != 0) {
        size_t take = BLK - c->bufsz < inl ? BLK - c->bufsz : inl;
        memcpy(c->buf + c->bufsz, in, take);
        c->bufsz += take;
        in += take;
        inl -= take;
    }
    next = inl & ~(size_t)(BLK - 1);
    if (c->bufsz == BLK && (c->enc || inl > 0 || !c->pad)) {
        if (outsize < BLK)
            return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
        if (!blk_run(c, c->buf, out, BLK))
            return 0;
        c->bufsz = 0;
        done = BLK;
        out += BLK;
    }
    if (next > 0 && !c->enc && c->pad && next == inl)
        next -= BLK;
    if (done + next > outsize)
        return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
    if (next > 0) {
        if (!blk_run(c, in, out, next))
            return 0;
        in += next;
        inl -= next;
        done += next;
    }
    if (inl > 0) {
        if (inl > BLK - c->bufsz)
            return cpp_err(c->eng.prov, CPP_R_WRONG_FINAL_BLOCK_LENGTH, NULL);
        memcpy(c->buf + c->bufsz, in, inl);
        c->bufsz += inl;
    }
    *outl = done;
    return 1;
}

static int blk_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    blk_ctx *c = vctx;
    *outl = 0;
    if (!c->key_set)
        return cpp_err(c->eng.prov, CPP_R_NO_KEY_SET, NULL);
    if (c->mode == EVP_CIPH_CTR_MODE)
        return 1;
    if (c->enc) {
        if (c->pad) {
            uint8_t n = (uint8_t)(BLK - c->bufsz);
            memset(c->buf + c->bufsz, n, n);
            c->bufsz = BLK;
        } else if (c->bufsz == 0) {
            return 1;
        } else if (c->bufsz != BLK) {
            return cpp_err(c->eng.prov, CPP_R_WRONG_FINAL_BLOCK_LENGTH, NULL);
        }
        if (outsize < BLK)
            return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
        if (!blk_run(c, c->buf, out, BLK))
            return 0;
        c->bufsz = 0;
        OPENSSL_cleanse(c->buf, sizeof c->buf);
        *outl = BLK;
        return 1;
    }
    if (c->bufsz != BLK) {
        if (c->bufsz == 0 && !c->pad)
            return 1;
        return cpp_err(c->eng.prov, CPP_R_WRONG_FINAL_BLOCK_LENGTH, NULL);
    }
    if (!blk_run(c, c->buf, c->buf, BLK))
        return 0;
    size_t n = BLK;
    if (c->pad) {
        uint8_t pad = c->buf[BLK - 1];
        int bad = pad == 0 || pad > BLK;
        for (size_t i = 0; !bad && i < pad; i++)
            bad = c->buf[BLK - 1 - i] != pad;
        if (bad) {
            OPENSSL_cleanse(c->buf, sizeof c->buf);
            c->bufsz = 0;
            return cpp_err(c->eng.prov, CPP_R_BAD_DECRYPT, NULL);
        }
        n = BLK - pad;
    }
    if (outsize < n)
        return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
    memcpy(out, c->buf, n);
    OPENSSL_cleanse(c->buf, sizeof c->buf);
    c->bufsz = 0;
    *outl = n;
    return 1;
}

/* EVP_Cipher(): the raw mode on the given bytes (ECB: whole blocks). */
static int blk_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    blk_ctx *c = vctx;
    if (!c->key_set)
        return cpp_err(c->eng.prov, CPP_R_NO_KEY_SET, NULL);
    if (outsize < inl)
        return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
    if (c->mode == EVP_CIPH_CTR_MODE) {
        if (!c->iv_set)
            return cpp_err(c->eng.prov, CPP_R_IV_NOT_SET, NULL);
        if (!ctr_stream(c, in, out, inl))
            return 0;
    } else {
        if (inl % BLK != 0)
            return cpp_err(c->eng.prov, CPP_R_WRONG_FINAL_BLOCK_LENGTH, NULL);
        if (!blk_run(c, in, out, inl))
            return 0;
    }
    *outl = inl;
    return 1;
}

static const OSSL_PARAM blk_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    CPP_ENG_GETTABLE,
    OSSL_PARAM_END};
static const OSSL_PARAM blk_settable[] = {OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
                                          OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
                                          CPP_ENG_SETTABLE, OSSL_PARAM_END};

static const OSSL_PARAM *blk_gettable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return blk_gettable;
}

static const OSSL_PARAM *blk_settable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return blk_settable;
}

/* The params blk_get_ctx_params answers and blk_set_ctx_params takes, found
 * in one pass (cpp_params_find): EVP reads and sets them on every
 * EVP_CipherInit_ex, and a lookup per name was a measurable part of a
 * short message. */
enum { B_KEYLEN, B_IVLEN, B_PADDING, B_NUM, B_IV, B_UPDATED_IV, B_N };
static const char *const blk_names[B_N] = {OSSL_CIPHER_PARAM_KEYLEN,  OSSL_CIPHER_PARAM_IVLEN,
                                           OSSL_CIPHER_PARAM_PADDING, OSSL_CIPHER_PARAM_NUM,
                                           OSSL_CIPHER_PARAM_IV,      OSSL_CIPHER_PARAM_UPDATED_IV};

static int blk_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    blk_ctx *c = vctx;
    const OSSL_PARAM *f[B_N];
    cpp_params_find(params, blk_names, B_N, f);
    OSSL_PARAM *q; /* found in the caller's (writable) params */
    size_t ivlen = c->mode == EVP_CIPH_CTR_MODE ? BLK : 0;
    if ((q = (OSSL_PARAM *)f[B_KEYLEN]) != NULL && !OSSL_PARAM_set_size_t(q, c->keylen))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "keylen");
    if ((q = (OSSL_PARAM *)f[B_IVLEN]) != NULL && !OSSL_PARAM_set_size_t(q, ivlen))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "ivlen");
    if ((q = (OSSL_PARAM *)f[B_PADDING]) != NULL && !OSSL_PARAM_set_uint(q, (unsigned)c->pad))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "padding");
    if ((q = (OSSL_PARAM *)f[B_NUM]) != NULL && !OSSL_PARAM_set_uint(q, c->num))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "num");
    if ((q = (OSSL_PARAM *)f[B_IV]) != NULL && ivlen > 0 &&
        !OSSL_PARAM_set_octet_string(q, c->oiv, ivlen))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "iv");
    if ((q = (OSSL_PARAM *)f[B_UPDATED_IV]) != NULL && ivlen > 0 &&
        !OSSL_PARAM_set_octet_string(q, c->ctr, ivlen))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "updated-iv");
    return cpp_eng_get_params(&c->eng, params);
}

static int blk_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    blk_ctx *c = vctx;
    const OSSL_PARAM *q, *f[B_N];
    if (params == NULL)
        return 1;
    cpp_params_find(params, blk_names, B_N, f);
    if ((q = f[B_PADDING]) != NULL) {
        unsigned v;
        if (!OSSL_PARAM_get_uint(q, &v))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "padding");
        c->pad = v ? 1 : 0;
    }
    if ((q = f[B_NUM]) != NULL) {
        unsigned v;
        if (!OSSL_PARAM_get_uint(q, &v) || v >= BLK)
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "num");
        c->num = v;
    }
    return cpp_eng_set_params(&c->eng, params);
}

#define BLK_ALG(name, mode, kbits, blkbytes, ivbytes)                                              \
    static void *name##_new(void *provctx)                                                         \
    {                                                                                              \
        return blk_new(provctx, mode, (kbits) / 8);                                                \
    }                                                                                              \
    static int name##_get_params(OSSL_PARAM params[])                                              \
    {                                                                                              \
        return cpp_cipher_get_params(params, mode, (kbits) / 8, blkbytes, ivbytes, 0, 0, 0);       \
    }                                                                                              \
    CPP_CIPHER_DISPATCH(name, blk);

BLK_ALG(aes128ecb, EVP_CIPH_ECB_MODE, 128, BLK, 0)
BLK_ALG(aes192ecb, EVP_CIPH_ECB_MODE, 192, BLK, 0)
BLK_ALG(aes256ecb, EVP_CIPH_ECB_MODE, 256, BLK, 0)
BLK_ALG(aes128ctr, EVP_CIPH_CTR_MODE, 128, 1, BLK)
BLK_ALG(aes192ctr, EVP_CIPH_CTR_MODE, 192, 1, BLK)
BLK_ALG(aes256ctr, EVP_CIPH_CTR_MODE, 256, 1, BLK)
