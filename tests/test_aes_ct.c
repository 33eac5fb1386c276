/*
 * test_aes_ct.c -- the constant-time AES and GHASH (src/crypto/aes_ct.h)
 * at each width this CPU has (ct64, AVX2, AVX-512: chosen by
 * masking CPU features), against the T-table code (aes.h, gcm.h) and, when
 * built with it, OpenSSL: key schedules, ECB both ways, CTR (counter carries
 * included), XTS with stealing, GHASH, on seeded random keys and sizes
 * (small: the backends' large sizes are in test_backends.c).  Tests
 * aes_ct_<width>.  That the code is constant-time is tests/ct/ct_valgrind.c.
 */
#include <stdlib.h>
#include <string.h>

#include "../src/cpu/portable.h"
#include "../src/cpu/x86_cpu.h"
#include "aes.h"
#include "aes_ct.h"
#include "gcm.h"
#include "test.h"

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>

/* OpenSSL's answer for ECB (mode 0), CTR (1) or XTS (2, one unit); 0 on error. */
static int ossl(int mode, int dec, const uint8_t *key, size_t kl, const uint8_t iv[16],
                const uint8_t *in, uint8_t *out, size_t len)
{
    const EVP_CIPHER *c = mode == 0   ? (kl == 16   ? EVP_aes_128_ecb()
                                         : kl == 24 ? EVP_aes_192_ecb()
                                                    : EVP_aes_256_ecb())
                          : mode == 1 ? (kl == 16   ? EVP_aes_128_ctr()
                                         : kl == 24 ? EVP_aes_192_ctr()
                                                    : EVP_aes_256_ctr())
                                      : (kl == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts());
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int n = 0, ok = x && EVP_CipherInit_ex(x, c, NULL, key, iv, !dec) &&
                    EVP_CIPHER_CTX_set_padding(x, 0) &&
                    EVP_CipherUpdate(x, out, &n, in, (int)len) && n == (int)len;
    EVP_CIPHER_CTX_free(x);
    return ok;
}
#endif

static const char *const width_name[3] = {"ct64", "avx2", "avx512"};
static const unsigned width_need[3] = {0, CPIM_X86_AVX2, CPIM_X86_AVX512};

