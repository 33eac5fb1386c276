/*
 * dpu_config.h -- resetting a rank (the SDK's low-level host API;
 * dpu_management.h gives the handle).
 */
#ifndef DPU_CONFIG_H
#define DPU_CONFIG_H

#include "dpu_error.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Resets the rank as the SDK's does after its chip configuration: waits for
 * the rank's queued work, then its DPUs are stopped with no fault reported
 * (dpu_status), keeping their memories and loaded program (the SDK's
 * sequence clears the run and debug state, not WRAM, MRAM or IRAM).
 * DPU_ERR_INVALID_DPU_SET for a freed rank. The SDK's dpu_reset_dpu (it
 * overwrites the DPU's first instruction with a stop) is not provided:
 * docs/COMPATIBILITY.md. */
dpu_error_t dpu_reset_rank(struct dpu_rank_t *rank);

#ifdef __cplusplus
}
#endif

#endif /* DPU_CONFIG_H */
