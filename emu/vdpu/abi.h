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
 * STOP puts the calling tasklet to sleep inside the interpreter; other
 * tasklets keep running (no host thread per tasklet). The atomic bits are
 * cleared at every boot (vdpu_run), as the SDK's crt0 does; WRAM/MRAM
 * contents are NOT reset (globals persist, and so do the barrier/semaphore
 * counters and wait queues the runtime keeps in WRAM, as on hardware).
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
/* Synchronisation primitives: the DPU's own (acquire/release of one of the 256
 * atomic bits, stop, resume). The runtime builds the SDK's mutexes, barriers,
 * semaphores and handshakes from them (emu/dpu-include, emu/rt/sync.c), so a
 * program executes the SDK's instruction sequences. "Spins": while the
 * condition does not hold, the ecall does not complete and is issued again at
 * the tasklet's next issue slot (as the DPU's `acquire rb, 0, nz, .` jumps to
 * itself), one issue slot per attempt; a0..a2 and a7 are left untouched. */
#define VDPU_SYS_ACQUIRE                                                                           \
    4u                      /* (a0=atomic bit; its low 8 bits are the bit, as the DPU's acquire    \
                               takes them from rb + imm) : set the bit; spins while it is set. */
#define VDPU_SYS_RELEASE 5u /* (a0=atomic bit) : clear the bit (no-op if clear). */
#define VDPU_SYS_ACQUIRE_TRY                                                                       \
    6u                   /* (a0=atomic bit) -> a0 = 1 bit was clear, now set (taken);              \
                            0 bit was set (busy). Never spins. */
#define VDPU_SYS_STOP 7u /* () : the calling tasklet sleeps until RESUMEd. */
#define VDPU_SYS_RESUME                                                                            \
    8u /* (a0=tasklet id) : start a stopped tasklet (it continues after its                        \
          STOP); spins while that tasklet still runs (the DPU's resume                             \
          fails on a running thread and the SDK retries it). A tasklet that                        \
          exited or does not exist faults (VDPU_FAULT_BAD_ECALL). */
#define VDPU_SYS_RELEASE_WAIT                                                                      \
    9u /* (a0=atomic bit, a1=WRAM byte address, a2=bit mask) : release the                         \
          bit, then spin while (byte & mask) != 0 -- the retry loop of the                         \
          SDK's vmutex_lock (acquire, lbu, or, sb, release, jeq: each retry                        \
          is charged VDPU_VMUTEX_RETRY_SLOTS issue slots, as the loop's 6                          \
          instructions). The interpreter sees the wait, so deadlock detection                      \
          covers it. */
/* 10, 11: unused (were blocking barrier/semaphore/handshake services) */
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

#define VDPU_VMUTEX_RETRY_SLOTS 6u /* see VDPU_SYS_RELEASE_WAIT */

/* Atomic bits: 256 per DPU; the SDK's linker script reserves the first 200
 * for the toolchain (upmem-api.md: at most 56 user mutexes). __atomic_bit
 * variables live in a non-loaded region at VDPU_ATOMIC_BASE, so the low byte
 * of an atomic bit's address is its bit (the barrier/semaphore `lock` byte);
 * WRAM loads/stores to that region fault (it is not memory). */
#define VDPU_ATOMIC_BASE     0xF0000000u
#define VDPU_ATOMIC_BITS     256u
#define VDPU_ATOMIC_RESERVED 200u

/* perfcounter configs (same values as the SDK's perfcounter_config_t) */
#define VDPU_PERF_SAME         0
#define VDPU_PERF_CYCLES       1
#define VDPU_PERF_INSTRUCTIONS 2
#define VDPU_PERF_NOTHING      3

/* --------------------------------------------------------------- fault codes */
/* 1..9: the SDK's dpufault.h numbers; >= 16: rules enforced by the emulator. */
#define VDPU_FAULT_HEAP_FULL         1  /* mem_alloc: heap exhausted             */
#define VDPU_FAULT_DIV_ZERO          2  /* integer division by zero              */
#define VDPU_FAULT_ASSERT            3  /* assert() failed                       */
#define VDPU_FAULT_HALT              4  /* halt() / trap                         */
#define VDPU_FAULT_PRINTF_OVERFLOW   5  /* printf record larger than the buffer  */
#define VDPU_FAULT_ALREADY_PROFILING 6  /* profiling_start twice                */
#define VDPU_FAULT_NOT_PROFILING     7  /* profiling_stop without a start       */
#define VDPU_FAULT_UNALIGNED_MRAM    8  /* unaligned MRAM helper misuse          */
#define VDPU_FAULT_PERFCOUNTER       9  /* unsupported perfcounter config        */
#define VDPU_FAULT_DMA_SIZE          16 /* DMA size not in 8..2048 or not %8     */
#define VDPU_FAULT_DMA_ALIGN         17 /* DMA WRAM/MRAM address not 8-aligned   */
#define VDPU_FAULT_DMA_RANGE         18 /* DMA outside WRAM/MRAM                 */
#define VDPU_FAULT_BAD_ACCESS        19 /* load/store outside WRAM/MRAM          */
#define VDPU_FAULT_IRAM_STORE        20 /* store into IRAM                       */
#define VDPU_FAULT_MISALIGNED        21 /* misaligned load/store                 */
#define VDPU_FAULT_STACK_OVERFLOW    22 /* sp left the tasklet's stack region    */
#define VDPU_FAULT_DEADLOCK          23 /* every live tasklet is blocked         */
#define VDPU_FAULT_ILLEGAL_INSN      24 /* illegal/unsupported instruction       */
#define VDPU_FAULT_BAD_PC            25 /* jump outside IRAM .text               */
#define VDPU_FAULT_BAD_ECALL         26 /* unknown service / bad service args    */
#define VDPU_FAULT_INSN_LIMIT        27 /* watchdog: instruction budget exceeded */
#define VDPU_FAULT_CYCLE_LIMIT       28 /* watchdog: cycle budget exceeded       */
#define VDPU_FAULT_ALL_STOPPED       29 /* stopRules=strict: every tasklet stopped */

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
