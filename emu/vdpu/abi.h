/*
 * emu/vdpu/abi.h -- contract between DPU-side runtime code (compiled for
 * riscv32 by emu/bin/dpu-upmem-dpurte-clang) and the virtual DPU interpreter
 * (emu/vdpu/, host side).
 *
 * Plain #defines and fixed-width types only: this header compiles both for
 * riscv32 (DPU side) and for the host.
 *
 * Calling a service (DPU side):
 *     a7 = service number (VDPU_SYS_*), arguments in a0..a5, `ecall`,
 *     results in a0 (and a1 for 64-bit results, low word in a0).
 *     Registers other than a0/a1 are preserved. See vdpu_ecall*() helpers
 *     at the end of this file (riscv32 only).
 * "Blocking" services put the calling tasklet to sleep inside the
 * interpreter; other tasklets keep running (no host thread per tasklet).
 * All sync state (locks, barrier arrivals, handshake waits) is reset at every
 * boot (vdpu_run); WRAM/MRAM contents are NOT reset (globals persist).
 * Boot: only tasklet 0 starts; crt0 runs the .init_array constructors
 * (__attribute__((constructor)): use them for per-boot runtime resets such as
 * the printf buffer position), then VDPU_SYS_BOOT starts the other tasklets.
 * Runtime code must not depend on NR_TASKLETS at compile time (it is built
 * once into an archive); read the absolute symbol __sys_nr_tasklets instead.
 */
#ifndef VDPU_ABI_H
#define VDPU_ABI_H

#ifndef __ASSEMBLER__
#include <stdint.h>
#endif

/* ---------------------------------------------------------------- memory map */
#define VDPU_WRAM_BASE      0x00000000u /* .rodata .data .bss stacks heap   */
#define VDPU_WRAM_SIZE      0x00010000u /* 64 KiB                            */
#define VDPU_MRAM_BASE      0x08000000u /* __mram variables, DMA target      */
#define VDPU_MRAM_SIZE      0x04000000u /* 64 MiB                            */
#define VDPU_IRAM_BASE      0x80000000u /* .text (read/execute only)         */
#define VDPU_IRAM_MAX_INSNS 4096u       /* 4-byte RV32 instructions          */
#define VDPU_IRAM_SIZE      (VDPU_IRAM_MAX_INSNS * 4u)
#define VDPU_MAX_TASKLETS   24u   /* v1A hardware threads              */
#define VDPU_DEFAULT_STACK  1024u /* STACK_SIZE_DEFAULT                */

/* DMA rules (mram_read / mram_write) */
#define VDPU_DMA_MIN   8u
#define VDPU_DMA_MAX   2048u
#define VDPU_DMA_ALIGN 8u
/* An MRAM address given to DMA is taken modulo VDPU_MRAM_SIZE, so both the
 * absolute form (0x08000000 + off) and the plain offset form work. */

/* ------------------------------------------------- symbols the loader reads */
/* Emitted by the wrapper / crt0 / linker script into every ELF:
 *   __sys_nr_tasklets        absolute symbol, value = NR_TASKLETS
 *   __sys_stack_table        WRAM array of NR_TASKLETS x {uint32 lo, uint32 hi}
 *                            (stack region of tasklet k is [lo, hi), sp0 = hi)
 *   __sys_wram_end           first WRAM byte after image + stacks (= __sys_heap_start;
 *                            the heap is [__sys_heap_start, 0x10000))
 *   __sys_used_mram_end      first free 8-aligned MRAM byte (DPU_MRAM_HEAP_POINTER)
 *   __sys_host_begin/_end    bounds of .data.__sys_host (host-visible WRAM vars)
 *   CLOCKS_PER_SEC           __host const volatile uint32, filled by the loader */
#define VDPU_SYM_NR_TASKLETS "__sys_nr_tasklets"
#define VDPU_SYM_STACK_TABLE "__sys_stack_table"
#define VDPU_SYM_WRAM_END    "__sys_wram_end"
#define VDPU_SYM_MRAM_END    "__sys_used_mram_end"
#define VDPU_SYM_CLOCKS      "CLOCKS_PER_SEC"

