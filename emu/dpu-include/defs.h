/* defs.h -- DPU-side basics (virtual UPMEM, SDK names). */
#ifndef _DPU_DEFS_H_
#define _DPU_DEFS_H_

#include <attributes.h>
#include <dpufault.h>
#include <macro_utils.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sysdef.h>

#include "../vdpu/abi.h"

#ifndef NR_TASKLETS
#define NR_TASKLETS 1
#endif

/* Tasklet id 0..NR_TASKLETS-1 (hart id). */
static inline __attribute__((always_inline, unused)) sysname_t me(void)
{
    return (sysname_t)vdpu_hartid();
}

/* Stop the DPU with a fault (halt/trap). */
static inline __attribute__((always_inline, noreturn, unused)) void halt(void)
{
    vdpu_ecall2(VDPU_SYS_FAULT, VDPU_FAULT_HALT, (uint32_t) "halt() called");
    __builtin_unreachable();
}

/* Free 32-bit words left on the calling tasklet's stack (negative: overflow). */
int check_stack(void);

#ifndef likely /* dpuruntime.h may have it */
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#endif
