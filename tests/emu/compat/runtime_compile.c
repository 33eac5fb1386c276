/* Host style: the DPU program is compiled by the host at run time (the
 * compiler wrapper through system(), with the tasklet count chosen then),
 * then loaded with dpu_load. Usage: runtime_compile KERNEL.c WORKDIR */
#define _POSIX_C_SOURCE 200809L
#include <dpu.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3000u

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    char bin[4096], cmd[8192];
    uint32_t tasklets = 11; /* decided at run time */
    snprintf(bin, sizeof bin, "%s/kernel-t%u.dpu", argv[2], tasklets);
    snprintf(cmd, sizeof cmd, "dpu-upmem-dpurte-clang -O2 -DNR_TASKLETS=%u -o '%s' '%s'", tasklets,
             bin, argv[1]);
    if (system(cmd) != 0) {
        printf("FAIL compat_runtime_compile: %s failed\n", cmd);
        return 1;
    }
    struct dpu_set_t set, dpu;
    uint32_t i, n = N, factor = 3, bad = 0;
    static uint32_t words[4][N];
    DPU_ASSERT(dpu_alloc(4, NULL, &set));
    DPU_ASSERT(dpu_load(set, bin, NULL));
    DPU_ASSERT(dpu_broadcast_to(set, "n_words", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_broadcast_to(set, "factor", 0, &factor, sizeof factor, DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i) {
        for (uint32_t k = 0; k < N; k++)
            words[i][k] = i * 100000u + k;
        DPU_ASSERT(dpu_prepare_xfer(dpu, words[i]));
    }
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof words[0],
                             DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu, i) {
        uint64_t got, want = 0;
        DPU_ASSERT(dpu_copy_from(dpu, "result", 0, &got, sizeof got));
        for (uint32_t k = 0; k < N; k++)
            want += (uint64_t)words[i][k] * factor;
        bad += got != want;
    }
    DPU_ASSERT(dpu_free(set));
    if (bad) {
        printf("FAIL compat_runtime_compile: %u of 4 results wrong\n", bad);
        return 1;
    }
    printf("PASS compat_runtime_compile (%u tasklets chosen at run time)\n", tasklets);
    return 0;
}
