/*
 * log.c -- dpu_log_read / dpulog_read_for_dpu: the DPU's printf output,
 * formatted by emu/vdpu/dpulog.c.
 */
#include <stdio.h>

#include "../vdpu/dpulog.h"
#include "entry.h"
#include "queue.h"
#include "set.h"

static dpu_error_t read_log(struct dpu_t *d, FILE *stream)
{
    if (d->not_simulated) /* see DPU_ERR_EMU_NOT_SIMULATED */
        return DPU_ERR_EMU_NOT_SIMULATED;
    switch (vdpu_log_read(d->v, stream)) {
    case DPULOG_OK:
        return DPU_OK;
    case DPULOG_ERR_NO_CONTEXT:
    case DPULOG_ERR_ARG:
        return DPU_ERR_LOG_CONTEXT_MISSING;
    case DPULOG_ERR_WRAPPED:
        return DPU_ERR_LOG_BUFFER_TOO_SMALL;
    case DPULOG_ERR_CORRUPT:
        return DPU_ERR_LOG_FORMAT;
    case DPULOG_ERR_NOMEM:
    case DPULOG_ERR_IO:
    default:
        return DPU_ERR_SYSTEM;
    }
}

/* Waits for the DPU's rank (its last launch may still be queued). */
static void settle(struct dpu_t *d)
{
    struct dpu_rank_t *r = d->rank;
    emu_ranks_quiesce(&r, 1);
}

/* see dpu.h */
dpu_error_t dpu_log_read(struct dpu_set_t set, FILE *stream)
{
    if (set.kind != DPU_SET_DPU || emu_set_check(set) != DPU_OK)
        return DPU_ERR_INVALID_DPU_SET;
    if (stream == NULL)
        return DPU_ERR_INTERNAL;
    emu_api_enter();
    settle(set.dpu);
    fprintf(stream, "=== DPU#0x%x ===\n", emu_dpu_id(set.dpu));
    dpu_error_t err = read_log(set.dpu, stream);
    emu_api_exit();
    return err;
}

/* see dpu_log.h */
dpu_error_t dpulog_read_for_dpu(struct dpu_t *dpu, FILE *stream)
{
    struct dpu_set_t set = {.kind = DPU_SET_DPU, .dpu = dpu};
    if (emu_set_check(set) != DPU_OK || stream == NULL)
        return DPU_ERR_INVALID_DPU_SET;
    emu_api_enter();
    settle(dpu);
    dpu_error_t err = read_log(dpu, stream);
    emu_api_exit();
    return err;
}
