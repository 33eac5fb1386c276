/* app.c -- host of dpu/reduce.c for the profiler's test: sums a vector on
 * NR_DPUS DPUs twice and prints the sums and the modeled DPU cycles (no
 * measured time: the output of a profiled or debugged run must be the
 * same). `app reduce.dpu fault`: reduce.c misaligns a DMA (a fault with
 * UPMEM_PROFILE=dmaRules=strict; a warning by default). */
#include <dpu.h>
#include <dpu_emu.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR_DPUS 2
#define N       (1u << 16)

int main(int argc, char **argv)
{
    struct dpu_set_t set, dpu;
    if (argc != 2 && (argc != 3 || strcmp(argv[2], "fault"))) {
        fprintf(stderr, "usage: %s reduce.dpu [fault]\n", argv[0]);
        return 2;
    }
    static uint32_t v[N];
    for (uint32_t i = 0; i < N; i++)
        v[i] = i * 2654435761u;
    DPU_ASSERT(dpu_alloc(NR_DPUS, NULL, &set));
    DPU_ASSERT(dpu_load(set, argv[1], NULL));
    uint32_t misalign = argc == 3;
    DPU_ASSERT(dpu_broadcast_to(set, "misalign", 0, &misalign, sizeof misalign, DPU_XFER_DEFAULT));
    for (int round = 0; round < 2; round++) {
        uint32_t n = N - 1000u * (uint32_t)round;
        DPU_ASSERT(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_DEFAULT));
        DPU_ASSERT(dpu_broadcast_to(set, "vec", 0, v, sizeof v, DPU_XFER_DEFAULT));
        DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
        uint32_t i;
        DPU_FOREACH (set, dpu, i) {
            uint64_t t;
            uint32_t b;
            DPU_ASSERT(dpu_copy_from(dpu, "total", 0, &t, sizeof t));
            DPU_ASSERT(dpu_copy_from(dpu, "blocks", 0, &b, sizeof b));
            printf("round %d dpu %u: total %" PRIu64 " blocks %u\n", round, i, t, b);
        }
        dpu_emu_stats_t st;
        dpu_emu_get_stats(&st);
        printf("round %d: modeled DPU cycles %" PRIu64 "\n", round, st.dpu_cycles_max);
    }
    DPU_ASSERT(dpu_free(set));
    return 0;
}
