/*
 * ntt_cpu.c -- NTT measurements on the CPU backends and FLINT (see
 * ntt_cpu.h), and `cryptopim speed`'s NTT rows:
 *
 *   ntt-fwd       forward NTT, N = 4096, one word modulus (< 2^31)
 *   ntt-fwd-d50   the same with a double-word modulus < 2^50 (IFMA's range)
 *   ntt-fwd-d62   ... and one < 2^62 (the scalar 64-bit path)
 *   ntt-mul       the batched negacyclic product (cpim_ntt_polymul: 2
 *                 forward NTTs, pointwise, 1 inverse per polynomial),
 *                 N = 4096, word modulus; also FLINT (nmod_poly_mul, then
 *                 c_k - c_{k+N})
 *   ntt-mul-d50, ntt-mul-d62  the same, double-word moduli
 *
 * Batches of 64 polynomials (8 with --quick), one thread per subject (the
 * goal is per core).  Rows: bytes = input coefficient bytes, GB/s of them;
 * after them one line per row group with microseconds per NTT or product,
 * next to HEXL's published per-NTT figures (N = 4096, one Ice Lake core:
 * 6.19 us with AVX-512 IFMA, 67.3 us without; the reference of the NTT's speed goal) and
 * the ratio to FLINT.  All measured (wall time here); the machine is
 * shared, so the best of several runs is reported.
 */
#include "ntt_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "cryptopim_ntt.h"

#ifdef HAVE_FLINT
#include <flint/flint.h>
#include <flint/nmod_poly.h>
#endif

#define W31 2147352577ull          /* word NTT prime, 1 mod 2^17 */
#define D50 1125899903827969ull    /* double-word NTT prime < 2^50 (IFMA's range) */
#define D62 4611686018425815041ull /* double-word NTT prime, 1 mod 2^17 */

/* HEXL's published forward NTT, N = 4096, one Ice Lake core */
#define HEXL_IFMA_US   6.19
#define HEXL_NOIFMA_US 67.3

int ntt_cpu_have_flint(void)
{
#ifdef HAVE_FLINT
    return 1;
#else
    return 0;
#endif
}

static uint64_t fnv(const uint64_t *v, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ v[i]) * 0x100000001b3ull;
    return h;
}

#ifdef HAVE_FLINT
/* out = a * b mod (X^n + 1) for every polynomial and limb, by FLINT */
static void flint_batch(const uint64_t *a, const uint64_t *b, uint64_t *out, size_t n,
                        const uint64_t *q, size_t nmod, size_t count)
{
    for (size_t j = 0; j < nmod; j++) {
        nmod_poly_t fa, fb, fc;
        nmod_poly_init2(fa, q[j], (slong)n), nmod_poly_init2(fb, q[j], (slong)n);
        nmod_poly_init2(fc, q[j], (slong)(2 * n));
        for (size_t p = 0; p < count; p++) {
            size_t off = (p * nmod + j) * n;
            memcpy(fa->coeffs, a + off, n * 8), memcpy(fb->coeffs, b + off, n * 8);
            _nmod_poly_set_length(fa, (slong)n), _nmod_poly_normalise(fa);
            _nmod_poly_set_length(fb, (slong)n), _nmod_poly_normalise(fb);
            nmod_poly_mul(fc, fa, fb);
            for (size_t k = 0; k < n; k++) {
                uint64_t lo = k < (size_t)fc->length ? fc->coeffs[k] : 0;
                uint64_t hi = k + n < (size_t)fc->length ? fc->coeffs[k + n] : 0;
                out[off + k] = lo >= hi ? lo - hi : lo + (q[j] - hi);
            }
        }
        nmod_poly_clear(fa), nmod_poly_clear(fb), nmod_poly_clear(fc);
    }
}
#endif

cpim_err ntt_cpu_measure(const char *subject, ntt_cpu_op op, size_t n, const uint64_t *moduli,
                         size_t nmod, size_t count, unsigned threads, double min_time,
                         unsigned min_runs, ntt_cpu_result *res)
{
    memset(res, 0, sizeof *res);
    int flint = strcmp(subject, "flint") == 0;
    if (flint && (op != NTT_CPU_POLYMUL || !ntt_cpu_have_flint()))
        return CPIM_ERR_UNSUPPORTED;
    size_t sz = count * nmod * n;
    uint64_t *a = malloc(sz * 8), *b = malloc(sz * 8), *out = malloc(sz * 8);
    cpim_ctx *ctx = NULL;
    cpim_ntt *ring = NULL;
    cpim_err rc = a && b && out ? CPIM_OK : CPIM_ERR_NOMEM;
    uint64_t x = 0x9e3779b97f4a7c15ull; /* seeded xorshift64: same inputs for every subject */
    for (size_t i = 0; rc == CPIM_OK && i < sz; i++) {
        size_t j = i / n % nmod;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = x % moduli[j];
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b[i] = x % moduli[j];
    }
    if (rc == CPIM_OK && !flint) {
        cpim_options opt;
        cpim_options_init(&opt);
        opt.threads = threads;
        rc = cpim_open(&ctx, subject, &opt);
        if (rc == CPIM_OK)
            rc = cpim_ntt_create(ctx, n, moduli, nmod, &ring);
    }
    double best = 0, total = 0;
    for (unsigned run = 0; rc == CPIM_OK; run++) {
        double t0 = cpim_now();
        if (flint) {
#ifdef HAVE_FLINT
            flint_batch(a, b, out, n, moduli, nmod, count);
#endif
        } else if (op == NTT_CPU_POLYMUL)
            rc = cpim_ntt_polymul(ring, a, b, out, count);
        else
            rc = cpim_ntt_forward(ring, a, out, count);
        double s = cpim_now() - t0;
        if (run == 0) /* the warm-up */
            continue;
        total += s;
        if (run == 1 || s < best)
            best = s;
        res->runs = run;
        if (total >= min_time && run >= min_runs)
            break;
    }
    if (rc == CPIM_OK) {
        res->seconds = best;
        res->per_us = best / (double)(count * nmod) * 1e6;
        res->digest = fnv(out, sz);
    }
    cpim_ntt_destroy(ring);
    cpim_close(ctx);
    free(a), free(b), free(out);
    return rc;
}

