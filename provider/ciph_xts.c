/*
 * ciph_xts.c -- AES-128/256-XTS for the provider: each update is one data
 * unit whose tweak is the 16-byte IV, as OpenSSL's XTS (IEEE 1619 with
 * ciphertext stealing; 16 bytes to 16 MiB per unit).
 *
 * An IV whose high 8 bytes are zero is dm-crypt's plain64 tweak: that unit
 * goes to cpim_aes_xts whole.  Any other IV (cpim_aes_xts takes 64-bit unit
 * numbers only), and a decryption with equal key halves (which OpenSSL
 * allows, while cpim_xts_set_key refuses such keys), run XTS here on the
 * backend's ECB: the tweak E_K2(IV), its multiples by x in GF(2^128), and
 * one ECB pass with K1 over the whitened blocks.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdlib.h>
#include <string.h>

#include "prov.h"

#define BLK     16
#define XTS_MAX ((size_t)BLK << 20) /* IEEE 1619: 2^20 blocks per data unit */

typedef struct xts_ctx {
    cpp_eng eng;
    size_t keylen; /* 32 or 64: both halves */
    uint8_t key[64];
    int key_set, enc, iv_set, dup_keys;
    uint8_t iv[BLK];
} xts_ctx;

static void *xts_new(void *provctx, size_t keylen)
{
    xts_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    cpp_eng_init(&c->eng, provctx);
    c->keylen = keylen;
    return c;
}

static void xts_free(void *vctx)
{
    xts_ctx *c = vctx;
    if (c == NULL)
        return;
    cpp_eng_free(&c->eng);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

static void *xts_dup(void *vctx)
{
    const xts_ctx *s = vctx;
    xts_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    cpp_eng_dup(&c->eng, &s->eng);
    return c;
}

static int xts_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int xts_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[], int enc)
{
    xts_ctx *c = vctx;
    c->enc = enc;
    if (iv != NULL) {
        if (ivlen != BLK)
            return cpp_err(c->eng.prov, CPP_R_INVALID_IV_LENGTH, NULL);
        memcpy(c->iv, iv, BLK);
        c->iv_set = 1;
    }
    if (key != NULL) {
        if (keylen != c->keylen)
            return cpp_err(c->eng.prov, CPP_R_INVALID_KEY_LENGTH, NULL);
        size_t half = keylen / 2;
        int dup = CRYPTO_memcmp(key, key + half, half) == 0;
        /* OpenSSL's default provider refuses equal halves for encryption
         * only (SP 800-38E leaves the check to the implementation) */
        if (dup && enc)
            return cpp_err(c->eng.prov, CPP_R_XTS_DUPLICATED_KEYS, NULL);
        OPENSSL_cleanse(c->key, sizeof c->key);
        memcpy(c->key, key, keylen);
        c->dup_keys = dup;
        c->key_set = 1;
        c->eng.cpu_keyed = 0;
    }
    return xts_set_ctx_params(c, params);
}

static int xts_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return xts_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int xts_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return xts_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* t *= x in GF(2^128), IEEE 1619's little-endian convention. */
static void xts_mul_x(uint8_t t[BLK])
{
    unsigned carry = 0;
    for (int i = 0; i < BLK; i++) {
        unsigned next = t[i] >> 7;
        t[i] = (uint8_t)((t[i] << 1) | carry);
        carry = next;
    }
    t[0] ^= (uint8_t)(0x87 & (0u - carry));
}

static void xor16(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < BLK; i++)
        d[i] = a[i] ^ b[i];
}

/* One block through K1's ECB, whitened with t. */
static cpim_err xts_block(cpim_ctx *x, cpim_dir dir, const uint8_t t[BLK], const uint8_t *in,
                          uint8_t *out)
{
    uint8_t b[BLK];
    xor16(b, in, t);
    cpim_err rc = cpim_aes_ecb(x, dir, b, b, BLK);
    xor16(out, b, t);
    OPENSSL_cleanse(b, sizeof b);
    return rc;
}

