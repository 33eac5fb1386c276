/* profiling.h -- cycles spent in code sections, per tasklet (SDK names and
 * semantics): PROFILING_INIT(name) declares a context, profiling_start /
 * profiling_stop around a section add the perfcounter's difference (its
 * low 32 bits, as the SDK's `time` instruction) to count[me()]. Starting
 * twice, or stopping a section not started, faults the DPU
 * (__FAULT_ALREADY_PROFILING__, __FAULT_NOT_PROFILING__). Without
 * DPU_PROFILING defined both are no-ops, as in the SDK. The perfcounter
 * counts modeled cycles unless configured otherwise (perfcounter.h); the
 * two functions are inline here (the SDK has them in its runtime) because
 * the context's layout depends on the program's number of tasklets. */
#ifndef _DPU_PROFILING_H_
#define _DPU_PROFILING_H_
#include <attributes.h>
#include <limits.h>
#include <profiling_internals.h>

#define PROFILING_RESET_VALUE (UINT32_MAX)

#define PROFILING_INIT(_name)                                                                      \
    __section(".dpu_profiling") dpu_profiling_t _name = {                                          \
        .start = {[0 ...(NR_THREADS - 1)] = PROFILING_RESET_VALUE},                                \
        .count = {[0 ...(NR_THREADS - 1)] = 0},                                                    \
    }

#ifdef DPU_PROFILING
#include <defs.h>
#include <dpufault.h>
#include <perfcounter.h>

static inline __attribute__((unused)) void profiling_start(dpu_profiling_t *context)
{
    sysname_t tid = me();
    if (context->start[tid] != PROFILING_RESET_VALUE)
        __vdpu_fault(__FAULT_ALREADY_PROFILING__, "profiling_start: section already started");
    context->start[tid] = (uint32_t)perfcounter_get();
}

static inline __attribute__((unused)) void profiling_stop(dpu_profiling_t *context)
{
    sysname_t tid = me();
    if (context->start[tid] == PROFILING_RESET_VALUE)
        __vdpu_fault(__FAULT_NOT_PROFILING__, "profiling_stop: section not started");
    context->count[tid] += (uint32_t)perfcounter_get() - context->start[tid];
    context->start[tid] = PROFILING_RESET_VALUE;
}
#else
#define profiling_start(context)                                                                   \
    do {                                                                                           \
    } while (0)
#define profiling_stop(context)                                                                    \
    do {                                                                                           \
    } while (0)
#endif

#endif
