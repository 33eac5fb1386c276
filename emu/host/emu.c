/*
 * emu.c -- <dpu_emu.h>, our public extension: the modeled clock's totals,
 * its reset, and the trace. The top layer (see host.h): it reaches the
 * model, the allocations and the queues.
 */
#include <stdio.h>

#include "../include/dpu_emu.h"
#include "entry.h"
#include "model.h"
#include "queue.h"
#include "set.h"

/* see dpu_emu.h */
void dpu_emu_get_stats(dpu_emu_stats_t *s)
{
    emu_api_enter();
    emu_model_get_stats(s);
    emu_api_exit();
}

/* see dpu_emu.h */
double dpu_emu_energy(void)
{
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    return s.energy;
}

/* see dpu_emu.h */
double dpu_emu_host_time(void)
{
    emu_api_enter();
    double t = emu_model_host_now();
    emu_api_exit();
    return t;
}

static void quiesce_one(struct dpu_rank_t *r)
{
    emu_ranks_quiesce(&r, 1);
}

/* see dpu_emu.h */
double dpu_emu_rank_time(struct dpu_set_t set, uint32_t rank_index)
{
    if (emu_set_check(set) != DPU_OK)
        return 0.0;
    struct dpu_rank_t **ranks, *one;
    struct dpu_t *single;
    uint32_t n = set_ranks(&set, &ranks, &one, &single);
    if (rank_index >= n)
        return 0.0;
    emu_api_enter();
    /* every rank: the projection runs the others' transfers too */
    emu_alloc_foreach_rank(quiesce_one);
    double t = emu_model_rank_end(&ranks[rank_index]->tl);
    emu_api_exit();
    return t;
}

/* see dpu_emu.h */
void dpu_emu_reset(void)
{
    emu_api_enter();
    emu_alloc_foreach_rank(quiesce_one);
    emu_model_reset();
    emu_api_exit();
}

/* see dpu_emu.h */
dpu_error_t dpu_emu_trace_start(const char *path)
{
    if (path == NULL)
        return DPU_ERR_INTERNAL;
    return emu_model_trace_start(path);
}

/* see dpu_emu.h */
dpu_error_t dpu_emu_trace_stop(void)
{
    return emu_model_trace_stop();
}

/* see dpu_emu.h */
void dpu_emu_print_stats(FILE *stream)
{
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    fprintf(stream,
            "modeled clock: total %.3f ms = host work %.3f ms (measured) + CPU-DPU %.3f ms + "
            "kernel %.3f ms + DPU-CPU %.3f ms + other %.3f ms (minus overlap)\n",
            s.host_time * 1e3, s.host_work * 1e3, s.phase[DPU_EMU_PHASE_CPU_DPU] * 1e3,
            s.phase[DPU_EMU_PHASE_KERNEL] * 1e3, s.phase[DPU_EMU_PHASE_DPU_CPU] * 1e3,
            s.phase[DPU_EMU_PHASE_OTHER] * 1e3);
}
