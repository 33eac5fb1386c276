/* Host/DPU contract of the min/max example (fixed-width types only). */
#ifndef CPP_MINMAX_COMMON_H
#define CPP_MINMAX_COMMON_H
#include <stdint.h>

#define BLOCK_BYTES 256 /* bytes per DMA (multiple of 8, <= 2048) */
#define BLOCK_ELEMS (BLOCK_BYTES / sizeof(int32_t))

/* one per DPU: how many of the values in its MRAM heap are valid */
typedef struct {
    uint32_t n_elems;
    uint32_t pad;
} dpu_args_t;

/* one per DPU: its slice's minimum, maximum and values above the threshold */
typedef struct {
    int32_t min, max;
    uint32_t above, pad;
} dpu_result_t;
#endif
