/*
 * exp_common.c -- what the experiments share (exp.h: settings, CSV rows,
 * workloads, CPU baselines on the measured clock, pim runs on the modeled
 * clock).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exp.h"
#include "quiet.h"

static const uint8_t bench_key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                      0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

const char *bench_profile(const bench *b)
{
    return b->sample_ok ? b->profile : NULL;
}

int bench_sampled(const bench *b)
{
    return b->sample && b->sample_ok;
}

void bench_progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

uint64_t bench_rng = 0x243f6a8885a308d3ull;

/* One step of the stream's xorshift64 state, and the byte it gives. */
static inline uint64_t rng_step(uint64_t x)
{
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x;
}
static inline uint8_t rng_byte(uint64_t x)
{
    return (uint8_t)((x * 0x2545f4914f6cdd1dull) >> 56);
}

/* The step is linear over GF(2)^64, so m steps are a 64 x 64 bit matrix,
 * held as the images of the 64 unit vectors: jump(m, x) = x after m steps,
 * by repeated squaring (log2(m) products of 64 x 64 bits). */
static uint64_t mat_apply(const uint64_t m[64], uint64_t x)
{
    uint64_t y = 0;
    for (int i = 0; x; i++, x >>= 1)
        y ^= m[i] & (0 - (x & 1));
    return y;
}
static uint64_t rng_jump(uint64_t x, uint64_t steps)
{
    uint64_t p[64], t[64];
    for (int i = 0; i < 64; i++)
        p[i] = rng_step(1ull << i);
    for (; steps; steps >>= 1) {
        if (steps & 1)
            x = mat_apply(p, x);
        for (int i = 0; i < 64; i++)
            t[i] = mat_apply(p, p[i]);
        memcpy(p, t, sizeof p);
    }
    return x;
}

/* The bytes of the one stream, in order, as the plain loop (one step per
 * byte) gives them; for large n in RNG_LANES independent runs of the
 * stream, each started where the one before ends (rng_jump), interleaved
 * so that the steps' dependency chains overlap: the loop is bound by one
 * chain's latency, and the workloads draw gigabytes. */
#define RNG_LANES 8
void bench_fill(uint8_t *p, size_t n)
{
    uint64_t x = bench_rng;
    size_t i = 0;
    if (n >= (64u << 10)) {
        const size_t seg = n / RNG_LANES; /* the last lane also takes the rest */
        uint64_t s[RNG_LANES];
        s[0] = x;
        for (int l = 1; l < RNG_LANES; l++)
            s[l] = rng_jump(s[l - 1], seg);
        for (size_t k = 0; k < seg; k++)
            for (int l = 0; l < RNG_LANES; l++) {
                s[l] = rng_step(s[l]);
                p[(size_t)l * seg + k] = rng_byte(s[l]);
            }
        x = s[RNG_LANES - 1];
        i = RNG_LANES * seg;
    }
    for (; i < n; i++) {
        x = rng_step(x);
        p[i] = rng_byte(x);
    }
    bench_rng = x;
}

/* ---- CSV rows --------------------------------------------------------------------- */

const char *bench_machine_label(const bench *b, cpim_clock clock)
{
    if (clock == CPIM_CLOCK_MEASURED)
        return "this-host";
    return b->sample_ok ? b->machine : "upmem-hw";
}

void bench_row(bench *b, const row_cfg *c, const char *phase, double t, double speedup,
               cpim_clock clock, double joules)
{
    double gbps = t > 0 && strcmp(phase, "host-cpu-per-GB") ? (double)c->bytes / t / 1e9 : 0;
    char jpgb[32] = "";
    if (joules >= 0 && c->bytes > 0)
        snprintf(jpgb, sizeof jpgb, "%.6g", joules / ((double)c->bytes / 1e9));
    fprintf(b->csv, "%s,%s,%s,%s,%u,%u,%u,%u,%zu,%s,%.9f,%.4f,%.4f,%s,%s,%s\n", b->exp, c->kernel,
            c->impl, c->mode, c->ranks, c->dpus, c->tasklets, c->threads, c->bytes, phase, t, gbps,
            speedup, cpim_clock_name(clock), bench_machine_label(b, clock), jpgb);
    fflush(b->csv);
}

