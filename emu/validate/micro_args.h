/*
 * micro_args.h -- host/DPU contract of the model-validation microbenchmarks
 * (the DPU programs arith.c, mram.c, stream.c and the host validate.c).
 *
 * Fixed-width types only: compiled for the host and for the DPU.
 */
#ifndef BENCH_MICRO_ARGS_H
#define BENCH_MICRO_ARGS_H

#include <stdint.h>

/* bytes per DMA of arith/stream (PrIM's BL=10); a build may lower it (the
 * TSME builds of stream.c at 16 and 24 tasklets, bench/tsme.mk: WRAM) */
#ifndef MICRO_BLOCK
#define MICRO_BLOCK 1024u
#endif

/* What the perfcounter counts during the timed windows. */
#define MICRO_COUNT_CYCLES 0u
#define MICRO_COUNT_INSNS  1u

/* stream kernels */
#define MICRO_STREAM_COPY     0u
#define MICRO_STREAM_COPY_DMA 1u
#define MICRO_STREAM_ADD      2u
/* PrIM's STREAM scale and triad (uint64_t, scalar = elements per DPU) */
#define MICRO_STREAM_SCALE 3u /* c[i] = s * a[i]        */
#define MICRO_STREAM_TRIAD 4u /* c[i] = a[i] + s * b[i] */

typedef struct {
    uint32_t bytes;    /* input bytes per DPU (multiple of MICRO_BLOCK / dma_size) */
    uint32_t count;    /* MICRO_COUNT_* */
    uint32_t kernel;   /* stream: MICRO_STREAM_*; mram: 0 read, 1 write */
    uint32_t dma_size; /* mram: bytes per DMA, 8..2048, multiple of 8 */
} micro_args_t;

/* One per tasklet: counter total over the timed windows and how many there were. */
typedef struct {
    uint64_t counted;
    uint32_t windows;
    uint32_t pad;
} micro_result_t;

#endif /* BENCH_MICRO_ARGS_H */
