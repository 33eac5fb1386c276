/*
 * breakeven.c -- where the provider's pim backend starts to pay: for each
 * size, AES-128-CTR through the provider on the CPU (measured: wall time,
 * best of 5) and on the DPUs (modeled: the virtual UPMEM's time of the real
 * machine, read from the context's cryptopim-modeled-seconds).  The first
 * size where modeled < measured is the break-even (docs/PROVIDER.md).
 *
 *   provider-breakeven MODULE_DIR [MAX_MIB]
 */
#define _POSIX_C_SOURCE 200809L
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One CTR update of n bytes on `backend`; returns wall seconds, *modeled. */
static double run(OSSL_LIB_CTX *lc, const char *backend, const unsigned char *in,
                  unsigned char *out, size_t n, double *modeled)
{
    static const unsigned char key[16] = {1}, iv[16] = {2};
    EVP_CIPHER *c = EVP_CIPHER_fetch(lc, "AES-128-CTR", NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    uint64_t zero = 0;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_string("cryptopim-backend", (char *)backend, 0),
                      OSSL_PARAM_construct_uint64("cryptopim-pim-threshold", &zero),
                      OSSL_PARAM_END};
    int len = 0;
    double t = -1;
    if (c && ctx && EVP_EncryptInit_ex2(ctx, c, key, iv, p)) {
        double t0 = now();
        if (EVP_EncryptUpdate(ctx, out, &len, in, (int)n))
            t = now() - t0;
        OSSL_PARAM g[] = {OSSL_PARAM_construct_double("cryptopim-modeled-seconds", modeled),
                          OSSL_PARAM_END};
        EVP_CIPHER_CTX_get_params(ctx, g);
    }
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: provider-breakeven MODULE_DIR [MAX_MIB]\n");
        return 2;
    }
    size_t max = (size_t)(argc > 2 ? atoi(argv[2]) : 4) << 20;
    OSSL_LIB_CTX *lc = OSSL_LIB_CTX_new();
    if (!OSSL_PROVIDER_set_default_search_path(lc, argv[1]) ||
        OSSL_PROVIDER_load(lc, "cryptopim") == NULL) {
        fprintf(stderr, "provider-breakeven: cannot load cryptopim from %s\n", argv[1]);
        return 1;
    }
    unsigned char *in = calloc(1, max), *out = malloc(max);
    if (in == NULL || out == NULL)
        return 1;
    printf("%10s %22s %22s\n", "bytes", "cpu measured (s)", "pim modeled (s)");
    for (size_t n = 4096; n <= max; n *= 4) {
        double best = 1e9, m = 0, pm = 0;
        for (int i = 0; i < 5; i++) {
            double t = run(lc, "auto", in, out, n, &m);
            if (t >= 0 && t < best)
                best = t;
        }
        if (run(lc, "pim", in, out, n, &pm) < 0) {
            fprintf(stderr, "provider-breakeven: the pim backend failed at %zu bytes\n", n);
            return 1;
        }
        printf("%10zu %22.9f %22.9f%s\n", n, best, pm, pm < best ? "  pim faster" : "");
        fflush(stdout);
    }
    free(in);
    free(out);
    OSSL_LIB_CTX_free(lc);
    return 0;
}
