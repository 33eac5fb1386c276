/* see compare.h -- OpenSSL EVP and intel-ipsec-mb on the speed workloads. */
#include "compare.h"

#include <stdlib.h>
#include <string.h>

/* ---- OpenSSL (EVP) --------------------------------------------------------- */
#ifdef HAVE_OPENSSL
#include <openssl/evp.h>

struct ossl {
    EVP_CIPHER_CTX *ecb, *ctr, *gcm, *xts;
    uint8_t key[16];
};

static void ossl_close(void *p)
{
    struct ossl *s = p;
    if (!s)
        return;
    EVP_CIPHER_CTX_free(s->ecb);
    EVP_CIPHER_CTX_free(s->ctr);
    EVP_CIPHER_CTX_free(s->gcm);
    EVP_CIPHER_CTX_free(s->xts);
    memset(s->key, 0, sizeof s->key);
    free(s);
}

static void *ossl_open(const uint8_t key[16], const char **why)
{
    struct ossl *s = calloc(1, sizeof *s);
    *why = "OpenSSL: cannot create a cipher context";
    if (!s)
        return NULL;
    memcpy(s->key, key, 16);
    uint8_t xk[32];
    cmp_xts_key(key, xk);
    s->ecb = EVP_CIPHER_CTX_new();
    s->ctr = EVP_CIPHER_CTX_new();
    s->gcm = EVP_CIPHER_CTX_new();
    s->xts = EVP_CIPHER_CTX_new();
    int ok = s->ecb && s->ctr && s->gcm && s->xts &&
             EVP_EncryptInit_ex(s->ecb, EVP_aes_128_ecb(), NULL, key, NULL) &&
             EVP_CIPHER_CTX_set_padding(s->ecb, 0) &&
             EVP_EncryptInit_ex(s->ctr, EVP_aes_128_ctr(), NULL, key, NULL) &&
             EVP_EncryptInit_ex(s->gcm, EVP_aes_128_gcm(), NULL, key, NULL) &&
             EVP_EncryptInit_ex(s->xts, EVP_aes_128_xts(), NULL, xk, NULL);
    memset(xk, 0, sizeof xk);
    if (!ok) {
        ossl_close(s);
        return NULL;
    }
    return s;
}

/* EVP lengths are int: feed at most 1 GiB per update. */
static int ossl_update(EVP_CIPHER_CTX *c, const uint8_t *in, uint8_t *out, size_t len)
{
    while (len) {
        int n = len > (1u << 30) ? 1 << 30 : (int)len, got;
        if (!EVP_EncryptUpdate(c, out, &got, in, n) || got != n)
            return -1;
        in += n;
        out += n;
        len -= (size_t)n;
    }
    return 0;
}

static int ossl_ecb(void *p, const uint8_t *in, uint8_t *out, size_t len)
{
    struct ossl *s = p;
    return ossl_update(s->ecb, in, out, len);
}

static int ossl_ctr(void *p, const uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t len)
{
    struct ossl *s = p;
    if (!EVP_EncryptInit_ex(s->ctr, NULL, NULL, NULL, iv)) /* restart at iv */
        return -1;
    return ossl_update(s->ctr, in, out, len);
}

static int ossl_gcm(void *p, const uint8_t iv[12], const uint8_t *in, uint8_t *out, size_t len,
                    uint8_t tag[16])
{
    struct ossl *s = p;
    int n;
    if (!EVP_EncryptInit_ex(s->gcm, NULL, NULL, NULL, iv) || ossl_update(s->gcm, in, out, len) ||
        !EVP_EncryptFinal_ex(s->gcm, out + len, &n) ||
        !EVP_CIPHER_CTX_ctrl(s->gcm, EVP_CTRL_AEAD_GET_TAG, 16, tag))
        return -1;
    return 0;
}

/* One data unit per EVP update, as OpenSSL's XTS takes them. */
static int ossl_xts(void *p, const uint8_t *in, uint8_t *out, size_t len)
{
    struct ossl *s = p;
    uint8_t tweak[16] = {0};
    for (size_t off = 0, unit = 0; off < len; off += CMP_XTS_UNIT, unit++) {
        for (int i = 0; i < 8; i++)
            tweak[i] = (uint8_t)(unit >> (8 * i));
        if (!EVP_EncryptInit_ex(s->xts, NULL, NULL, NULL, tweak) ||
            ossl_update(s->xts, in + off, out + off, CMP_XTS_UNIT))
            return -1;
    }
    return 0;
}

