/* Host style: whole ranks (dpu_alloc_ranks) driven through the SDK's
 * low-level handles (dpu_management.h, dpu_memory.h): per-rank work queued
 * asynchronously rank by rank, per-DPU data through the DPU handles, ids
 * from dpu_get_id. Usage: ranks KERNEL.dpu */
#include <dpu.h>
#include <dpu_management.h>
#include <dpu_memory.h>
#include <stdio.h>
#include <string.h>

#define N      512u
#define NRANKS 3u

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    struct dpu_set_t set, rank_set;
    struct dpu_t *dpu;
    uint32_t r, i, n = N, bad = 0, seen = 0;
    static uint32_t words[NRANKS][64][N];
    uint32_t ids[NRANKS * 64];
    DPU_ASSERT(dpu_alloc_ranks(NRANKS, "nrRanks=4,nrDpusPerRank=8", &set));
    DPU_ASSERT(dpu_load(set, argv[1], NULL));
    DPU_ASSERT(dpu_broadcast_to(set, "n_words", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_RANK_FOREACH (set, rank_set, r) {
        struct dpu_rank_t *rank = dpu_rank_from_set(rank_set);
        uint32_t factor = r + 1;
        DPU_ASSERT(
            dpu_broadcast_to(rank_set, "factor", 0, &factor, sizeof factor, DPU_XFER_DEFAULT));
        STRUCT_DPU_FOREACH(rank, dpu, i)
        {
            for (uint32_t k = 0; k < N; k++)
                words[r][i][k] = dpu_get_id(dpu) + k;
            DPU_ASSERT(dpu_copy_to_mram(dpu, 0, (const uint8_t *)words[r][i], sizeof words[r][i]));
            ids[seen++] = dpu_get_id(dpu);
        }
        DPU_ASSERT(dpu_launch(rank_set, DPU_ASYNCHRONOUS)); /* rank r runs while r+1 is fed */
    }
    DPU_ASSERT(dpu_sync(set));
    DPU_RANK_FOREACH (set, rank_set, r) {
        struct dpu_rank_t *rank = dpu_rank_from_set(rank_set);
        STRUCT_DPU_FOREACH(rank, dpu, i)
        {
            uint64_t got, want = 0;
            DPU_ASSERT(dpu_copy_from(dpu_set_from_dpu(dpu), "result", 0, &got, sizeof got));
            for (uint32_t k = 0; k < N; k++)
                want += (uint64_t)words[r][i][k] * (r + 1);
            bad += got != want;
        }
    }
    for (uint32_t a = 0; a < seen; a++)
        for (uint32_t b = a + 1; b < seen; b++)
            bad += ids[a] == ids[b];
    DPU_ASSERT(dpu_free(set));
    if (bad || seen != NRANKS * 8) {
        printf("FAIL compat_ranks: %u wrong (results or duplicate ids), %u DPUs\n", bad, seen);
        return 1;
    }
    printf("PASS compat_ranks (%u ranks, %u DPUs)\n", NRANKS, seen);
    return 0;
}
