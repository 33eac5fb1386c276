/*
 * exp_ntt.c -- `--experiment ntt` (docs/NTT.md, "Experiment"): NTTs and
 * polynomial products on the pim backend (modeled) beside the CPU backends
 * (measured).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cryptopim_ntt.h"
#include "exp.h"
#include "quiet.h"

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
    uint64_t x = bench_rng;
    for (size_t i = 0; i < words; i++) {
        x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
        uint64_t m = w->q[(i / n) % L];
        w->a[i] = (x * 0x2545f4914f6cdd1dull) % m;
        if (w->b)
            w->b[i] = (x * 0x9e3779b97f4a7c15ull) % m;
    }
    bench_rng = x;
    bench_quiet_yield();
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
    bench_quiet_yield();
    char prof[256];
    snprintf(prof, sizeof prof, "machine=%s,hostClock=thread%s%s", machine, *extra_prof ? "," : "",
             extra_prof);
    cpim_options o;
    bench_pim_options(&o, pc, b->sample_ok ? prof : extra_prof);
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
                  w->n, w->L, w->count, pc->ranks, pc->dpus, pc->tasklets,
                  bench_mode_name(pc->mode), bad ? "output wrong" : cpim_strerror(rc));
        b->failed = 1;
        return -1;
    }
    return 0;
}

/* w's batch on one DPU at 16 tasklets, its kernel named "-1dpu": phase rows. */
static void ntt_one_dpu(bench *b, ntt_work *w)
{
    char kern[64];
    ntt_kernel_name(kern, sizeof kern, w, "-1dpu");
    bench_progress("ntt: %s, %zu polynomials, 1 DPU, 16 tasklets", kern, w->count);
    pim_cfg pc = {1, 0, 16, CPIM_PIM_SYNC, 0, 0};
    cpim_stats st;
    if (ntt_pim_run(b, &pc, b->machine, "", w, &st) == 0) {
        row_cfg rc = {kern, "pim", "sync", 1, 1, 16, 0, ntt_words(w) * 8};
        bench_phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
    }
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
    bench_quiet_begin(); /* alone on the host's cores (quiet.h) */
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
    bench_quiet_end();
    cpim_close(ctx);
    return best;
}

int exp_ntt(bench *b)
{
    static const unsigned rank_pts[] = {1, 2, 10, 40};
    const int pim = bench_pim_available();
    if (!pim)
        bench_progress("ntt: the pim backend is not available; CPU rows only");
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
                    bench_row(b, &rc, "total", cpu_t[c], 0, CPIM_CLOCK_MEASURED, -1);
                }
            for (int m = 0; pim && m < 2; m++) {
                cpim_pim_mode mode = m ? CPIM_PIM_ASYNC_XFER : CPIM_PIM_SYNC;
                bench_progress("ntt: %s, %zu, %u ranks, %s", kern, count, r, bench_mode_name(mode));
                pim_cfg pc = {0, r, 16, mode, b->sample && b->sample_ok, 0};
                cpim_stats st;
                if (ntt_pim_run(b, &pc, b->machine, "", &w, &st) != 0)
                    continue;
                row_cfg rc = {kern, "pim", bench_mode_name(mode), r, st.dpus, 16, 0, bytes};
                bench_phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
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
            bench_progress("ntt: DRAMatic's case, %zu NTTs of N = 4096, machine=dramatic, %s",
                           w.count, bench_mode_name(mode));
            pim_cfg pc = {0, 6, 16, mode, b->sample, 0};
            cpim_stats st;
            if (ntt_pim_run(b, &pc, "dramatic", "", &w, &st) == 0) {
                row_cfg rc = {"ntt-forward-n4096-l1-dramatic",
                              "pim",
                              bench_mode_name(mode),
                              6,
                              st.dpus,
                              16,
                              0,
                              ntt_words(&w) * 8};
                const char *mach = b->machine;
                b->machine = "dramatic"; /* the rows' machine column */
                bench_phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
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
            bench_progress("ntt: %s, %zu NTTs, 1 DPU, %u tasklets", kern, w.count, t);
            pim_cfg pc = {1, 0, t, CPIM_PIM_SYNC, 0, 0};
            cpim_stats st;
            if (ntt_pim_run(b, &pc, b->machine, prof, &w, &st) != 0)
                continue;
            if (t == 1)
                base = st.modeled.kernel_s;
            row_cfg rc = {kern, "pim", "sync", 1, 1, t, 0, ntt_words(&w) * 8};
            bench_phase_rows(b, &rc, &st.modeled, base > 0 ? base / st.modeled.kernel_s : 0,
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
        bench_progress("ntt: %s, 1 DPU, 16 tasklets", kern);
        pim_cfg pc = {1, 0, 16, CPIM_PIM_SYNC, 0, 0};
        cpim_stats st;
        if (ntt_pim_run(b, &pc, b->machine, prof, &w, &st) == 0) {
            row_cfg rc = {kern, "pim", "sync", 1, 1, 16, 0, ntt_words(&w) * 8};
            bench_phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
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
            ntt_one_dpu(b, &w);
            ntt_work_free(&w);
        }
    /* (5) a double-word modulus: the ntt64 program */
    const uint64_t d62 = 4611686018425815041ull; /* prime, 1 mod 2^17 (bench/ntt_cpu.c's D62) */
    for (int op = 0; op <= 3; op += 3) {
        ntt_work w;
        if (ntt_work_init(&w, 4096, 1, b->quick ? 4 : 16, op, 1, d62) != 0)
            return -1;
        ntt_one_dpu(b, &w);
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
                bench_row(b, &rc, "total", cpu_t, 0, CPIM_CLOCK_MEASURED, -1);
            }
            bench_progress("ntt: %s, %zu, %u ranks, async-xfer", kern, w.count, r);
            pim_cfg pc = {0, r, 16, CPIM_PIM_ASYNC_XFER, b->sample, 0};
            cpim_stats st;
            if (ntt_pim_run(b, &pc, b->machine, "", &w, &st) != 0)
                continue;
            row_cfg rc = {kern, "pim", "async-xfer", r, st.dpus, 16, 0, ntt_words(&w) * 8};
            bench_phase_rows(b, &rc, &st.modeled, 0, st.modeled_joules);
        }
        ntt_work_free(&w);
    }
    return 0;
}
