/*
 * speed_kdf.c -- the HMAC-SHA256 and PBKDF2-HMAC-SHA256 rows of `cryptopim
 * speed` (called by speed.c after the AES and SHA-256 rows):
 *
 *   hmac-batch    1024 MACs of 1 KiB messages under 1024 32-byte keys
 *                 (one cpim_hmac_sha256_batch); GB/s of message bytes;
 *   pbkdf2-batch  1024 PBKDF2 chains of 1000 iterations, 32-byte output
 *                 each (one cpim_pbkdf2_sha256_batch); its `bytes` column
 *                 counts HMAC iterations (chains x iterations) and its rate
 *                 column is G iterations/s;
 *   and one line per backend as `cryptsetup benchmark` prints it (with
 *   --csv a row `pbkdf2-1chain`, bytes = iterations, rate G iterations/s):
 *   "PBKDF2-sha256  N iterations per second for 256-bit key", one chain
 *   (cryptsetup's measure), on the backend's own clock: measured on the CPU
 *   backends and OpenSSL, modeled for pim (what the real DPUs would take;
 *   the virtual UPMEM measures nothing of a DPU).
 *
 * With --compare, OpenSSL runs the same work one item at a time (HMAC(),
 * PKCS5_PBKDF2_HMAC: it has no batch form), one thread, in the same run.
 * Every subject's output is checked once against the cpu backend's.
 * pim: the batch rows run timing-only (cpim_options.timing_only: one DPU
 * per rank simulated; output not returned), so only its modeled row means
 * something there; its output is checked on a small batch first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif

#include "cli.h"
#include "speed_kdf.h"

struct kdfw {
    size_t n, mlen;
    uint32_t iter;
    uint8_t *keys, *msgs, *out;
    const uint8_t **kp, **mp;
    size_t *kl, *ml;
    uint8_t **op;
    uint8_t (*mac)[32];
};

static int kdfw_alloc(struct kdfw *w, size_t n, size_t mlen, uint32_t iter)
{
    memset(w, 0, sizeof *w);
    w->n = n, w->mlen = mlen, w->iter = iter;
    w->keys = malloc(n * 32), w->msgs = malloc(n * mlen), w->out = malloc(n * 32);
    w->kp = malloc(n * sizeof *w->kp), w->mp = malloc(n * sizeof *w->mp);
    w->kl = malloc(n * sizeof *w->kl), w->ml = malloc(n * sizeof *w->ml);
    w->op = malloc(n * sizeof *w->op), w->mac = malloc(n * 32);
    if (!w->keys || !w->msgs || !w->out || !w->kp || !w->mp || !w->kl || !w->ml || !w->op ||
        !w->mac)
        return -1;
    uint32_t x = 12345;
    for (size_t i = 0; i < n * 32; i++)
        w->keys[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
    for (size_t i = 0; i < n * mlen; i++)
        w->msgs[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 16);
    for (size_t i = 0; i < n; i++) {
        w->kp[i] = w->keys + 32 * i, w->kl[i] = 32;
        w->mp[i] = w->msgs + mlen * i, w->ml[i] = mlen;
        w->op[i] = w->out + 32 * i;
    }
    return 0;
}

static void kdfw_free(struct kdfw *w)
{
    free(w->keys), free(w->msgs), free(w->out), free(w->kp), free(w->mp), free(w->kl);
    free(w->ml), free(w->op), free(w->mac);
}

/* One run of `what` (0 hmac, 1 pbkdf2) on ctx or, ctx NULL, on OpenSSL. */
static int run(cpim_ctx *ctx, int what, struct kdfw *w, size_t n)
{
    if (ctx) {
        cpim_err rc =
            what ? cpim_pbkdf2_sha256_batch(ctx, w->kp, w->kl, w->mp, w->kl, n, w->iter, w->op, 32)
                 : cpim_hmac_sha256_batch(ctx, w->kp, w->kl, w->mp, w->ml, n, w->mac);
        return rc == CPIM_OK || rc == CPIM_ERR_TIMING_ONLY ? 0 : -1;
    }
#ifdef HAVE_OPENSSL
    for (size_t i = 0; i < n; i++) {
        if (what) {
            /* salt: the first 32 bytes of the message, as for our backends */
            if (!PKCS5_PBKDF2_HMAC((const char *)w->kp[i], 32, w->mp[i], 32, (int)w->iter,
                                   EVP_sha256(), 32, w->op[i]))
                return -1;
        } else {
            unsigned len = 32;
            if (!HMAC(EVP_sha256(), w->kp[i], 32, w->mp[i], w->mlen, w->mac[i], &len))
                return -1;
        }
    }
    return 0;
#else
    return -1;
#endif
}

