/*
 * bench.c -- `cryptopim bench`: the CryptoPIM study's experiments
 * (docs/RESULTS.md shows what they produced; docs/MODEL.md the model).
 *
 *   roofline  Fig. 1    arithmetic intensity of AES-128 and SHA-256 against
 *                       this host's measured memory bandwidth and peak
 *   tasklets  Fig. 3    1..24 tasklets on one DPU, speed-up over 1 tasklet
 *   strong    Fig. 4    1..64 DPUs of one rank on a fixed problem, phases,
 *                       beside the CPU backends
 *   weak      Fig. 5    1..64 DPUs, fixed work per DPU
 *   resident  issue 17  encrypt / re-key / hash data resident in MRAM in
 *                       place vs through the bus vs AES-NI / SHA-NI
 *                       (exp_resident.c)
 *   tsme      issue 17  STREAM / PrIM VA, RED plain vs built with dpu/tsme.h,
 *                       and the what-if of an AES engine on the DMA path
 *                       (exp_tsme.c)
 *   ranks     Figs. 6-7 1..40 ranks at 32 MiB per rank, async-xfer vs
 *                       async-exec vs the CPU backends
 *   servers   issue 18  1..64 servers of 40 ranks with cryptopim-mpi's link
 *                       model: where the network, not the PIM, limits
 *   ntt       issue 16  NTT / polynomial products: ranks, DRAMatic's case,
 *                       tasklets and schedules, N and L (see exp_ntt)
 *
 * Every experiment writes ONE CSV (long format, one row per configuration
 * and phase; schema below) and one PNG (gnuplot, when installed), drawn from
 * the CSV alone by bench_plot.c, so `--replot DIR` redraws existing results.
 *   experiment,kernel,impl,mode,ranks,dpus,tasklets,threads,bytes,phase,
 *   time_s,throughput_GBps,speedup,clock,machine,modeled_J_per_GB
 * `clock` is `measured` (wall time on this machine: the CPU backends) or
 * `modeled` (what the real UPMEM machine would take, from the virtual
 * UPMEM's model: the pim backend).  A modeled number is never a measurement.
 * `machine` says which machine: `this-host` for a measured row; for a
 * modeled row the virtual UPMEM's named machine (--machine, default
 * `study`: the CryptoPIM study's 40-rank 450 MHz server, profile key
 * machine=NAME, docs/MODEL.md), or `upmem-hw` on real hardware.
 * `modeled_J_per_GB` (pim `total` rows only, else empty): the call's energy
 * from the virtual UPMEM's power model per GB of payload -- modeled, never
 * measured (cpim_stats.modeled_joules, docs/MODEL.md).
 *
 * Every output produced is checked against the cpu backend.  The kernels
 * are data-oblivious (tests/test_bench.c proves equal modeled cycles for
 * different data), which is what lets `--sample` time one DPU per rank and
 * launch and skip identical ones (a timing-only run, cpim_options.timing_only:
 * profile key sampleDpus, docs/MODEL.md); such a run returns no output
 * (CPIM_ERR_TIMING_ONLY, output zeroed), which the check requires.
 */
#include "bench.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_plot.h"
#include "cli.h"
#include "compare.h"
#include "cryptopim_ntt.h"
#include "gnuplot.h"

static const char bench_help[] =
    "usage: cryptopim bench --experiment NAME|all [--out DIR] [--quick] [--no-sample]\n"
    "                       [--machine NAME]\n"
    "       cryptopim bench --replot DIR [--experiment NAME|all]\n"
    "\n"
    "Runs the CryptoPIM study's experiments and writes NAME.csv and NAME.png\n"
    "into DIR (default build/results):\n"
    "  roofline   AES-128 / SHA-256 arithmetic intensity vs this host's roofline\n"
    "  tasklets   1..24 tasklets on one DPU (AES 8 MiB, SHA-256 96 x 32 KiB)\n"
    "  strong     1..64 DPUs of one rank (AES 8 MiB, SHA-256 1024 x 32 KiB)\n"
    "  weak       1..64 DPUs, 1 MiB AES / 16 x 32 KiB SHA-256 per DPU\n"
    "  ranks      1..40 ranks at 32 MiB per rank, async-xfer vs async-exec\n"
    "  servers    1..64 servers of 40 ranks (AES 32 MiB per rank, SHA-256) with\n"
    "             cryptopim-mpi's network model (docs/MPI.md)\n"
    "  ntt        NTTs and polynomial products of N = 4096 over 1..40 ranks,\n"
    "             DRAMatic's 32,768 NTTs on machine=dramatic, 1..24 tasklets,\n"
    "             N = 1024..16384 x 1..3 moduli (docs/NTT.md)\n"
    "  resident   in-place encrypt / re-key / hash of MRAM-resident data, 1..40\n"
    "             ranks, vs through the bus and AES-NI / SHA-NI (issue 17)\n"
    "  tsme       STREAM and PrIM VA/RED plain vs with MRAM encrypted (tsme.h), 1..24\n"
    "             tasklets, 1 DPU and a rank, + an AES engine on the DMA path (what-if)\n"
    "  all        every one of them\n"
    "\n"
    "  --quick      small sizes (for tests)\n"
    "  --no-sample  simulate every DPU even where the kernels' data-obliviousness\n"
    "               allows timing one DPU per rank (slow: hours for `ranks`)\n"
    "  --machine NAME  the machine the virtual UPMEM models (its profile key\n"
    "               machine=NAME, docs/MODEL.md): study (default: the CryptoPIM\n"
    "               study's server, 40 ranks x 64 DPUs at 450 MHz), prim (PrIM's\n"
    "               2,556 DPUs at 350 MHz), dramatic (6 ranks, 383 DPUs, 400 MHz).\n"
    "               Keys in UPMEM_PROFILE (e.g. clockMhz=400) override its keys.\n"
    "  --replot DIR run nothing: redraw DIR/NAME.png from the existing DIR/NAME.csv\n"
    "               (all: every experiment whose CSV is in DIR; needs gnuplot)\n"
    "\n"
    "PIM numbers are on the modeled clock (the virtual UPMEM modeling the\n"
    "machine above, 16 tasklets unless varied), CPU numbers on the measured\n"
    "clock; the CSVs' `machine` column says which.  Host work between UPMEM\n"
    "calls is the calling thread's CPU time (hostClock=thread); UPMEM_PROFILE\n"
    "overrides it as any profile key (UPMEM_PROFILE=hostClock=none: no host\n"
    "work, modeled rows identical on every run).  Progress goes to stderr.\n"
    "Exit status: 0, 1 if an output was wrong or a run failed, 2 bad usage.\n";

/* ---- settings ------------------------------------------------------------------ */

typedef struct {
    const char *out;
    int quick;
    int sample;          /* use sampleDpus=1 where allowed */
    int sample_ok;       /* the UPMEM layer accepted it (and hostClock, machine):
                          * the virtual UPMEM */
    const char *machine; /* --machine: the virtual UPMEM's named machine */
    char profile[96];    /* machine=NAME,hostClock=thread (virtual UPMEM) */
    FILE *csv;
    const char *exp;
    int failed;
    unsigned cores;
} bench;

static const uint8_t bench_key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                      0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

static void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static uint64_t g_rng = 0x243f6a8885a308d3ull;
static void fill(uint8_t *p, size_t n)
{
    uint64_t x = g_rng;
    for (size_t i = 0; i < n; i++) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        p[i] = (uint8_t)((x * 0x2545f4914f6cdd1dull) >> 56);
    }
    g_rng = x;
}

/* ---- CSV rows --------------------------------------------------------------------- */

typedef struct {
    const char *kernel, *impl, *mode;
    unsigned ranks, dpus, tasklets, threads;
    size_t bytes;
} row_cfg;

/* The CSVs' machine column: where a number comes from. */
static const char *machine_label(const bench *b, cpim_clock clock)
{
    if (clock == CPIM_CLOCK_MEASURED)
        return "this-host";
    return b->sample_ok ? b->machine : "upmem-hw";
}

/* joules: the call's modeled energy (pim backend, "total" rows), written
 * as joules per GB of payload in the last column; < 0: none (empty). */
static void row(bench *b, const row_cfg *c, const char *phase, double t, double speedup,
                cpim_clock clock, double joules)
{
    double gbps = t > 0 ? (double)c->bytes / t / 1e9 : 0;
    char jpgb[32] = "";
    if (joules >= 0 && c->bytes > 0)
        snprintf(jpgb, sizeof jpgb, "%.6g", joules / ((double)c->bytes / 1e9));
    fprintf(b->csv, "%s,%s,%s,%s,%u,%u,%u,%u,%zu,%s,%.9f,%.4f,%.4f,%s,%s,%s\n", b->exp, c->kernel,
            c->impl, c->mode, c->ranks, c->dpus, c->tasklets, c->threads, c->bytes, phase, t, gbps,
            speedup, cpim_clock_name(clock), machine_label(b, clock), jpgb);
    fflush(b->csv);
}

