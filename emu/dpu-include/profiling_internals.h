/* profiling_internals.h -- the context of a profiled code section (SDK
 * names): per tasklet, the perfcounter at its profiling_start and the
 * cycles counted so far. NR_THREADS is the SDK's name for the number of
 * tasklets; given neither NR_THREADS nor DPU_NR_THREADS, NR_TASKLETS. */
#ifndef _DPU_PROFILING_INTERNALS_H_
#define _DPU_PROFILING_INTERNALS_H_
#include <stdint.h>

#ifndef NR_THREADS
#if defined(DPU_NR_THREADS)
#define NR_THREADS DPU_NR_THREADS
#elif defined(NR_TASKLETS)
#define NR_THREADS NR_TASKLETS
#else
#error "DPU_NR_THREADS, NR_THREADS and NR_TASKLETS are undefined"
#endif
#endif

typedef struct {
    uint32_t start[NR_THREADS];
    uint32_t count[NR_THREADS];
} dpu_profiling_t;

#endif
