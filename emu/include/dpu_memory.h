/*
 * dpu_memory.h -- present because real SDK programs include it; everything it
 * declared in the SDK that the virtual UPMEM provides is in dpu.h.
 */
#ifndef DPU_MEMORY_H
#define DPU_MEMORY_H

#include "dpu.h"

#endif /* DPU_MEMORY_H */
