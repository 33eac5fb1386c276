/* Reduction over NR_DPUS DPUs (two ranks by default): asynchronous
 * transfers and launch per rank, then one dpu_sync; per-DPU results with
 * dpu_copy_from. Checks the total against the CPU. */
#include <dpu.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#include "../common.h"

#ifndef DPU_BINARY
#define DPU_BINARY "./bin/dpu_task"
#endif

#define PER_DPU 20000u /* elements per DPU */

int main(void)
{
    struct dpu_set_t set, rank, dpu;
    uint32_t nr_dpus, i;
    DPU_ASSERT(dpu_alloc(NR_DPUS, NULL, &set));
    DPU_ASSERT(dpu_load(set, DPU_BINARY, NULL));
    DPU_ASSERT(dpu_get_nr_dpus(set, &nr_dpus));
    uint64_t *data = malloc(sizeof(uint64_t) * PER_DPU * nr_dpus);
    uint64_t want = 0;
    for (size_t k = 0; k < (size_t)PER_DPU * nr_dpus; k++) {
        data[k] = k * 2654435761u % 1000003u;
        want += data[k];
    }
    uint32_t n = PER_DPU;
    DPU_ASSERT(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_ASYNC));
    /* each rank: async push, async launch; ranks overlap */
    uint32_t base = 0;
    DPU_RANK_FOREACH (set, rank) {
        uint32_t in_rank = 0;
        DPU_FOREACH (rank, dpu, i) {
            DPU_ASSERT(dpu_prepare_xfer(dpu, data + (size_t)(base + i) * PER_DPU));
            in_rank++;
        }
        DPU_ASSERT(dpu_push_xfer(rank, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0,
                                 PER_DPU * sizeof(uint64_t), DPU_XFER_ASYNC));
        DPU_ASSERT(dpu_launch(rank, DPU_ASYNCHRONOUS));
        base += in_rank;
    }
    DPU_ASSERT(dpu_sync(set));
    uint64_t got = 0;
    DPU_FOREACH (set, dpu) {
        uint64_t s;
        DPU_ASSERT(dpu_copy_from(dpu, "sum", 0, &s, sizeof s));
        got += s;
    }
#ifdef DPU_EMU
    dpu_emu_print_stats(stdout);
#endif
    DPU_ASSERT(dpu_free(set));
    free(data);
    if (got != want) {
        printf("FAIL example_reduce: sum %" PRIu64 ", want %" PRIu64 "\n", got, want);
        return 1;
    }
    printf("PASS example_reduce (sum of %u values on %u DPUs)\n", PER_DPU * nr_dpus, nr_dpus);
    return 0;
}