static void phase_rows(bench *b, const row_cfg *c, const cpim_phases *p, double speedup,
                       double joules)
{
    row(b, c, "cpu-dpu", p->cpu_dpu_s, 0, p->clock, -1);
    row(b, c, "kernel", p->kernel_s, speedup, p->clock, -1);
    row(b, c, "dpu-cpu", p->dpu_cpu_s, 0, p->clock, -1);
    row(b, c, "total", p->total_s, 0, p->clock, joules);
}

/* ---- workloads ------------------------------------------------------------------------- */

typedef struct {
    size_t aes_len;          /* AES: bytes                          */
    size_t n_msgs, msg_len;  /* SHA-256: messages x bytes           */
    uint8_t *in, *out, *ref; /* AES buffers                         */
    uint8_t *sha_data;
    const uint8_t **msgs;
    size_t *lens;
    uint8_t (*dig)[32], (*ref_dig)[32];
} work;

static void work_free(work *w)
{
    free(w->in);
    free(w->out);
    free(w->ref);
    free(w->sha_data);
    free(w->msgs);
    free(w->lens);
    free(w->dig);
    free(w->ref_dig);
    memset(w, 0, sizeof *w);
}

/* Allocates and fills; references computed with the cpu backend (the one
 * AES and SHA-256 of the project, checked against official vectors). */
static int work_init(work *w, size_t aes_len, size_t n_msgs, size_t msg_len)
{
    memset(w, 0, sizeof *w);
    w->aes_len = aes_len;
    w->n_msgs = n_msgs;
    w->msg_len = msg_len;
    if (aes_len) {
        w->in = malloc(aes_len);
        w->out = malloc(aes_len);
        w->ref = malloc(aes_len);
        if (!w->in || !w->out || !w->ref)
            goto nomem;
        fill(w->in, aes_len);
    }
    if (n_msgs) {
        w->sha_data = malloc(n_msgs * msg_len);
        w->msgs = malloc(n_msgs * sizeof *w->msgs);
        w->lens = malloc(n_msgs * sizeof *w->lens);
        w->dig = malloc(n_msgs * 32);
        w->ref_dig = malloc(n_msgs * 32);
        if (!w->sha_data || !w->msgs || !w->lens || !w->dig || !w->ref_dig)
            goto nomem;
        fill(w->sha_data, n_msgs * msg_len);
        for (size_t i = 0; i < n_msgs; i++) {
            w->msgs[i] = w->sha_data + i * msg_len;
            w->lens[i] = msg_len;
        }
    }
    cpim_ctx *ctx = cli_open("cpu", NULL);
    if (!ctx)
        goto fail;
    cpim_err rc = cpim_aes_set_key(ctx, bench_key, 16);
    if (rc == CPIM_OK && aes_len)
        rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, w->in, w->ref, aes_len);
    if (rc == CPIM_OK && n_msgs)
        rc = cpim_sha256_batch(ctx, w->msgs, w->lens, n_msgs, w->ref_dig);
    cpim_close(ctx);
    if (rc != CPIM_OK) {
        cli_error("bench: reference computation failed: %s", cpim_strerror(rc));
        goto fail;
    }
    return 0;
nomem:
    cli_error("bench: out of memory");
fail:
    work_free(w);
    return -1;
}

enum kern { K_AES, K_SHA };
static const char *const kern_name[] = {"aes-128-ecb", "sha256"};

static size_t work_bytes(const work *w, enum kern k)
{
    return k == K_AES ? w->aes_len : w->n_msgs * w->msg_len;
}

static cpim_err run_kernel(cpim_ctx *ctx, work *w, enum kern k)
{
    if (k == K_AES)
        return cpim_aes_ecb(ctx, CPIM_ENCRYPT, w->in, w->out, w->aes_len);
    return cpim_sha256_batch(ctx, w->msgs, w->lens, w->n_msgs, w->dig);
}

/* Output check.  Full runs: every byte must match.  Sampled (timing-only)
 * runs return no output: the library must have zeroed it all, so that no
 * unsimulated DPU's memory passes for a result.  Returns 0 when it passes. */
static int check_output(bench *b, work *w, enum kern k, int sampled, const char *what)
{
    size_t n = k == K_AES ? w->aes_len / 16 : w->n_msgs, right = 0;
    static const uint8_t zero[32];
    for (size_t i = 0; i < n; i++) {
        const uint8_t *got = k == K_AES ? w->out + 16 * i : w->dig[i];
        const uint8_t *want = sampled ? zero : k == K_AES ? w->ref + 16 * i : w->ref_dig[i];
        right += !memcmp(got, want, k == K_AES ? 16 : 32);
    }
    if (right == n)
        return 0;
    cli_error("bench: %s: %s output wrong (%zu of %zu units %s)", what, kern_name[k], n - right, n,
              sampled ? "not zeroed by a timing-only run" : "differ from the reference");
    b->failed = 1;
    return -1;
}

/* ---- CPU baselines (measured clock) --------------------------------------------------- */

typedef struct {
    const char *impl;    /* row name                               */
    const char *backend; /* cryptopim backend, or NULL for a lib   */
    const cmp_impl *lib; /* comparison library (one thread)        */
    unsigned threads;
} cpu_impl;

/* Best wall time of >= 3 runs and >= 0.3 s (after one checked warm-up). */
static double cpu_time(bench *b, const cpu_impl *ci, work *w, enum kern k)
{
    cpim_ctx *ctx = NULL;
    void *st = NULL;
    const char *why = "";
    if (ci->backend) {
        cpim_backend_info info;
        if (cpim_backend_info_by_name(ci->backend, &info) != CPIM_OK || !info.available)
            return -1;
        cpim_options o;
        cpim_options_init(&o);
        o.threads = ci->threads;
        if (cpim_open(&ctx, ci->backend, &o) != CPIM_OK ||
            cpim_aes_set_key(ctx, bench_key, 16) != CPIM_OK) {
            cpim_close(ctx);
            return -1;
        }
    } else {
        if ((k == K_AES && !ci->lib->ecb_enc) || (k == K_SHA && !ci->lib->sha256_batch))
            return -1;
        st = ci->lib->open(bench_key, &why);
        if (!st)
            return -1;
    }
    double best = 1e300, spent = 0;
    int bad = 0;
    /* run 0 is the checked warm-up; then >= 2 timed runs and >= 0.3 s */
    for (unsigned r = 0; !bad && (r < 3 || (spent < 0.3 && r < 100)); r++) {
        double t0 = cpim_now();
        int rc;
        if (ctx)
            rc = run_kernel(ctx, w, k) == CPIM_OK ? 0 : -1;
        else if (k == K_AES)
            rc = ci->lib->ecb_enc(st, w->in, w->out, w->aes_len);
        else
            rc = ci->lib->sha256_batch(st, w->msgs, w->lens, w->n_msgs, w->dig);
        double t = cpim_now() - t0;
        if (rc != 0) {
            bad = 1;
            break;
        }
        if (r == 0) {
            if (check_output(b, w, k, 0, ci->impl) != 0)
                bad = 1;
            continue; /* warm-up */
        }
        spent += t;
        if (t < best)
            best = t;
    }
    if (ctx)
        cpim_close(ctx);
    else
        ci->lib->close(st);
    return bad ? -2 : best;
}

/* The CPU comparison set for kernel k: portable code on all cores, the
 * hardware backend, and (SHA-256) intel-ipsec-mb's multi-buffer code. */
static size_t cpu_impls(bench *b, enum kern k, int one_thread, cpu_impl *out)
{
    size_t n = 0;
    out[n++] = (cpu_impl){"cpu", "cpu", NULL, b->cores};
    if (one_thread)
        out[n++] = (cpu_impl){"cpu-1t", "cpu", NULL, 1};
    out[n++] =
        (cpu_impl){k == K_AES ? "aesni" : "shani", k == K_AES ? "aesni" : "shani", NULL, b->cores};
    for (size_t i = 0; i < cmp_count(); i++) {
        const cmp_impl *l = cmp_at(i);
        if (!strcmp(l->name, "ipsec-mb") && k == K_SHA)
            out[n++] = (cpu_impl){"ipsec-mb-multibuffer", NULL, l, 1};
    }
    return n;
}

static void cpu_rows(bench *b, work *w, enum kern k, unsigned ranks, unsigned dpus, int one_thread)
{
    cpu_impl ci[6];
    size_t n = cpu_impls(b, k, one_thread, ci);
    for (size_t i = 0; i < n; i++) {
        double t = cpu_time(b, &ci[i], w, k);
        if (t == -2)
            b->failed = 1;
        if (t < 0)
            continue;
        row_cfg c = {kern_name[k], ci[i].impl, "-",           ranks,
                     dpus,         0,          ci[i].threads, work_bytes(w, k)};
        row(b, &c, "total", t, 0, CPIM_CLOCK_MEASURED, -1);
    }
}

