/*
 * emu/vdpu/vdpu.h -- virtual DPU core: internal API of libvdpu.a (host side).
 *
 * A vdpu_program_t is a parsed DPU ELF (predecoded .text, initial WRAM/MRAM
 * images, symbols). It is immutable after loading and may be shared read-only
 * by any number of DPUs on any number of threads.
 * A vdpu_t is one DPU (64 KiB WRAM, 64 MiB MRAM reserved with
 * MAP_NORESERVE, tasklet state). Different vdpu_t may be used concurrently
 * from different threads; one vdpu_t must not be used by two threads at once.
 *
 * Addresses: the memory map is in abi.h. The read/write accessors take an
 * OFFSET inside the memory (0..64K-1 for WRAM, 0..64M-1 for MRAM), which is
 * what the host API's symbol offsets are.
 *
 * The library never prints and never exits.
 */
#ifndef VDPU_H
#define VDPU_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ errors */
typedef enum {
    VDPU_OK = 0,
    VDPU_ERR_ARG,         /* bad argument (NULL, bad mode, ...)                 */
    VDPU_ERR_IO,          /* cannot open/read the file                          */
    VDPU_ERR_NOMEM,       /* host allocation / mmap failed                      */
    VDPU_ERR_ELF,         /* not a 32-bit little-endian RISC-V ELF / malformed  */
    VDPU_ERR_LAYOUT,      /* section outside WRAM/MRAM/IRAM, missing symbols    */
    VDPU_ERR_WRAM_BUDGET, /* WRAM image + stacks > 64 KiB                       */
    VDPU_ERR_IRAM_BUDGET, /* .text > 4096 instructions                          */
    VDPU_ERR_MRAM_BUDGET, /* MRAM image > 64 MiB                                */
    VDPU_ERR_TASKLETS,    /* NR_TASKLETS == 0 or > 24                           */
    VDPU_ERR_DECODE,      /* (reserved) .text cannot be predecoded              */
    VDPU_ERR_NO_SYMBOL,   /* unknown symbol                                     */
    VDPU_ERR_RANGE,       /* access outside the memory                          */
    VDPU_ERR_NOT_LOADED,  /* vdpu_run/ symbol access without a loaded program   */
    VDPU_ERR__COUNT
} vdpu_err_t;

const char *vdpu_strerror(vdpu_err_t err);

/* ----------------------------------------------------------------- program */
typedef struct vdpu_program vdpu_program_t;

/* Parse an ELF. On error *out is NULL and, if msg != NULL, a NUL-terminated
 * human-readable explanation naming the rule is written to msg[0..msglen). */
vdpu_err_t vdpu_program_load_file(const char *path, vdpu_program_t **out, char *msg, size_t msglen);
vdpu_err_t vdpu_program_load_mem(const void *elf, size_t len, vdpu_program_t **out, char *msg,
                                 size_t msglen);
void vdpu_program_free(vdpu_program_t *prog);

unsigned vdpu_program_nr_tasklets(const vdpu_program_t *prog);

typedef enum {
    VDPU_MEM_WRAM = 0,
    VDPU_MEM_MRAM = 1,
    VDPU_MEM_IRAM = 2,
    VDPU_MEM_ABS = 3
} vdpu_mem_t;

typedef struct {
    const char *name; /* points into the program (valid until freed)      */
    uint32_t addr;    /* DPU address (see abi.h memory map)               */
    uint32_t offset;  /* offset inside its memory (addr - base)           */
    uint32_t size;    /* st_size; for __sys_used_mram_end: 64 MiB - offset */
    vdpu_mem_t mem;
    int host_visible; /* MRAM variable, __host WRAM variable, or
                         __sys_used_mram_end                          */
} vdpu_symbol_t;

/* Look up a symbol by name (any global/local data or function symbol). */
vdpu_err_t vdpu_program_symbol(const vdpu_program_t *prog, const char *name, vdpu_symbol_t *out);
/* Name of the function containing a DPU address (IRAM), or "?" */
const char *vdpu_program_func_name(const vdpu_program_t *prog, uint32_t pc);
/* What the DPU is charged for the instruction at IRAM address pc: *slots =
 * its issue slots under the cost rules (0 when it is folded into a
 * neighbour's DPU instruction, docs/VIRTUAL_DPU.md "Cost fusion"), *target =
 * the IRAM address a branch or `jal` at pc jumps to, 0 for any other
 * instruction. VDPU_ERR_ARG when pc is not one of the program's
 * instructions. */
