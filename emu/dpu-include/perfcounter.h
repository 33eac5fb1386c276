/* perfcounter.h -- the DPU's performance counter (virtual UPMEM, SDK names).
 * One counter per DPU; cycle values have 16-cycle granularity (low 4 bits 0). */
#ifndef _DPU_PERFCOUNTER_H_
#define _DPU_PERFCOUNTER_H_

#include <stdbool.h>
#include <stdint.h>

#include "../vdpu/abi.h"

typedef uint64_t perfcounter_t;
typedef enum {
    COUNT_SAME = 0,
    COUNT_CYCLES = 1,
    COUNT_INSTRUCTIONS = 2,
    COUNT_NOTHING = 3,
    COUNT_DISABLE_BOTH = 6, /* v1B only: faults on v1A (as here) */
    COUNT_ENABLE_BOTH = 7   /* v1B only: faults on v1A (as here) */
} perfcounter_config_t;

/* DPU clock in Hz, filled by the loader (host-visible). */
extern const volatile uint32_t CLOCKS_PER_SEC;

/* Configure; returns the counter value before an optional reset. */
static inline __attribute__((always_inline, unused)) perfcounter_t
perfcounter_config(perfcounter_config_t config, bool reset_value)
{
    return vdpu_ecall64(VDPU_SYS_PERF_CONFIG, (uint32_t)config, reset_value ? 1u : 0u);
}

static inline __attribute__((always_inline, unused)) perfcounter_t perfcounter_get(void)
{
    return vdpu_ecall64(VDPU_SYS_PERF_GET, 0u, 0u);
}

#endif
