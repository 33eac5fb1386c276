/* Vector addition on NR_DPUS DPUs; checks every element against the CPU. */
#include <dpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#include "../common.h"

#ifndef DPU_BINARY
#define DPU_BINARY "./bin/dpu_task"
#endif

#define N_ELEMS (1u << 20) /* not a multiple of the DPU count on purpose: */
#define EXTRA   12345u     /* the remainder must not be dropped           */

int main(void)
{
    struct dpu_set_t set, dpu;
    uint32_t nr_dpus, i;
    const uint32_t n = N_ELEMS + EXTRA;
    DPU_ASSERT(dpu_alloc(NR_DPUS, NULL, &set));
    DPU_ASSERT(dpu_load(set, DPU_BINARY, NULL));
    DPU_ASSERT(dpu_get_nr_dpus(set, &nr_dpus));

    uint32_t per = (n + nr_dpus - 1) / nr_dpus;
    uint32_t span = (per * 4 + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;
    uint32_t span_elems = span / 4;
    int32_t *A = calloc((size_t)nr_dpus * span_elems, 4),
            *B = calloc((size_t)nr_dpus * span_elems, 4);
    int32_t *C = calloc((size_t)nr_dpus * span_elems, 4);
    for (uint32_t k = 0; k < n; k++) {
        A[(k / per) * span_elems + k % per] = (int32_t)(k * 7u);
        B[(k / per) * span_elems + k % per] = -(int32_t)k + 3;
    }

    DPU_FOREACH (set, dpu, i) {
        uint32_t first = i * per;
        dpu_args_t args = {first >= n ? 0 : (n - first < per ? n - first : per), span};
        DPU_ASSERT(dpu_copy_to(dpu, "args", 0, &args, sizeof args));
    }
    DPU_FOREACH (set, dpu, i)
        DPU_ASSERT(dpu_prepare_xfer(dpu, A + (size_t)i * span_elems));
    DPU_ASSERT(
        dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, span, DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i)
        DPU_ASSERT(dpu_prepare_xfer(dpu, B + (size_t)i * span_elems));
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, span, span,
                             DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu, i)
        DPU_ASSERT(dpu_prepare_xfer(dpu, C + (size_t)i * span_elems));
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 2 * span, span,
                             DPU_XFER_DEFAULT));

    uint32_t bad = 0;
    for (uint32_t k = 0; k < n; k++) {
        size_t at = (k / per) * (size_t)span_elems + k % per;
        bad += C[at] != A[at] + B[at];
    }
#ifdef DPU_EMU
    dpu_emu_print_stats(stdout);
#endif
    DPU_ASSERT(dpu_free(set));
    free(A);
    free(B);
    free(C);
    if (bad) {
        printf("FAIL example_vecadd: %u of %u elements wrong\n", bad, n);
        return 1;
    }
    printf("PASS example_vecadd (%u elements on %u DPUs)\n", n, nr_dpus);
    return 0;
}