/* ---- PIM runs (modeled clock) -------------------------------------------------------- */

typedef struct {
    unsigned dpus, ranks, tasklets;
    cpim_pim_mode mode;
    int sampled;
    int cycles; /* DPUs at 1000 MHz and no launch overhead: kernel seconds x
                 * 1e9 = DPU cycles, whatever the machine's clock */
} pim_cfg;

static const char *mode_name(cpim_pim_mode m)
{
    return m == CPIM_PIM_ASYNC_XFER   ? "async-xfer"
           : m == CPIM_PIM_ASYNC_EXEC ? "async-exec"
                                      : "sync";
}

/* One run; fills *st.  Returns 0, or -1 (error reported, b->failed set). */
static int pim_run(bench *b, const pim_cfg *pc, work *w, enum kern k, cpim_stats *st)
{
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = pc->dpus;
    o.ranks = pc->ranks;
    o.tasklets = pc->tasklets;
    o.mode = pc->mode;
    /* virtual UPMEM only: the machine it models; host work on the caller's
     * CPU clock, so the simulator's threads (which share this machine's
     * cores) do not inflate it -- $UPMEM_PROFILE comes after the program's
     * string, as in the SDK, so UPMEM_PROFILE=hostClock=none overrides it;
     * and the DPU sampling, a timing-only run (see the top of the file) */
    char prof[sizeof b->profile + 32];
    snprintf(prof, sizeof prof, "%s%s", b->profile, pc->cycles ? ",clockMhz=1000,launchUs=0" : "");
    o.profile = b->sample_ok ? prof : NULL;
    o.timing_only = pc->sampled;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    if (rc == CPIM_OK)
        rc = cpim_aes_set_key(ctx, bench_key, 16);
    if (rc == CPIM_OK) {
        /* not zero: a timing-only run must zero it */
        if (k == K_AES)
            memset(w->out, 0xa5, w->aes_len);
        else
            memset(w->dig, 0xa5, w->n_msgs * 32);
        rc = run_kernel(ctx, w, k);
        if (pc->sampled && rc == CPIM_ERR_TIMING_ONLY)
            rc = CPIM_OK;
        else if (pc->sampled && rc == CPIM_OK)
            rc = CPIM_ERR_PIM; /* a timing-only run must never return a result */
    }
    if (rc == CPIM_OK)
        rc = cpim_last_stats(ctx, st);
    cpim_close(ctx);
    if (rc != CPIM_OK) {
        cli_error("bench: pim %s (%u ranks, %u DPUs, %u tasklets, %s): %s", kern_name[k], pc->ranks,
                  pc->dpus, pc->tasklets, mode_name(pc->mode), cpim_strerror(rc));
        b->failed = 1;
        return -1;
    }
    if (!st->has_modeled) {
        cli_error("bench: the pim backend reported no modeled clock (real hardware?)");
        b->failed = 1;
        return -1;
    }
    char what[96];
    snprintf(what, sizeof what, "pim %u ranks %u DPUs %s", st->ranks, st->dpus,
             mode_name(pc->mode));
    return check_output(b, w, k, pc->sampled, what);
}

/* Does the UPMEM layer accept profile (with sampleDpus, which a
 * timing-only run adds on the virtual UPMEM)?  Only the virtual UPMEM
 * knows sampleDpus, hostClock and machine. */
static int probe_profile(const char *profile, unsigned ranks)
{
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = ranks ? 0 : 1;
    o.ranks = ranks;
    o.profile = profile;
    o.timing_only = 1;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    cpim_close(ctx);
    return rc == CPIM_OK;
}

static int pim_available(void)
{
    cpim_backend_info info;
    return cpim_backend_info_by_name("pim", &info) == CPIM_OK && info.available;
}

/* ---- roofline ------------------------------------------------------------------------ */

typedef struct {
    uint8_t *src, *dst;
} copy_arg;

/* The roofline's own fan-out (the experiments see only the public API):
 * fn(arg, begin, end) on `threads` equal parts of [0, n), each a multiple
 * of `grain` but the last, one thread each (the caller runs part 0). */
typedef struct {
    void (*fn)(void *, size_t, size_t);
    void *arg;
    size_t begin, end;
} part;

static void *run_part(void *p)
{
    part *q = p;
    q->fn(q->arg, q->begin, q->end);
    return NULL;
}

static void on_threads(unsigned threads, size_t n, size_t grain, void (*fn)(void *, size_t, size_t),
                       void *arg)
{
    part parts[64];
    pthread_t th[64];
    int started[64] = {0};
    if (threads > 64)
        threads = 64;
    size_t step = (n / threads + grain - 1) / grain * grain;
    for (unsigned i = 0; i < threads; i++) {
        size_t b = i * step < n ? i * step : n, e = b + step < n ? b + step : n;
        parts[i] = (part){fn, arg, b, i + 1 == threads ? n : e};
    }
    for (unsigned i = 1; i < threads; i++)
        started[i] = pthread_create(&th[i], NULL, run_part, &parts[i]) == 0;
    run_part(&parts[0]);
    for (unsigned i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            run_part(&parts[i]); /* no thread: the work is still done */
    }
}

static void copy_range(void *arg, size_t begin, size_t end)
{
    copy_arg *a = arg;
    memcpy(a->dst + begin, a->src + begin, end - begin);
}

typedef struct {
    uint64_t iters;
    uint64_t sink[64];
} alu_arg;

/* 8 independent dependency chains of add/xor/rotate: what one core retires
 * at most on simple integer work (the "ops" of the kernels are the same
 * kind: xor, add, shift/rotate, load). */
static void alu_range(void *arg, size_t begin, size_t end)
{
    alu_arg *a = arg;
    for (size_t t = begin; t < end; t++) {
        uint32_t x0 = (uint32_t)t, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5,
                 x6 = x0 + 6, x7 = x0 + 7;
        for (uint64_t i = 0; i < a->iters; i++) {
            x0 = (x0 + 0x9e3779b9u) ^ (x0 >> 7);
            x1 = (x1 + 0x9e3779b9u) ^ (x1 >> 7);
            x2 = (x2 + 0x9e3779b9u) ^ (x2 >> 7);
            x3 = (x3 + 0x9e3779b9u) ^ (x3 >> 7);
            x4 = (x4 + 0x9e3779b9u) ^ (x4 >> 7);
            x5 = (x5 + 0x9e3779b9u) ^ (x5 >> 7);
            x6 = (x6 + 0x9e3779b9u) ^ (x6 >> 7);
            x7 = (x7 + 0x9e3779b9u) ^ (x7 >> 7);
            __asm__ volatile("" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3));
        }
        a->sink[t % 64] = (uint64_t)x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
    }
}

/* Modeled DPU cycles per byte on one DPU at 16 tasklets (compute-bound, IPC
 * ~1): the kernel's operations per byte on the virtual DPU's RV32 proxy ISA.
 * 0 if the pim backend is missing. */
static double pim_ops_per_byte(bench *b, enum kern k)
{
    if (!pim_available())
        return 0;
    work w;
    if (work_init(&w, k == K_AES ? 256 * 1024 : 0, k == K_SHA ? 16 : 0, 16 * 1024) != 0)
        return 0;
    pim_cfg pc = {1, 0, 16, CPIM_PIM_SYNC, 0, b->sample_ok};
    cpim_stats st;
    double opb = 0;
    /* DPU cycles per byte (IPC ~1 at 16 tasklets): at 1000 MHz without
     * launch overhead on the virtual UPMEM; on hardware the kernel time at
     * PrIM's 350 MHz */
    double hz = b->sample_ok ? 1e9 : 350e6;
    if (pim_run(b, &pc, &w, k, &st) == 0)
        opb = st.modeled.kernel_s * hz / (double)work_bytes(&w, k);
    work_free(&w);
    return opb;
}

