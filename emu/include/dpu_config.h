/*
 * dpu_config.h -- present because SDK programs include it. The SDK's
 * dpu_reset_rank / dpu_reset_dpu (re-running the chips' reset and
 * configuration sequence) are not provided: docs/COMPATIBILITY.md.
 */
#ifndef DPU_CONFIG_H
#define DPU_CONFIG_H

#include "dpu_error.h"
#include "dpu_types.h"

#endif /* DPU_CONFIG_H */
