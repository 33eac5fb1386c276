/*
 * alloc.c -- dpu_alloc, dpu_alloc_ranks, dpu_free. Above the queue because
 * freeing waits for the ranks' queued work and stops their workers before
 * set.c destroys the ranks.
 */
#include "entry.h"
#include "queue.h"
#include "set.h"

/* see dpu.h */
dpu_error_t dpu_alloc(uint32_t nr_dpus, const char *profile, struct dpu_set_t *dpu_set)
{
    emu_api_enter();
    dpu_error_t err =
        nr_dpus == 0 ? DPU_ERR_ALLOCATION : emu_alloc_new(nr_dpus, 0, profile, dpu_set);
    emu_api_exit();
    return err;
}

/* see dpu.h */
dpu_error_t dpu_alloc_ranks(uint32_t nr_ranks, const char *profile, struct dpu_set_t *dpu_set)
{
    emu_api_enter();
    dpu_error_t err;
    if (nr_ranks == DPU_ALLOCATE_ALL)
        err = emu_alloc_new(DPU_ALLOCATE_ALL, 0, profile, dpu_set);
    else
        err = nr_ranks == 0 ? DPU_ERR_ALLOCATION : emu_alloc_new(0, nr_ranks, profile, dpu_set);
    emu_api_exit();
    return err;
}

/* see dpu.h */
dpu_error_t dpu_free(struct dpu_set_t set)
{
    emu_api_enter();
    alloc_t *a = emu_alloc_take(set);
    if (a == NULL) {
        emu_api_exit();
        return DPU_ERR_INVALID_DPU_SET;
    }
    emu_ranks_quiesce(a->ranks, a->nr_ranks);
    for (uint32_t i = 0; i < a->nr_ranks; i++)
        emu_rank_stop_worker(a->ranks[i]);
    emu_alloc_release(a);
    emu_api_exit();
    return DPU_OK;
}