vdpu_err_t vdpu_program_insn_cost(const vdpu_program_t *prog, uint32_t pc, uint32_t *slots,
                                  uint32_t *target);
/* Source file and line of the instruction at IRAM address pc, from the
 * program's DWARF line table (compiled with -g). Returns 1 and sets *file
 * (valid until the program is freed) and *line, or 0 when unknown. */
int vdpu_program_line(const vdpu_program_t *prog, uint32_t pc, const char **file, unsigned *line);
/* "pc 0x80000040 in func (file.c:12)", or without the parenthesis when the
 * line is unknown, into buf[0..n). */
void vdpu_program_where(const vdpu_program_t *prog, uint32_t pc, char *buf, size_t n);

/* ------------------------------------------------------------------ params */
/* Timing parameters. Their defaults, units, valid ranges, sources
 * (upmem-perf-facts.md §6, P-numbers) and profile keys are in ONE table,
 * vdpu_param_table (params.c). Cycle counts are DPU cycles. */
typedef struct {
    uint32_t revolver_cycles;   /* min cycles between two issues of a tasklet       */
    uint32_t mul_slots;         /* 32-bit mul emulated in software: issue slots      */
    uint32_t mulh_slots;        /* mulh/mulhsu/mulhu (64-bit product): issue slots   */
    uint32_t div_slots;         /* div/divu/rem/remu: issue slots                    */
    uint32_t dma_read_alpha;    /* mram_read latency, fixed part (cycles)            */
    uint32_t dma_write_alpha;   /* mram_write latency, fixed part (cycles)           */
    uint32_t dma_beta_x2;       /* 2*beta, i.e. cycles per 2 bytes (1 => 0.5/B)      */
    uint32_t mram_direct_bytes; /* direct __mram_ptr ld/st charged as a DMA of this size */
    uint32_t dma_engine_pct;    /* engine occupancy per transfer, % of beta*S (an
                                   isolated DMA still completes in alpha + beta*S)   */
    /* What-if, hypothetical hardware (the TSME study): an AES engine on the DMA
     * path, pricing only -- MRAM is NOT encrypted by the emulator.  0 = none. */
    double dma_aes_cycles_per_block; /* cycles per 16-byte block                    */
    uint32_t dma_aes_pipelined;      /* 1: blocks stream, one fill latency per DMA  */
} vdpu_timing_t;

typedef enum {
    VDPU_MODE_TIMED = 0, /* exact revolver model, event driven                 */
    VDPU_MODE_FAST = 1   /* untimed: round robin with a large quantum          */
} vdpu_mode_t;

/* What the virtual DPU does where a program breaks a rule of the SDK that the
 * hardware does not enforce but answers with something defined:
 *  - dma_rules: an mram_read/mram_write whose size is not 8..2048 and a
 *    multiple of 8, or whose WRAM or MRAM address is not 8-aligned. The
 *    DPU's ldma/sdma clear the 3 low bits of both addresses and encode the
 *    size as (n/8 - 1) in 8 bits, so ((((n >> 3) - 1) & 0xff) + 1) * 8 bytes
 *    move (0 -> 2048, 4 -> 2048, 12 -> 8, 2056 -> 8);
 *  - stop_rules: every live tasklet stopped (e.g. waiting at a barrier that
 *    not every tasklet reaches): nothing can resume them, and a DPU whose
 *    tasklets have all stopped has finished its run, so the run ends.
 * What the hardware cannot do (a DMA past the end of WRAM/MRAM, a store to
 * IRAM, ...) faults whatever these say. */
typedef enum {
    VDPU_RULES_WARN = 0,  /* as the hardware, each place noted once (default):
                             vdpu_result_t.notes                           */
    VDPU_RULES_QUIET = 1, /* as the hardware, silently                      */
    VDPU_RULES_STRICT = 2 /* a fault naming the rule: finds latent bugs     */
} vdpu_rules_t;

