/* dpuconst.h -- constants of the DPU (SDK names): 24 hardware threads,
 * 64 MiB of MRAM (its log2). */
#ifndef _DPU_DPUCONST_H_
#define _DPU_DPUCONST_H_
#define __DPU_NUMBER_OF_THREADS 24
#define __DPU_MRAM_SIZE_LOG2    26
#endif
