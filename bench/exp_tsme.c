/*
 * exp_tsme.c -- `cryptopim bench --experiment tsme`: the cost
 * of "TSME for MRAM" (dpu/tsme.h: software AES-XTS on every MRAM access of
 * an unchanged DPU program), measured as AMD's SME/TSME study measured its
 * memory encryption (seed 004: STREAM with 24 threads, 2.6-4.2% slower,
 * mean 3.7%), and a what-if only a model can answer: an AES engine on the
 * DPU's DMA path.
 *
 * It drives the DPU programs directly through <dpu.h> (the virtual UPMEM's
 * host library) -- the STREAM kernel of emu/validate/stream.c and PrIM's VA
 * and RED, each built plain and with `-include tsme.h` (bench/tsme.mk, bench/prim.mk) -- so
 * it is the one experiment that sees <dpu.h>, <dpu_emu.h> (the modeled
 * clock) and dpu/tsme_host.h (the key image; Makefile: its own include
 * flags).  On real UPMEM hardware it skips (no modeled clock, and the
 * what-if is a virtual-UPMEM profile parameter).
 *
 * Rows: the long CSV schema (exp.h) plus five columns:
 *   dpu_cycles        modeled cycles of the slowest DPU's run
 *   dma_aes_cycles_per_block, dma_aes_pipelined   the what-if's engine
 *   slowdown_x, slowdown_pct   dpu_cycles against the plain build's in the
 *                     same configuration (the DPU's own time, as STREAM
 *                     times its kernels; the launch's fixed overhead, in
 *                     time_s, would dilute it); speedup = 1 / slowdown_x
 * kernel  stream-copy | stream-scale | stream-add | stream-triad | prim-va |
 *         prim-red | sme-stream (the seed's published figures)
 * impl    plain | tsme (software AES on the DPU, the layer) | dma-aes (the
 *         plain build on the what-if machine: hypothetical hardware) | sme
 * mode    1dpu | rank (64 DPUs, timing-only: one DPU simulated, the kernels
 *         are data-oblivious) | serial-tT / pipelined-tT (the what-if's
 *         sweep at T tasklets) | threshold-serial-tT / threshold-pipelined-tT
 *         (the slowest engine keeping the overhead under SME's 3.7%) |
 *         published-min / -mean / -max
 * phase   kernel (time_s: the launch on the modeled clock, overhead
 *         included)
 * clock   modeled (virtual UPMEM), published (the seed's measurement on
 *         AMD EPYC, not ours)
 * Every output is checked: the plain build's against a host computation,
 * the TSME build's after the host decrypts its MRAM (DPU 0 of a rank).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp.h"
#include "quiet.h"

#ifdef CPIM_VIRTUAL_UPMEM
#include <dpu.h>
#include <dpu_emu.h>

#include "../emu/validate/micro_args.h"
#include "cryptopim.h"
#include "tsme_host.h"

#define SME_MEAN_PCT 3.7 /* seed 004: STREAM, 24 threads, 2.6-4.2%, mean 3.7% */
#define SME_MIN_PCT  2.6
#define SME_MAX_PCT  4.2

