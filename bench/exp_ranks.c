/*
 * exp_ranks.c -- `--experiment ranks` (the study's Figs. 6-7): 1..40 ranks at
 * 32 MiB per rank, async-xfer vs async-exec (modeled, sampled: one DPU per
 * rank simulated) beside the CPU backends (measured).  --no-sample runs the
 * same points with every DPU simulated on its own data and every output
 * checked: 127 ranks' worth of 32 MiB per kernel and mode (docs/RESULTS.md
 * says how long that takes).
 */
#include <stdlib.h>
#include <string.h>

#include "exp.h"
#include "quiet.h"

int exp_ranks(bench *b)
{
    static const unsigned full_pts[] = {1, 2, 4, 8, 16, 24, 32, 40};
    static const unsigned quick_pts[] = {1, 2};
    const unsigned *pts = b->quick ? quick_pts : full_pts;
    size_t npts = b->quick ? 2 : sizeof full_pts / sizeof full_pts[0];
    int sampled = bench_sampled(b);
    size_t per_rank = b->quick ? (1u << 20) : (32u << 20);
    size_t ml = b->quick ? 4096 : 32 * 1024;
    if (!sampled && b->sample_ok) {
        size_t all = 0;
        for (size_t i = 0; i < npts; i++)
            all += pts[i] * per_rank;
        bench_progress("ranks: no sampling: every DPU simulated, %zu MiB per kernel and mode "
                       "through the virtual DPU (slow; docs/RESULTS.md)",
                       all >> 20);
    }
    /* the points the modeled machine has */
    size_t n = 0;
    while (n < npts &&
           !(bench_pim_available() && b->sample_ok && !bench_probe_profile(b->profile, pts[n])))
        n++;
    if (n < npts)
        bench_progress("ranks: the modeled machine (%s) has fewer than %u ranks: stop at %u",
                       b->machine, pts[n], n ? pts[n - 1] : 0);
    /* The measured rows first, every point's under one hold of the
     * measuring lock (quiet.h): a baseline waits for the other jobs' current
     * UPMEM call, so one wait instead of one per point.  Each point's data
     * are drawn from the stream's state at that point (the same data the
     * pim runs then draw again), its rows kept to be written in the order
     * of the point's rows: the baselines, then the pim runs. */
    uint64_t rng_at[2][sizeof full_pts / sizeof full_pts[0]];
    char *cpu_rows[2][sizeof full_pts / sizeof full_pts[0]];
    size_t cpu_len[2][sizeof full_pts / sizeof full_pts[0]];
    memset(cpu_rows, 0, sizeof cpu_rows);
    int rc = 0;
    bench_quiet_begin();
    for (int k = K_AES; k <= K_SHA && rc == 0; k++)
        for (size_t i = 0; i < n && rc == 0; i++) {
            unsigned r = pts[i];
            size_t total = per_rank * r;
            work w;
            rng_at[k][i] = bench_rng;
            if (bench_work_init(&w, k == K_AES ? total : 0, k == K_SHA ? total / ml : 0, ml) != 0) {
                rc = -1;
            } else {
                bench_progress("ranks: %s, %u ranks, %zu MiB, CPU baselines", bench_kern_name[k], r,
                               total >> 20);
                rc = bench_cpu_rows_mem(b, &w, (enum kern)k, r, r * 64, 0, &cpu_rows[k][i],
                                        &cpu_len[k][i]);
                bench_work_free(&w);
            }
        }
    bench_quiet_end();
    for (int k = K_AES; k <= K_SHA && rc == 0; k++) {
        for (size_t i = 0; i < n && rc == 0; i++) {
            unsigned r = pts[i];
            fwrite(cpu_rows[k][i], 1, cpu_len[k][i], b->csv);
            if (!bench_pim_available())
                continue;
            work w;
            size_t total = per_rank * r;
            bench_rng = rng_at[k][i];
            /* timing-only runs return no output: no reference needed */
            if (bench_work_draw(&w, k == K_AES ? total : 0, k == K_SHA ? total / ml : 0, ml,
                                !sampled) != 0) {
                rc = -1;
                break;
            }
            for (int m = CPIM_PIM_ASYNC_XFER; m <= CPIM_PIM_ASYNC_EXEC; m++) {
                bench_progress("ranks: %s, %u ranks, %s%s", bench_kern_name[k], r,
                               bench_mode_name((cpim_pim_mode)m), sampled ? " (sampled)" : "");
                pim_cfg pc = {0, r, 16, (cpim_pim_mode)m, sampled, 0};
                cpim_stats st;
                if (bench_pim_run(b, &pc, &w, (enum kern)k, &st) != 0)
                    continue;
                row_cfg c = {bench_kern_name[k],
                             "pim",
                             bench_mode_name((cpim_pim_mode)m),
                             r,
                             st.dpus,
                             16,
                             0,
                             total};
                bench_phase_rows(b, &c, &st.modeled, 0, st.modeled_joules);
            }
            bench_work_free(&w);
        }
    }
    for (int k = K_AES; k <= K_SHA; k++)
        for (size_t i = 0; i < n; i++)
            free(cpu_rows[k][i]);
    if (rc != 0)
        b->failed = 1;
    return rc;
}
