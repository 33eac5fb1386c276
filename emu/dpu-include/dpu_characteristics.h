/* dpu_characteristics.h -- sizes of the (virtual) DPU, v1A values. */
#ifndef _DPU_CHARACTERISTICS_H_
#define _DPU_CHARACTERISTICS_H_
#include "../vdpu/abi.h"
#define DPU_NR_THREADS VDPU_MAX_TASKLETS
#define NR_THREADS     VDPU_MAX_TASKLETS
#define WRAM_SIZE      VDPU_WRAM_SIZE
#define MRAM_SIZE      VDPU_MRAM_SIZE
#define IRAM_SIZE      VDPU_IRAM_SIZE
#define DPU_WRAM_SIZE  VDPU_WRAM_SIZE
#define DPU_MRAM_SIZE  VDPU_MRAM_SIZE
#endif