static const uint8_t xts_key[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

/* One DPU program and what it works on. */
typedef enum { W_STREAM, W_VA, W_RED } workload;

typedef struct {
    workload w;
    uint32_t kernel;   /* W_STREAM: MICRO_STREAM_* */
    uint32_t tasklets; /* selects the program */
    uint32_t bytes;    /* per array per DPU */
    int tsme;
    int rank;     /* 64 DPUs (sampled if the caller allows), else 1 */
    double aes_c; /* what-if engine: cycles per block (0: none) */
    int aes_pipe;
} run_cfg;

typedef struct {
    double kernel_s;
    uint64_t cycles;
} run_out;

typedef struct {
    bench *b;
    cpim_ctx *cpu; /* host XTS with xts_key (tsme_host.h) */
    int failed;
} ctx_t;

static const char *const stream_name[] = {"stream-copy", "stream-copy-dma", "stream-add",
                                          "stream-scale", "stream-triad"};

static const char *kernel_name(const run_cfg *c)
{
    return c->w == W_VA ? "prim-va" : c->w == W_RED ? "prim-red" : stream_name[c->kernel];
}

/* The experiment's DPU programs (bench/tsme.mk, bench/prim.mk: STREAM, VA and RED, plain and
 * TSME) live in the build tree only: they are test and study programs, not
 * installed.  The build tree's cryptopim-bench knows that folder
 * (CPIM_TSME_DIR, bench.mk); the installed one must not name the build tree
 * (tests/install.sh), so it needs CRYPTOPIM_TSME_DIR. */
#ifndef CPIM_TSME_DIR
#define CPIM_TSME_DIR NULL
#endif
static const char *tsme_dir(void)
{
    const char *d = getenv("CRYPTOPIM_TSME_DIR");
    return d && *d ? d : CPIM_TSME_DIR;
}

static void prog_path(char *out, size_t n, const run_cfg *c)
{
    const char *base = c->w == W_VA ? "va" : c->w == W_RED ? "red" : "stream";
    snprintf(out, n, "%s/%s%s-t%u", tsme_dir(), c->tsme ? "" : "plain-", base, c->tasklets);
}

/* Heap bytes per DPU and the host's image of DPU 0 (clear text) with the
 * expected result after the run in want (same size). */
static size_t make_image(const run_cfg *c, uint8_t **img, uint8_t **want, int64_t *red_sum)
{
    const uint32_t n = c->bytes;
    size_t total = c->w == W_STREAM ? 3u * n : c->w == W_VA ? 2u * n : n;
    *img = calloc(total, 1), *want = calloc(total, 1);
    if (!*img || !*want)
        return 0;
    uint64_t x = 0x9e3779b97f4a7c15ull ^ c->kernel ^ (uint64_t)c->w << 8;
    for (size_t i = 0; i < (c->w == W_STREAM ? 2u * n : total); i += 4) {
        x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
        /* < 2^30: VA's int32 sums cannot overflow (undefined behaviour) */
        uint32_t v = (uint32_t)((x * 0x2545f4914f6cdd1dull) >> 34);
        memcpy(*img + i, &v, 4);
    }
    memcpy(*want, *img, total);
    if (c->w == W_STREAM) {
        const uint64_t *a = (const uint64_t *)*img, *b = a + n / 8, s = n / 8;
        uint64_t *o = (uint64_t *)(*want + 2 * n);
        for (uint32_t i = 0; i < n / 8; i++)
            o[i] = c->kernel == MICRO_STREAM_ADD     ? a[i] + b[i]
                   : c->kernel == MICRO_STREAM_TRIAD ? a[i] + s * b[i]
                   : c->kernel == MICRO_STREAM_SCALE ? s * a[i]
                                                     : a[i];
    } else if (c->w == W_VA) {
        const int32_t *a = (const int32_t *)*img;
        int32_t *b = (int32_t *)(*want + n);
        for (uint32_t i = 0; i < n / 4; i++) /* wraps as the DPU's add does: no signed overflow */
            b[i] = (int32_t)((uint32_t)b[i] + (uint32_t)a[i]);
    } else {
        const int64_t *a = (const int64_t *)*img;
        *red_sum = 0;
        for (uint32_t i = 0; i < n / 8; i++)
            *red_sum = (int64_t)((uint64_t)*red_sum + (uint64_t)a[i]);
    }
    return total;
}

/* PrIM's argument and result layouts (VA/RED support/common.h, T = int32 /
 * int64), as tests/test_tsme.c has them. */
typedef struct {
    uint32_t size, transfer_size, kernel;
} va_args;
typedef struct {
    uint32_t size, kernel;
    int64_t t_count;
} red_args;
typedef struct {
    uint64_t cycles;
    int64_t t_count;
} red_results;

/* One launch on the modeled clock; checks DPU 0's output.  Returns 0. */
static int run_one(ctx_t *x, const run_cfg *c, run_out *out)
{
    bench *b = x->b;
    bench_quiet_yield();
    char prog[512], profile[256];
    prog_path(prog, sizeof prog, c);
    const int sampled = c->rank && bench_sampled(b);
    snprintf(profile, sizeof profile, "machine=%s,hostClock=none%s",
             bench_machine_label(b, CPIM_CLOCK_MODELED), sampled ? ",sampleDpus=1" : "");
    if (c->aes_c > 0)
        snprintf(profile + strlen(profile), sizeof profile - strlen(profile),
                 ",dmaAesCyclesPerBlock=%.6g,dmaAesPipelined=%d", c->aes_c, c->aes_pipe);
    uint8_t *img = NULL, *want = NULL, *enc = NULL;
    int64_t red_sum = 0;
    const size_t n = make_image(c, &img, &want, &red_sum);
    if (!n) {
        free(img), free(want);
        return -1;
    }
    const uint8_t *load = img;
    if (c->tsme) {
        enc = malloc(n);
        if (!enc || tsme_host_crypt(x->cpu, CPIM_ENCRYPT, 0, 0, img, enc, n) != CPIM_OK) {
            free(img), free(want), free(enc);
            return -1;
        }
        load = enc;
    }
    struct dpu_set_t set, dpu;
    uint32_t i, ndpu = c->rank ? 64 : 1;
    int rc = -1;
    dpu_error_t err = dpu_alloc(ndpu, profile, &set);
    if (err != DPU_OK) {
        fprintf(stderr, "bench: tsme: dpu_alloc(%u, %s): %s\n", ndpu, profile,
                dpu_error_to_string(err));
        free(img), free(want), free(enc);
        return -1;
    }
    err = dpu_load(set, prog, NULL);
    /* every DPU gets DPU 0's image (a timing-only rank runs DPU 0 only; on
     * a full simulation the others compute on data encrypted for DPU 0,
     * which costs the same: the kernels are data-oblivious) */
    if (err == DPU_OK)
        err = dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, load, n, DPU_XFER_DEFAULT);
    if (err == DPU_OK && c->w == W_STREAM) {
        micro_args_t a = {c->bytes, MICRO_COUNT_CYCLES, c->kernel, 0};
        err = dpu_broadcast_to(set, "ARGS", 0, &a, sizeof a, DPU_XFER_DEFAULT);
    } else if (err == DPU_OK && c->w == W_VA) {
        va_args a = {c->bytes, c->bytes, 0};
        err = dpu_broadcast_to(set, "DPU_INPUT_ARGUMENTS", 0, &a, sizeof a, DPU_XFER_DEFAULT);
    } else if (err == DPU_OK) {
        red_args a = {c->bytes, 0, 0};
        err = dpu_broadcast_to(set, "DPU_INPUT_ARGUMENTS", 0, &a, sizeof a, DPU_XFER_DEFAULT);
    }
    DPU_FOREACH (set, dpu, i) {
        if (err == DPU_OK && c->tsme) {
            struct tsme_key_args k;
            tsme_host_key(&k, xts_key, sizeof xts_key, i);
            err = dpu_copy_to(dpu, TSME_KEY_NAME, 0, &k, sizeof k);
            cpim_wipe(&k, sizeof k);
        }
    }
    dpu_emu_stats_t s0, s1;
    dpu_emu_get_stats(&s0);
    if (err == DPU_OK)
        err = dpu_launch(set, DPU_SYNCHRONOUS);
    dpu_emu_get_stats(&s1);
    out->kernel_s = s1.phase[DPU_EMU_PHASE_KERNEL] - s0.phase[DPU_EMU_PHASE_KERNEL];
    out->cycles = s1.dpu_cycles_max;
    /* DPU 0's output */
    const char *bad = NULL;
    DPU_FOREACH (set, dpu, i) {
        if (i || err != DPU_OK)
            break;
        if (c->w == W_RED) {
            red_results r[24];
            err = dpu_copy_from(dpu, "DPU_RESULTS", 0, r, c->tasklets * sizeof r[0]);
            if (err == DPU_OK && r[0].t_count != red_sum)
                bad = "RED's sum";
        } else {
            err = dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, img, n);
            if (err == DPU_OK && c->tsme &&
                tsme_host_crypt(x->cpu, CPIM_DECRYPT, 0, 0, img, img, n) != CPIM_OK)
                bad = "host decryption";
            if (err == DPU_OK && !bad && memcmp(img, want, n))
                bad = "the arrays in MRAM";
        }
    }
    if (err == DPU_OK && c->tsme) { /* the key leaves WRAM (tsme.h: the host's job) */
        static const struct tsme_key_args zero;
        err = dpu_broadcast_to(set, TSME_KEY_NAME, 0, &zero, sizeof zero, DPU_XFER_DEFAULT);
    }
    if (err != DPU_OK)
        fprintf(stderr, "bench: tsme: %s: %s\n", prog, dpu_error_to_string(err));
    else if (bad)
        fprintf(stderr, "bench: tsme: %s%s: %s wrong\n", prog, c->aes_c > 0 ? " (what-if)" : "",
                bad);
    else
        rc = 0;
    dpu_free(set);
    free(img), free(want), free(enc);
    if (rc)
        x->failed = 1;
    return rc;
}