/* ------------------------------------------------------------- ecall table */
/* a7 value                         contract (args -> result)                 */
#define VDPU_SYS_EXIT 0u /* () : calling tasklet stops (main returned). */
#define VDPU_SYS_FAULT                                                                             \
    1u /* (a0=code VDPU_FAULT_*, a1=WRAM addr of NUL-terminated                                    \
          message or 0) : DPU faults, run stops. */
#define VDPU_SYS_MRAM_READ                                                                         \
    2u /* (a0=MRAM addr, a1=WRAM addr, a2=bytes) : DMA MRAM->WRAM;                                 \
          size 8..2048 %8, both addrs 8-aligned, else fault; blocks                                \
          the caller until the DMA completes. */
#define VDPU_SYS_MRAM_WRITE                                                                        \
    3u /* (a0=WRAM addr, a1=MRAM addr, a2=bytes) : DMA WRAM->MRAM;                                 \
          same rules as MRAM_READ. */
#define VDPU_SYS_LOCK_ACQUIRE                                                                      \
    4u /* (a0=key) : blocking acquire of the lock named by key (any                                \
          32-bit value; use the WRAM address of the mutex object or                                \
          an atomic-bit number). Non-recursive: re-acquire by owner                                \
          deadlocks. */
#define VDPU_SYS_LOCK_RELEASE                                                                      \
    5u                       /* (a0=key) : release; wakes the first waiter (FIFO). Release         \
                                of a free lock is a no-op (as an atomic-bit clear). */
#define VDPU_SYS_LOCK_TRY 6u /* (a0=key) -> a0 = 1 acquired, 0 busy. Never blocks. */
#define VDPU_SYS_BARRIER_WAIT                                                                      \
    7u /* (a0=key (WRAM addr of barrier object), a1=count 1..127) :                                \
          block until `count` tasklets waited on key; the last                                     \
          arrival releases all; then it re-arms. */
#define VDPU_SYS_SEM_TAKE                                                                          \
    8u /* (a0=WRAM addr of an int32 counter) : atomically                                          \
          counter -= 1; if the new value < 0 the caller sleeps on                                  \
          that address until a SEM_GIVE wakes it. */
#define VDPU_SYS_SEM_GIVE                                                                          \
    9u /* (a0=WRAM addr of the same int32 counter) : atomically                                    \
          counter += 1; if there are sleepers, wake the first (FIFO). */
#define VDPU_SYS_HS_NOTIFY                                                                         \
    10u /* () : block until some tasklet waits on me                                               \
           (HS_WAIT_FOR(me())), then release both. */
#define VDPU_SYS_HS_WAIT_FOR                                                                       \
    11u /* (a0=notifier tasklet id) -> a0 = 0 after the notifier                                   \
           notified, or VDPU_HS_EALREADY immediately if another                                    \
           tasklet already waits on that notifier. */
#define VDPU_SYS_PERF_CONFIG                                                                       \
    12u /* (a0=config COUNT_*, a1=reset 0/1) -> a0:a1 = counter value                              \
           before the reset (64-bit, 16-cycle granularity). */
#define VDPU_SYS_PERF_GET                                                                          \
    13u                    /* () -> a0:a1 = current counter value (64-bit, low 4 bits              \
                              zero when counting cycles). */
#define VDPU_SYS_YIELD 14u /* () : no-op service (1 slot); for spin loops. */
#define VDPU_SYS_BOOT                                                                              \
    15u /* () : tasklet 0 only (crt0, after running .init_array                                    \
           constructors): start tasklets 1..NR_TASKLETS-1. Before it                               \
           only tasklet 0 runs. Used by crt0; not for user code. */
#define VDPU_SYS_COUNT 16u

#define VDPU_HS_EALREADY 114 /* value of EALREADY returned by HS_WAIT_FOR */