typedef struct {
    double clock_mhz; /* DPU clock                                       */
    vdpu_mode_t mode;
    vdpu_timing_t timing;
    uint32_t fast_quantum;     /* FAST mode: instructions per tasklet turn (>=1)  */
    uint64_t max_instructions; /* watchdog (real instructions per run), 0 = none  */
    uint64_t max_cycles;       /* watchdog: modeled cycles per run (issue slots in
                                  FAST mode, a lower bound), 0 = none; the
                                  default (params.c) is far above any real run */
    uint32_t isa_fusion;       /* 1: RV32 idioms the DPU does in one instruction
                                  cost the DPU's slots (docs/VIRTUAL_DPU.md);
                                  0: every RV32 instruction is one slot        */
    vdpu_rules_t dma_rules;    /* default VDPU_RULES_WARN                         */
    vdpu_rules_t stop_rules;   /* default VDPU_RULES_WARN                         */
    uint32_t skip_steady;      /* TIMED: 1 (default) skips the pending slots of a
                                  steady round robin instead of handing them out
                                  one cycle at a time (run.c); results, cycles
                                  and stats are identical, 0 is for the test
                                  that checks so                              */
    uint32_t jit;              /* 1 (default) runs the program translated to
                                  host code (jit.c): FAST its quanta, TIMED the
                                  run-ahead; results, memory and cycles are
                                  identical, 0 interprets all                 */
} vdpu_params_t;

/* The numeric parameters (all of vdpu_params_t but the two enums), one row
 * each: THE place to change a default, a range or a source. The host's
 * profile parser reads it (each key is a profile key), vdpu_params_default
 * and vdpu_params_check use it, docs/VIRTUAL_UPMEM_HOST.md §5 lists it (a
 * test compares the two). */
typedef enum { VDPU_PARAM_U32, VDPU_PARAM_U64, VDPU_PARAM_DOUBLE } vdpu_param_type_t;

typedef struct {
    const char *key; /* profile key                                      */
    size_t offset;   /* into vdpu_params_t                               */
    size_t size;     /* of the field: 4 for U32, 8 for U64 and DOUBLE    */
    vdpu_param_type_t type;
    double def;      /* default                                         */
    double lo, hi;   /* valid range, inclusive ...                      */
    int lo_excluded; /* ... except lo itself when set (a rate: > 0)     */
    const char *unit;
    const char *source; /* upmem-perf-facts.md row (P-number) and provenance */
} vdpu_param_desc_t;

extern const vdpu_param_desc_t vdpu_param_table[];
extern const unsigned vdpu_param_count;

/* The row's value in p, as a double. */
double vdpu_param_get(const vdpu_params_t *p, const vdpu_param_desc_t *d);

void vdpu_params_default(vdpu_params_t *p);
/* NULL when the row's value in p is in its range, else a text naming the
 * key and the range (valid until the next call on this thread). */
const char *vdpu_param_check(const vdpu_params_t *p, const vdpu_param_desc_t *d);
/* NULL when p is usable, else a text naming the first bad value by its
 * profile key (as vdpu_param_check). */
const char *vdpu_params_check(const vdpu_params_t *p);

/* --------------------------------------------------------------------- DPU */
typedef struct vdpu vdpu_t;

vdpu_err_t vdpu_create(const vdpu_params_t *params /* NULL = defaults */, vdpu_t **out);
void vdpu_free(vdpu_t *dpu);
/* Change params (e.g. mode) between runs. */
vdpu_err_t vdpu_set_params(vdpu_t *dpu, const vdpu_params_t *params);
const vdpu_params_t *vdpu_get_params(const vdpu_t *dpu);

/* Load a program: copy the initial WRAM and MRAM images, zero .bss, fill
 * CLOCKS_PER_SEC. Globals then persist across runs until the next load.
 * The program must outlive its use by this DPU (not copied). */
vdpu_err_t vdpu_load(vdpu_t *dpu, const vdpu_program_t *prog);
const vdpu_program_t *vdpu_loaded_program(const vdpu_t *dpu);

