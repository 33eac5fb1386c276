/* memmram_utils.h -- alignment helpers for MRAM transfers (SDK names and
 * values: DMAs move 8-byte aligned blocks, the SDK's memcpy/memset on MRAM
 * work through an 8-byte cache). As the SDK's, no includes. */
#ifndef _DPU_MEMMRAM_UTILS_H_
#define _DPU_MEMMRAM_UTILS_H_
#define ALIGN_MASK(x, mask) (((x) + (mask)) & ~(mask))
#define ALIGN(x, a)         ALIGN_MASK((x), (a)-1)
#define DMA_ALIGNMENT       8
#define DMA_OFF_MASK        (DMA_ALIGNMENT - 1)
#define DMA_ALIGNED(x)      ALIGN(x, DMA_ALIGNMENT)
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#define MRAM_CACHE_SIZE 8
#endif
