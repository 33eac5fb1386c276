/*
 * dpu_runner.h -- present because real SDK programs include it; everything it
 * declared in the SDK that the virtual UPMEM provides is in dpu.h.
 */
#ifndef DPU_RUNNER_H
#define DPU_RUNNER_H

#include "dpu.h"

#endif /* DPU_RUNNER_H */
