/*
 * dpu_runner.h -- booting and polling rank and DPU handles (the SDK's
 * low-level host API; dpu_management.h gives the handles).
 *
 * Booting is dpu_launch(DPU_ASYNCHRONOUS) of the handle's set (so the
 * virtual DPU runs the program to its end in the rank's queue); polling
 * waits for that launch (dpu_sync) and then reports the DPUs stopped.
 */
#ifndef DPU_RUNNER_H
#define DPU_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "dpu.h"
#include "dpu_error.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Boots thread `thread` of every enabled DPU of the rank / of the DPU:
 * only DPU_BOOT_THREAD with should_resume false can be started alone
 * (the runtime's boot thread starts the others), else
 * DPU_ERR_INVALID_THREAD_ID. */
dpu_error_t dpu_launch_thread_on_rank(struct dpu_rank_t *rank, dpu_thread_t thread,
                                      bool should_resume);
dpu_error_t dpu_launch_thread_on_dpu(struct dpu_t *dpu, dpu_thread_t thread, bool should_resume);
/* Updates the rank's run context (dpu_get_run_context); a DPU fault is
 * reported there, not as the return value. */
dpu_error_t dpu_poll_rank(struct dpu_rank_t *rank);
dpu_error_t dpu_poll_dpu(struct dpu_t *dpu, bool *dpu_is_running, bool *dpu_is_in_fault);

/* Which DPUs of the rank run or are in fault, per chip, after the last
 * dpu_poll_rank. */
typedef struct _dpu_run_context_t {
    dpu_bitfield_t dpu_running[DPU_MAX_NR_CIS];
    dpu_bitfield_t dpu_in_fault[DPU_MAX_NR_CIS];
    dpu_error_t poll_status;
    uint8_t nb_dpu_running;
} * dpu_run_context_t;

/* The rank's run context (owned by the rank). */
dpu_run_context_t dpu_get_run_context(struct dpu_rank_t *rank);
/* dpu_launch_thread_on_*(DPU_BOOT_THREAD, false). */
dpu_error_t dpu_boot_dpu(struct dpu_t *dpu);
dpu_error_t dpu_boot_rank(struct dpu_rank_t *rank);
/* dpu_status of the handle's set. */
dpu_error_t dpu_status_rank(struct dpu_rank_t *rank, bool *done, bool *fault);
dpu_error_t dpu_status_dpu(struct dpu_t *dpu, bool *done, bool *fault);

#ifdef __cplusplus
}
#endif

#endif /* DPU_RUNNER_H */
