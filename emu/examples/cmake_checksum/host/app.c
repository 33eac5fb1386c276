/* Checksums of NR_DPUS buffers of pseudo-random bytes, one per DPU (built
 * with CMake: see CMakeLists.txt); each checked against the CPU. */
#include <dpu.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common.h"

#ifndef DPU_BINARY
#define DPU_BINARY "./dpu_task"
#endif

#define BYTES_PER_DPU (64u * 1024u + 100u) /* not whole DMA blocks on purpose */
#define SPAN          ((BYTES_PER_DPU + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES)

int main(void)
{
    struct dpu_set_t set, dpu;
    uint32_t nr_dpus, i, bad = 0, n = BYTES_PER_DPU;
    DPU_ASSERT(dpu_alloc(NR_DPUS, NULL, &set));
    DPU_ASSERT(dpu_load(set, DPU_BINARY, NULL));
    DPU_ASSERT(dpu_get_nr_dpus(set, &nr_dpus));
    uint8_t *data = calloc((size_t)nr_dpus, SPAN);
    uint32_t *sums = calloc(nr_dpus, sizeof *sums);
    if (data == NULL || sums == NULL)
        return 1;
    uint32_t x = 2463534242u;
    for (size_t k = 0; k < (size_t)nr_dpus * SPAN; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        data[k] = (uint8_t)x;
    }
    DPU_ASSERT(dpu_broadcast_to(set, "n_bytes", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i)
        DPU_ASSERT(dpu_prepare_xfer(dpu, data + (size_t)i * SPAN));
    DPU_ASSERT(
        dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, SPAN, DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu, i)
        DPU_ASSERT(dpu_prepare_xfer(dpu, &sums[i]));
    DPU_ASSERT(
        dpu_push_xfer(set, DPU_XFER_FROM_DPU, "checksum", 0, sizeof sums[0], DPU_XFER_DEFAULT));
    for (i = 0; i < nr_dpus; i++) {
        uint32_t want = 0;
        for (uint32_t k = 0; k < BYTES_PER_DPU; k++)
            want += data[(size_t)i * SPAN + k];
        bad += sums[i] != want;
    }
    DPU_ASSERT(dpu_free(set));
    free(data);
    free(sums);
    if (bad) {
        printf("FAIL example_cmake_checksum: %u of %u checksums wrong\n", bad, nr_dpus);
        return 1;
    }
    printf("PASS example_cmake_checksum (%u DPUs x %u bytes)\n", nr_dpus, BYTES_PER_DPU);
    return 0;
}