static int exp_roofline(bench *b)
{
    fprintf(b->csv, "name,intensity_ops_per_B,performance_Gops,bandwidth_GBps,ops_per_B,"
                    "threads,clock,note\n");
    /* memory bandwidth: STREAM-like copy, read + write counted */
    size_t n = b->quick ? (32u << 20) : (512u << 20);
    copy_arg ca = {malloc(n), malloc(n)};
    if (!ca.src || !ca.dst) {
        free(ca.src);
        free(ca.dst);
        cli_error("bench: out of memory");
        return -1;
    }
    memset(ca.src, 1, n);
    memset(ca.dst, 2, n);
    double bw = 0;
    for (int r = 0; r < 5; r++) {
        double t0 = cpim_now();
        on_threads(b->cores, n, 1u << 20, copy_range, &ca);
        double t = cpim_now() - t0;
        if (2.0 * n / t / 1e9 > bw)
            bw = 2.0 * n / t / 1e9;
    }
    free(ca.src);
    free(ca.dst);
    progress("roofline: memory bandwidth %.2f GB/s (measured, copy, %u threads)", bw, b->cores);
    /* peak simple-integer throughput */
    alu_arg aa;
    memset(&aa, 0, sizeof aa);
    aa.iters = b->quick ? 2000000 : 50000000;
    double peak = 0;
    for (int r = 0; r < 3; r++) {
        double t0 = cpim_now();
        on_threads(b->cores, b->cores, 1, alu_range, &aa);
        double t = cpim_now() - t0;
        double g = (double)b->cores * (double)aa.iters * 8 * 3 / t / 1e9;
        if (g > peak)
            peak = g;
    }
    progress("roofline: integer peak %.1f Gops/s (measured, %u threads)", peak, b->cores);
    fprintf(b->csv, "host memory roof,,,%.3f,,%u,measured,STREAM-like copy (read+write)\n", bw,
            b->cores);
    fprintf(b->csv, "host compute roof,,%.3f,,,%u,measured,8 chains of add/xor/shift\n", peak,
            b->cores);
    /* the kernels: ops/B from the virtual DPU; achieved throughput here */
    for (int k = K_AES; k <= K_SHA; k++) {
        double opb = pim_ops_per_byte(b, (enum kern)k);
        if (opb <= 0) {
            /* no pim backend: fall back to an operation count of the
             * portable code (documented in docs/RESULTS.md) */
            opb = k == K_AES ? 45.0 : 38.0;
        }
        work w;
        if (work_init(&w, k == K_AES ? (b->quick ? 1u << 20 : 64u << 20) : 0,
                      k == K_SHA ? (b->quick ? 32 : 2048) : 0, 32 * 1024) != 0)
            return -1;
        cpu_impl ci = {"cpu", "cpu", NULL, b->cores};
        double t = cpu_time(b, &ci, &w, (enum kern)k);
        double gbs = t > 0 ? (double)work_bytes(&w, (enum kern)k) / t / 1e9 : 0;
        /* DRAM traffic per payload byte: AES reads and writes it (2 B),
         * SHA-256 only reads it (1 B). */
        double dram = k == K_AES ? 2.0 : 1.0;
        fprintf(b->csv,
                "%s (DRAM bytes),%.3f,%.3f,%.3f,%.2f,%u,measured,"
                "ops/B from the virtual DPU (modeled); throughput measured\n",
                kern_name[k], opb / dram, gbs * opb, gbs, opb, b->cores);
        progress("roofline: %s %.1f ops/B, intensity %.1f ops/DRAM-B, %.2f GB/s here", kern_name[k],
                 opb, opb / dram, gbs);
        work_free(&w);
    }
    return 0;
}

/* ---- tasklets (Fig. 3) --------------------------------------------------------------------- */

static int exp_tasklets(bench *b)
{
    if (!pim_available()) {
        progress("tasklets: the pim backend is not available; skipped");
        return 0;
    }
    for (int k = K_AES; k <= K_SHA; k++) {
        work w;
        size_t aes = b->quick ? 64 * 1024 : 8u << 20;
        size_t nm = b->quick ? 24 : 96;
        if (work_init(&w, k == K_AES ? aes : 0, k == K_SHA ? nm : 0, b->quick ? 4096 : 32 * 1024) !=
            0)
            return -1;
        double base = 0;
        for (unsigned t = 1; t <= 24; t++) {
            if (b->quick && !(t == 1 || t == 11 || t == 16))
                continue;
            progress("tasklets: %s, 1 DPU, %u tasklets", kern_name[k], t);
            pim_cfg pc = {1, 0, t, CPIM_PIM_SYNC, 0, 0};
            cpim_stats st;
            if (pim_run(b, &pc, &w, (enum kern)k, &st) != 0)
                continue;
            if (t == 1)
                base = st.modeled.kernel_s;
            row_cfg c = {kern_name[k], "pim", "sync", 1, 1, t, 0, work_bytes(&w, (enum kern)k)};
            phase_rows(b, &c, &st.modeled, base > 0 ? base / st.modeled.kernel_s : 0,
                       st.modeled_joules);
        }
        work_free(&w);
    }
    return 0;
}

/* ---- strong / weak (Figs. 4-5) ------------------------------------------------------------ */

static const unsigned dpu_points[] = {1, 2, 4, 8, 16, 32, 64};
#define N_DPU_POINTS (sizeof dpu_points / sizeof dpu_points[0])

static int exp_scaling(bench *b, int weak)
{
    if (!pim_available())
        progress("%s: the pim backend is not available; CPU rows only", b->exp);
    for (int k = K_AES; k <= K_SHA; k++) {
        double base = 0;
        work w;
        memset(&w, 0, sizeof w);
        for (size_t i = 0; i < N_DPU_POINTS; i++) {
            unsigned n = dpu_points[i];
            if (b->quick && n > 4)
                break;
            if (weak || i == 0) {
                size_t aes, nm, ml = b->quick ? 4096 : 32 * 1024;
                if (weak) {
                    aes = (b->quick ? 64u * 1024 : 1u << 20) * n;
                    nm = (b->quick ? 4 : 16) * (size_t)n;
                } else {
                    aes = b->quick ? 256u * 1024 : 8u << 20;
                    nm = b->quick ? 32 : 1024;
                }
                work_free(&w);
                if (work_init(&w, k == K_AES ? aes : 0, k == K_SHA ? nm : 0, ml) != 0)
                    return -1;
                /* the CPU baselines on the same total problem */
                if (weak || i == 0) {
                    progress("%s: %s, CPU baselines, %zu bytes", b->exp, kern_name[k],
                             work_bytes(&w, (enum kern)k));
                    cpu_rows(b, &w, (enum kern)k, 0, n, 1);
                }
            }
            if (!pim_available())
                continue;
            /* sampling is exact here: every DPU gets the same work */
            int sampled = b->sample && b->sample_ok && n > 1;
            progress("%s: %s, %u DPUs%s", b->exp, kern_name[k], n, sampled ? " (sampled)" : "");
            pim_cfg pc = {n, 0, 16, CPIM_PIM_SYNC, sampled, 0};
            cpim_stats st;
            if (pim_run(b, &pc, &w, (enum kern)k, &st) != 0)
                continue;
            if (n == 1)
                base = st.modeled.kernel_s;
            row_cfg c = {kern_name[k], "pim", "sync", 1, n, 16, 0, work_bytes(&w, (enum kern)k)};
            double sp = weak ? (st.modeled.kernel_s > 0 ? base / st.modeled.kernel_s : 0)
                             : (st.modeled.kernel_s > 0 ? base / st.modeled.kernel_s : 0);
            phase_rows(b, &c, &st.modeled, sp, st.modeled_joules);
        }
        work_free(&w);
    }
    return 0;
}

/* ---- ranks (Figs. 6-7) ------------------------------------------------------------------ */

static int exp_ranks(bench *b)
{
    static const unsigned full_pts[] = {1, 2, 4, 8, 16, 24, 32, 40};
    static const unsigned slow_pts[] = {1, 2};
    static const unsigned quick_pts[] = {1, 2};
    const unsigned *pts = full_pts;
    size_t npts = sizeof full_pts / sizeof full_pts[0];
    int sampled = b->sample && b->sample_ok;
    if (b->quick) {
        pts = quick_pts;
        npts = 2;
    } else if (!sampled) {
        progress("ranks: DPU sampling unavailable: only 1 and 2 ranks (a full run needs "
                 "the sampleDpus profile key; see docs/MODEL.md)");
        pts = slow_pts;
        npts = 2;
    }
    size_t per_rank = b->quick ? (1u << 20) : (32u << 20);
    size_t ml = b->quick ? 4096 : 32 * 1024;
    for (int k = K_AES; k <= K_SHA; k++) {
        for (size_t i = 0; i < npts; i++) {
            unsigned r = pts[i];
            if (pim_available() && b->sample_ok && !probe_profile(b->profile, r)) {
                progress("ranks: the modeled machine (%s) has fewer than %u ranks: stop at %u",
                         b->machine, r, i ? pts[i - 1] : 0);
                break;
            }
            work w;
            size_t total = per_rank * r;
            if (work_init(&w, k == K_AES ? total : 0, k == K_SHA ? total / ml : 0, ml) != 0)
                return -1;
            progress("ranks: %s, %u ranks, %zu MiB, CPU baselines", kern_name[k], r, total >> 20);
            cpu_rows(b, &w, (enum kern)k, r, r * 64, 0);
            for (int m = CPIM_PIM_ASYNC_XFER; m <= CPIM_PIM_ASYNC_EXEC && pim_available(); m++) {
                progress("ranks: %s, %u ranks, %s%s", kern_name[k], r, mode_name((cpim_pim_mode)m),
                         sampled ? " (sampled)" : "");
                pim_cfg pc = {0, r, 16, (cpim_pim_mode)m, sampled, 0};
                cpim_stats st;
                if (pim_run(b, &pc, &w, (enum kern)k, &st) != 0)
                    continue;
                row_cfg c = {kern_name[k], "pim", mode_name((cpim_pim_mode)m), r, st.dpus, 16, 0,
                             total};
                phase_rows(b, &c, &st.modeled, 0, st.modeled_joules);
            }
            work_free(&w);
        }
    }
    return 0;
}

