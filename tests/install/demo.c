/* tests/install/demo.c -- a program outside the tree, built against an
 * installed libcryptopim with `pkg-config --cflags --libs cryptopim`
 * (tests/install.sh).  Usage: demo BACKEND [DPU_DIR] (DPU_DIR: where the
 * pim backend's DPU programs are, cpim_options.dpu_dir).  For BACKEND: AES-128 (FIPS-197 C.1) and
 * SHA-256("abc") (FIPS 180-4 B.1), then AES-128-CTR of standard input to
 * standard output under key 000102..0f and counter f0f1..ff (so the caller
 * can compare it with openssl enc).  Prints `ok BACKEND VERSION` to stderr;
 * exit status 0 only if both vectors matched and every call succeeded. */
#include <cryptopim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, cpim_err rc)
{
    fprintf(stderr, "demo: %s: %s\n", what, cpim_strerror(rc));
    return 1;
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "auto";
    static const uint8_t k0[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static const uint8_t pt[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                   0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    static const uint8_t ct[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                   0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    static const uint8_t abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                    0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                    0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                    0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    uint8_t out[16], dig[1][32];
    const uint8_t *msgs[1] = {(const uint8_t *)"abc"};
    size_t lens[1] = {3};
    cpim_options opt;
    cpim_options_init(&opt);
    opt.dpu_dir = argc > 2 ? argv[2] : NULL;
    cpim_ctx *ctx;
    cpim_err rc = cpim_open(&ctx, backend, &opt);
    if (rc != CPIM_OK)
        return fail("cpim_open", rc);
    if ((rc = cpim_aes_set_key(ctx, k0, 16)) != CPIM_OK ||
        (rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, pt, out, 16)) != CPIM_OK) {
        cpim_close(ctx);
        return fail("AES", rc);
    }
    if (memcmp(out, ct, 16) != 0) {
        cpim_close(ctx);
        fprintf(stderr, "demo: %s: FIPS-197 C.1 mismatch\n", backend);
        return 1;
    }
    if ((rc = cpim_sha256_batch(ctx, msgs, lens, 1, dig)) != CPIM_OK) {
        cpim_close(ctx);
        return fail("SHA-256", rc);
    }
    if (memcmp(dig[0], abc, 32) != 0) {
        cpim_close(ctx);
        fprintf(stderr, "demo: %s: SHA-256(abc) mismatch\n", backend);
        return 1;
    }
    /* CTR of stdin: read it whole (small test files), one call */
    size_t cap = 1 << 16, n = 0, r;
    uint8_t *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n, stdin)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            } else {
                buf = b;
            }
        }
    }
    uint8_t ctr[16] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
                       0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};
    if (!buf || (rc = cpim_aes_ctr(ctx, ctr, buf, buf, n)) != CPIM_OK ||
        fwrite(buf, 1, n, stdout) != n || fflush(stdout) != 0) {
        free(buf);
        cpim_close(ctx);
        return buf ? fail("CTR", rc) : fail("CTR", CPIM_ERR_NOMEM);
    }
    free(buf);
    cpim_close(ctx);
    fprintf(stderr, "ok %s %s\n", backend, cpim_version());
    return 0;
}
