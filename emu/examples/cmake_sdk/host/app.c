/* One rank; each DPU sums its own array of words, sent with the SDK's
 * low-level API (a transfer matrix on the rank handle, dpu_management.h and
 * dpu_memory.h); the sums are read back DPU by DPU and checked. */
#include <dpu.h>
#include <dpu_management.h>
#include <dpu_memory.h>
#include <dpu_transfer_matrix.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef DPU_BINARY
#define DPU_BINARY "./dpu/sum_task"
#endif

#define N_WORDS 4000u /* 250 blocks of 64 words: not a multiple of the tasklets */

int main(void)
{
    struct dpu_set_t set;
    struct dpu_rank_t *rank;
    struct dpu_t *dpu;
    uint32_t i, bad = 0, n = N_WORDS, count = 0;
    DPU_ASSERT(dpu_alloc_ranks(1, "nrDpusPerRank=16", &set));
    DPU_ASSERT(dpu_load(set, DPU_BINARY, NULL));
    rank = dpu_rank_from_set(set);
    uint32_t(*words)[N_WORDS] = malloc(64 * sizeof *words);
    if (rank == NULL || words == NULL)
        return 1;
    struct dpu_transfer_matrix m = {.offset = 0, .size = sizeof words[0]};
    STRUCT_DPU_FOREACH(rank, dpu, i)
    {
        for (uint32_t k = 0; k < N_WORDS; k++)
            words[i][k] = dpu_get_id(dpu) * 7u + k;
        dpu_transfer_matrix_add_dpu(dpu, &m, words[i]);
    }
    DPU_ASSERT(dpu_broadcast_to(set, "n_words", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    DPU_ASSERT(dpu_copy_to_mrams(rank, &m));
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    STRUCT_DPU_FOREACH(rank, dpu, i)
    {
        uint32_t got = 0, want = 0;
        DPU_ASSERT(dpu_copy_from(dpu_set_from_dpu(dpu), "sum", 0, &got, sizeof got));
        for (uint32_t k = 0; k < N_WORDS; k++)
            want += words[i][k];
        bad += got != want;
        count++;
    }
    DPU_ASSERT(dpu_free(set));
    free(words);
    if (bad || count != 16) {
        printf("FAIL example_cmake_sdk: %u of %u sums wrong\n", bad, count);
        return 1;
    }
    printf("PASS example_cmake_sdk (%u DPUs x %u words)\n", count, N_WORDS);
    return 0;
}
