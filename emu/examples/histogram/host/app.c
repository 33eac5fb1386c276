/* Histogram of a byte buffer over NR_DPUS DPUs; results read back with a
 * FROM_DPU push into per-DPU buffers. Checks against the CPU. */
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

#define PER_DPU (64u * 1024u) /* bytes per DPU, a multiple of BLOCK_BYTES */

int main(void)
{
    struct dpu_set_t set, dpu;
    uint32_t nr_dpus, i;
    DPU_ASSERT(dpu_alloc(NR_DPUS, NULL, &set));
    DPU_ASSERT(dpu_load(set, DPU_BINARY, NULL));
    DPU_ASSERT(dpu_get_nr_dpus(set, &nr_dpus));
    uint8_t *data = malloc((size_t)PER_DPU * nr_dpus);
    uint32_t want[NR_BINS] = {0};
    uint32_t x = 12345;
    for (size_t k = 0; k < (size_t)PER_DPU * nr_dpus; k++) {
        x = x * 1103515245u + 12345u;
        data[k] = (uint8_t)((x >> 16) % 200u); /* bins 200..255 stay empty */
        want[data[k]]++;
    }
    uint32_t n = PER_DPU;
    DPU_ASSERT(dpu_broadcast_to(set, "n_bytes", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i)
        DPU_ASSERT(dpu_prepare_xfer(dpu, data + (size_t)i * PER_DPU));
    DPU_ASSERT(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, PER_DPU,
                             DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    uint32_t(*parts)[NR_BINS] = calloc(nr_dpus, sizeof *parts);
    DPU_FOREACH (set, dpu, i)
        DPU_ASSERT(dpu_prepare_xfer(dpu, parts[i]));
    DPU_ASSERT(
        dpu_push_xfer(set, DPU_XFER_FROM_DPU, "histo", 0, sizeof parts[0], DPU_XFER_DEFAULT));
    uint32_t got[NR_BINS] = {0};
    for (uint32_t d = 0; d < nr_dpus; d++)
        for (uint32_t b = 0; b < NR_BINS; b++)
            got[b] += parts[d][b];
#ifdef DPU_EMU
    dpu_emu_print_stats(stdout);
#endif
    DPU_ASSERT(dpu_free(set));
    free(parts);
    free(data);
    if (memcmp(got, want, sizeof got)) {
        for (uint32_t b = 0; b < NR_BINS; b++)
            if (got[b] != want[b]) {
                printf("FAIL example_histogram: bin %u: %u, want %u\n", b, got[b], want[b]);
                return 1;
            }
    }
    printf("PASS example_histogram (%u bytes on %u DPUs)\n", PER_DPU * nr_dpus, nr_dpus);
    return 0;
}