static int ossl_sha(void *p, const uint8_t *const *msgs, const size_t *lens, size_t n,
                    uint8_t (*d)[32])
{
    (void)p;
    for (size_t i = 0; i < n; i++)
        if (!EVP_Digest(lens[i] ? msgs[i] : (const uint8_t *)"", lens[i], d[i], NULL, EVP_sha256(),
                        NULL))
            return -1;
    return 0;
}

static const cmp_impl cmp_openssl = {.name = "openssl",
                                     .open = ossl_open,
                                     .close = ossl_close,
                                     .ecb_enc = ossl_ecb,
                                     .ctr = ossl_ctr,
                                     .gcm_enc = ossl_gcm,
                                     .xts_enc = ossl_xts,
                                     .sha256_batch = ossl_sha};
#endif

/* ---- intel-ipsec-mb (job API) ------------------------------------------------ */
#ifdef HAVE_IPSEC_MB
#include <intel-ipsec-mb.h>

/* Long buffers are cut into jobs, each CTR job with its own counter block,
 * so that the manager can run several lanes at once.  ECB jobs must be
 * shorter than 64 KiB (the library rejects longer ones as "Invalid cipher
 * message length"). */
#define IMB_SEG_CTR (1u << 20)
#define IMB_SEG_ECB (16u << 10)

struct imb {
    IMB_MGR *mgr;
    /* expanded keys: 11 round keys of AES-128, 16-byte aligned */
    _Alignas(16) uint32_t enc[4 * 15];
    _Alignas(16) uint32_t dec[4 * 15];
    uint8_t (*ivs)[16]; /* counter block per segment */
    size_t nivs;
    _Alignas(64) struct gcm_key_data gkd; /* GCM: round keys and powers of H */
    struct gcm_context_data gcd;
};

static void imb_close(void *p)
{
    struct imb *s = p;
    if (!s)
        return;
    if (s->mgr)
        free_mb_mgr(s->mgr);
    memset(s->enc, 0, sizeof s->enc);
    memset(s->dec, 0, sizeof s->dec);
    memset(&s->gkd, 0, sizeof s->gkd);
    memset(&s->gcd, 0, sizeof s->gcd);
    free(s->ivs);
    free(s);
}

static void *imb_open(const uint8_t key[16], const char **why)
{
    struct imb *s = aligned_alloc(64, (sizeof(struct imb) + 63) / 64 * 64);
    *why = "intel-ipsec-mb: cannot allocate a manager";
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->mgr = alloc_mb_mgr(0);
    if (!s->mgr) {
        imb_close(s);
        return NULL;
    }
    init_mb_mgr_auto(s->mgr, NULL);
    if (imb_get_errno(s->mgr)) {
        *why = imb_get_strerror(imb_get_errno(s->mgr));
        imb_close(s);
        return NULL;
    }
    IMB_AES_KEYEXP_128(s->mgr, key, s->enc, s->dec);
    IMB_AES128_GCM_PRE(s->mgr, key, &s->gkd);
    return s;
}

/* Drains completed jobs; -1 if one of them did not complete. */
static int imb_drain(IMB_MGR *mgr, IMB_JOB *job, int flush)
{
    int bad = 0;
    while (job) {
        bad |= job->status != IMB_STATUS_COMPLETED;
        job = flush ? IMB_FLUSH_JOB(mgr) : IMB_GET_COMPLETED_JOB(mgr);
    }
    return bad ? -1 : 0;
}

/* 128-bit big-endian add of `blocks` to a counter block. */
static void ctr_add(uint8_t c[16], uint64_t blocks)
{
    for (int i = 15; i >= 0 && blocks; i--) {
        uint64_t v = c[i] + (blocks & 0xff);
        c[i] = (uint8_t)v;
        blocks = (blocks >> 8) + (v >> 8);
    }
}