void bench_phase_rows(bench *b, const row_cfg *c, const cpim_phases *p, double speedup,
                      double joules)
{
    bench_row(b, c, "cpu-dpu", p->cpu_dpu_s, 0, p->clock, -1);
    bench_row(b, c, "kernel", p->kernel_s, speedup, p->clock, -1);
    bench_row(b, c, "dpu-cpu", p->dpu_cpu_s, 0, p->clock, -1);
    bench_row(b, c, "total", p->total_s, 0, p->clock, joules);
}

/* ---- workloads ------------------------------------------------------------------------- */

void bench_work_free(work *w)
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

int bench_work_init(work *w, size_t aes_len, size_t n_msgs, size_t msg_len)
{
    return bench_work_draw(w, aes_len, n_msgs, msg_len, 1);
}

int bench_work_draw(work *w, size_t aes_len, size_t n_msgs, size_t msg_len, int with_ref)
{
    bench_quiet_yield();
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
        bench_fill(w->in, aes_len);
    }
    if (n_msgs) {
        w->sha_data = malloc(n_msgs * msg_len);
        w->msgs = malloc(n_msgs * sizeof *w->msgs);
        w->lens = malloc(n_msgs * sizeof *w->lens);
        w->dig = malloc(n_msgs * 32);
        w->ref_dig = malloc(n_msgs * 32);
        if (!w->sha_data || !w->msgs || !w->lens || !w->dig || !w->ref_dig)
            goto nomem;
        bench_fill(w->sha_data, n_msgs * msg_len);
        for (size_t i = 0; i < n_msgs; i++) {
            w->msgs[i] = w->sha_data + i * msg_len;
            w->lens[i] = msg_len;
        }
    }
    if (!with_ref)
        return 0;
    cpim_ctx *ctx = cli_open("auto", NULL);
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
    bench_work_free(w);
    return -1;
}

const char *const bench_kern_name[2] = {"aes-128-ecb", "sha256"};

size_t bench_work_bytes(const work *w, enum kern k)
{
    return k == K_AES ? w->aes_len : w->n_msgs * w->msg_len;
}

cpim_err bench_run_kernel(cpim_ctx *ctx, work *w, enum kern k)
{
    if (k == K_AES)
        return cpim_aes_ecb(ctx, CPIM_ENCRYPT, w->in, w->out, w->aes_len);
    return cpim_sha256_batch(ctx, w->msgs, w->lens, w->n_msgs, w->dig);
}

int bench_check_output(bench *b, work *w, enum kern k, int sampled, const char *what)
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
    cli_error("bench: %s: %s output wrong (%zu of %zu units %s)", what, bench_kern_name[k],
              n - right, n,
              sampled ? "not zeroed by a timing-only run" : "differ from the reference");
    b->failed = 1;
    return -1;
}

/* ---- CPU baselines (measured clock) --------------------------------------------------- */

double bench_cpu_time(bench *b, const cpu_impl *ci, work *w, enum kern k)
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
    bench_quiet_begin(); /* alone on the host's cores (quiet.h) */
    /* run 0 is the checked warm-up; then >= 2 timed runs and >= 0.3 s */
    for (unsigned r = 0; !bad && (r < 3 || (spent < 0.3 && r < 100)); r++) {
        double t0 = cpim_now();
        int rc;
        if (ctx)
            rc = bench_run_kernel(ctx, w, k) == CPIM_OK ? 0 : -1;
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
            if (bench_check_output(b, w, k, 0, ci->impl) != 0)
                bad = 1;
            continue; /* warm-up */
        }
        spent += t;
        if (t < best)
            best = t;
    }
    bench_quiet_end();
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

