/*
 * exp_scaling.c -- `--experiment strong` and `weak` (the study's Figs. 4-5):
 * 1..64 DPUs of one rank on a fixed problem (strong: AES 8 MiB, SHA-256
 * 1024 x 32 KiB) or with fixed work per DPU (weak: 1 MiB AES / 16 x 32 KiB
 * SHA-256 per DPU), the phases modeled, beside the CPU backends measured on
 * the same total problem.
 */
#include <stdlib.h>
#include <string.h>

#include "exp.h"
#include "quiet.h"

static const unsigned dpu_points[] = {1, 2, 4, 8, 16, 32, 64};
#define N_DPU_POINTS (sizeof dpu_points / sizeof dpu_points[0])

/* The workload of point i of kernel k (weak: per DPU, strong: the fixed
 * problem), drawn from bench_rng; with_ref: with the references. */
static int draw(bench *b, int weak, int k, unsigned n, work *w, int with_ref)
{
    size_t aes, nm, ml = b->quick ? 4096 : 32 * 1024;
    if (weak) {
        aes = (b->quick ? 64u * 1024 : 1u << 20) * n;
        nm = (b->quick ? 4 : 16) * (size_t)n;
    } else {
        aes = b->quick ? 256u * 1024 : 8u << 20;
        nm = b->quick ? 32 : 1024;
    }
    return bench_work_draw(w, k == K_AES ? aes : 0, k == K_SHA ? nm : 0, ml, with_ref);
}

static int exp_scaling(bench *b, int weak)
{
    if (!bench_pim_available())
        bench_progress("%s: the pim backend is not available; CPU rows only", b->exp);
    size_t npts = N_DPU_POINTS;
    while (b->quick && dpu_points[npts - 1] > 4)
        npts--;
    /* The CPU baselines on the same total problem as the point's pim runs
     * (weak: every point's, strong: the first's, its problem is every
     * point's) first, all under one hold of the measuring lock (quiet.h):
     * one wait for the other jobs' current UPMEM call instead of one per
     * point.  Their rows are kept and written where one pass writes them,
     * before the point's pim rows; the pim runs draw the same data again
     * from the same stream state. */
    uint64_t rng_at[2][N_DPU_POINTS];
    char *cpu_rows[2][N_DPU_POINTS];
    size_t cpu_len[2][N_DPU_POINTS];
    memset(cpu_rows, 0, sizeof cpu_rows);
    int rc = 0;
    bench_quiet_begin();
    for (int k = K_AES; k <= K_SHA && rc == 0; k++)
        for (size_t i = 0; i < npts && rc == 0; i++) {
            if (!weak && i > 0)
                break;
            work w;
            rng_at[k][i] = bench_rng;
            if (draw(b, weak, k, dpu_points[i], &w, 1) != 0) {
                rc = -1;
            } else {
                bench_progress("%s: %s, CPU baselines, %zu bytes", b->exp, bench_kern_name[k],
                               bench_work_bytes(&w, (enum kern)k));
                rc = bench_cpu_rows_mem(b, &w, (enum kern)k, 0, dpu_points[i], 1, &cpu_rows[k][i],
                                        &cpu_len[k][i]);
                bench_work_free(&w);
            }
        }
    bench_quiet_end();
    for (int k = K_AES; k <= K_SHA && rc == 0; k++) {
        double base = 0;
        work w;
        memset(&w, 0, sizeof w);
        for (size_t i = 0; i < npts && rc == 0; i++) {
            unsigned n = dpu_points[i];
            /* sampling is exact here: every DPU gets the same work */
            int sampled = b->sample && b->sample_ok && n > 1;
            if (weak || i == 0)
                fwrite(cpu_rows[k][i], 1, cpu_len[k][i], b->csv);
            if (!bench_pim_available())
                continue;
            if (weak || i == 0) {
                bench_work_free(&w);
                bench_rng = rng_at[k][i];
                /* the references only where an output comes back: a
                 * timing-only run returns none (strong: its first point
                 * is one DPU, never sampled) */
                if (draw(b, weak, k, n, &w, !sampled) != 0) {
                    rc = -1;
                    break;
                }
            }
            bench_progress("%s: %s, %u DPUs%s", b->exp, bench_kern_name[k], n,
                           sampled ? " (sampled)" : "");
            pim_cfg pc = {n, 0, 16, CPIM_PIM_SYNC, sampled, 0};
            cpim_stats st;
            if (bench_pim_run(b, &pc, &w, (enum kern)k, &st) != 0)
                continue;
            if (n == 1)
                base = st.modeled.kernel_s;
            row_cfg c = {
                bench_kern_name[k], "pim", "sync", 1, n, 16, 0, bench_work_bytes(&w, (enum kern)k)};
            /* speed-up of the kernel over 1 DPU (weak: ideally 1) */
            double sp = st.modeled.kernel_s > 0 ? base / st.modeled.kernel_s : 0;
            bench_phase_rows(b, &c, &st.modeled, sp, st.modeled_joules);
        }
        bench_work_free(&w);
    }
    for (int k = K_AES; k <= K_SHA; k++)
        for (size_t i = 0; i < npts; i++)
            free(cpu_rows[k][i]);
    if (rc != 0)
        b->failed = 1;
    return rc;
}

int exp_strong(bench *b)
{
    return exp_scaling(b, 0);
}
int exp_weak(bench *b)
{
    return exp_scaling(b, 1);
}
