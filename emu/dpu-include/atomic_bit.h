/* atomic_bit.h -- atomic bits (virtual UPMEM, SDK names) and the DPU's
 * synchronisation primitives the runtime builds on.
 *
 * The DPU has 256 atomic bits; `acquire` sets one (and, in the SDK's
 * `acquire rb, imm, nz, .` form, jumps to itself while it is already set:
 * the tasklet spins, one issued instruction per attempt), `release` clears
 * one. An __atomic_bit variable names a bit: it lives in the non-loaded
 * region at VDPU_ATOMIC_BASE (emu/rt/dpu.lds, as the SDK's `.atomic`
 * section), so the low byte of its address is the bit number -- the value
 * the SDK stores in a barrier's or semaphore's `lock` byte. It is not memory:
 * load or store it and the DPU faults. All bits are cleared at every boot.
 *
 * The __vdpu_* primitives below are one `ecall` each (abi.h, VDPU_SYS_*):
 * acquire/release of a bit, stop (sleep until resumed), resume of a tasklet.
 * Each costs its ecall plus the `li a7` that selects it, where the DPU needs
 * one instruction; a retry of a spinning acquire or resume is the ecall
 * alone, one issue slot, as on the DPU. */
#ifndef _DPU_ATOMIC_BIT_H_
#define _DPU_ATOMIC_BIT_H_

#include <attributes.h>
#include <macro_utils.h>
#include <stdint.h>

#include "../vdpu/abi.h"

#define ATOMIC_BIT_GET(_name)    __CONCAT(__atomic_bit_, _name)
#define ATOMIC_BIT_INIT(_name)   uint8_t __atomic_bit ATOMIC_BIT_GET(_name)
#define ATOMIC_BIT_EXTERN(_name) extern uint8_t __atomic_bit ATOMIC_BIT_GET(_name)

/* start of the atomic region (emu/rt/dpu.lds) */
extern uint8_t __atomic_start_addr;
#define ATOMIC_BIT_INDEX(_name) (&ATOMIC_BIT_GET(_name) - &__atomic_start_addr)

/* One service call with exactly the registers it uses (abi.h's generic
 * helpers also zero a1/a2: two instructions the DPU does not execute). */
#define __VDPU_SYS0(nr)                                                                            \
    do {                                                                                           \
        register uint32_t __a7 __asm__("a7") = (nr);                                               \
        __asm__ volatile("ecall" : : "r"(__a7) : "memory");                                        \
    } while (0)
#define __VDPU_SYS1(nr, x)                                                                         \
    do {                                                                                           \
        register uint32_t __a0 __asm__("a0") = (x);                                                \
        register uint32_t __a7 __asm__("a7") = (nr);                                               \
        __asm__ volatile("ecall" : : "r"(__a0), "r"(__a7) : "memory");                             \
    } while (0)

/* The primitives are `nodebug`: inlined, their instructions carry the line of
 * the caller, so a diagnostic names the program's line rather than this
 * header's (mram.h's DMA functions likewise). */
/* Set the bit (its low 8 bits count); spin while it is set. */
static inline __attribute__((always_inline, unused, nodebug)) void __vdpu_acquire(uint32_t bit)
{
    __VDPU_SYS1(VDPU_SYS_ACQUIRE, bit);
}
/* Set the bit if it is clear: 1 taken, 0 busy. Never spins. */
static inline __attribute__((always_inline, unused, nodebug)) uint32_t
__vdpu_acquire_try(uint32_t bit)
{
    register uint32_t a0 __asm__("a0") = bit;
    register uint32_t a7 __asm__("a7") = VDPU_SYS_ACQUIRE_TRY;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}
/* Clear the bit. */
static inline __attribute__((always_inline, unused, nodebug)) void __vdpu_release(uint32_t bit)
{
    __VDPU_SYS1(VDPU_SYS_RELEASE, bit);
}
/* Sleep until another tasklet resumes this one. */
static inline __attribute__((always_inline, unused, nodebug)) void __vdpu_stop(void)
{
    __VDPU_SYS0(VDPU_SYS_STOP);
}
/* Start the stopped tasklet `id`; spin while it still runs. */
static inline __attribute__((always_inline, unused, nodebug)) void __vdpu_resume(uint32_t id)
{
    __VDPU_SYS1(VDPU_SYS_RESUME, id);
}
/* Release `bit`, then spin while (*byte & mask) != 0: the retry loop of
 * vmutex_lock, charged as the SDK's loop (abi.h, VDPU_SYS_RELEASE_WAIT). */
static inline __attribute__((always_inline, unused, nodebug)) void
__vdpu_release_wait(uint32_t bit, const volatile uint8_t *byte, uint32_t mask)
{
    register uint32_t a0 __asm__("a0") = bit;
    register uint32_t a1 __asm__("a1") = (uint32_t)byte;
    register uint32_t a2 __asm__("a2") = mask;
    register uint32_t a7 __asm__("a7") = VDPU_SYS_RELEASE_WAIT;
    __asm__ volatile("ecall" : : "r"(a0), "r"(a1), "r"(a2), "r"(a7) : "memory");
}

/* the DPU's acquire/release of the atomic bit _reg + _bit (SDK names) */
#define __ATOMIC_BIT_ACQUIRE(_reg, _bit) __vdpu_acquire((uint32_t)(_reg) + (uint32_t)(_bit))
#define __ATOMIC_BIT_RELEASE(_reg, _bit) __vdpu_release((uint32_t)(_reg) + (uint32_t)(_bit))
#define ATOMIC_BIT_ACQUIRE(_name)        __vdpu_acquire((uint32_t)&ATOMIC_BIT_GET(_name))
#define ATOMIC_BIT_RELEASE(_name)        __vdpu_release((uint32_t)&ATOMIC_BIT_GET(_name))

#endif