static void run_width(size_t w, size_t unused)
{
    (void)unused;
    if ((cpim_x86_features() & width_need[w]) != width_need[w]) {
        test_skip("this CPU (or OS) lacks the instructions of this width");
        return;
    }
    /* the widest allowed is the one tested */
    unsigned old = cpim_x86_set_mask(w == 0   ? ~(unsigned)(CPIM_X86_AVX2 | CPIM_X86_AVX512)
                                     : w == 1 ? ~(unsigned)CPIM_X86_AVX512
                                              : ~0u);
    const cpim_crypto_aes_ct_impl *im = cpim_aes_ct_impl();
    CHECK(strstr(im->name, w ? width_name[w] : "ct64") != NULL, "width %s, got %s", width_name[w],
          im->name);
    enum { MAX = 2100 };
    uint8_t *in = malloc(MAX), *a = malloc(MAX), *b = malloc(MAX);
    uint64_t seed = 0xc7000u + w;
    for (int it = 0; it < 60 && in && a && b; it++) {
        uint32_t kl = 16 + 8 * (uint32_t)(it % 3);
        uint8_t key[64], ctr0[16], c1[16], c2[16];
        test_fill(&seed, key, sizeof key);
        test_fill(&seed, ctr0, 16);
        if (it % 5 == 1) /* low 64 bits about to carry, or the whole counter to wrap */
            memset(ctr0 + (it % 10 == 1 ? 8 : 0), 0xff, it % 10 == 1 ? 8 : 16);
        size_t len = it < 8 ? (size_t)it * 7 : (size_t)(test_rand(&seed) % MAX);
        size_t nb = len / 16;
        test_fill(&seed, in, len);

        cpim_crypto_aes_ks ek, dk, ek2, dk2;
        cpim_crypto_aes_ct_ks ks, ks2;
        cpim_crypto_aes_expand_enc(&ek, key, kl);
        cpim_crypto_aes_dec_from_enc(&dk, &ek);
        CHECK(cpim_crypto_aes_ct_expand_words(&ek2, &dk2, key, kl) == ek.nr, "expand_words");
        CHECK_MEM(&ek2, &ek, sizeof ek, "constant-time key schedule (encryption words)");
        CHECK_MEM(&dk2, &dk, sizeof dk, "constant-time key schedule (decryption words)");
        CHECK(cpim_crypto_aes_ct_expand(&ks, key, kl) == ek.nr, "expand");
        CHECK(cpim_crypto_aes_ct_expand(&ks, key, 20) == 0, "a 20-byte key is refused");

        for (int dec = 0; dec < 2; dec++) {
            if (dec)
                cpim_crypto_aes_decrypt(&dk, in, a, (uint32_t)nb);
            else
                cpim_crypto_aes_encrypt(&ek, in, a, (uint32_t)nb);
            im->blocks(&ks, dec, in, b, nb);
            CHECK_MEM(b, a, 16 * nb, dec ? "ECB decrypt vs T-table" : "ECB encrypt vs T-table");
            memcpy(b, in, 16 * nb);
            im->blocks(&ks, dec, b, b, nb);
            CHECK_MEM(b, a, 16 * nb, "ECB in place");
#ifdef HAVE_OPENSSL
            if (nb) {
                CHECK(ossl(0, dec, key, kl, NULL, in, b, 16 * nb), "OpenSSL ECB");
                CHECK_MEM(a, b, 16 * nb, "ECB vs OpenSSL");
            }
#endif
        }

        memcpy(c1, ctr0, 16), memcpy(c2, ctr0, 16);
        cpim_crypto_aes_ctr(&ek, c1, in, a, (uint32_t)len);
        cpim_crypto_aes_ct_ctr(im, &ks, c2, in, b, len);
        CHECK_MEM(b, a, len, "CTR vs T-table");
        CHECK_MEM(c2, c1, 16, "CTR counter after the call");
#ifdef HAVE_OPENSSL
        if (len) {
            CHECK(ossl(1, 0, key, kl, ctr0, in, b, len), "OpenSSL CTR");
            CHECK_MEM(a, b, len, "CTR vs OpenSSL");
        }
#endif

        if (kl != 24) { /* XTS-AES-128 / -256: two keys of kl bytes */
            uint64_t unit = test_rand(&seed);
            size_t xl = len < 16 ? 16 : len;
            cpim_crypto_aes_ks k2e;
            cpim_crypto_aes_expand_enc(&k2e, key + kl, kl);
            cpim_crypto_aes_ct_expand(&ks2, key + kl, kl);
            int dec = it & 1;
            cpim_crypto_aes_xts_unit(dec ? &dk : &ek, &k2e, dec, unit, in, a, (uint32_t)xl);
            cpim_crypto_aes_ct_xts_unit(im, &ks, &ks2, dec, unit, in, b, xl);
            CHECK_MEM(b, a, xl, "XTS vs T-table");
#ifdef HAVE_OPENSSL
            uint8_t iv[16] = {0};
            for (int i = 0; i < 8; i++)
                iv[i] = (uint8_t)(unit >> 8 * i);
            CHECK(ossl(2, dec, key, 2 * kl, iv, in, b, xl), "OpenSSL XTS");
            CHECK_MEM(a, b, xl, "XTS vs OpenSSL");
#endif
        }

        uint8_t h[16], y1[16], y2[16];
        cpim_crypto_ghash_key gk;
        cpim_crypto_ghash_ct_key gc;
        test_fill(&seed, h, 16);
        test_fill(&seed, y1, 16);
        if (it == 0) /* all ones: every reduction bit set */
            memset(h, 0xff, 16), memset(y1, 0xff, 16);
        memcpy(y2, y1, 16);
        cpim_crypto_ghash_init(&gk, h);
        cpim_crypto_ghash_ct_init(&gc, h);
        cpim_crypto_ghash_blocks(&gk, y1, in, nb);
        cpim_crypto_ghash_ct_blocks(&gc, y2, in, nb);
        CHECK_MEM(y2, y1, 16, "GHASH vs the 4-bit tables");
    }
    free(in), free(a), free(b);
    cpim_x86_set_mask(old);
}

__attribute__((constructor)) static void register_aes_ct_tests(void)
{
    for (size_t w = 0; w < 3; w++) {
        char name[32];
        snprintf(name, sizeof name, "aes_ct_%s", width_name[w]);
        test_register_case(name, run_width, w, 0);
    }
}
