/*
 * test_provider.c -- the cryptopim OpenSSL provider (provider/) through the
 * EVP API, against OpenSSL's default provider as the specification: every
 * algorithm on random keys, IVs, AAD and lengths with random update splits,
 * reinit, dup and in-place use, the official vectors, bad parameters, the
 * pim backend (virtual UPMEM) and its injected faults, and key wiping.
 *
 *   provider-evp --module-dir=DIR [test-name-prefix...]
 *
 * Two library contexts: `def` has only the default provider, `cp` only
 * cryptopim (loaded from DIR).  The key-wipe tests watch every free() of
 * the process (this program interposes it) for the bytes of a key.
 */
#define _GNU_SOURCE /* RTLD_NEXT, malloc_usable_size */
#include <dlfcn.h>
#include <malloc.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

static char *g_module_dir;
static OSSL_LIB_CTX *g_def, *g_cp;

/* ---- free() watch: a freed block holding `g_canary` is a key not wiped ---- */
/* volatile: the compiler knows free() as a builtin that touches no globals */
static const uint8_t *volatile g_canary;
static volatile size_t g_canary_len;
static volatile int g_canary_seen;
static void (*g_real_free)(void *);

void free(void *p);
void free(void *p)
{
    static volatile int resolving; /* volatile: dlsym() re-enters free() */
    if (g_real_free == NULL) {
        if (resolving)
            return; /* a free() inside dlsym() itself (ASan's start-up): left alone */
        resolving = 1;
        g_real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
        resolving = 0;
    }
    if (p != NULL && g_canary != NULL) {
        size_t n = malloc_usable_size(p);
        if (n >= g_canary_len && memmem(p, n, (const void *)g_canary, g_canary_len) != NULL)
            g_canary_seen = 1;
    }
    g_real_free(p);
}

static void watch(const uint8_t *canary, size_t len)
{
    g_canary_seen = 0;
    g_canary_len = len;
    g_canary = canary;
}

static int unwatch(void)
{
    g_canary = NULL;
    return g_canary_seen;
}

/* ---- helpers ---- */
static uint64_t g_seed = 0x5eed0fc0ffeeULL;
static int g_iters = 60; /* random cases per cipher (fewer on the virtual DPUs) */

static size_t rnd(size_t n)
{
    return n ? (size_t)(test_rand(&g_seed) % n) : 0;
}

static void errors_clear(void)
{
    ERR_clear_error();
}

/* 1 when the error queue holds a cryptopim error whose text has `what`. */
static int error_says(const char *what)
{
    unsigned long e;
    const char *file, *func, *data;
    int line, flags, found = 0;
    char buf[256];
    while ((e = ERR_get_error_all(&file, &line, &func, &data, &flags)) != 0) {
        ERR_error_string_n(e, buf, sizeof buf);
        if (strstr(buf, what) != NULL || ((flags & ERR_TXT_STRING) && strstr(data, what)))
            found = 1;
    }
    return found;
}

static EVP_CIPHER *cipher(OSSL_LIB_CTX *lc, const char *name)
{
    return EVP_CIPHER_fetch(lc, name, NULL);
}

/* Splits n bytes into random pieces (0-byte and 1-byte ones included). */
static size_t piece(size_t left)
{
    switch (rnd(6)) {
    case 0:
        return 0;
    case 1:
        return left ? 1 : 0;
    case 2:
        return left;
    default:
        return rnd(left + 1);
    }
}

typedef struct run {
    uint8_t *out;
    size_t outlen;
    int ok;
    uint8_t tag[16];
} run;

enum { K_BLOCK, K_GCM, K_XTS };

typedef struct params {
    const char *name;
    int kind, enc, pad, copy_at, in_place;
    const uint8_t *key, *iv, *aad, *in, *tag;
    size_t ivlen, aadlen, len, taglen;
    uint64_t split_seed;
} params;

/* One EVP run on library context lc; the same split_seed gives the same
 * update pieces on both providers. */
static void cipher_run(OSSL_LIB_CTX *lc, const params *p, run *r)
{
    EVP_CIPHER *c = cipher(lc, p->name);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint64_t seed = p->split_seed, saved = g_seed;
    g_seed = seed;
    r->out = calloc(1, p->len + 64);
    r->outlen = 0;
    r->ok = 0;
    memset(r->tag, 0, sizeof r->tag);
    uint8_t *buf = r->out;
    const uint8_t *in = p->in;
    if (p->in_place) {
        memcpy(buf, p->in, p->len);
        in = buf;
    }
    if (c == NULL || ctx == NULL || !EVP_CipherInit_ex2(ctx, c, NULL, NULL, p->enc, NULL))
        goto done;
    if (p->kind == K_GCM) {
        OSSL_PARAM prm[] = {OSSL_PARAM_END, OSSL_PARAM_END};
        size_t ivlen = p->ivlen;
        prm[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
        if (!EVP_CIPHER_CTX_set_params(ctx, prm))
            goto done;
    }
    if (!EVP_CipherInit_ex2(ctx, NULL, p->key, p->iv, p->enc, NULL))
        goto done;
    if (p->kind == K_BLOCK)
        EVP_CIPHER_CTX_set_padding(ctx, p->pad);
    if (p->kind == K_GCM && !p->enc &&
        !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)p->taglen, (void *)p->tag))
        goto done;
    int n;
    for (size_t off = 0; p->kind == K_GCM && off < p->aadlen;) {
        size_t k = piece(p->aadlen - off);
        if (!EVP_CipherUpdate(ctx, NULL, &n, p->aad + off, (int)k))
            goto done;
        off += k;
    }
    size_t off = 0, step = 0;
    if (p->kind == K_XTS) {
        if (!EVP_CipherUpdate(ctx, buf, &n, in, (int)p->len))
            goto done;
        r->outlen = (size_t)n;
    }
    while (p->kind != K_XTS && off < p->len) {
        size_t k = piece(p->len - off);
        if (!EVP_CipherUpdate(ctx, buf + r->outlen, &n, in + off, (int)k))
            goto done;
        off += k;
        r->outlen += (size_t)n;
        if (++step == (size_t)p->copy_at) {
            /* continue on a copy, freeing the original */
            EVP_CIPHER_CTX *dup = EVP_CIPHER_CTX_new();
            if (dup == NULL || !EVP_CIPHER_CTX_copy(dup, ctx)) {
                EVP_CIPHER_CTX_free(dup);
                goto done;
            }
            EVP_CIPHER_CTX_free(ctx);
            ctx = dup;
        }
    }
    if (!EVP_CipherFinal_ex(ctx, buf + r->outlen, &n))
        goto done;
    r->outlen += (size_t)n;
    if (p->kind == K_GCM && p->enc &&
        !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)p->taglen, r->tag))
        goto done;
    r->ok = 1;
