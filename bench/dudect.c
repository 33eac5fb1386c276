/*
 * dudect.c -- `cryptopim-bench dudect`: a dudect-style timing test of the
 * host AES (Reparaz, Balasch and Verbauwhede, "Dude, is my code
 * constant time?", DATE 2017).  A benchmark, not a test: timing depends on
 * the machine and its load.  The proof that the constant-time code has no
 * secret-dependent branch or address is tests/ct/ (valgrind).
 *
 * For each backend and each secret (the key, then the plaintext): many
 * measurements of one operation, each with its input drawn from one of two
 * classes at random: class 0 a fixed value (all zero), class 1 a fresh
 * random one.  The operation is cpim_aes_set_key + AES-128-ECB of
 * BLOCKS blocks, one thread.  Welch's t statistic between the two classes'
 * times, on all measurements and on those below the 50th / 90th percentile
 * (dudect crops the tail, where interrupts land).  |t| > 4.5: evidence of a
 * timing difference (dudect's threshold); below: none found at this sample
 * size.  Times: the TSC (rdtsc; x86) or cpim_now() elsewhere -- measured.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "cryptopim.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static uint64_t ticks(void)
{
    return __rdtsc();
}
#define TICKS "TSC cycles"
#else
static uint64_t ticks(void)
{
    return (uint64_t)(cpim_now() * 1e9);
}
#define TICKS "ns"
#endif

#define BLOCKS 16

static const char dudect_help[] =
    "usage: cryptopim dudect [--backend NAME]... [--samples N]\n"
    "\n"
    "dudect-style timing test: cpim_aes_set_key + AES-128-ECB of 16 blocks with\n"
    "the key (then the plaintext) either fixed (zero) or random, classes chosen\n"
    "at random; prints Welch's |t| between the classes (all samples, and below\n"
    "the 50th / 90th percentile).  |t| > 4.5: a timing difference was found.\n"
    "Default backends: cpu and cpu-table; default 200000 samples each.\n";

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Welch's t of the samples with t[i] <= cut. */
static double welch(const uint64_t *t, const unsigned char *cls, size_t n, uint64_t cut)
{
    double sum[2] = {0, 0}, sq[2] = {0, 0}, cnt[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        if (t[i] > cut)
            continue;
        double v = (double)t[i];
        sum[cls[i]] += v, sq[cls[i]] += v * v, cnt[cls[i]] += 1;
    }
    if (cnt[0] < 2 || cnt[1] < 2)
        return 0;
    double m0 = sum[0] / cnt[0], m1 = sum[1] / cnt[1];
    double v0 = (sq[0] - cnt[0] * m0 * m0) / (cnt[0] - 1);
    double v1 = (sq[1] - cnt[1] * m1 * m1) / (cnt[1] - 1);
    double den = sqrt(v0 / cnt[0] + v1 / cnt[1]);
    return den > 0 ? fabs(m0 - m1) / den : 0;
}

static int run_one(const char *backend, int secret_key, size_t samples)
{
    cpim_options o;
    cpim_options_init(&o);
    o.threads = 1;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, backend, &o);
    if (rc != CPIM_OK) {
        cli_error("dudect: %s: %s", backend, cpim_strerror(rc));
        return -1;
    }
    uint64_t *t = malloc(samples * sizeof *t), *sorted = malloc(samples * sizeof *t);
    unsigned char *cls = malloc(samples);
    uint8_t key[16] = {0}, in[16 * BLOCKS] = {0}, out[16 * BLOCKS];
    if (!t || !sorted || !cls) {
        free(t), free(sorted), free(cls);
        cpim_close(ctx);
        return -1;
    }
    for (size_t i = 0; i < samples + samples / 10; i++) { /* the first tenth: warm-up */
        size_t k = i < samples / 10 ? 0 : i - samples / 10;
        unsigned char c = (unsigned char)(next_rand() & 1);
        uint8_t *sec = secret_key ? key : in;
        size_t n = secret_key ? sizeof key : sizeof in;
        for (size_t j = 0; j < n; j += 8) {
            uint64_t r = c ? next_rand() : 0;
            memcpy(sec + j, &r, n - j < 8 ? n - j : 8);
        }
        uint64_t t0 = ticks();
        rc = cpim_aes_set_key(ctx, key, sizeof key);
        if (rc == CPIM_OK)
            rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, in, out, sizeof in);
        uint64_t t1 = ticks();
        if (rc != CPIM_OK) {
            cli_error("dudect: %s: %s", backend, cpim_strerror(rc));
            break;
        }
        if (i >= samples / 10)
            t[k] = t1 - t0, cls[k] = c;
    }
    if (rc == CPIM_OK) {
        memcpy(sorted, t, samples * sizeof *t);
        qsort(sorted, samples, sizeof *sorted, cmp_u64);
        double ta = welch(t, cls, samples, UINT64_MAX);
        double t50 = welch(t, cls, samples, sorted[samples / 2]);
        double t90 = welch(t, cls, samples, sorted[samples * 9 / 10]);
        double worst = ta > t50 ? ta : t50;
        worst = worst > t90 ? worst : t90;
        printf("%-10s %-10s %9zu %10llu %8.2f %8.2f %8.2f  %s\n", backend,
               secret_key ? "key" : "plaintext", samples, (unsigned long long)sorted[samples / 2],
               ta, t50, t90, worst > 4.5 ? "timing difference found" : "none found");
    }
    cpim_wipe(key, sizeof key);
    free(t), free(sorted), free(cls);
    cpim_close(ctx);
    return rc == CPIM_OK ? 0 : -1;
}

/* see bench.h */
int cmd_dudect(int argc, char **argv)
{
    const char *names[8];
    size_t nnames = 0, samples = 200000;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(dudect_help, stdout);
            return CLI_OK;
        } else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc && nnames < 8) {
            names[nnames++] = argv[++i];
        } else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v < 100) {
                cli_error("dudect: --samples: a number >= 100");
                return CLI_USAGE;
            }
            samples = v;
        } else {
            cli_error("dudect: unknown argument %s (see --help)", cli_quote(argv[i]));
            return CLI_USAGE;
        }
    }
    if (!nnames)
        names[nnames++] = "cpu", names[nnames++] = "cpu-table";
    printf("%-10s %-10s %9s %10s %8s %8s %8s  (|t| of Welch's test; median in %s, measured)\n",
           "backend", "secret", "samples", "median", "|t|", "|t|<p50", "|t|<p90", TICKS);
    int rc = CLI_OK;
    for (size_t b = 0; b < nnames; b++)
        for (int sk = 1; sk >= 0; sk--)
            if (run_one(names[b], sk, samples) != 0)
                rc = CLI_FAIL;
    return rc;
}
