/* atomic_bit.h -- atomic bits (virtual UPMEM, SDK names).
 * An atomic bit is a WRAM byte; its address is the key of an interpreter
 * lock (VDPU_SYS_LOCK_*), so acquire/release behave like the hardware's
 * acquire/release instructions: acquire blocks while the bit is set, release
 * of a clear bit is a no-op. All bits are released at every boot. */
#ifndef _DPU_ATOMIC_BIT_H_
#define _DPU_ATOMIC_BIT_H_

#include <attributes.h>
#include <macro_utils.h>
#include <stdint.h>

#include "../vdpu/abi.h"

#define ATOMIC_BIT_GET(_name)    __CONCAT(__atomic_bit_, _name)
#define ATOMIC_BIT_INIT(_name)   uint8_t __atomic_bit ATOMIC_BIT_GET(_name)
#define ATOMIC_BIT_EXTERN(_name) extern uint8_t ATOMIC_BIT_GET(_name)

#define ATOMIC_BIT_ACQUIRE(_name)                                                                  \
    ((void)vdpu_ecall1(VDPU_SYS_LOCK_ACQUIRE, (uint32_t)&ATOMIC_BIT_GET(_name)))
#define ATOMIC_BIT_RELEASE(_name)                                                                  \
    ((void)vdpu_ecall1(VDPU_SYS_LOCK_RELEASE, (uint32_t)&ATOMIC_BIT_GET(_name)))

#endif