done:
    g_seed = saved;
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

static int compare(const params *p, const char *what)
{
    run a, b;
    cipher_run(g_def, p, &a);
    cipher_run(g_cp, p, &b);
    int same = a.ok == b.ok && (!a.ok || (a.outlen == b.outlen && !memcmp(a.out, b.out, a.outlen) &&
                                          !memcmp(a.tag, b.tag, sizeof a.tag)));
    if (!same)
        CHECK(0,
              "%s %s %s len %zu ivlen %zu aad %zu pad %d: default ok=%d len=%zu, cryptopim "
              "ok=%d len=%zu",
              what, p->name, p->enc ? "enc" : "dec", p->len, p->ivlen, p->aadlen, p->pad, a.ok,
              a.outlen, b.ok, b.outlen);
    if (!same)
        ERR_print_errors_fp(stdout);
    free(a.out);
    free(b.out);
    errors_clear();
    return same;
}

static const char *const block_ciphers[] = {"AES-128-ECB", "AES-192-ECB", "AES-256-ECB",
                                            "AES-128-CTR", "AES-192-CTR", "AES-256-CTR"};

static size_t rnd_len(void)
{
    switch (rnd(4)) {
    case 0:
        return rnd(48);
    case 1:
        return 16 * rnd(20);
    case 2:
        return rnd(70000);
    default:
        return rnd(3000);
    }
}

static void random_block(size_t a, size_t b)
{
    (void)b;
    const char *name = block_ciphers[a];
    int ecb = strstr(name, "ECB") != NULL;
    uint8_t key[32], iv[16];
    for (int i = 0; i < g_iters; i++) {
        size_t len = rnd_len();
        uint8_t *in = malloc(len + 1);
        test_fill(&g_seed, in, len);
        test_fill(&g_seed, key, sizeof key);
        test_fill(&g_seed, iv, sizeof iv);
        if (rnd(4) == 0)
            memset(iv + 8, 0xff, 8); /* a counter about to carry over 64 bits */
        params p = {.name = name,
                    .kind = K_BLOCK,
                    .enc = (int)rnd(2),
                    .pad = (int)rnd(2),
                    .copy_at = (int)rnd(5),
                    .in_place = rnd(3) == 0,
                    .key = key,
                    .iv = ecb ? NULL : iv,
                    .in = in,
                    .len = len,
                    .split_seed = test_rand(&g_seed)};
        if (!compare(&p, "random")) {
            free(in);
            return;
        }
        free(in);
    }
}