static void row(int csv, const char *op, const char *be, double amount, unsigned threads,
                cpim_clock clock, double s)
{
    double rate = s > 0 ? amount / s / 1e9 : 0;
    if (csv) /* G iterations/s are small numbers: more digits */
        printf(strncmp(op, "pbkdf2", 6) ? "%s,%s,%.0f,%u,%s,%.9f,%.4f\n"
                                        : "%s,%s,%.0f,%u,%s,%.9f,%.7f\n",
               op, be, amount, threads, cpim_clock_name(clock), s, rate);
    else
        printf("%-12s %-9s %11.0f %7u %-9s %11.6f %8.3f\n", op, be, amount, threads,
               cpim_clock_name(clock), s, rate);
    fflush(stdout);
}

/* Best of `runs` runs: measured seconds, and the modeled ones if any. */
static int best_of(cpim_ctx *ctx, int what, struct kdfw *w, size_t n, unsigned runs, double *meas,
                   double *mod)
{
    *meas = *mod = 1e300;
    if (run(ctx, what, w, n)) /* warm-up */
        return -1;
    for (unsigned r = 0; r < runs; r++) {
        double t0 = cpim_now();
        if (run(ctx, what, w, n))
            return -1;
        double t = cpim_now() - t0;
        if (t < *meas)
            *meas = t;
        cpim_stats st;
        if (ctx && cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled &&
            st.modeled.total_s < *mod)
            *mod = st.modeled.total_s;
    }
    return 0;
}

/* Checks a subject against the reference outputs on the first n items. */
static int check(cpim_ctx *ctx, struct kdfw *w, size_t n, const uint8_t *ref_mac,
                 const uint8_t *ref_dk, const char *name)
{
    memset(w->mac, 0, n * 32), memset(w->out, 0, n * 32);
    if (run(ctx, 0, w, n) || run(ctx, 1, w, n)) {
        cli_error("speed: %s: HMAC / PBKDF2 failed", name);
        return -1;
    }
    if (memcmp(w->mac, ref_mac, n * 32) || memcmp(w->out, ref_dk, n * 32)) {
        cli_error("speed: %s: HMAC / PBKDF2 output differs from the cpu backend", name);
        return -1;
    }
    return 0;
}

/* see speed_kdf.h */
int speed_kdf_1chain(const char *name, const cpim_options *opt, int quick, double *iters,
                     double *seconds, cpim_clock *clock)
{
    struct kdfw w;
    uint8_t ref[32];
    cpim_ctx *ctx = NULL, *rc_ctx = NULL;
    int pim = strcmp(name, "pim") == 0, ssl = strcmp(name, "openssl") == 0, failed = 1;
    double m, md, t = 0;
    uint32_t it = quick ? 200 : pim ? 4000 : 20000;
    if (kdfw_alloc(&w, 1, 32, 2) || cpim_open(&rc_ctx, "cpu", NULL) != CPIM_OK ||
        run(rc_ctx, 1, &w, 1)) {
        cli_error("speed: cannot set up the PBKDF2 workload");
        goto out;
    }
    memcpy(ref, w.out, 32);
    memset(w.out, 0, 32);
    if (!ssl && !(ctx = cli_open(name, opt))) /* openssl: ctx NULL, run() calls OpenSSL */
        goto out;
    if (run(ctx, 1, &w, 1) || memcmp(w.out, ref, 32)) { /* checked before it is timed */
        cli_error("speed: %s: PBKDF2 output differs from the cpu backend", name);
        goto out;
    }
    for (;;) {
        w.iter = it;
        if (best_of(ctx, 1, &w, 1, 1, &m, &md)) {
            cli_error("speed: %s: PBKDF2 failed", name);
            goto out;
        }
        t = pim ? md : m;
        if (pim || quick || t >= 0.2 || it >= (1u << 30))
            break;
        it *= 4;
    }
    if (t > 0 && t < 1e300) {
        *iters = it, *seconds = t;
        *clock = pim ? CPIM_CLOCK_MODELED : CPIM_CLOCK_MEASURED;
        failed = 0;
    } else {
        cli_error("speed: %s: PBKDF2 reported no time on its clock", name);
    }
out:
    cpim_close(ctx);
    cpim_close(rc_ctx);
    kdfw_free(&w);
    return failed;
}