/* ---- servers (issue 18: cryptopim-mpi, docs/MPI.md) ------------------------------------- */

/* The link model of cryptopim-mpi (mpi/main.c, docs/MPI.md "Two clocks"),
 * with the same defaults and sources: 100 Gb/s per server (one EDR
 * InfiniBand / 100 GbE port, the figure) and 2 us per message (OSU
 * osu_latency reports about 1 us on EDR InfiniBand; rounded up for a switch
 * hop and the MPI software); CRYPTOPIM_NET_GBPS / CRYPTOPIM_NET_LATENCY_US
 * override both, as for cryptopim-mpi. */
static int env_pos(const char *name, double dflt, double *out)
{
    *out = dflt;
    return cli_env_decimal(name, 0.001, 1e9, out) < 0 ? -1 : 0; /* cryptopim-mpi's range */
}

/* cryptopim-mpi enc's collectives on the critical path (mpi/encdec.c), each
 * ceil(log2 N) message steps: the parse verdict; the key's failure check;
 * the argument check (mpi/argcheck.c: the nonce, its failure check, rank
 * 0's digests, the verdicts gathered, the outcome); the size; the
 * backend's failure check; the temporary file (its success, its name); the
 * MPI-IO open check; the ranges' check; the close check; the outcome (GCM
 * adds three). */
#define SERVERS_COLLECTIVES 15
#define SERVERS_CHUNK       (8u << 20) /* cryptopim-mpi's pim chunk: one MPI-IO call each way */

/* 1..64 servers of R ranks (the modeled machine's 40), each with 32 MiB of
 * AES (or SHA-256 in 32 KiB messages) per rank: one server's PIM time is
 * modeled once (every server runs the same work on its own machine); the
 * network is the link model, in two set-ups:
 *   net-shared    the data on a parallel file system with a link per server:
 *                 each server moves its own bytes (AES in and out, SHA-256
 *                 in) through its link; the fabric is assumed non-blocking
 *   net-one-link  the data comes from (and AES goes back to) ONE place with
 *                 one link -- a storage head or a client: that link carries
 *                 every server's bytes
 * Run time (modeled) = the slowest server's PIM time + network time, as
 * cryptopim-mpi's clock (no overlap assumed: an upper bound). */
static int exp_servers(bench *b)
{
    static const unsigned full_pts[] = {1, 2, 4, 8, 16, 32, 64};
    static const unsigned quick_pts[] = {1, 4, 64};
    const unsigned *pts = b->quick ? quick_pts : full_pts;
    size_t npts = b->quick ? 3 : sizeof full_pts / sizeof full_pts[0];
    double gbps, lat_us;
    if (env_pos("CRYPTOPIM_NET_GBPS", 100, &gbps) != 0 ||
        env_pos("CRYPTOPIM_NET_LATENCY_US", 2, &lat_us) != 0)
        return -1;
    double bps = gbps * 1e9 / 8, lat = lat_us * 1e-6;
    int sampled = b->sample && b->sample_ok;
    unsigned ranks = b->quick || !sampled ? 1 : 40;
    if (!b->quick && !sampled)
        progress("servers: DPU sampling unavailable: servers of 1 rank (a full run needs the "
                 "sampleDpus profile key; see docs/MODEL.md)");
    if (pim_available() && b->sample_ok && !probe_profile(b->profile, ranks)) {
        progress("servers: the modeled machine (%s) has fewer than %u ranks: 1 rank per server",
                 b->machine, ranks);
        ranks = 1;
    }
    size_t per_rank = b->quick ? (1u << 20) : (32u << 20);
    size_t ml = b->quick ? 4096 : 32 * 1024;
    for (int k = K_AES; k <= K_SHA && pim_available(); k++) {
        work w;
        size_t d = per_rank * ranks; /* bytes per server */
        if (work_init(&w, k == K_AES ? d : 0, k == K_SHA ? d / ml : 0, ml) != 0)
            return -1;
        progress("servers: %s, one server of %u ranks, %zu MiB%s", kern_name[k], ranks, d >> 20,
                 sampled ? " (sampled)" : "");
        pim_cfg pc = {0, ranks, 16, CPIM_PIM_ASYNC_XFER, sampled, 0};
        cpim_stats st;
        int rc = pim_run(b, &pc, &w, (enum kern)k, &st);
        work_free(&w);
        if (rc != 0)
            continue;
        double t_pim = st.modeled.total_s;
        /* the bytes each server moves: AES reads and writes its range;
         * SHA-256 reads its files and sends back 32 bytes per message */
        double moved = k == K_AES ? 2.0 * (double)d : (double)d + 32.0 * (double)(d / ml);
        double io_calls =
            k == K_AES ? 2.0 * (double)((d + SERVERS_CHUNK - 1) / SERVERS_CHUNK) : (double)(d / ml);
        unsigned limit_shared = 0, limit_one = 0;
        for (size_t i = 0; i < npts; i++) {
            unsigned n = pts[i], steps = 0;
            while ((1u << steps) < n)
                steps++;
            double coll = SERVERS_COLLECTIVES * steps * lat;
            double net_shared = moved / bps + io_calls * lat + coll;
            double net_one = (double)n * moved / bps + (double)n * io_calls * lat + coll;
            static const char *const setup[] = {"net-shared", "net-one-link"};
            double nets[2] = {net_shared, net_one};
            for (int s = 0; s < 2; s++) {
                row_cfg c = {kern_name[k], "pim", setup[s], n * ranks,
                             n * st.dpus,  16,    0,        (size_t)n * d};
                row(b, &c, "pim", t_pim, 0, CPIM_CLOCK_MODELED, -1);
                row(b, &c, "network", nets[s], 0, CPIM_CLOCK_MODELED, -1);
                row(b, &c, "total", t_pim + nets[s], 0, CPIM_CLOCK_MODELED, -1);
            }
            if (!limit_shared && net_shared > t_pim)
                limit_shared = n;
            if (!limit_one && net_one > t_pim)
                limit_one = n;
        }
        progress("servers: %s: one server's PIM %.4f s for %zu MiB (modeled); the network "
                 "exceeds the PIM time from %u server%s with a link per server (net-shared), "
                 "from %u with one link for all (net-one-link); 0 = not within 1..%u (modeled, "
                 "%.0f Gb/s, %.1f us/message)",
                 kern_name[k], t_pim, d >> 20, limit_shared, limit_shared == 1 ? "" : "s",
                 limit_one, pts[npts - 1], bps * 8 / 1e9, lat * 1e6);
    }
    /* Resident in place (issue 17's regions, exp_resident.c): the same bytes
     * per server already in its MRAM, encrypted, re-keyed and hashed where
     * they are.  Nothing crosses the network but the collectives (the
     * command's checks) and, for SHA-256, each server's Merkle root (32
     * bytes, one message) for rank 0 to combine. */
    if (pim_available()) {
        bench_exp_env e = {b->csv,
                           b->exp,
                           b->sample_ok ? b->profile : NULL,
                           machine_label(b, CPIM_CLOCK_MODELED),
                           b->quick,
                           sampled};
        static const char *const kn[3] = {"aes-xts-encrypt-in-place", "aes-xts-rekey-in-place",
                                          "sha256-merkle-in-place"};
        size_t per_dpu = per_rank / 64, d = 0;
        double t[3];
        unsigned dpus = 0;
        progress("servers: resident in place, one server of %u ranks, %zu MiB%s", ranks,
                 (per_rank * ranks) >> 20, sampled ? " (sampled)" : "");
        if (bench_resident_server(&e, ranks, per_dpu, t, &dpus, &d) != 0)
            return -1;
        for (int k = 0; k < 3; k++) {
            double moved = k == 2 ? 32.0 : 0.0, msgs = k == 2 ? 1.0 : 0.0;
            for (size_t i = 0; i < npts; i++) {
                unsigned n = pts[i], steps = 0;
                while ((1u << steps) < n)
                    steps++;
                double coll = SERVERS_COLLECTIVES * steps * lat;
                double nets[2] = {moved / bps + msgs * lat + coll,
                                  (double)n * moved / bps + (double)n * msgs * lat + coll};
                static const char *const setup[] = {"net-shared", "net-one-link"};
                for (int s = 0; s < 2; s++) {
                    row_cfg c = {kn[k], "pim", setup[s], n * ranks, n * dpus, 16, 0, (size_t)n * d};
                    row(b, &c, "pim", t[k], 0, CPIM_CLOCK_MODELED, -1);
                    row(b, &c, "network", nets[s], 0, CPIM_CLOCK_MODELED, -1);
                    row(b, &c, "total", t[k] + nets[s], 0, CPIM_CLOCK_MODELED, -1);
                }
            }
            unsigned last = pts[npts - 1], steps = 0;
            while ((1u << steps) < last)
                steps++;
            progress("servers: %s: one server %.4f s for %zu MiB (modeled); at %u servers the "
                     "network adds %.1f us with one link for all (modeled)",
                     kn[k], t[k], d >> 20, last,
                     1e6 * (SERVERS_COLLECTIVES * steps * lat + (double)last * moved / bps +
                            (double)last * msgs * lat));
        }
    }
    return 0;
}