static void random_gcm(size_t a, size_t b)
{
    (void)b;
    static const char *const names[] = {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM"};
    uint8_t key[32], iv[128], aad[600], tag[16];
    for (int i = 0; i < g_iters; i++) {
        size_t len = rnd_len(), ivlen = rnd(3) ? 12 : 1 + rnd(sizeof iv),
               aadlen = rnd(2) ? rnd(40) : rnd(sizeof aad);
        uint8_t *in = malloc(len + 1);
        test_fill(&g_seed, in, len);
        test_fill(&g_seed, key, sizeof key);
        test_fill(&g_seed, iv, sizeof iv);
        test_fill(&g_seed, aad, sizeof aad);
        params p = {.name = names[a],
                    .kind = K_GCM,
                    .enc = 1,
                    .copy_at = (int)rnd(5),
                    .in_place = rnd(3) == 0,
                    .key = key,
                    .iv = iv,
                    .ivlen = ivlen,
                    .aad = aad,
                    .aadlen = aadlen,
                    .in = in,
                    .len = len,
                    .taglen = 16,
                    .split_seed = test_rand(&g_seed)};
        int ok = compare(&p, "random");
        /* decrypt the ciphertext with its (maybe truncated, maybe wrong) tag */
        run e;
        cipher_run(g_def, &p, &e);
        size_t taglen = 1 + rnd(16);
        memcpy(tag, e.tag, 16);
        if (rnd(3) == 0)
            tag[rnd(taglen)] ^= (uint8_t)(1 + rnd(255));
        params d = p;
        d.enc = 0;
        d.in = e.out;
        d.tag = tag;
        d.taglen = taglen;
        d.split_seed = test_rand(&g_seed);
        ok = ok && compare(&d, "decrypt");
        free(e.out);
        free(in);
        if (!ok)
            return;
    }
}

static void random_xts(size_t a, size_t b)
{
    (void)b;
    static const char *const names[] = {"AES-128-XTS", "AES-256-XTS"};
    size_t klen = a ? 64 : 32;
    uint8_t key[64], iv[16];
    for (int i = 0; i < g_iters; i++) {
        size_t len = 16 + rnd_len();
        uint8_t *in = malloc(len);
        test_fill(&g_seed, in, len);
        test_fill(&g_seed, key, sizeof key);
        test_fill(&g_seed, iv, sizeof iv);
        int enc = (int)rnd(2);
        if (rnd(2))
            memset(iv + 8, 0, 8); /* a plain64 tweak: cpim_aes_xts's own path */
        if (!enc && rnd(5) == 0)
            memcpy(key + klen / 2, key, klen / 2); /* OpenSSL decrypts with equal halves */
        params p = {.name = names[a],
                    .kind = K_XTS,
                    .enc = enc,
                    .in_place = rnd(3) == 0,
                    .key = key,
                    .iv = iv,
                    .in = in,
                    .len = len,
                    .split_seed = test_rand(&g_seed)};
        int ok = compare(&p, "random");
        free(in);
        if (!ok)
            return;
    }
}

/* ---- digests, MACs, KDFs ---- */
static int digest_run(OSSL_LIB_CTX *lc, const uint8_t *m, size_t len, uint64_t seed, int copy_at,
                      uint8_t out[32])
{
    EVP_MD *md = EVP_MD_fetch(lc, "SHA256", NULL);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    uint64_t saved = g_seed;
    g_seed = seed;
    unsigned n = 0;
    int ok = md && ctx && EVP_DigestInit_ex2(ctx, md, NULL);
    size_t off = 0;
    for (int step = 1; ok && off < len; step++) {
        size_t k = piece(len - off);
        ok = EVP_DigestUpdate(ctx, m + off, k);
        off += k;
        if (ok && step == copy_at) {
            EVP_MD_CTX *dup = EVP_MD_CTX_new();
            ok = dup && EVP_MD_CTX_copy_ex(dup, ctx);
            EVP_MD_CTX_free(ctx);
            ctx = dup;
        }
    }
    ok = ok && EVP_DigestFinal_ex(ctx, out, &n) && n == 32;
    g_seed = saved;
    EVP_MD_CTX_free(ctx);
    EVP_MD_free(md);
    return ok;
}

TEST(provider_sha256_random)
{
    for (int i = 0; i < 100; i++) {
        size_t len = rnd_len();
        uint8_t *m = malloc(len + 1), a[32], b[32], c[32];
        test_fill(&g_seed, m, len);
        uint64_t seed = test_rand(&g_seed);
        int copy_at = (int)rnd(5);
        CHECK(digest_run(g_def, m, len, seed, copy_at, a), "default digest");
        CHECK(digest_run(g_cp, m, len, seed, copy_at, b), "cryptopim digest");
        CHECK_MEM(a, b, 32, "SHA-256 split");
        EVP_MD *md = EVP_MD_fetch(g_cp, "SHA2-256", NULL);
        CHECK(md && EVP_Digest(m, len, c, NULL, md, NULL), "one-shot");
        EVP_MD_free(md);
        CHECK_MEM(a, c, 32, "SHA-256 one-shot");
        free(m);
    }
}

static int mac_run(OSSL_LIB_CTX *lc, const uint8_t *key, size_t klen, const uint8_t *m, size_t len,
                   uint64_t seed, int copy_at, int reinit, uint8_t out[32])
{
    EVP_MAC *mac = EVP_MAC_fetch(lc, "HMAC", NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    OSSL_PARAM prm[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0),
                        OSSL_PARAM_END};
    uint64_t saved = g_seed;
    g_seed = seed;
    size_t n = 0;
    int ok = ctx && EVP_MAC_init(ctx, key, klen, prm);
    if (ok && reinit) /* a first message, then the same key again (NULL) */
        ok = EVP_MAC_update(ctx, m, len / 2) && EVP_MAC_final(ctx, out, &n, 32) &&
             EVP_MAC_init(ctx, NULL, 0, NULL);
    size_t off = 0;
    for (int step = 1; ok && off < len; step++) {
        size_t k = piece(len - off);
        ok = EVP_MAC_update(ctx, m + off, k);
        off += k;
        if (ok && step == copy_at) {
            EVP_MAC_CTX *dup = EVP_MAC_CTX_dup(ctx);
            ok = dup != NULL;
            EVP_MAC_CTX_free(ctx);
            ctx = dup;
        }
    }
    ok = ok && EVP_MAC_final(ctx, out, &n, 32) && n == 32;
    g_seed = saved;
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return ok;
}

TEST(provider_hmac_random)
{
    for (int i = 0; i < 100; i++) {
        size_t len = rnd_len(), klen = rnd(3) ? rnd(70) : rnd(300);
        uint8_t *m = malloc(len + 1), key[300], a[32], b[32];
        test_fill(&g_seed, m, len);
        test_fill(&g_seed, key, sizeof key);
        uint64_t seed = test_rand(&g_seed);
        int copy_at = (int)rnd(5), reinit = (int)rnd(2);
        CHECK(mac_run(g_def, key, klen, m, len, seed, copy_at, reinit, a), "default HMAC");
        CHECK(mac_run(g_cp, key, klen, m, len, seed, copy_at, reinit, b), "cryptopim HMAC");
        CHECK_MEM(a, b, 32, "HMAC-SHA256");
        free(m);
    }
}

static int kdf_run(OSSL_LIB_CTX *lc, const uint8_t *pass, size_t plen, const uint8_t *salt,
                   size_t slen, uint64_t iter, uint8_t *out, size_t outlen)
{
    EVP_KDF *kdf = EVP_KDF_fetch(lc, "PBKDF2", NULL);
    EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
    OSSL_PARAM prm[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA2-256", 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, (void *)pass, plen),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, slen),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter), OSSL_PARAM_END};
    int ok = ctx && EVP_KDF_derive(ctx, out, outlen, prm);
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
    return ok;
}

TEST(provider_pbkdf2_random)
{
    for (int i = 0; i < 30; i++) {
        uint8_t pass[80], salt[80], a[200], b[200];
        size_t plen = rnd(sizeof pass), slen = rnd(sizeof salt), olen = 1 + rnd(sizeof a - 1);
        uint64_t iter = 1 + rnd(300);
        test_fill(&g_seed, pass, sizeof pass);
        test_fill(&g_seed, salt, sizeof salt);
        CHECK(kdf_run(g_def, pass, plen, salt, slen, iter, a, olen), "default PBKDF2");
        CHECK(kdf_run(g_cp, pass, plen, salt, slen, iter, b, olen), "cryptopim PBKDF2");
        CHECK_MEM(a, b, olen, "PBKDF2-SHA256");
    }
}

/* ---- official vectors ---- */
static size_t unhex(const char *h, uint8_t *out)
{
    long n = test_unhex(h, out, 512);
    return n < 0 ? 0 : (size_t)n;
}

static void vec_cipher(const char *name, const char *k, const char *iv, const char *pt,
                       const char *ct)
{
    uint8_t key[64], ivb[16], in[256], want[256], out[300];
    unhex(k, key);
    unhex(iv, ivb);
    size_t n = unhex(pt, in);
    unhex(ct, want);
    EVP_CIPHER *c = cipher(g_cp, name);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int l1 = 0, l2 = 0;
    int ok = c && ctx && EVP_EncryptInit_ex2(ctx, c, key, *iv ? ivb : NULL, NULL) &&
             EVP_CIPHER_CTX_set_padding(ctx, 0) && EVP_EncryptUpdate(ctx, out, &l1, in, (int)n) &&
             EVP_EncryptFinal_ex(ctx, out + l1, &l2);
    CHECK(ok && (size_t)(l1 + l2) == n, "%s vector: ok %d len %d", name, ok, l1 + l2);
    if (ok)
        CHECK_MEM(out, want, n, name);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

TEST(provider_vectors)
{
    /* FIPS-197 C.1 / C.3 */
    vec_cipher("AES-128-ECB", "000102030405060708090a0b0c0d0e0f", "",
               "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a");
    vec_cipher("AES-256-ECB", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
               "", "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089");
    /* SP 800-38A F.5.1 (first two blocks) */
    vec_cipher("AES-128-CTR", "2b7e151628aed2a6abf7158809cf4f3c",
               "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
               "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51",
               "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff");
    /* IEEE 1619-2007 vector 2 */
    vec_cipher("AES-128-XTS", "1111111111111111111111111111111122222222222222222222222222222222",
               "33333333330000000000000000000000",
               "4444444444444444444444444444444444444444444444444444444444444444",
               "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0");
    /* FIPS 180-2 "abc" */
    uint8_t d[32], want[32];
    EVP_MD *md = EVP_MD_fetch(g_cp, "SHA256", NULL);
    CHECK(md && EVP_Digest("abc", 3, d, NULL, md, NULL), "SHA-256 abc");
    EVP_MD_free(md);
    unhex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", want);
    CHECK_MEM(d, want, 32, "SHA-256 abc");
    /* RFC 4231 test case 2 */
    uint8_t mac[32];
    CHECK(mac_run(g_cp, (const uint8_t *)"Jefe", 4, (const uint8_t *)"what do ya want for nothing?",
                  28, 1, 0, 0, mac),
          "HMAC RFC 4231");
    unhex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", want);
    CHECK_MEM(mac, want, 32, "HMAC RFC 4231 case 2");
    /* RFC 7914 section 11, PBKDF2-HMAC-SHA256 P="passwd" S="salt" c=1 */
    uint8_t dk[64], wdk[64];
    CHECK(kdf_run(g_cp, (const uint8_t *)"passwd", 6, (const uint8_t *)"salt", 4, 1, dk, 64),
          "PBKDF2 RFC 7914");
    unhex("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b"
          "39d77ef317c71b845b1e30bd509112041d3a19783",
          wdk);
    CHECK_MEM(dk, wdk, 64, "PBKDF2 RFC 7914");
    /* GCM: McGrew-Viega test case 4 (AAD, 60-byte message) */
    static const char *const k4 = "feffe9928665731c6d6a8f9467308308",
                             *iv4 = "cafebabefacedbaddecaf888",
                             *p4 =
                                 "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                                 "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
                             *a4 = "feedfacedeadbeeffeedfacedeadbeefabaddad2",
                             *c4 =
                                 "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                                 "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
                             *t4 = "5bc94fbc3221a5db94fae95ae7121a47";
    uint8_t key[16], iv[12], pt[60], aad[20], ct[60], tag[16], out[80], otag[16];
    unhex(k4, key), unhex(iv4, iv), unhex(p4, pt), unhex(a4, aad), unhex(c4, ct), unhex(t4, tag);
    EVP_CIPHER *c = cipher(g_cp, "AES-128-GCM");
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int l = 0, l2 = 0;
    int ok = c && ctx && EVP_EncryptInit_ex2(ctx, c, key, iv, NULL) &&
             EVP_EncryptUpdate(ctx, NULL, &l, aad, 20) && EVP_EncryptUpdate(ctx, out, &l, pt, 60) &&
             EVP_EncryptFinal_ex(ctx, out + l, &l2) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, otag);
    CHECK(ok && l == 60 && l2 == 0, "GCM vector");
    CHECK_MEM(out, ct, 60, "GCM test case 4 ciphertext");
    CHECK_MEM(otag, tag, 16, "GCM test case 4 tag");
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
}

/* ---- bad parameters: OpenSSL-style errors ---- */
TEST(provider_bad_params)
{
    EVP_CIPHER *c = cipher(g_cp, "AES-128-GCM");
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint8_t key[32] = {1}, iv[16] = {2}, tag[17];
    errors_clear();
    CHECK(EVP_EncryptInit_ex2(ctx, c, key, iv, NULL), "GCM init");
    size_t zero = 0;
    OSSL_PARAM p0[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &zero),
                       OSSL_PARAM_END};
    CHECK(!EVP_CIPHER_CTX_set_params(ctx, p0) && error_says("invalid iv length"), "ivlen 0");
    CHECK(!EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) && error_says("invalid tag"),
          "tag before final");
    CHECK(!EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 17, tag), "tag of 17 bytes");
    errors_clear();
    OSSL_PARAM pb[] = {OSSL_PARAM_construct_utf8_string("cryptopim-backend", "nosuch", 0),
                       OSSL_PARAM_END};
    CHECK(!EVP_CIPHER_CTX_set_params(ctx, pb) && error_says("unknown or unavailable"),
          "unknown backend refused");
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    /* a key of the wrong length */
    c = cipher(g_cp, "AES-128-CTR");
    ctx = EVP_CIPHER_CTX_new();
    CHECK(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL), "CTR init");
    CHECK(!EVP_CIPHER_CTX_set_key_length(ctx, 17), "key length 17 refused");
    errors_clear();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    /* XTS: equal halves for encryption, a unit under 16 bytes */
    c = cipher(g_cp, "AES-128-XTS");
    ctx = EVP_CIPHER_CTX_new();
    uint8_t same[32] = {0}, out[32];
    int n;
    CHECK(!EVP_EncryptInit_ex2(ctx, c, same, iv, NULL) && error_says("xts duplicated keys"),
          "XTS equal halves refused");
    key[16] = 9;
    CHECK(EVP_EncryptInit_ex2(ctx, c, key, iv, NULL), "XTS init");
    CHECK(!EVP_EncryptUpdate(ctx, out, &n, iv, 15) && error_says("invalid data length"),
          "XTS unit of 15 bytes");
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    /* PBKDF2: SHA-1, no salt, iter 0 */
    EVP_KDF *kdf = EVP_KDF_fetch(g_cp, "PBKDF2", NULL);
    EVP_KDF_CTX *kc = EVP_KDF_CTX_new(kdf);
    OSSL_PARAM k1[] = {OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA1", 0),
                       OSSL_PARAM_END};
    CHECK(!EVP_KDF_CTX_set_params(kc, k1) && error_says("unsupported digest"), "PBKDF2 SHA-1");
    OSSL_PARAM k2[] = {OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, "SHA256", 0),
                       OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, "pw", 2),
                       OSSL_PARAM_END};
    CHECK(!EVP_KDF_derive(kc, out, 16, k2) && error_says("missing salt"), "PBKDF2 no salt");
    uint64_t it0 = 0;
    OSSL_PARAM k3[] = {OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &it0), OSSL_PARAM_END};
    CHECK(!EVP_KDF_CTX_set_params(kc, k3) && error_says("invalid iteration count"), "iter 0");
    EVP_KDF_CTX_free(kc);
    EVP_KDF_free(kdf);
    /* HMAC with SHA-1 */
    EVP_MAC *mac = EVP_MAC_fetch(g_cp, "HMAC", NULL);
    EVP_MAC_CTX *mc = EVP_MAC_CTX_new(mac);
    OSSL_PARAM m1[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA1", 0),
                       OSSL_PARAM_END};
    CHECK(!EVP_MAC_init(mc, key, 16, m1) && error_says("unsupported digest"), "HMAC SHA-1");
    EVP_MAC_CTX_free(mc);
    EVP_MAC_free(mac);
    errors_clear();
}