static void tsme_row(ctx_t *x, const run_cfg *c, const char *impl, const char *mode,
                     const run_out *o, const run_out *plain)
{
    bench *b = x->b;
    const size_t moved =
        c->w == W_STREAM
            ? (size_t)c->bytes *
                  (c->kernel == MICRO_STREAM_ADD || c->kernel == MICRO_STREAM_TRIAD ? 3 : 2)
        : c->w == W_VA ? 3u * c->bytes
                       : c->bytes; /* bytes read + written per DPU */
    const unsigned ndpu = c->rank ? 64 : 1;
    const double sx = plain && plain->cycles ? (double)o->cycles / (double)plain->cycles : 1.0;
    char cpb[32] = "", pipe[8] = "";
    if (c->aes_c > 0)
        snprintf(cpb, sizeof cpb, "%.6g", c->aes_c), snprintf(pipe, sizeof pipe, "%d", c->aes_pipe);
    fprintf(b->csv,
            "%s,%s,%s,%s,%u,%u,%u,0,%zu,kernel,%.9f,%.4f,%.6f,modeled,%s,,%llu,%s,%s,%.6f,%.4f\n",
            b->exp, kernel_name(c), impl, mode, c->rank ? 1u : 0u, ndpu, c->tasklets, moved * ndpu,
            o->kernel_s, o->kernel_s > 0 ? (double)moved * ndpu / o->kernel_s / 1e9 : 0, 1.0 / sx,
            bench_machine_label(b, CPIM_CLOCK_MODELED), (unsigned long long)o->cycles, cpb, pipe,
            sx, (sx - 1) * 100);
    fflush(b->csv);
}

