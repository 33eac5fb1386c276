/* dpufault.h -- fault codes (SDK numbers). */
#ifndef _DPU_DPUFAULT_H_
#define _DPU_DPUFAULT_H_
#include "../vdpu/abi.h"
#define __FAULT_ALLOC_HEAP_FULL__   VDPU_FAULT_HEAP_FULL
#define __FAULT_DIVISION_BY_ZERO__  VDPU_FAULT_DIV_ZERO
#define __FAULT_ASSERT_FAILED__     VDPU_FAULT_ASSERT
#define __FAULT_HALT__              VDPU_FAULT_HALT
#define __FAULT_PRINTF_OVERFLOW__   VDPU_FAULT_PRINTF_OVERFLOW
#define __FAULT_ALREADY_PROFILING__ VDPU_FAULT_ALREADY_PROFILING
#define __FAULT_NOT_PROFILING__     VDPU_FAULT_NOT_PROFILING
#define __FAULT_UNALIGNED_MRAM__    VDPU_FAULT_UNALIGNED_MRAM
#define __FAULT_PERFCOUNTER__       VDPU_FAULT_PERFCOUNTER
/* Raise fault `code` with a message (string literal or WRAM string). */
#define __vdpu_fault(code, msg)                                                                    \
    do {                                                                                           \
        vdpu_ecall2(VDPU_SYS_FAULT, (code), (uint32_t)(msg));                                      \
        __builtin_unreachable();                                                                   \
    } while (0)
#endif