/* ---- GCM encryption without an IV: a random one, as the default provider ---- */

/* Encrypts msg with key and no IV on lc (ivlen set first when not 0); the
 * IV it chose in iv, 0 when refused. */
static int gcm_no_iv(OSSL_LIB_CTX *lc, int enc, size_t ivlen, const uint8_t key[16],
                     const uint8_t *msg, size_t len, uint8_t *out, uint8_t iv[16], uint8_t tag[16])
{
    EVP_CIPHER *c = cipher(lc, "AES-128-GCM");
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM pl[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen),
                       OSSL_PARAM_END};
    int n, ok = EVP_CipherInit_ex2(ctx, c, key, NULL, enc, ivlen ? pl : NULL) &&
                EVP_CipherUpdate(ctx, out, &n, msg, (int)len) &&
                EVP_CipherFinal_ex(ctx, out + n, &n) &&
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) &&
                EVP_CIPHER_CTX_get_original_iv(ctx, iv, 12);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    errors_clear();
    return ok;
}

/* One decryption with a 96-bit IV and the full tag set before its data,
 * the case the provider runs as one backend call without a copy of the
 * ciphertext (unless in place): the right or a wrong tag; the data in one
 * update, or two; a tag set again after the data (a wrong one, or the
 * right one cut to 12 bytes).  Out: the plaintext and whether final took
 * the tag. */
