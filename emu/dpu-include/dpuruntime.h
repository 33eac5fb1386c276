/* dpuruntime.h -- the runtime's internals that the SDK exposes to programs
 * (SDK names). On the virtual DPU:
 *  - __HEAP_POINTER is the heap top (alloc.h's mem_alloc moves it);
 *  - __acquire/__release take the atomic bit at base + off, __resume wakes
 *    tasklet base + off, __stop stops the calling tasklet: the DPU's
 *    primitives, through the runtime services (atomic_bit.h); the SDK's
 *    "at" jump target of __release is not needed (the service returns);
 *  - likely, unlikely, unreachable, count_leading_zeros, count_population.
 * Left out: names of the DPU's own assembly (__stop_at(label),
 * __AT_THIS_INSTRUCTION, __ADD_PROFILING_ENTRY__, the perfcounter entry
 * strings), the initial heap pointer, the wait-queue table and the stack
 * table of the SDK's runtime, which this runtime does not have
 * (docs/VIRTUAL_DPU.md). */
#ifndef _DPU_DPURUNTIME_H_
#define _DPU_DPURUNTIME_H_
#include <atomic_bit.h>
#include <built_ins.h>
#include <dpuconst.h>
#include <dpufault.h>
#include <macro_utils.h>
#include <stdint.h>

#define __HEAP_POINTER __sys_heap_pointer
extern uint32_t __HEAP_POINTER;

/* the SDK's stack descriptor (its runtime keeps one per tasklet) */
typedef struct {
    uint32_t stack_size;
    uint32_t stack_ptr;
} thread_stack_t;

#define __acquire(base, off)     __vdpu_acquire((uint32_t)(base) + (uint32_t)(off))
#define __release(base, off, at) __vdpu_release((uint32_t)(base) + (uint32_t)(off))
#define __resume(base, off)      __vdpu_resume((uint32_t)(base) + (uint32_t)(off))
#define __stop()                 __vdpu_stop()

#ifndef likely
#define likely(x) __builtin_expect((x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect((x), 0)
#endif
#define unreachable()          __builtin_unreachable()
#define count_leading_zeros(x) __builtin_clz(x)
#define count_population(x)    __builtin_popcount(x)
#define __EMPTY_WAIT_QUEUE     0xFF

#endif
