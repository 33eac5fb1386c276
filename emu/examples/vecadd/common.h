/* Host/DPU contract of the vector addition example (fixed-width types only). */
#ifndef VECADD_COMMON_H
#define VECADD_COMMON_H
#include <stdint.h>

#define BLOCK_BYTES                                                                                \
    256 /* bytes per DMA (multiple of 8, <= 2048); two buffers fit the 1 KiB stack */
#define BLOCK_ELEMS (BLOCK_BYTES / sizeof(int32_t))

/* MRAM heap layout per DPU: A[n] B[n] C[n], each padded to BLOCK_BYTES. */
typedef struct {
    uint32_t n_elems;    /* valid elements on this DPU      */
    uint32_t span_bytes; /* bytes between A, B and C        */
} dpu_args_t;
#endif