static int gcm_dec_case(OSSL_LIB_CTX *lc, int scenario, int in_place, const uint8_t key[16],
                        const uint8_t iv[12], const uint8_t *ct, size_t len, const uint8_t tag[16],
                        uint8_t *out, int *final_ok)
{
    static const uint8_t aad[13] = {0xcc};
    uint8_t bad[16];
    memcpy(bad, tag, 16);
    bad[3] ^= 0x40;
    EVP_CIPHER *c = cipher(lc, "AES-128-GCM");
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    const uint8_t *in = ct;
    if (in_place) {
        memcpy(out, ct, len);
        in = out;
    }
    int n, ok = c != NULL && ctx != NULL && EVP_DecryptInit_ex2(ctx, c, key, iv, NULL) &&
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
                                    (void *)(scenario == 1 || scenario == 5 ? bad : tag)) &&
                EVP_DecryptUpdate(ctx, NULL, &n, aad, sizeof aad);
    const size_t first = scenario < 4 ? len : len > 8 ? len / 2 + 3 : len / 2;
    ok = ok && EVP_DecryptUpdate(ctx, out, &n, in, (int)first) && (size_t)n == first;
    ok = ok && (first == len ||
                (EVP_DecryptUpdate(ctx, out + first, &n, in + first, (int)(len - first)) &&
                 (size_t)n == len - first));
    if (scenario == 2)
        ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, bad);
    if (scenario == 3)
        ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 12, (void *)tag);
    *final_ok = ok && EVP_DecryptFinal_ex(ctx, out + len, &n) == 1;
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    errors_clear();
    return ok;
}