int speed_kdf(const char *const *names, size_t nnames, const cpim_options *opt, int compare,
              int csv, int quick)
{
    const size_t n = quick ? 64 : 1024, ncheck = 37;
    const uint32_t iter = quick ? 20 : 1000;
    const unsigned runs = quick ? 1 : 3;
    int failed = 0;
    struct kdfw w;
    uint8_t *ref_mac = malloc(ncheck * 32), *ref_dk = malloc(ncheck * 32);
    cpim_ctx *ref = NULL;
    if (kdfw_alloc(&w, n, 1024, iter) || !ref_mac || !ref_dk ||
        cpim_open(&ref, "cpu", NULL) != CPIM_OK || run(ref, 0, &w, ncheck) ||
        run(ref, 1, &w, ncheck)) {
        cli_error("speed: cannot set up the HMAC / PBKDF2 workloads");
        failed = 1;
        goto out;
    }
    memcpy(ref_mac, w.mac, ncheck * 32), memcpy(ref_dk, w.out, ncheck * 32);

    size_t nsub = nnames + (compare ? 1 : 0);
    char lines[16][160];
    size_t nlines = 0;
    for (size_t i = 0; i < nsub; i++) {
        int is_ssl = i == nnames;
#ifndef HAVE_OPENSSL
        if (is_ssl)
            break;
#endif
        const char *name = is_ssl ? "openssl" : names[i];
        cpim_ctx *ctx = NULL;
        int pim = !is_ssl && strcmp(name, "pim") == 0;
        unsigned threads = is_ssl ? 1 : opt->threads ? opt->threads : cpim_cores();
        if (!is_ssl && !(ctx = cli_open(name, opt))) {
            failed = 1;
            continue;
        }
        if (check(ctx, &w, ncheck, ref_mac, ref_dk, name)) {
            failed = 1;
            cpim_close(ctx);
            continue;
        }
        if (pim) { /* the batches timing-only: see the file comment */
            cpim_options o = *opt;
            o.timing_only = 1;
            cpim_close(ctx);
            if (!(ctx = cli_open(name, &o))) {
                failed = 1;
                continue;
            }
        }
        double m, md;
        for (int what = 0; what < 2; what++) {
            if (best_of(ctx, what, &w, n, runs, &m, &md)) {
                cli_error("speed: %s: %s failed", name, what ? "PBKDF2" : "HMAC");
                failed = 1;
                break;
            }
            double amount = what ? (double)n * iter : (double)n * w.mlen;
            const char *op = what ? "pbkdf2-batch" : "hmac-batch";
            if (!pim)
                row(csv, op, name, amount, threads, CPIM_CLOCK_MEASURED, m);
            if (md < 1e300)
                row(csv, op, name, amount, threads, CPIM_CLOCK_MODELED, md);
        }
        cpim_close(ctx);
        ctx = NULL;
        /* cryptsetup's line: one chain, 32-byte key, on the subject's clock */
        double it, t;
        cpim_clock clk;
        if (speed_kdf_1chain(name, opt, quick, &it, &t, &clk)) {
            failed = 1;
            continue;
        }
        if (csv) /* a row like the others: bytes = iterations, rate G iterations/s */
            row(csv, "pbkdf2-1chain", name, it, 1, clk, t);
        else if (nlines < 16)
            snprintf(lines[nlines++], sizeof lines[0],
                     "PBKDF2-sha256   %10.0f iterations per second for 256-bit key  "
                     "(%s, %s, 1 thread of work)",
                     it / t, name, cpim_clock_name(clk));
    }
    for (size_t i = 0; i < nlines; i++)
        printf("%s\n", lines[i]);
out:
    cpim_close(ref);
    free(ref_mac), free(ref_dk);
    kdfw_free(&w);
    return failed;
}