/* The data unit on the backend's ECB (any IV, any keys). */
static cpim_err xts_generic(xts_ctx *c, cpim_ctx *x, const uint8_t *in, uint8_t *out, size_t len)
{
    size_t half = c->keylen / 2, m = len / BLK, r = len % BLK;
    cpim_dir dir = c->enc ? CPIM_ENCRYPT : CPIM_DECRYPT;
    uint8_t t[BLK], t_last[BLK], cc[BLK], pp[BLK];
    cpim_err rc = cpim_aes_set_key(x, c->key + half, half);
    if (rc == CPIM_OK)
        rc = cpim_aes_ecb(x, CPIM_ENCRYPT, c->iv, t, BLK);
    if (rc == CPIM_OK)
        rc = cpim_aes_set_key(x, c->key, half);
    if (rc != CPIM_OK)
        return rc;
    /* the whole blocks but the stolen-from one, in one ECB pass */
    size_t bulk = r ? m - 1 : m;
    uint8_t *tw = malloc(bulk * BLK + 1);
    if (tw == NULL)
        return CPIM_ERR_NOMEM;
    for (size_t j = 0; j < bulk; j++) {
        memcpy(tw + j * BLK, t, BLK);
        xor16(out + j * BLK, in + j * BLK, t);
        xts_mul_x(t);
    }
    rc = cpim_aes_ecb(x, dir, out, out, bulk * BLK);
    for (size_t j = 0; rc == CPIM_OK && j < bulk; j++)
        xor16(out + j * BLK, out + j * BLK, tw + j * BLK);
    OPENSSL_cleanse(tw, bulk * BLK);
    free(tw);
    if (rc != CPIM_OK || r == 0)
        goto done;
    /* ciphertext stealing: block m-1 and the r-byte tail */
    const uint8_t *in_pen = in + bulk * BLK, *in_tail = in_pen + BLK;
    uint8_t *out_pen = out + bulk * BLK, *out_tail = out_pen + BLK;
    memcpy(t_last, t, BLK);
    xts_mul_x(t_last);
    if (c->enc) {
        if ((rc = xts_block(x, dir, t, in_pen, cc)) != CPIM_OK)
            goto done;
        memcpy(pp, in_tail, r);
        memcpy(pp + r, cc + r, BLK - r);
        memcpy(out_tail, cc, r);
        rc = xts_block(x, dir, t_last, pp, out_pen);
    } else {
        if ((rc = xts_block(x, dir, t_last, in_pen, pp)) != CPIM_OK)
            goto done;
        memcpy(cc, in_tail, r);
        memcpy(cc + r, pp + r, BLK - r);
        memcpy(out_tail, pp, r);
        rc = xts_block(x, dir, t, cc, out_pen);
    }
done:
    OPENSSL_cleanse(t, sizeof t);
    OPENSSL_cleanse(t_last, sizeof t_last);
    OPENSSL_cleanse(cc, sizeof cc);
    OPENSSL_cleanse(pp, sizeof pp);
    return rc;
}

static int xts_unit(xts_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
    int plain64 = !c->dup_keys;
    for (int i = 8; i < BLK; i++)
        plain64 &= c->iv[i] == 0;
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, len, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = CPIM_OK;
    if (plain64) {
        if (pim || !c->eng.cpu_keyed) {
            rc = cpim_xts_set_key(x, c->key, c->keylen);
            if (rc == CPIM_OK && !pim)
                c->eng.cpu_keyed = 1;
        }
        uint64_t unit = 0;
        for (int i = 7; i >= 0; i--)
            unit = unit << 8 | c->iv[i];
        if (rc == CPIM_OK)
            rc = cpim_aes_xts(x, c->enc ? CPIM_ENCRYPT : CPIM_DECRYPT, unit, len, in, out, len);
    } else {
        rc = xts_generic(c, x, in, out, len);
    }
    cpp_eng_release(&c->eng, x, pim, CPP_OP_CIPHER, plain64 ? 2 : 1, rc == CPIM_OK);
    if (rc != CPIM_OK) {
        OPENSSL_cleanse(out, len);
        return cpp_err_lib(c->eng.prov, rc);
    }
    return 1;
}