/* ---- ntt (issue 16; docs/NTT.md, "Experiment") ------------------------------------------ */

/* Batches of negacyclic NTTs / polynomial products of N coefficients in L
 * word limbs.  Rows, in this order (the plot draws the first two kernels over
 * ranks): (1) 1..40 ranks of the --machine, forward NTTs and polynomial
 * products of N = 4096, sync and async-xfer, sampled (timing-only), beside
 * the CPU backends measured on the same batch; (2) DRAMatic's case, 32,768
 * forward NTTs of N = 4096 on machine=dramatic (6 ranks, 383 DPUs), async-xfer,
 * sampled; (3) one DPU, 1..24 tasklets, both tasklet schedules (kernel rows,
 * speedup over 1 tasklet), and WRAM blocks of 2^6 vs 2^8 at 16 tasklets; (4)
 * one DPU, 16 tasklets, N = 1024..16384 and L = 1..3; (5) a double-word
 * modulus (62 bits, the ntt64 program): one DPU, 16 tasklets, forward and
 * polymul of N = 4096, and 4,096 forward NTTs at 1, 10, 40 ranks (async-xfer,
 * sampled) beside the CPU backends.  Unsampled outputs are
 * checked against the cpu backend, sampled ones must be zero.  Every pim row
 * is on the modeled clock, every CPU row on the measured one. */

typedef struct {
    size_t n, L, count; /* ring and batch */
    int op;             /* 0 forward, 3 polymul (cryptopim_ntt.h's order) */
    uint64_t q[3];
    uint64_t *a, *b, *out, *ref;
} ntt_work;

static int ntt_prime(uint64_t q)
{
    for (uint64_t d = 2; d * d <= q; d++)
        if (q % d == 0)
            return 0;
    return q > 1;
}

static void ntt_work_free(ntt_work *w)
{
    free(w->a), free(w->b), free(w->out), free(w->ref);
    memset(w, 0, sizeof *w);
}

static size_t ntt_words(const ntt_work *w)
{
    return w->count * w->L * w->n;
}

static cpim_err ntt_call(cpim_ctx *ctx, ntt_work *w, uint64_t *out)
{
    cpim_ntt *r = NULL;
    cpim_err rc = cpim_ntt_create(ctx, w->n, w->q, w->L, &r);
    if (rc == CPIM_OK)
        rc = w->op == 3 ? cpim_ntt_polymul(r, w->a, w->b, out, w->count)
                        : cpim_ntt_forward(r, w->a, out, w->count);
    cpim_ntt_destroy(r);
    return rc;
}

/* Inputs and (ref != 0) the cpu backend's result. */
/* q0: 0 for L word primes below 2^31, else the one modulus (L = 1). */
static int ntt_work_init(ntt_work *w, size_t n, size_t L, size_t count, int op, int ref,
                         uint64_t q0)
{
    memset(w, 0, sizeof *w);
    w->n = n, w->L = L, w->count = count, w->op = op;
    uint64_t q = ((1ull << 31) - 1) / (2 * n) * (2 * n) + 1;
    for (size_t j = 0; j < L && !q0; q -= 2 * n)
        if (q < (1ull << 31) && ntt_prime(q))
            w->q[j++] = q;
    if (q0)
        w->q[0] = q0;
    size_t words = ntt_words(w);
    w->a = malloc(words * 8), w->out = malloc(words * 8);
    w->b = op == 3 ? malloc(words * 8) : NULL;
    w->ref = ref ? malloc(words * 8) : NULL;
    if (!w->a || !w->out || (op == 3 && !w->b) || (ref && !w->ref)) {
        cli_error("bench: out of memory");
        ntt_work_free(w);
        return -1;
    }
    uint64_t x = g_rng;
    for (size_t i = 0; i < words; i++) {
        x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
        uint64_t m = w->q[(i / n) % L];
        w->a[i] = (x * 0x2545f4914f6cdd1dull) % m;
        if (w->b)
            w->b[i] = (x * 0x9e3779b97f4a7c15ull) % m;
    }
    g_rng = x;
    if (ref) {
        cpim_ctx *ctx = cli_open("cpu", NULL);
        cpim_err rc = ctx ? ntt_call(ctx, w, w->ref) : CPIM_ERR_UNAVAILABLE;
        cpim_close(ctx);
        if (rc != CPIM_OK) {
            cli_error("bench: NTT reference failed: %s", cpim_strerror(rc));
            ntt_work_free(w);
            return -1;
        }
    }
    return 0;
}

static void ntt_kernel_name(char *s, size_t len, const ntt_work *w, const char *extra)
{
    snprintf(s, len, "ntt-%s-n%zu-l%zu%s%s", w->op == 3 ? "polymul" : "forward", w->n, w->L,
             w->q[0] >> 31 ? "-d62" : "", extra);
}

/* One pim run; 0 or -1 (reported, b->failed set). */
static int ntt_pim_run(bench *b, const pim_cfg *pc, const char *machine, const char *extra_prof,
                       ntt_work *w, cpim_stats *st)
{
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = pc->dpus;
    o.ranks = pc->ranks;
    o.tasklets = pc->tasklets;
    o.mode = pc->mode;
    char prof[256];
    snprintf(prof, sizeof prof, "machine=%s,hostClock=thread%s%s", machine, *extra_prof ? "," : "",
             extra_prof);
    o.profile = b->sample_ok ? prof : extra_prof;
    o.timing_only = pc->sampled;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    if (rc == CPIM_OK) {
        memset(w->out, 0xa5, ntt_words(w) * 8); /* a timing-only run must zero it */
        rc = ntt_call(ctx, w, w->out);
        if (pc->sampled && rc == CPIM_ERR_TIMING_ONLY)
            rc = CPIM_OK;
        else if (pc->sampled && rc == CPIM_OK)
            rc = CPIM_ERR_PIM;
    }
    if (rc == CPIM_OK)
        rc = cpim_last_stats(ctx, st);
    cpim_close(ctx);
    if (rc == CPIM_OK && !st->has_modeled)
        rc = CPIM_ERR_UNSUPPORTED;
    int bad = 0;
    for (size_t i = 0; rc == CPIM_OK && i < ntt_words(w); i++)
        bad |= w->out[i] != (pc->sampled ? 0 : w->ref ? w->ref[i] : w->out[i]);
    if (rc != CPIM_OK || bad) {
        cli_error("bench: pim NTT (N %zu, L %zu, %zu, %u ranks, %u DPUs, %u tasklets, %s): %s",
                  w->n, w->L, w->count, pc->ranks, pc->dpus, pc->tasklets, mode_name(pc->mode),
                  bad ? "output wrong" : cpim_strerror(rc));
        b->failed = 1;
        return -1;
    }
    return 0;
}

/* Best wall time of >= 3 runs and >= 0.3 s of a CPU backend on w (measured). */
static double ntt_cpu_time(bench *b, const char *backend, unsigned threads, ntt_work *w)
{
    cpim_backend_info info;
    if (cpim_backend_info_by_name(backend, &info) != CPIM_OK || !info.available)
        return -1;
    cpim_options o;
    cpim_options_init(&o);
    o.threads = threads;
    cpim_ctx *ctx = NULL;
    if (cpim_open(&ctx, backend, &o) != CPIM_OK)
        return -1;
    double best = -1, spent = 0;
    for (int i = 0; i < 3 || spent < 0.3; i++) {
        double t0 = cpim_now();
        cpim_err rc = ntt_call(ctx, w, w->out);
        double t = cpim_now() - t0;
        if (rc != CPIM_OK || (w->ref && memcmp(w->out, w->ref, ntt_words(w) * 8))) {
            cli_error("bench: %s NTT: %s", backend, rc != CPIM_OK ? cpim_strerror(rc) : "wrong");
            b->failed = 1;
            best = -1;
            break;
        }
        spent += t;
        if (best < 0 || t < best)
            best = t;
    }
    cpim_close(ctx);
    return best;
}

