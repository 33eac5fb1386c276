/*
 * dpu_management.h -- present because real SDK programs include it; everything it
 * declared in the SDK that the virtual UPMEM provides is in dpu.h.
 */
#ifndef DPU_MANAGEMENT_H
#define DPU_MANAGEMENT_H

#include "dpu.h"

#endif /* DPU_MANAGEMENT_H */