/* Plain vs TSME of one configuration: two launches, two rows. */
static void pair(ctx_t *x, run_cfg c, const char *mode)
{
    run_out p, t;
    c.tsme = 0;
    if (run_one(x, &c, &p) != 0)
        return;
    tsme_row(x, &c, "plain", mode, &p, NULL);
    c.tsme = 1;
    if (run_one(x, &c, &t) != 0)
        return;
    tsme_row(x, &c, "tsme", mode, &t, &p);
    fprintf(stderr,
            "bench: tsme: %s, %u tasklets, %s: %.1fx slower (%llu vs %llu DPU cycles; launch "
            "%.3g vs %.3g ms; modeled)\n",
            kernel_name(&c), c.tasklets, mode, (double)t.cycles / (double)p.cycles,
            (unsigned long long)t.cycles, (unsigned long long)p.cycles, t.kernel_s * 1e3,
            p.kernel_s * 1e3);
}

/* The what-if on the plain build: overhead of an engine of c cycles per
 * block over the machine without it (base). */
static double whatif(ctx_t *x, run_cfg c, double cpb, int pipe, const run_out *base, int emit)
{
    run_out o;
    c.tsme = 0, c.aes_c = cpb, c.aes_pipe = pipe;
    if (run_one(x, &c, &o) != 0)
        return -1;
    if (emit) {
        char mode[32];
        snprintf(mode, sizeof mode, "%s-t%u", pipe ? "pipelined" : "serial", c.tasklets);
        tsme_row(x, &c, "dma-aes", mode, &o, base);
    }
    return ((double)o.cycles / (double)base->cycles - 1) * 100;
}