static void row(int csv, const char *op, const char *be, size_t bytes, double s)
{
    double gbps = s > 0 ? (double)bytes / s / 1e9 : 0;
    if (csv)
        printf("%s,%s,%zu,%u,%s,%.9f,%.4f\n", op, be, bytes, 1u,
               cpim_clock_name(CPIM_CLOCK_MEASURED), s, gbps);
    else
        printf("%-12s %-9s %11zu %7u %-9s %11.6f %8.3f\n", op, be, bytes, 1u,
               cpim_clock_name(CPIM_CLOCK_MEASURED), s, gbps);
    fflush(stdout);
}

int speed_ntt(const char *const *names, size_t nnames, int csv, int quick)
{
    static const struct {
        const char *op;
        ntt_cpu_op kind;
        uint64_t q;
    } cases[6] = {{"ntt-fwd", NTT_CPU_FORWARD, W31},     {"ntt-fwd-d50", NTT_CPU_FORWARD, D50},
                  {"ntt-fwd-d62", NTT_CPU_FORWARD, D62}, {"ntt-mul", NTT_CPU_POLYMUL, W31},
                  {"ntt-mul-d50", NTT_CPU_POLYMUL, D50}, {"ntt-mul-d62", NTT_CPU_POLYMUL, D62}};
    const size_t n = 4096, count = quick ? 8 : 64;
    const double min_time = quick ? 0.01 : 0.5;
    int failed = 0;
    for (size_t c = 0; c < 6; c++) {
        size_t bytes = count * n * 8 * (cases[c].kind == NTT_CPU_POLYMUL ? 2 : 1);
        uint64_t ref = 0;
        const char *who[16];
        double us[16], flint_us = 0;
        size_t nm = 0;
        for (size_t i = 0; i <= nnames && i < 15; i++) {
            const char *s = i < nnames ? names[i] : "flint";
            ntt_cpu_result r;
            cpim_err rc =
                ntt_cpu_measure(s, cases[c].kind, n, &cases[c].q, 1, count, 1, min_time, 3, &r);
            if (rc == CPIM_ERR_UNSUPPORTED)
                continue;
            if (rc != CPIM_OK) {
                fprintf(stderr, "cryptopim: speed: %s on %s: %s\n", cases[c].op, s,
                        cpim_strerror(rc));
                failed = 1;
                continue;
            }
            if (!ref)
                ref = r.digest; /* the first subject's (cpu's when it is measured) */
            else if (r.digest != ref) {
                fprintf(stderr, "cryptopim: speed: %s: %s's output differs from %s's\n",
                        cases[c].op, s, who[0]);
                failed = 1;
            }
            row(csv, cases[c].op, s, bytes, r.seconds);
            who[nm] = s, us[nm++] = r.per_us;
            if (i == nnames)
                flint_us = r.per_us;
        }
        if (csv || !nm)
            continue;
        printf("  %s, N = %zu, q %s, us per %s (measured, 1 thread):", cases[c].op, n,
               cases[c].q == W31   ? "< 2^31"
               : cases[c].q == D50 ? "< 2^50"
                                   : "< 2^62",
               cases[c].kind == NTT_CPU_POLYMUL ? "product" : "NTT");
        for (size_t k = 0; k < nm; k++) {
            printf(" %s %.2f", who[k], us[k]);
            if (flint_us > 0 && strcmp(who[k], "flint") != 0)
                printf(" (%.2fx FLINT)", flint_us / us[k]);
            printf(k + 1 < nm ? "," : "\n");
        }
        if (cases[c].kind == NTT_CPU_FORWARD)
            printf("  (HEXL published: %.2f us with AVX-512 IFMA, %.1f us without; N = 4096, "
                   "one Ice Lake core)\n",
                   HEXL_IFMA_US, HEXL_NOIFMA_US);
        else if (!ntt_cpu_have_flint())
            printf("  (FLINT not compiled in: no comparison)\n");
    }
    return failed;
}