TEST(provider_gcm_decrypt_one_call)
{
    static const size_t lens[] = {1, 16, 17, 4096, 4101, 70000};
    uint8_t key[16], iv[12], tag[16];
    static const uint8_t aad[13] = {0xcc};
    test_fill(&g_seed, key, sizeof key);
    test_fill(&g_seed, iv, sizeof iv);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        const size_t len = lens[li];
        uint8_t *pt = malloc(len), *ct = malloc(len + 16), *o1 = malloc(len + 16),
                *o2 = malloc(len + 16);
        CHECK(pt && ct && o1 && o2, "malloc");
        if (!pt || !ct || !o1 || !o2) {
            free(pt), free(ct), free(o1), free(o2);
            return;
        }
        test_fill(&g_seed, pt, len);
        /* the ciphertext and tag from the default provider */
        EVP_CIPHER *c = cipher(g_def, "AES-128-GCM");
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        int n, m;
        CHECK(c && ctx && EVP_EncryptInit_ex2(ctx, c, key, iv, NULL) &&
                  EVP_EncryptUpdate(ctx, NULL, &n, aad, sizeof aad) &&
                  EVP_EncryptUpdate(ctx, ct, &n, pt, (int)len) &&
                  EVP_EncryptFinal_ex(ctx, ct + n, &m) &&
                  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag),
              "encrypt");
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
        for (int sc = 0; sc < 6; sc++)
            for (int ip = 0; ip < 2; ip++) {
                int f1, f2;
                memset(o1, 0, len), memset(o2, 0x5a, len);
                int r1 = gcm_dec_case(g_def, sc, ip, key, iv, ct, len, tag, o1, &f1);
                int r2 = gcm_dec_case(g_cp, sc, ip, key, iv, ct, len, tag, o2, &f2);
                const int want = sc == 0 || sc == 3 || sc == 4;
                CHECK(r1 && r2 && f1 == want && f2 == want && !memcmp(o1, pt, len) &&
                          !memcmp(o2, pt, len),
                      "len %zu, case %d%s: default %d/%d, cryptopim %d/%d (tag taken: want %d)",
                      len, sc, ip ? " in place" : "", r1, f1, r2, f2, want);
            }
        free(pt), free(ct), free(o1), free(o2);
    }
}

TEST(provider_gcm_random_iv)
{
    uint8_t key[16], msg[100], ct[2][100], pt[100], iv[2][16], tag[2][16];
    for (size_t i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)rnd(256);
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)rnd(256);
    OSSL_LIB_CTX *const both[2] = {g_def, g_cp};
    for (int k = 0; k < 2; k++) {
        const char *who = k ? "cryptopim" : "default";
        /* the default provider refuses what it refuses (the specification) */
        CHECK(!gcm_no_iv(both[k], 0, 0, key, msg, sizeof msg, pt, iv[0], tag[0]),
              "%s: a decryption without an IV was accepted", who);
        CHECK(!gcm_no_iv(both[k], 1, 8, key, msg, sizeof msg, pt, iv[0], tag[0]),
              "%s: a random IV of 8 bytes was made", who);
        for (int r = 0; r < 2; r++)
            CHECK(gcm_no_iv(both[k], 1, 0, key, msg, sizeof msg, ct[r], iv[r], tag[r]),
                  "%s: an encryption without an IV was refused", who);
        CHECK(memcmp(iv[0], iv[1], 12) != 0, "%s: the same IV twice", who);
        /* the IV it reports is the one it used: the other provider opens it */
        EVP_CIPHER *c = cipher(both[!k], "AES-128-GCM");
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        int n, m = 0;
        int ok = EVP_DecryptInit_ex2(ctx, c, key, iv[1], NULL) &&
                 EVP_DecryptUpdate(ctx, pt, &n, ct[1], (int)sizeof msg) &&
                 EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag[1]) &&
                 EVP_DecryptFinal_ex(ctx, pt + n, &m);
        CHECK(ok && n + m == (int)sizeof msg && memcmp(pt, msg, sizeof msg) == 0,
              "%s: its random IV does not open its ciphertext", who);
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
        errors_clear();
    }
}

/* ---- other digests pass through to the other providers ---- */
TEST(provider_pass_through)
{
    OSSL_LIB_CTX *lc = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *pd = NULL, *pc = NULL;
    CHECK(lc && (pd = OSSL_PROVIDER_load(lc, "default")) != NULL &&
              OSSL_PROVIDER_set_default_search_path(lc, g_module_dir) &&
              (pc = OSSL_PROVIDER_load(lc, "cryptopim")) != NULL &&
              EVP_set_default_properties(lc, "?provider=cryptopim"),
          "default + cryptopim");
    uint8_t a[64], b[64], key[20] = {7}, m[1000] = {1};
    size_t n1 = 0, n2 = 0;
    OSSL_PARAM prm[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA384", 0),
                        OSSL_PARAM_END};
    CHECK(EVP_Q_mac(g_def, "HMAC", NULL, "SHA384", prm, key, sizeof key, m, sizeof m, a, sizeof a,
                    &n1) &&
              EVP_Q_mac(lc, "HMAC", NULL, "SHA384", prm, key, sizeof key, m, sizeof m, b, sizeof b,
                        &n2) &&
              n1 == 48 && n2 == 48,
          "HMAC-SHA384");
    CHECK_MEM(a, b, 48, "HMAC-SHA384 passed through");
    /* PBKDF2 with OpenSSL's default digest, SHA-1 */
    EVP_KDF *kdf[2] = {EVP_KDF_fetch(g_def, "PBKDF2", NULL), EVP_KDF_fetch(lc, "PBKDF2", NULL)};
    CHECK(kdf[1] &&
              strcmp(OSSL_PROVIDER_get0_name(EVP_KDF_get0_provider(kdf[1])), "cryptopim") == 0,
          "PBKDF2 fetched from cryptopim");
    uint64_t iter = 77;
    for (int i = 0; i < 2; i++) {
        EVP_KDF_CTX *k = EVP_KDF_CTX_new(kdf[i]);
        OSSL_PARAM kp[] = {OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, "pw", 2),
                           OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, "salt", 4),
                           OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter), OSSL_PARAM_END};
        CHECK(k && EVP_KDF_derive(k, i ? b : a, 40, kp), "PBKDF2-SHA1 %d", i);
        EVP_KDF_CTX_free(k);
        EVP_KDF_free(kdf[i]);
    }
    CHECK_MEM(a, b, 40, "PBKDF2-SHA1 passed through");
    OSSL_PROVIDER_unload(pc);
    OSSL_PROVIDER_unload(pd);
    OSSL_LIB_CTX_free(lc);
}

