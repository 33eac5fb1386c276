/*
 * dpu_log.h -- DPU printf logs (older SDK API; dpu_log_read is in dpu.h).
 */
#ifndef DPU_LOG_H
#define DPU_LOG_H

#include <stdio.h>

#include "dpu_error.h"
#include "dpu_types.h"

/* C linkage also when included from C++ without extern "C" (the SDK
 * needs the wrapper; accepting both costs nothing) */
#ifdef __cplusplus
extern "C" {
#endif

/* Replays the printf output of one DPU since its last boot, without the
 * "=== DPU#0x..." header. Buffer wrapped since boot:
 * DPU_ERR_LOG_BUFFER_TOO_SMALL; program without printf:
 * DPU_ERR_LOG_CONTEXT_MISSING. */
dpu_error_t dpulog_read_for_dpu(struct dpu_t *dpu, FILE *stream);

#ifdef __cplusplus
}
#endif

#endif /* DPU_LOG_H */