void bench_cpu_rows(bench *b, work *w, enum kern k, unsigned ranks, unsigned dpus, int one_thread)
{
    cpu_impl ci[6];
    size_t n = cpu_impls(b, k, one_thread, ci);
    for (size_t i = 0; i < n; i++) {
        double t = bench_cpu_time(b, &ci[i], w, k);
        if (t == -2)
            b->failed = 1;
        if (t < 0)
            continue;
        row_cfg c = {bench_kern_name[k],    ci[i].impl, "-", ranks, dpus, 0, ci[i].threads,
                     bench_work_bytes(w, k)};
        bench_row(b, &c, "total", t, 0, CPIM_CLOCK_MEASURED, -1);
    }
}

/* ---- PIM runs (modeled clock) -------------------------------------------------------- */

const char *bench_mode_name(cpim_pim_mode m)
{
    return m == CPIM_PIM_ASYNC_XFER   ? "async-xfer"
           : m == CPIM_PIM_ASYNC_EXEC ? "async-exec"
                                      : "sync";
}

void bench_pim_options(cpim_options *o, const pim_cfg *pc, const char *profile)
{
    cpim_options_init(o);
    o->dpus = pc->dpus;
    o->ranks = pc->ranks;
    o->tasklets = pc->tasklets;
    o->mode = pc->mode;
    o->profile = profile;
    o->timing_only = pc->sampled;
}

int bench_pim_run(bench *b, const pim_cfg *pc, work *w, enum kern k, cpim_stats *st)
{
    /* virtual UPMEM only: the machine it models; host work on the caller's
     * CPU clock, so the simulator's threads (which share this machine's
     * cores) do not inflate it -- $UPMEM_PROFILE comes after the program's
     * string, as in the SDK, so UPMEM_PROFILE=hostClock=none overrides it;
     * and the DPU sampling, a timing-only run (exp.h) */
    bench_quiet_yield();
    char prof[sizeof b->profile + 64];
    /* sampled: identical DPU runs done once across launches too
     * (sampleReuse: AES and SHA-256 time the same whatever their data) */
    snprintf(prof, sizeof prof, "%s%s%s", b->profile, pc->cycles ? ",clockMhz=1000,launchUs=0" : "",
             pc->sampled ? ",sampleReuse=1" : "");
    cpim_options o;
    bench_pim_options(&o, pc, b->sample_ok ? prof : NULL);
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
        rc = bench_run_kernel(ctx, w, k);
        if (pc->sampled && rc == CPIM_ERR_TIMING_ONLY)
            rc = CPIM_OK;
        else if (pc->sampled && rc == CPIM_OK)
            rc = CPIM_ERR_PIM; /* a timing-only run must never return a result */
    }
    if (rc == CPIM_OK)
        rc = cpim_last_stats(ctx, st);
    cpim_close(ctx);
    if (rc != CPIM_OK) {
        cli_error("bench: pim %s (%u ranks, %u DPUs, %u tasklets, %s): %s", bench_kern_name[k],
                  pc->ranks, pc->dpus, pc->tasklets, bench_mode_name(pc->mode), cpim_strerror(rc));
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
             bench_mode_name(pc->mode));
    return bench_check_output(b, w, k, pc->sampled, what);
}

int bench_probe_profile(const char *profile, unsigned ranks)
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

int bench_pim_available(void)
{
    cpim_backend_info info;
    return cpim_backend_info_by_name("pim", &info) == CPIM_OK && info.available;
}

int bench_cpu_rows_mem(bench *b, work *w, enum kern k, unsigned ranks, unsigned dpus,
                       int one_thread, char **buf, size_t *len)
{
    FILE *csv = b->csv;
    b->csv = open_memstream(buf, len);
    if (!b->csv) {
        b->csv = csv;
        return -1;
    }
    bench_cpu_rows(b, w, k, ranks, dpus, one_thread);
    int rc = fclose(b->csv) == 0 ? 0 : -1;
    b->csv = csv;
    return rc;
}
