/*
 * dpu_program.h -- present because real SDK programs include it; everything it
 * declared in the SDK that the virtual UPMEM provides is in dpu.h.
 */
#ifndef DPU_PROGRAM_H
#define DPU_PROGRAM_H

#include "dpu.h"

#endif /* DPU_PROGRAM_H */