static int imb_cipher(struct imb *s, IMB_CIPHER_MODE mode, const uint8_t iv[16], const uint8_t *in,
                      uint8_t *out, size_t len)
{
    size_t seg = mode == IMB_CIPHER_CNTR ? IMB_SEG_CTR : IMB_SEG_ECB;
    size_t nseg = (len + seg - 1) / seg;
    if (mode == IMB_CIPHER_CNTR && nseg > s->nivs) {
        uint8_t(*n)[16] = realloc(s->ivs, nseg * sizeof *n);
        if (!n)
            return -1;
        s->ivs = n;
        s->nivs = nseg;
    }
    int bad = 0;
    for (size_t k = 0; k < nseg; k++) {
        size_t off = k * seg, n = len - off < seg ? len - off : seg;
        IMB_JOB *job = IMB_GET_NEXT_JOB(s->mgr);
        job->cipher_mode = mode;
        job->cipher_direction = IMB_DIR_ENCRYPT;
        job->chain_order = IMB_ORDER_CIPHER_HASH;
        job->hash_alg = IMB_AUTH_NULL;
        job->enc_keys = s->enc;
        job->dec_keys = s->dec;
        job->key_len_in_bytes = IMB_KEY_128_BYTES;
        job->src = in + off;
        job->dst = out + off;
        job->cipher_start_src_offset_in_bytes = 0;
        job->msg_len_to_cipher_in_bytes = n;
        if (mode == IMB_CIPHER_CNTR) {
            memcpy(s->ivs[k], iv, 16);
            ctr_add(s->ivs[k], off / 16);
            job->iv = s->ivs[k];
            job->iv_len_in_bytes = 16;
        } else {
            job->iv = NULL;
            job->iv_len_in_bytes = 0;
        }
        bad |= imb_drain(s->mgr, IMB_SUBMIT_JOB(s->mgr), 0);
    }
    bad |= imb_drain(s->mgr, IMB_FLUSH_JOB(s->mgr), 1);
    return bad ? -1 : 0;
}

static int imb_ecb(void *p, const uint8_t *in, uint8_t *out, size_t len)
{
    return imb_cipher(p, IMB_CIPHER_ECB, NULL, in, out, len);
}

static int imb_ctr(void *p, const uint8_t iv[16], const uint8_t *in, uint8_t *out, size_t len)
{
    return imb_cipher(p, IMB_CIPHER_CNTR, iv, in, out, len);
}

/* Its direct GCM API (one call per message, as intel-ipsec-mb's own
 * benchmarks measure GCM). */
static int imb_gcm(void *p, const uint8_t iv[12], const uint8_t *in, uint8_t *out, size_t len,
                   uint8_t tag[16])
{
    struct imb *s = p;
    IMB_AES128_GCM_ENC(s->mgr, &s->gkd, &s->gcd, out, in, len, iv, NULL, 0, tag, 16);
    return imb_get_errno(s->mgr) ? -1 : 0;
}

static int imb_sha(void *p, const uint8_t *const *msgs, const size_t *lens, size_t n,
                   uint8_t (*d)[32])
{
    struct imb *s = p;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        IMB_JOB *job = IMB_GET_NEXT_JOB(s->mgr);
        job->cipher_mode = IMB_CIPHER_NULL;
        job->cipher_direction = IMB_DIR_ENCRYPT;
        job->chain_order = IMB_ORDER_HASH_CIPHER;
        job->hash_alg = IMB_AUTH_SHA_256;
        job->src = msgs[i];
        job->hash_start_src_offset_in_bytes = 0;
        job->msg_len_to_hash_in_bytes = lens[i];
        job->auth_tag_output = d[i];
        job->auth_tag_output_len_in_bytes = 32;
        bad |= imb_drain(s->mgr, IMB_SUBMIT_JOB(s->mgr), 0);
    }
    bad |= imb_drain(s->mgr, IMB_FLUSH_JOB(s->mgr), 1);
    return bad ? -1 : 0;
}

/* Its job API hashes one message per job, and rejects a SHA-256 job of
 * 65535 bytes or more ("Invalid authentication message length", measured
 * with 1.3 here); it has no chaining interface for SHA-256 to go around it. */
#define IMB_SHA_MAX_LEN 65534u

static const cmp_impl cmp_ipsec_mb = {.name = "ipsec-mb",
                                      .open = imb_open,
                                      .close = imb_close,
                                      .ecb_enc = imb_ecb,
                                      .ctr = imb_ctr,
                                      .gcm_enc = imb_gcm,
                                      .no_xts = "intel-ipsec-mb " IMB_VERSION_STR " has no AES-XTS",
                                      .sha256_batch = imb_sha,
                                      .sha_max_len = IMB_SHA_MAX_LEN};
#endif

/* ---- registry ------------------------------------------------------------------ */

static const cmp_impl *const impls[] = {
#ifdef HAVE_OPENSSL
    &cmp_openssl,
#endif
#ifdef HAVE_IPSEC_MB
    &cmp_ipsec_mb,
#endif
    NULL,
};

size_t cmp_count(void)
{
    return sizeof impls / sizeof impls[0] - 1;
}

const cmp_impl *cmp_at(size_t i)
{
    return i < cmp_count() ? impls[i] : NULL;
}