static int exp_ntt(bench *b)
{
    static const unsigned rank_pts[] = {1, 2, 10, 40};
    const int pim = pim_available();
    if (!pim)
        progress("ntt: the pim backend is not available; CPU rows only");
    /* (1) ranks, with the CPU backends on the same batches */
    for (int op = 0; op <= 3; op += 3) {
        ntt_work w;
        size_t count = op == 3 ? (b->quick ? 32 : 1024) : (b->quick ? 128 : 4096);
        if (ntt_work_init(&w, 4096, 1, count, op, 1, 0) != 0)
            return -1;
        char kern[64];
        ntt_kernel_name(kern, sizeof kern, &w, "");
        const size_t bytes = ntt_words(&w) * 8 * (op == 3 ? 2 : 1);
        double cpu_t[3] = {-1, -1, -1};
        static const char *const cpu_names[] = {"cpu", "cpu-1t", "auto"};
        cpu_t[0] = ntt_cpu_time(b, "cpu", b->cores, &w);
        cpu_t[1] = ntt_cpu_time(b, "cpu", 1, &w);
        cpu_t[2] = ntt_cpu_time(b, "auto", b->cores, &w);
        for (size_t i = 0; i < sizeof rank_pts / sizeof *rank_pts; i++) {
            unsigned r = rank_pts[i];
            if (b->quick && r > 2)
                break;
            for (int c = 0; c < 3; c++)
                if (cpu_t[c] > 0) {
                    row_cfg rc = {kern, cpu_names[c], "-", r, 0, 0, c == 1 ? 1 : b->cores, bytes};
                    row(b, &rc, "total", cpu_t[c], 0, CPIM_CLOCK_MEASURED, -1);
                }
            for (int m = 0; pim && m < 2; m++) {
                cpim_pim_mode mode = m ? CPIM_PIM_ASYNC_XFER : CPIM_PIM_SYNC;
                progress("ntt: %s, %zu, %u ranks, %s", kern, count, r, mode_name(mode));
                pim_cfg pc = {0, r, 16, mode, b->sample && b->sample_ok, 0};
                cpim_stats st;
                if (ntt_pim_run(b, &pc, b->machine, "", &w, &st) != 0)
                    continue;
                row_cfg rc = {kern, "pim", mode_name(mode), r, st.dpus, 16, 0, bytes};
                phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
            }
        }
        ntt_work_free(&w);
    }
    if (!pim)
        return 0;
    /* (2) DRAMatic's case on its machine */
    if (b->sample_ok) {
        ntt_work w;
        if (ntt_work_init(&w, 4096, 1, b->quick ? 383 : 32768, 0, 0, 0) != 0)
            return -1;
        for (int m = 0; m < 2; m++) {
            cpim_pim_mode mode = m ? CPIM_PIM_ASYNC_XFER : CPIM_PIM_SYNC;
            progress("ntt: DRAMatic's case, %zu NTTs of N = 4096, machine=dramatic, %s", w.count,
                     mode_name(mode));
            pim_cfg pc = {0, 6, 16, mode, b->sample, 0};
            cpim_stats st;
            if (ntt_pim_run(b, &pc, "dramatic", "", &w, &st) == 0) {
                row_cfg rc = {"ntt-forward-n4096-l1-dramatic",
                              "pim",
                              mode_name(mode),
                              6,
                              st.dpus,
                              16,
                              0,
                              ntt_words(&w) * 8};
                const char *mach = b->machine;
                b->machine = "dramatic"; /* the rows' machine column */
                phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
                b->machine = mach;
            }
        }
        ntt_work_free(&w);
    }
    /* (3) tasklets and schedules on one DPU; blocks */
    for (int sched = 0; sched < 2; sched++) {
        ntt_work w;
        if (ntt_work_init(&w, 4096, 1, b->quick ? 4 : 16, 0, 1, 0) != 0)
            return -1;
        char kern[64], prof[32];
        ntt_kernel_name(kern, sizeof kern, &w, sched ? "-per-tasklet" : "-cooperative");
        snprintf(prof, sizeof prof, "nttSched=%d", sched);
        double base = 0;
        for (unsigned t = 1; t <= 24; t++) {
            if (!(t == 1 || t == 2 || t == 4 || t == 8 || t == 11 || t == 12 || t == 16 ||
                  t == 24) ||
                (b->quick && !(t == 1 || t == 16)))
                continue;
            progress("ntt: %s, %zu NTTs, 1 DPU, %u tasklets", kern, w.count, t);
            pim_cfg pc = {1, 0, t, CPIM_PIM_SYNC, 0, 0};
            cpim_stats st;
            if (ntt_pim_run(b, &pc, b->machine, prof, &w, &st) != 0)
                continue;
            if (t == 1)
                base = st.modeled.kernel_s;
            row_cfg rc = {kern, "pim", "sync", 1, 1, t, 0, ntt_words(&w) * 8};
            phase_rows(b, &rc, &st.modeled, base > 0 ? base / st.modeled.kernel_s : 0,
                       st.modeled_joules);
        }
        ntt_work_free(&w);
    }
    for (int blk = 6; blk <= 8; blk += 2) {
        ntt_work w;
        if (ntt_work_init(&w, 4096, 1, b->quick ? 4 : 16, 0, 1, 0) != 0)
            return -1;
        char kern[64], extra[32], prof[32];
        snprintf(extra, sizeof extra, "-block%d", 1 << blk);
        ntt_kernel_name(kern, sizeof kern, &w, extra);
        snprintf(prof, sizeof prof, "nttBlock=%d", blk);
        progress("ntt: %s, 1 DPU, 16 tasklets", kern);
        pim_cfg pc = {1, 0, 16, CPIM_PIM_SYNC, 0, 0};
        cpim_stats st;
        if (ntt_pim_run(b, &pc, b->machine, prof, &w, &st) == 0) {
            row_cfg rc = {kern, "pim", "sync", 1, 1, 16, 0, ntt_words(&w) * 8};
            phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
        }
        ntt_work_free(&w);
    }
    /* (4) N and L on one DPU */
    for (size_t n = 1024; n <= 16384; n *= 2)
        for (size_t L = 1; L <= 3; L++) {
            if (b->quick && (n > 1024 || L > 2))
                continue;
            ntt_work w;
            if (ntt_work_init(&w, n, L, 16 * 4096 / n, 0, 1, 0) != 0)
                return -1;
            char kern[64];
            ntt_kernel_name(kern, sizeof kern, &w, "-1dpu");
            progress("ntt: %s, %zu polynomials, 1 DPU, 16 tasklets", kern, w.count);
            pim_cfg pc = {1, 0, 16, CPIM_PIM_SYNC, 0, 0};
            cpim_stats st;
            if (ntt_pim_run(b, &pc, b->machine, "", &w, &st) == 0) {
                row_cfg rc = {kern, "pim", "sync", 1, 1, 16, 0, ntt_words(&w) * 8};
                phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
            }
            ntt_work_free(&w);
        }
    /* (5) a double-word modulus: the ntt64 program */
    const uint64_t d62 = 4611686018425815041ull; /* prime, 1 mod 2^17 (bench/ntt_cpu.c's D62) */
    for (int op = 0; op <= 3; op += 3) {
        ntt_work w;
        if (ntt_work_init(&w, 4096, 1, b->quick ? 4 : 16, op, 1, d62) != 0)
            return -1;
        char kern[64];
        ntt_kernel_name(kern, sizeof kern, &w, "-1dpu");
        progress("ntt: %s, %zu polynomials, 1 DPU, 16 tasklets", kern, w.count);
        pim_cfg pc = {1, 0, 16, CPIM_PIM_SYNC, 0, 0};
        cpim_stats st;
        if (ntt_pim_run(b, &pc, b->machine, "", &w, &st) == 0) {
            row_cfg rc = {kern, "pim", "sync", 1, 1, 16, 0, ntt_words(&w) * 8};
            phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
        }
        ntt_work_free(&w);
    }
    if (b->sample_ok) {
        ntt_work w;
        if (ntt_work_init(&w, 4096, 1, b->quick ? 128 : 4096, 0, 1, d62) != 0)
            return -1;
        char kern[64];
        ntt_kernel_name(kern, sizeof kern, &w, "");
        const double cpu_t = ntt_cpu_time(b, "cpu", b->cores, &w);
        for (size_t i = 0; i < sizeof rank_pts / sizeof *rank_pts; i++) {
            unsigned r = rank_pts[i];
            if (r == 2 || (b->quick && r > 2))
                continue;
            if (cpu_t > 0) {
                row_cfg rc = {kern, "cpu", "-", r, 0, 0, b->cores, ntt_words(&w) * 8};
                row(b, &rc, "total", cpu_t, 0, CPIM_CLOCK_MEASURED, -1);
            }
            progress("ntt: %s, %zu, %u ranks, async-xfer", kern, w.count, r);
            pim_cfg pc = {0, r, 16, CPIM_PIM_ASYNC_XFER, b->sample, 0};
            cpim_stats st;
            if (ntt_pim_run(b, &pc, b->machine, "", &w, &st) != 0)
                continue;
            row_cfg rc = {kern, "pim", "async-xfer", r, st.dpus, 16, 0, ntt_words(&w) * 8};
            phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
        }
        ntt_work_free(&w);
    }
    return 0;
}