/* Host access, by offset inside the memory, bounds checked. */
vdpu_err_t vdpu_wram_read(const vdpu_t *dpu, uint32_t offset, void *dst, size_t n);
vdpu_err_t vdpu_wram_write(vdpu_t *dpu, uint32_t offset, const void *src, size_t n);
vdpu_err_t vdpu_mram_read(const vdpu_t *dpu, uint32_t offset, void *dst, size_t n);
vdpu_err_t vdpu_mram_write(vdpu_t *dpu, uint32_t offset, const void *src, size_t n);

/* ----------------------------------------------------------------- running */
typedef enum { VDPU_STATUS_DONE = 0, VDPU_STATUS_FAULT = 1 } vdpu_status_t;

typedef struct {
    uint64_t instructions;   /* real RV32 instructions executed                  */
    uint64_t slots;          /* issue slots (mul/div count several)              */
    uint64_t cycles;         /* cycle at which the tasklet stopped (timed mode)   */
    uint64_t blocked_cycles; /* cycles spent sleeping on locks/barriers/sem/hs    */
    uint64_t dma_cycles;     /* cycles spent waiting for its DMAs                 */
    uint64_t dma_count;
} vdpu_tasklet_stats_t;

#define VDPU_NOTES_SIZE  1024
#define VDPU_DETAIL_SIZE 2048

typedef struct {
    vdpu_status_t status;
    /* fault info (status == VDPU_STATUS_FAULT) */
    int fault_code;      /* VDPU_FAULT_* (abi.h)                          */
    char fault_msg[256]; /* reason text naming the rule                   */
    int fault_tasklet;   /* -1 if not attributable to one tasklet        */
    uint32_t fault_pc;
    char fault_func[64]; /* function containing fault_pc (ELF symtab)     */
    /* stats (cycles are 0 in FAST mode) */
    uint64_t cycles;       /* total DPU cycles of this run                   */
    uint64_t instructions; /* real instructions, all tasklets                */
    uint64_t slots;        /* issue slots, all tasklets                      */
    uint64_t idle_cycles;  /* cycles in which no tasklet issued              */
    uint64_t dma_count, dma_bytes, dma_busy_cycles; /* engine busy (transfer part) */
    unsigned nr_tasklets;
    vdpu_tasklet_stats_t tasklet[VDPU_MAX_TASKLETS];
    /* rules broken and answered as the hardware does (vdpu_rules_t) */
    uint64_t dma_rule_hits; /* DMAs done as ldma/sdma do, every one counted   */
    int stopped_early;      /* 1: the run ended with every live tasklet stopped */
    /* the places met for the first time by this program (in any DPU): one
     * line each, "<rule>: <what> at pc 0x... in func (file.c:12)", for the
     * host to print; empty when the rules are QUIET or STRICT */
    char notes[VDPU_NOTES_SIZE];
    /* on a watchdog fault, a deadlock or an early end: one line per live
     * tasklet, where it is and why it waits */
    char detail[VDPU_DETAIL_SIZE];
    /* how the interpreter got there, not what the DPU did: heads issued by
     * the steady-state skipping (params.skip_steady); everything above is
     * the same with it on or off */
    uint64_t steady_heads;
    /* of those, the heads run a tasklet at a time in windows, and the
     * windows undone (a conflict, or a horizon that came down) */
    uint64_t window_heads, window_undone;
    /* entries into the translated code (params.jit, mode=fast); everything
     * above is the same with the translation on or off */
    uint64_t jit_entries;
} vdpu_result_t;

/* Boot all NR_TASKLETS tasklets at the entry point and run to completion or
 * fault. Resets sync state and the perfcounter; WRAM/MRAM persist.
 * Returns VDPU_OK when the run happened (check res->status), an error code
 * otherwise (no program loaded, ...). res may be NULL. */
vdpu_err_t vdpu_run(vdpu_t *dpu, vdpu_result_t *res);

/* Human readable names */
const char *vdpu_fault_name(int fault_code);

#ifdef __cplusplus
}
#endif
#endif /* VDPU_H */
