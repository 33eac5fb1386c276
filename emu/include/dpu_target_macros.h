/*
 * dpu_target_macros.h -- where the SDK's rank ids keep the backend type:
 * the top DPU_TARGET_LOG2_SIZE bits of a dpu_rank_id_t. The virtual
 * UPMEM's rank ids (dpu_get_rank_id) are plain numbers below
 * DPU_TARGET_MASK.
 */
#ifndef DPU_TARGET_MACROS_H
#define DPU_TARGET_MACROS_H

#include <limits.h>

#include "dpu_target.h"
#include "dpu_types.h"

#define DPU_TARGET_LOG2_SIZE (4)
#define DPU_TARGET_SHIFT     (CHAR_BIT * sizeof(dpu_rank_id_t) - DPU_TARGET_LOG2_SIZE)
#define DPU_TARGET_MASK      ((1 << DPU_TARGET_SHIFT) - 1)

#endif /* DPU_TARGET_MACROS_H */