/* ---- driver ------------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    int (*fn)(bench *b);
    int long_format; /* uses the common long CSV schema */
} experiment;

static int exp_strong(bench *b)
{
    return exp_scaling(b, 0);
}
static int exp_weak(bench *b)
{
    return exp_scaling(b, 1);
}

/* issue 17: exp_resident.c */
static int exp_resident(bench *b)
{
    if (!pim_available()) {
        progress("resident: the pim backend is unavailable: skipped");
        return 0;
    }
    bench_exp_env e = {b->csv,
                       b->exp,
                       b->sample_ok ? b->profile : NULL,
                       machine_label(b, CPIM_CLOCK_MODELED),
                       b->quick,
                       b->sample && b->sample_ok};
    int rc = bench_exp_resident(&e);
    if (rc != 0)
        b->failed = 1;
    return rc;
}

/* issue 17: exp_tsme.c (own CSV header) */
static int exp_tsme(bench *b)
{
    if (!pim_available()) {
        progress("tsme: the pim backend is unavailable: skipped");
        return 0;
    }
    bench_exp_env e = {b->csv,
                       b->exp,
                       b->sample_ok ? b->profile : NULL,
                       machine_label(b, CPIM_CLOCK_MODELED),
                       b->quick,
                       b->sample && b->sample_ok};
    int rc = bench_exp_tsme(&e);
    if (rc != 0)
        b->failed = 1;
    return rc;
}

static const experiment experiments[] = {
    {"roofline", exp_roofline, 0}, {"tasklets", exp_tasklets, 1}, {"strong", exp_strong, 1},
    {"weak", exp_weak, 1},         {"ranks", exp_ranks, 1},       {"servers", exp_servers, 1},
    {"ntt", exp_ntt, 1},           {"resident", exp_resident, 1}, {"tsme", exp_tsme, 0},
};
#define N_EXPERIMENTS (sizeof experiments / sizeof experiments[0])

static int run_experiment(bench *b, const experiment *e)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.csv", b->out, e->name);
    b->csv = fopen(path, "w");
    if (!b->csv) {
        cli_error("bench: cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    b->exp = e->name;
    if (e->long_format)
        fputs("experiment,kernel,impl,mode,ranks,dpus,tasklets,threads,bytes,phase,time_s,"
              "throughput_GBps,speedup,clock,machine,modeled_J_per_GB\n",
              b->csv);
    double t0 = cpim_now();
    progress("%s: start", e->name);
    int rc = e->fn(b);
    if (fclose(b->csv) != 0)
        rc = -1;
    b->csv = NULL;
    progress("%s: done in %.1f s (measured)", e->name, cpim_now() - t0);
    /* no gnuplot is not an error here: the CSV is the result */
    if (rc == 0 && gp_available() && bench_plot(b->out, e->name) != 0)
        rc = -1;
    return rc;
}

/* --replot: the plots of the experiments whose CSV is in dir. */
static int replot(const char *dir, const char *which)
{
    int failed = 0, drawn = 0;
    for (size_t i = 0; i < N_EXPERIMENTS; i++) {
        const char *name = experiments[i].name;
        if (strcmp(which, "all") && strcmp(which, name))
            continue;
        char path[1024];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s.csv", dir, name);
        if (!strcmp(which, "all") && stat(path, &sb) != 0)
            continue; /* all = the experiments that were run */
        if (bench_plot(dir, name) != 0) {
            failed = 1;
            continue;
        }
        progress("%s/%s.png redrawn from %s", dir, name, path);
        drawn++;
    }
    if (!drawn && !failed) {
        cli_error("bench: no experiment CSV in %s", dir);
        failed = 1;
    }
    return failed ? CLI_FAIL : CLI_OK;
}

/* see the top of the file */
int cmd_bench(int argc, char **argv)
{
    bench b;
    memset(&b, 0, sizeof b);
    b.out = "build/results";
    b.sample = 1;
    b.machine = "study";
    b.cores = cpim_cores();
    const char *which = NULL, *replot_dir = NULL;
    cli_args a;
    cli_args_init(&a, argc, argv);
    const char *opt, *operand;
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            cli_error("bench: unexpected operand (argument %d)", cli_arg_number(&a));
            return CLI_USAGE;
        }
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            fputs(bench_help, stdout);
            return CLI_OK;
        } else if (!strcmp(opt, "--experiment") || !strcmp(opt, "-e")) {
            if (!(which = cli_value(&a, opt)))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--out") || !strcmp(opt, "-o")) {
            if (!(b.out = cli_value(&a, opt)))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--replot")) {
            if (!(replot_dir = cli_value(&a, opt)))
                return CLI_USAGE;
        } else if (!strcmp(opt, "--quick")) {
            b.quick = 1;
        } else if (!strcmp(opt, "--no-sample")) {
            b.sample = 0;
        } else if (!strcmp(opt, "--machine")) {
            if (!(b.machine = cli_value(&a, opt)))
                return CLI_USAGE;
        } else {
            cli_error("bench: unknown option %s (see --help)", cli_quote(opt));
            return CLI_USAGE;
        }
    }
    if (replot_dir && !which)
        which = "all";
    if (!which) {
        cli_error("bench: --experiment NAME|all is required (see --help)");
        return CLI_USAGE;
    }
    int found = !strcmp(which, "all");
    for (size_t i = 0; i < N_EXPERIMENTS; i++)
        found |= !strcmp(which, experiments[i].name);
    if (!found) {
        cli_error("bench: unknown experiment %s (roofline, tasklets, strong, weak, ranks, servers, "
                  "ntt, resident, tsme, all)",
                  cli_quote(which));
        return CLI_USAGE;
    }
    if (replot_dir)
        return replot(replot_dir, which);
    /* An output folder that cannot be made is a usage/IO error (2, as the
     * docs/CLI.md says), not an experiment that failed (1). */
    if (mkdir(b.out, 0777) != 0 && errno != EEXIST) {
        cli_error("bench: cannot create the output folder %s: %s", b.out, strerror(errno));
        return CLI_USAGE;
    }
    struct stat out_st;
    if (stat(b.out, &out_st) != 0 || !S_ISDIR(out_st.st_mode)) {
        cli_error("bench: the output folder %s is not a folder", b.out);
        return CLI_USAGE;
    }
    snprintf(b.profile, sizeof b.profile, "machine=%s,hostClock=thread", b.machine);
    if (pim_available()) {
        b.sample_ok = probe_profile(b.profile, 0);
        if (!b.sample_ok && probe_profile("hostClock=thread", 0)) {
            cli_error("bench: the virtual UPMEM refused --machine %s (prim, study, dramatic)",
                      cli_quote(b.machine));
            return CLI_USAGE;
        }
    }
    if (b.sample_ok) {
        const char *env = getenv("UPMEM_PROFILE"), *base = getenv("UPMEM_PROFILE_BASE");
        progress("modeled machine: %s (virtual UPMEM, profile key machine=%s; --machine picks "
                 "another, docs/MODEL.md)%s%s%s%s",
                 b.machine, b.machine, env && *env ? "; UPMEM_PROFILE=" : "", env ? env : "",
                 base && *base ? "; UPMEM_PROFILE_BASE=" : "", base ? base : "");
    } else if (pim_available()) {
        progress("modeled machine: none (the pim backend runs on UPMEM hardware: its times are "
                 "measured by the SDK's host, see the clock column)");
    }
    double t0 = cpim_now();
    for (size_t i = 0; i < N_EXPERIMENTS; i++) {
        if (strcmp(which, "all") && strcmp(which, experiments[i].name))
            continue;
        if (run_experiment(&b, &experiments[i]) != 0)
            b.failed = 1;
    }
    progress("all requested experiments done in %.1f s (measured)%s", cpim_now() - t0,
             b.failed ? "; SOME FAILED" : "");
    return b.failed ? CLI_FAIL : CLI_OK;
}