/* ---- keys are wiped on free and on reinit ---- */
static void *volatile g_leak; /* the watch's own check: a copy the compiler keeps */

TEST(provider_keys_wiped)
{
    static const char *const names[] = {"AES-256-ECB", "AES-256-CTR", "AES-256-GCM", "AES-256-XTS"};
    uint8_t k1[64], k2[64], iv[16] = {0}, buf[64], out[128];
    int n;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        test_fill(&g_seed, k1, sizeof k1);
        test_fill(&g_seed, k2, sizeof k2);
        EVP_CIPHER *c = cipher(g_cp, names[i]);
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        size_t klen = (size_t)EVP_CIPHER_get_key_length(c);
        CHECK(EVP_EncryptInit_ex2(ctx, c, k1, iv, NULL) &&
                  EVP_EncryptUpdate(ctx, out, &n, buf, sizeof buf),
              "%s first key", names[i]);
        CHECK(EVP_EncryptInit_ex2(ctx, NULL, k2, iv, NULL) &&
                  EVP_EncryptUpdate(ctx, out, &n, buf, sizeof buf),
              "%s second key", names[i]);
        EVP_CIPHER_CTX *dup = EVP_CIPHER_CTX_new();
        CHECK(EVP_CIPHER_CTX_copy(dup, ctx), "%s copy", names[i]);
        watch(k1, 16);
        EVP_CIPHER_CTX_free(dup);
        EVP_CIPHER_CTX_free(ctx);
        CHECK(!unwatch(), "%s: the replaced key was freed unwiped", names[i]);
        EVP_CIPHER_CTX *again = EVP_CIPHER_CTX_new();
        CHECK(EVP_EncryptInit_ex2(again, c, k2, iv, NULL) &&
                  EVP_EncryptUpdate(again, out, &n, buf, sizeof buf),
              "%s third context", names[i]);
        watch(k2, klen < 32 ? klen : 32);
        EVP_CIPHER_CTX_free(again);
        CHECK(!unwatch(), "%s: the key was freed unwiped", names[i]);
        EVP_CIPHER_free(c);
    }
    /* an HMAC key and a PBKDF2 password */
    uint8_t mkey[40], mac[32];
    test_fill(&g_seed, mkey, sizeof mkey);
    watch(mkey, sizeof mkey);
    CHECK(mac_run(g_cp, mkey, sizeof mkey, buf, sizeof buf, 1, 2, 1, mac), "HMAC");
    CHECK(!unwatch(), "HMAC key freed unwiped");
    test_fill(&g_seed, mkey, sizeof mkey);
    watch(mkey, sizeof mkey);
    CHECK(kdf_run(g_cp, mkey, sizeof mkey, buf, 16, 3, out, 32), "PBKDF2");
    CHECK(!unwatch(), "PBKDF2 password freed unwiped");
    /* the watch itself works: an unwiped copy is seen */
    g_leak = malloc(sizeof mkey);
    memcpy(g_leak, mkey, sizeof mkey);
    watch(mkey, sizeof mkey);
    free(g_leak);
    CHECK(unwatch(), "the free() watch missed an unwiped key");
}

/* ---- the pim backend (virtual UPMEM) and its faults ---- */
static OSSL_LIB_CTX *pim_libctx(const char *profile)
{
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/cpim-prov-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    fprintf(f,
            "openssl_conf = conf\n[conf]\nproviders = provs\n[provs]\ncryptopim = cp\n"
            "[cp]\nmodule = %s/cryptopim.so\nactivate = 1\nbackend = pim\n"
            "pim-threshold = 0\npim-profile = %s\n",
            g_module_dir, profile);
    fclose(f);
    OSSL_LIB_CTX *lc = OSSL_LIB_CTX_new();
    if (lc != NULL && !OSSL_LIB_CTX_load_config(lc, path)) {
        OSSL_LIB_CTX_free(lc);
        lc = NULL;
    }
    unlink(path);
    return lc;
}

static double modeled_of(EVP_CIPHER_CTX *ctx, const char **last)
{
    double s = -1;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_double("cryptopim-modeled-seconds", &s),
                      OSSL_PARAM_construct_utf8_ptr("cryptopim-last-backend", (char **)last, 0),
                      OSSL_PARAM_END};
    if (!EVP_CIPHER_CTX_get_params(ctx, p))
        return -1;
    return s;
}

