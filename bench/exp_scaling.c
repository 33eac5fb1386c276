/*
 * exp_scaling.c -- `--experiment strong` and `weak` (the study's Figs. 4-5):
 * 1..64 DPUs of one rank on a fixed problem (strong: AES 8 MiB, SHA-256
 * 1024 x 32 KiB) or with fixed work per DPU (weak: 1 MiB AES / 16 x 32 KiB
 * SHA-256 per DPU), the phases modeled, beside the CPU backends measured on
 * the same total problem.
 */
#include <string.h>

#include "exp.h"

static const unsigned dpu_points[] = {1, 2, 4, 8, 16, 32, 64};
#define N_DPU_POINTS (sizeof dpu_points / sizeof dpu_points[0])

static int exp_scaling(bench *b, int weak)
{
    if (!bench_pim_available())
        bench_progress("%s: the pim backend is not available; CPU rows only", b->exp);
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
                bench_work_free(&w);
                if (bench_work_init(&w, k == K_AES ? aes : 0, k == K_SHA ? nm : 0, ml) != 0)
                    return -1;
                /* the CPU baselines on the same total problem */
                bench_progress("%s: %s, CPU baselines, %zu bytes", b->exp, bench_kern_name[k],
                               bench_work_bytes(&w, (enum kern)k));
                bench_cpu_rows(b, &w, (enum kern)k, 0, n, 1);
            }
            if (!bench_pim_available())
                continue;
            /* sampling is exact here: every DPU gets the same work */
            int sampled = b->sample && b->sample_ok && n > 1;
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
    return 0;
}

int exp_strong(bench *b)
{
    return exp_scaling(b, 0);
}
int exp_weak(bench *b)
{
    return exp_scaling(b, 1);
}
