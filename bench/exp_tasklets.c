/*
 * exp_tasklets.c -- `--experiment tasklets` (the study's Fig. 3): 1..24 tasklets
 * on one DPU (AES 8 MiB, SHA-256 96 x 32 KiB), speed-up over 1 tasklet,
 * modeled.
 */
#include "exp.h"

int exp_tasklets(bench *b)
{
    if (!bench_pim_available()) {
        bench_progress("tasklets: the pim backend is not available; skipped");
        return 0;
    }
    for (int k = K_AES; k <= K_SHA; k++) {
        work w;
        size_t aes = b->quick ? 64 * 1024 : 8u << 20;
        size_t nm = b->quick ? 24 : 96;
        if (bench_work_init(&w, k == K_AES ? aes : 0, k == K_SHA ? nm : 0,
                            b->quick ? 4096 : 32 * 1024) != 0)
            return -1;
        double base = 0;
        for (unsigned t = 1; t <= 24; t++) {
            if (b->quick && !(t == 1 || t == 11 || t == 16))
                continue;
            bench_progress("tasklets: %s, 1 DPU, %u tasklets", bench_kern_name[k], t);
            pim_cfg pc = {1, 0, t, CPIM_PIM_SYNC, 0, 0};
            cpim_stats st;
            if (bench_pim_run(b, &pc, &w, (enum kern)k, &st) != 0)
                continue;
            if (t == 1)
                base = st.modeled.kernel_s;
            row_cfg c = {
                bench_kern_name[k], "pim", "sync", 1, 1, t, 0, bench_work_bytes(&w, (enum kern)k)};
            bench_phase_rows(b, &c, &st.modeled, base > 0 ? base / st.modeled.kernel_s : 0,
                             st.modeled_joules);
        }
        bench_work_free(&w);
    }
    return 0;
}