static int xts_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    xts_ctx *c = vctx;
    *outl = 0;
    if (!c->key_set)
        return cpp_err(c->eng.prov, CPP_R_NO_KEY_SET, NULL);
    if (!c->iv_set)
        return cpp_err(c->eng.prov, CPP_R_IV_NOT_SET, NULL);
    if (out == NULL || in == NULL || inl < BLK)
        return cpp_err(c->eng.prov, CPP_R_INVALID_DATA_LENGTH, "an XTS unit is at least 16 bytes");
    if (inl > XTS_MAX)
        return cpp_err(c->eng.prov, CPP_R_INVALID_DATA_LENGTH, "an XTS unit is at most 16 MiB");
    if (outsize < inl)
        return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
    if (!xts_unit(c, in, out, inl))
        return 0;
    *outl = inl;
    return 1;
}

static int xts_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    xts_ctx *c = vctx;
    (void)out, (void)outsize;
    *outl = 0;
    if (!c->key_set)
        return cpp_err(c->eng.prov, CPP_R_NO_KEY_SET, NULL);
    return 1;
}

static int xts_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    return xts_update(vctx, out, outl, outsize, in, inl);
}

static const OSSL_PARAM xts_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    CPP_ENG_GETTABLE,
    OSSL_PARAM_END};
static const OSSL_PARAM xts_settable[] = {CPP_ENG_SETTABLE, OSSL_PARAM_END};

static const OSSL_PARAM *xts_gettable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return xts_gettable;
}

static const OSSL_PARAM *xts_settable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return xts_settable;
}

/* The params xts_get_ctx_params answers, found in one pass
 * (cpp_params_find): EVP reads them on every EVP_CipherInit_ex. */
enum { X_KEYLEN, X_IVLEN, X_IV, X_UPDATED_IV, X_N };
static const char *const xts_get_names[X_N] = {OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_IVLEN,
                                               OSSL_CIPHER_PARAM_IV, OSSL_CIPHER_PARAM_UPDATED_IV};

static int xts_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    xts_ctx *c = vctx;
    const OSSL_PARAM *f[X_N];
    cpp_params_find(params, xts_get_names, X_N, f);
    OSSL_PARAM *q; /* found in the caller's (writable) params */
    if ((q = (OSSL_PARAM *)f[X_KEYLEN]) != NULL && !OSSL_PARAM_set_size_t(q, c->keylen))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "keylen");
    if ((q = (OSSL_PARAM *)f[X_IVLEN]) != NULL && !OSSL_PARAM_set_size_t(q, BLK))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "ivlen");
    if ((q = (OSSL_PARAM *)f[X_IV]) != NULL && !OSSL_PARAM_set_octet_string(q, c->iv, BLK))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "iv");
    if ((q = (OSSL_PARAM *)f[X_UPDATED_IV]) != NULL && !OSSL_PARAM_set_octet_string(q, c->iv, BLK))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "updated-iv");
    return cpp_eng_get_params(&c->eng, params);
}

static int xts_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    xts_ctx *c = vctx;
    if (params == NULL)
        return 1;
    return cpp_eng_set_params(&c->eng, params);
}

#define XTS_ALG(name, kbits)                                                                       \
    static void *name##_new(void *provctx)                                                         \
    {                                                                                              \
        return xts_new(provctx, 2 * (kbits) / 8);                                                  \
    }                                                                                              \
    static int name##_get_params(OSSL_PARAM params[])                                              \
    {                                                                                              \
        return cpp_cipher_get_params(params, EVP_CIPH_XTS_MODE, 2 * (kbits) / 8, 1, BLK, 0, 1, 0); \
    }                                                                                              \
    CPP_CIPHER_DISPATCH(name, xts);

XTS_ALG(aes128xts, 128)
XTS_ALG(aes256xts, 256)