TEST(provider_pim_backend)
{
    OSSL_LIB_CTX *save = g_cp;
    g_cp = pim_libctx("nrRanks=1,nrDpusPerRank=4,mramBudget=4096");
    if (g_cp == NULL) {
        g_cp = save;
        CHECK(0, "loading the provider with backend = pim");
        return;
    }
    /* every algorithm, now on the DPUs (threshold 0) */
    g_iters = 8;
    for (size_t a = 0; a < 6; a++)
        random_block(a, 0);
    random_gcm(0, 0);
    random_xts(1, 0);
    g_iters = 60;
    uint8_t m[9000], x[32], y[32];
    test_fill(&g_seed, m, sizeof m);
    CHECK(digest_run(g_def, m, sizeof m, 7, 0, x) && digest_run(g_cp, m, sizeof m, 7, 0, y),
          "SHA-256 on pim");
    CHECK_MEM(x, y, 32, "SHA-256 on pim");
    CHECK(mac_run(g_def, m, 20, m, sizeof m, 3, 0, 0, x) &&
              mac_run(g_cp, m, 20, m, sizeof m, 3, 0, 0, y),
          "HMAC on pim");
    CHECK_MEM(x, y, 32, "HMAC on pim");
    /* the modeled time of the last operation, and where it ran */
    EVP_CIPHER *c = cipher(g_cp, "AES-128-CTR");
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint8_t out[sizeof m];
    int n;
    const char *last = NULL;
    CHECK(EVP_EncryptInit_ex2(ctx, c, m, m, NULL) && EVP_EncryptUpdate(ctx, out, &n, m, 8192),
          "CTR on pim");
    double s = modeled_of(ctx, &last);
    CHECK(s > 0 && last != NULL && strcmp(last, "pim") == 0, "modeled %g s on %s", s,
          last ? last : "?");
    /* above a threshold set per context, the CPU again */
    uint64_t big = 1u << 20;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_uint64("cryptopim-pim-threshold", &big), OSSL_PARAM_END};
    CHECK(EVP_CIPHER_CTX_set_params(ctx, p) && EVP_EncryptUpdate(ctx, out, &n, m, 8192),
          "CTR under the threshold");
    s = modeled_of(ctx, &last);
    CHECK(s == 0 && last != NULL && strcmp(last, "pim") != 0, "under the threshold: %g s on %s", s,
          last ? last : "?");
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    OSSL_LIB_CTX_free(g_cp);
    g_cp = save;
}

/* A DPU fault at every checkpoint of the pim context: each operation either
 * fails with an EVP error or gives the default provider's bytes. */
TEST(provider_pim_faults)
{
    enum { LEN = 5003 };
    static uint8_t in[LEN], want[LEN], out[LEN];
    uint8_t key[16], iv[16];
    test_fill(&g_seed, in, sizeof in);
    test_fill(&g_seed, key, sizeof key);
    test_fill(&g_seed, iv, sizeof iv);
    params p = {.name = "AES-128-CTR",
                .kind = K_BLOCK,
                .enc = 1,
                .key = key,
                .iv = iv,
                .in = in,
                .len = LEN,
                .split_seed = 1};
    run r;
    cipher_run(g_def, &p, &r);
    memcpy(want, r.out, LEN);
    free(r.out);
    int failures = 0, clean = 0;
    for (unsigned at = 1; at <= 200 && !clean; at++) {
        char prof[96];
        snprintf(prof, sizeof prof, "nrRanks=1,nrDpusPerRank=4,mramBudget=1024,failAt=%u", at);
        OSSL_LIB_CTX *lc = pim_libctx(prof);
        if (lc == NULL) {
            CHECK(0, "failAt=%u: provider not loaded", at);
            return;
        }
        EVP_CIPHER *c = cipher(lc, "AES-128-CTR");
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        int n = 0, ok = c && ctx && EVP_EncryptInit_ex2(ctx, c, key, iv, NULL);
        memset(out, 0, sizeof out);
        ERR_clear_error();
        int upd = ok && EVP_EncryptUpdate(ctx, out, &n, in, LEN);
        if (upd) {
            CHECK(n == LEN && !memcmp(out, want, LEN), "failAt=%u: success with wrong bytes", at);
            clean = 1;
        } else {
            failures++;
            CHECK(error_says("cryptopim backend failed"), "failAt=%u: no cryptopim error", at);
            for (size_t i = 0; i < LEN; i++)
                if (out[i] != 0 && out[i] != want[i]) {
                    CHECK(0, "failAt=%u: wrong byte out at %zu", at, i);
                    break;
                }
        }
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
        OSSL_LIB_CTX_free(lc);
    }
    CHECK(clean && failures > 3, "walked %d failures, clean end %d", failures, clean);
    printf("# provider_pim_faults: %d injected failures, each an EVP error\n", failures);
}

/* ---- registration and main ---- */
static void reg(void)
{
    char name[64];
    for (size_t a = 0; a < 6; a++) {
        snprintf(name, sizeof name, "provider_random_%s", block_ciphers[a]);
        test_register_case(name, random_block, a, 0);
    }
    for (size_t a = 0; a < 3; a++) {
        snprintf(name, sizeof name, "provider_random_AES-%zu-GCM", 128 + 64 * a);
        test_register_case(name, random_gcm, a, 0);
    }
    for (size_t a = 0; a < 2; a++) {
        snprintf(name, sizeof name, "provider_random_AES-%d-XTS", a ? 256 : 128);
        test_register_case(name, random_xts, a, 0);
    }
}

int main(int argc, char **argv)
{
    int k = 1;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--module-dir=", 13) == 0)
            g_module_dir = realpath(argv[i] + 13, NULL); /* openssl.cnf wants it absolute */
        else
            argv[k++] = argv[i];
    }
    argc = k;
    if (g_module_dir == NULL) {
        fprintf(stderr, "usage: provider-evp --module-dir=DIR [test...]\n");
        return 2;
    }
    g_def = OSSL_LIB_CTX_new();
    g_cp = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *pd = NULL, *pc = NULL;
    if (g_def == NULL || g_cp == NULL || (pd = OSSL_PROVIDER_load(g_def, "default")) == NULL ||
        !OSSL_PROVIDER_set_default_search_path(g_cp, g_module_dir) ||
        (pc = OSSL_PROVIDER_load(g_cp, "cryptopim")) == NULL) {
        fprintf(stderr, "provider-evp: cannot load the providers from %s\n", g_module_dir);
        ERR_print_errors_fp(stderr);
        return 2;
    }
    reg();
    int rc = test_main(argc, argv);
    OSSL_PROVIDER_unload(pc);
    OSSL_PROVIDER_unload(pd);
    OSSL_LIB_CTX_free(g_cp);
    OSSL_LIB_CTX_free(g_def);
    free(g_module_dir);
    return rc;
}