/* perfcounter configs (same values as the SDK's perfcounter_config_t) */
#define VDPU_PERF_SAME         0
#define VDPU_PERF_CYCLES       1
#define VDPU_PERF_INSTRUCTIONS 2
#define VDPU_PERF_NOTHING      3

/* --------------------------------------------------------------- fault codes */
/* 1..9: the SDK's dpufault.h numbers; >= 16: rules enforced by the emulator. */
#define VDPU_FAULT_HEAP_FULL       1  /* mem_alloc: heap exhausted             */
#define VDPU_FAULT_DIV_ZERO        2  /* integer division by zero              */
#define VDPU_FAULT_ASSERT          3  /* assert() failed                       */
#define VDPU_FAULT_HALT            4  /* halt() / trap                         */
#define VDPU_FAULT_PRINTF_OVERFLOW 5  /* printf record larger than the buffer  */
#define VDPU_FAULT_UNALIGNED_MRAM  8  /* unaligned MRAM helper misuse          */
#define VDPU_FAULT_PERFCOUNTER     9  /* unsupported perfcounter config        */
#define VDPU_FAULT_DMA_SIZE        16 /* DMA size not in 8..2048 or not %8     */
#define VDPU_FAULT_DMA_ALIGN       17 /* DMA WRAM/MRAM address not 8-aligned   */
#define VDPU_FAULT_DMA_RANGE       18 /* DMA outside WRAM/MRAM                 */
#define VDPU_FAULT_BAD_ACCESS      19 /* load/store outside WRAM/MRAM          */
#define VDPU_FAULT_IRAM_STORE      20 /* store into IRAM                       */
#define VDPU_FAULT_MISALIGNED      21 /* misaligned load/store                 */
#define VDPU_FAULT_STACK_OVERFLOW  22 /* sp left the tasklet's stack region    */
#define VDPU_FAULT_DEADLOCK        23 /* every live tasklet is blocked         */
#define VDPU_FAULT_ILLEGAL_INSN    24 /* illegal/unsupported instruction       */
#define VDPU_FAULT_BAD_PC          25 /* jump outside IRAM .text               */
#define VDPU_FAULT_BAD_ECALL       26 /* unknown service / bad service args    */
#define VDPU_FAULT_INSN_LIMIT      27 /* watchdog: instruction budget exceeded */

/* ------------------------------------------------- DPU-side helpers (riscv32) */
#if defined(__riscv) && __riscv_xlen == 32 && !defined(__ASSEMBLER__)
static inline __attribute__((always_inline, unused)) uint32_t vdpu_ecall3(uint32_t nr, uint32_t x0,
                                                                          uint32_t x1, uint32_t x2)
{
    register uint32_t a0 __asm__("a0") = x0;
    register uint32_t a1 __asm__("a1") = x1;
    register uint32_t a2 __asm__("a2") = x2;
    register uint32_t a7 __asm__("a7") = nr;
    __asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a2), "r"(a7) : "memory");
    return a0;
}
static inline __attribute__((always_inline, unused)) uint64_t vdpu_ecall64(uint32_t nr, uint32_t x0,
                                                                           uint32_t x1)
{
    register uint32_t a0 __asm__("a0") = x0;
    register uint32_t a1 __asm__("a1") = x1;
    register uint32_t a7 __asm__("a7") = nr;
    __asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a7) : "memory");
    return ((uint64_t)a1 << 32) | a0;
}
#define vdpu_ecall0(nr)       vdpu_ecall3((nr), 0u, 0u, 0u)
#define vdpu_ecall1(nr, x)    vdpu_ecall3((nr), (uint32_t)(x), 0u, 0u)
#define vdpu_ecall2(nr, x, y) vdpu_ecall3((nr), (uint32_t)(x), (uint32_t)(y), 0u)
/* me(): tasklet id = CSR mhartid */
static inline __attribute__((always_inline, unused)) uint32_t vdpu_hartid(void)
{
    uint32_t id;
    __asm__ volatile("csrr %0, mhartid" : "=r"(id));
    return id;
}
#endif

#endif /* VDPU_ABI_H */
