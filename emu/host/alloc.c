/*
 * alloc.c -- dpu_alloc, dpu_alloc_ranks, dpu_free. Above the queue because
 * freeing waits for the ranks' queued work and stops their workers before
 * set.c destroys the ranks.
 */
#include "../include/dpu_management.h"
#include "clock.h"
#include "entry.h"
#include "model.h"
#include "queue.h"
#include "set.h"

/* hostTime of the allocation's profile: the program's own clock calls read
 * the modeled host time from now on (clock.h), or the real one again; a
 * profile without the key leaves them as they are. */
static void apply_host_time(const struct dpu_set_t *set)
{
    const profile_t *p = &set->list.ranks[0]->owner->prof;
    if (p->host_time == EMU_HOST_TIME_MODELED)
        emu_clock_set_source(emu_model_host_present);
    else if (p->host_time == EMU_HOST_TIME_REAL)
        emu_clock_set_source(NULL);
}

/* The power model's static part (model.h): every DPU of the allocation's
 * ranks, disabled ones included (their chip is powered all the same). */
static double static_watts(const struct dpu_set_t *set)
{
    double w = 0.0;
    for (uint32_t i = 0; i < set->list.nr_ranks; i++) {
        const struct dpu_rank_t *r = set->list.ranks[i];
        w += r->prof->model.dpu_idle_w * (double)r->nr_dpus;
    }
    return w;
}

/* see dpu.h */
dpu_error_t dpu_alloc(uint32_t nr_dpus, const char *profile, struct dpu_set_t *dpu_set)
{
    alloc_t *a = NULL;
    dpu_error_t err = nr_dpus == 0 ? DPU_ERR_ALLOCATION : emu_alloc_begin(profile, &a);
    emu_api_enter();
    if (err == DPU_OK)
        err = emu_alloc_new(a, nr_dpus, 0, dpu_set);
    if (err == DPU_OK) {
        apply_host_time(dpu_set);
        emu_model_static_power(static_watts(dpu_set));
    }
    emu_api_exit();
    return err;
}

/* see dpu.h */
dpu_error_t dpu_alloc_ranks(uint32_t nr_ranks, const char *profile, struct dpu_set_t *dpu_set)
{
    alloc_t *a = NULL;
    dpu_error_t err = nr_ranks == 0 ? DPU_ERR_ALLOCATION : emu_alloc_begin(profile, &a);
    emu_api_enter();
    if (err == DPU_OK)
        err = nr_ranks == DPU_ALLOCATE_ALL ? emu_alloc_new(a, DPU_ALLOCATE_ALL, 0, dpu_set)
                                           : emu_alloc_new(a, 0, nr_ranks, dpu_set);
    if (err == DPU_OK) {
        apply_host_time(dpu_set);
        emu_model_static_power(static_watts(dpu_set));
    }
    emu_api_exit();
    return err;
}

/* Frees a taken allocation: waits for its queued work, stops its workers. */
static void free_alloc(alloc_t *a)
{
    emu_ranks_quiesce(a->ranks, a->nr_ranks);
    for (uint32_t i = 0; i < a->nr_ranks; i++)
        emu_rank_stop_worker(a->ranks[i]);
    struct dpu_set_t whole = {.kind = DPU_SET_RANKS};
    whole.list.nr_ranks = a->nr_ranks;
    whole.list.ranks = a->ranks;
    emu_model_static_power(-static_watts(&whole));
    emu_alloc_release(a);
}

/* see dpu.h */
dpu_error_t dpu_free(struct dpu_set_t set)
{
    emu_api_enter();
    alloc_t *a = emu_alloc_take(set);
    if (a != NULL)
        free_alloc(a);
    emu_api_exit();
    return a != NULL ? DPU_OK : DPU_ERR_INVALID_DPU_SET;
}

/* see dpu_management.h */
dpu_error_t dpu_get_rank_of_type(const char *profile, struct dpu_rank_t **rank)
{
    if (rank == NULL)
        return DPU_ERR_INTERNAL;
    struct dpu_set_t set;
    dpu_error_t err = dpu_alloc_ranks(1, profile, &set);
    if (err == DPU_OK)
        *rank = set.list.ranks[0];
    return err;
}

/* see dpu_management.h */
dpu_error_t dpu_free_rank(struct dpu_rank_t *rank)
{
    emu_api_enter();
    alloc_t *a = emu_alloc_take_rank(rank);
    if (a != NULL)
        free_alloc(a);
    emu_api_exit();
    return a != NULL ? DPU_OK : DPU_ERR_INVALID_DPU_SET;
}