static void seed_rows(bench *b)
{
    /* the seed's measurement, not ours: STREAM's four kernels, 24 threads */
    static const double pct[] = {SME_MIN_PCT, SME_MEAN_PCT, SME_MAX_PCT};
    static const char *const what[] = {"published-min", "published-mean", "published-max"};
    for (int i = 0; i < 3; i++)
        fprintf(b->csv,
                "%s,sme-stream,sme,%s,0,0,24,24,0,kernel,0,0,%.6f,published,AMD EPYC TSME "
                "(seed 004),,,,,%.6f,%.4f\n",
                b->exp, what[i], 1 / (1 + pct[i] / 100), 1 + pct[i] / 100, pct[i]);
}

int exp_tsme(bench *b)
{
    if (!bench_pim_available()) {
        bench_progress("tsme: the pim backend is unavailable: skipped");
        return 0;
    }
    fputs("experiment,kernel,impl,mode,ranks,dpus,tasklets,threads,bytes,phase,time_s,"
          "throughput_GBps,speedup,clock,machine,modeled_J_per_GB,dpu_cycles,"
          "dma_aes_cycles_per_block,dma_aes_pipelined,slowdown_x,slowdown_pct\n",
          b->csv);
    seed_rows(b);
    if (!bench_profile(b)) {
        fprintf(stderr, "bench: tsme: needs the virtual UPMEM (modeled clock): skipped\n");
        return 0;
    }
    if (!tsme_dir()) {
        fprintf(stderr, "bench: tsme: its DPU programs are not installed: run the build tree's "
                        "cryptopim-bench, or set CRYPTOPIM_TSME_DIR to <build>/dpu/tsme\n");
        return -1;
    }
    ctx_t x = {b, NULL, 0};
    if (cpim_open(&x.cpu, "cpu", NULL) != CPIM_OK ||
        cpim_xts_set_key(x.cpu, xts_key, sizeof xts_key) != CPIM_OK) {
        cpim_close(x.cpu);
        return -1;
    }
    /* 64 KiB per array per DPU (16 KiB quick): the TSME builds simulate
     * ~20 instructions per byte; the plain kernel's time is linear in it */
    const uint32_t bytes = b->quick ? 16u << 10 : 64u << 10;
    static const uint32_t ts_full[] = {1, 2, 4, 8, 16, 24}, ts_quick[] = {16};
    static const uint32_t ks[] = {MICRO_STREAM_COPY, MICRO_STREAM_SCALE, MICRO_STREAM_ADD,
                                  MICRO_STREAM_TRIAD};
    const uint32_t *ts = b->quick ? ts_quick : ts_full;
    const size_t nts = b->quick ? 1 : 6;
    /* (1) STREAM, 1 DPU, 1..24 tasklets; one rank at 16 tasklets... all */
    for (size_t k = 0; k < 4; k++)
        for (size_t t = 0; t < nts; t++) {
            run_cfg c = {W_STREAM, ks[k], ts[t], bytes, 0, 0, 0, 0};
            pair(&x, c, "1dpu");
            c.rank = 1;
            pair(&x, c, "rank");
        }
    /* (2) PrIM's VA and RED, 16 tasklets (PrIM's default) */
    for (int w = W_VA; w <= W_RED; w++) {
        run_cfg c = {(workload)w, 0, 16, bytes, 0, 0, 0, 0};
        char prog[512];
        prog_path(prog, sizeof prog, &c);
        if (access(prog, R_OK) != 0) {
            fprintf(stderr,
                    "bench: tsme: %s: not built (PrIM's sources not given: make PRIM_DIR=... or "
                    "PRIM_GIT=..., bench/prim.mk): skipped\n",
                    prog);
            continue;
        }
        pair(&x, c, "1dpu");
        c.rank = 1;
        pair(&x, c, "rank");
    }
    /* (3) the what-if, hypothetical hardware: copy and triad on one DPU at
     * 1 and 16 tasklets, an engine of C cycles per block, serial or
     * pipelined; a sweep of C, then the largest C (to 1/64 cycle, up to
     * 2^16) keeping the overhead under SME's mean 3.7% */
    static const double sweep[] = {0.0625, 0.125, 0.25, 0.5, 1,   2,   4,   8,
                                   16,     32,    64,   128, 256, 512, 1024};
    static const uint32_t wk[] = {MICRO_STREAM_COPY, MICRO_STREAM_TRIAD}, wt[] = {1, 16};
    for (size_t k = 0; k < 2; k++)
        for (size_t ti = b->quick ? 1 : 0; ti < 2; ti++) {
            run_cfg c = {W_STREAM, wk[k], wt[ti], bytes, 0, 0, 0, 0};
            run_out base;
            if (run_one(&x, &c, &base) != 0)
                continue;
            for (int pipe = 0; pipe <= 1; pipe++) {
                for (size_t i = 0; i < sizeof sweep / sizeof sweep[0]; i++)
                    if (!b->quick || i % 4 == 0)
                        whatif(&x, c, sweep[i], pipe, &base, 1);
                double lo = 0, hi = 65536; /* overhead(lo) < 3.7 <= overhead(hi) */
                if (whatif(&x, c, hi, pipe, &base, 0) < SME_MEAN_PCT) {
                    lo = hi; /* never reached: the row reports the bound */
                } else {
                    while (hi - lo > 1.0 / 64) {
                        double mid = (lo + hi) / 2, ov = whatif(&x, c, mid, pipe, &base, 0);
                        if (ov < 0)
                            break;
                        if (ov < SME_MEAN_PCT)
                            lo = mid;
                        else
                            hi = mid;
                    }
                }
                c.aes_c = lo > 0 ? lo : 1.0 / 64, c.aes_pipe = pipe;
                run_out o;
                if (run_one(&x, &c, &o) == 0) {
                    char mode[32];
                    snprintf(mode, sizeof mode, "threshold-%s-t%u", pipe ? "pipelined" : "serial",
                             wt[ti]);
                    tsme_row(&x, &c, "dma-aes", mode, &o, &base);
                    fprintf(stderr,
                            "bench: tsme: what-if (hypothetical hardware, modeled): %s, %u "
                            "tasklets, %s engine: overhead < %.1f%% up to %s%.4g cycles per "
                            "16-byte block (%.2f%% there)\n",
                            stream_name[wk[k]], wt[ti], pipe ? "pipelined" : "serial", SME_MEAN_PCT,
                            lo == 65536 ? "at least " : "", c.aes_c,
                            ((double)o.cycles / (double)base.cycles - 1) * 100);
                }
                c.aes_c = 0;
            }
        }
    cpim_close(x.cpu);
    return x.failed ? -1 : 0;
}

#else /* real UPMEM SDK: no modeled clock, no what-if parameter */

int exp_tsme(bench *b)
{
    if (!bench_pim_available()) {
        bench_progress("tsme: the pim backend is unavailable: skipped");
        return 0;
    }
    fputs("experiment,kernel,impl,mode,ranks,dpus,tasklets,threads,bytes,phase,time_s,"
          "throughput_GBps,speedup,clock,machine,modeled_J_per_GB\n",
          b->csv);
    fprintf(stderr, "bench: tsme: needs the virtual UPMEM (modeled clock): skipped\n");
    return 0;
}

#endif
