/* vdpu_internal.h -- private structures of the virtual DPU (not installed). */
#ifndef VDPU_INTERNAL_H
#define VDPU_INTERNAL_H

#include "vdpu.h"

/* predecoded operations, as an X-macro list so that the interpreter's
 * computed-goto table (run.c) names every op: a missing handler is then a
 * compile error rather than a NULL jump at run time. */
/* One group of related ops per line; keep the layout: */
/* clang-format off */
#define VDPU_OPS(X) \
    X(ILLEGAL) X(BADJUMP) X(NOP) X(LI) X(JAL) X(JALR) \
    X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU) \
    X(LB) X(LH) X(LW) X(LBU) X(LHU) X(SB) X(SH) X(SW) \
    /* register-immediate ALU (b = imm) */ \
    X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI) X(RORI) \
    X(CLZ) X(CTZ) X(CPOP) X(SEXTB) X(SEXTH) X(ZEXTH) X(ORCB) X(REV8) \
    /* register-register ALU (b = rs2) */ \
    X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND) \
    X(ANDN) X(ORN) X(XNOR) X(MAX) X(MAXU) X(MIN) X(MINU) X(ROL) X(ROR) \
    X(SH1ADD) X(SH2ADD) X(SH3ADD) \
    X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU) \
    /* the DPU's own instructions (custom opcodes, docs/VIRTUAL_DPU.md) */ \
    X(MUL8)     /* 8x8-bit multiply: operand byte selectors in imm */ \
    X(LSL_ADD) X(LSL_SUB) X(LSR_ADD) X(ROL_ADD) /* shift amount in imm */ \
    X(ADD_C) X(ADDC) X(SUB_C) X(SUBC) /* carry flag (per tasklet) */ \
    X(MUL_STEP) X(DIV_STEP) /* register pair rd:rd+1, shift in rs2, jump target in imm */ \
    X(LD) X(SD) /* 8-byte load/store of the pair rd:rd+1 (rs2:rs2+1) */ \
    X(LDMA) X(SDMA) /* DMA; size in bytes in imm, or register number in imm (_R) */ \
    X(LDMA_R) X(SDMA_R) \
    /* system */ \
    X(ECALL) X(EBREAK) X(HARTID) \
    /* checked variants */ \
    X(ADDI_SP)  /* addi sp, rs1, imm with stack-region check */ \
    X(SPCHK_I)  /* other reg-imm ALU op (or LI) writing sp: real op in rs2 */ \
    X(SPCHK_R)  /* reg-reg ALU op writing sp: real op in imm */
/* clang-format on */

#define VDPU_OP_ENUM(name) OP_##name,
enum { VDPU_OPS(VDPU_OP_ENUM) OP__COUNT };
#undef VDPU_OP_ENUM
#define OP_FIRST_IMM OP_ADDI
#define OP_LAST_IMM  OP_REV8
#define OP_FIRST_REG OP_ADD
#define OP_LAST_REG  OP_REMU

typedef struct {
    uint8_t op, rd, rs1, rs2; /* rd==0 is redirected to the sink register 32 */
    int32_t imm;              /* immediate, or target index for branches/jal,
                                 or raw encoding for OP_ILLEGAL/OP_EBREAK     */
    uint16_t run;             /* issue slots (sum of `cost`) from this one to
                                 the end of its straight-line run (the next
                                 branch, jump or faulting op, inclusive): the
                                 interpreter charges the budget once per run
                                 (run.c)                                     */
    uint8_t cost;             /* issue slots of this instruction: 1, or 0 when
                                 it is folded into the DPU instruction of the
                                 one before it (decode.c, vdpu_fuse)         */
} vinsn_t;

/* op classes shared by the decoder and the cost rules (cost.c) */
static inline int vdpu_is_imm_alu(int op)
{
    return op >= OP_FIRST_IMM && op <= OP_LAST_IMM;
}
static inline int vdpu_is_reg_alu(int op)
{
    return op >= OP_FIRST_REG && op <= OP_LAST_REG;
}
/* 1 for ops after which execution does not simply go on at the next index
 * (control transfers, and ops that always fault) */
static inline int vdpu_ends_run(const vinsn_t *I)
{
    int op = I->op;
    return (op >= OP_BEQ && op <= OP_BGEU) || op == OP_JAL || op == OP_JALR || op == OP_BADJUMP ||
           op == OP_ILLEGAL || op == OP_EBREAK || (op == OP_MUL_STEP && I->imm >= 0);
}

typedef struct {
    char *name;
    uint32_t value, size;
    uint8_t type;   /* STT_* */
    uint8_t host;   /* host-visible */
    uint8_t global; /* STB_GLOBAL/WEAK */
} vsym_t;

struct vdpu_program {
    vinsn_t *code;      /* n_insns + 1 (last = OP_BADJUMP sentinel), DPU costs */
    vinsn_t *code_rv32; /* the same, every instruction 1 slot (isaFusion=0) */
    uint32_t n_insns;
    uint32_t *text;            /* the n_insns instruction words as in the ELF */
    uint32_t entry;            /* insn index */
    uint8_t *wram_img;         /* VDPU_WRAM_SIZE bytes (zero where .bss) */
    uint32_t wram_lo, wram_hi; /* range to copy on load (image incl. .bss) */
    uint8_t *mram_img;         /* mram_init_size bytes */
    uint32_t mram_init_size;   /* bytes from MRAM offset 0 */
    uint32_t mram_used;        /* incl. noinit */
    uint32_t wram_used;
    unsigned nr_tasklets;
    uint32_t stack_lo[VDPU_MAX_TASKLETS], stack_hi[VDPU_MAX_TASKLETS];
    uint32_t clocks_addr; /* WRAM address of CLOCKS_PER_SEC or 0 */
    vsym_t *syms;
    uint32_t n_syms;
    vsym_t **funcs; /* FUNC symbols sorted by address */
    uint32_t n_funcs;
    char *strtab;
    /* source lines (lines.c): per instruction, NULL without debug info */
    struct {
        uint16_t file; /* into line_files */
        uint32_t line; /* 0 = unknown */
    } * line_of;
    char **line_files;
    uint32_t n_line_files;
    /* The one part that changes after loading: per instruction, the
     * diagnostics (VDPU_NOTE_* bits) already reported for this program, set
     * atomically by whichever DPU meets the place first (notes.c), so each
     * is reported once however many DPUs and threads run the program. */
    uint8_t *noted;
    uint64_t fingerprint; /* of the code (FNV-1a): the same program to diag.c */
    /* The other part that changes after loading: the translations to host
     * code of `code_rv32` [0] and `code` [1], their run-ahead forms [2],
     * [3] and window forms [4], [5], built on first use (jit.c) */
    struct vdpu_jit **jit;
};

enum { TS_RUN = 0, TS_BLOCKED, TS_DONE, TS_WAITBOOT };
enum { BK_NONE = 0, BK_STOP };
/* what a running tasklet spins on (a sync ecall that did not complete) */
enum { SPIN_NONE = 0, SPIN_ACQUIRE, SPIN_RESUME, SPIN_VWAIT };

typedef struct {
    uint32_t r[34]; /* x0..x31, 32 = sink for writes to x0 */
    uint32_t pc;    /* instruction index */
    uint32_t stack_lo, stack_hi;
    int state;
    int bkind;         /* BK_STOP while state == TS_BLOCKED */
    uint64_t bsince;   /* cycle when blocked */
    uint64_t ready;    /* timed: earliest next issue cycle */
    uint32_t pending;  /* timed: extra issue slots still owed */
    uint64_t dma_done; /* timed: completion cycle of a DMA issued by the last insn */
    uint32_t carry;    /* the DPU's carry flag (add.c/addc/sub.c/subc), 0 or 1 */
    /* sync: what the tasklet spins on (SPIN_*): the atomic bit, the tasklet
     * to resume, or the WRAM byte/mask of a vmutex wait */
    uint8_t spin;
    uint32_t spin_arg, spin_mask;
    uint32_t svc_slots; /* issue slots a service charged beyond its own (timed) */
    vdpu_tasklet_stats_t st;
} vtask_t;

struct vdpu {
    vdpu_params_t params;
    uint8_t *wram; /* VDPU_WRAM_SIZE (+ slack) */
    uint8_t *mram; /* VDPU_MRAM_SIZE, mmap NORESERVE */
    const vdpu_program_t *prog;
    const vinsn_t *code; /* prog->code or prog->code_rv32 (params.isa_fusion) */
    /* run state */
    vtask_t t[VDPU_MAX_TASKLETS];
    unsigned nr;
    uint64_t now;                       /* timed: current cycle; fast: slots so far */
    uint64_t engine_free;               /* DMA engine free at */
    uint8_t bits[VDPU_ATOMIC_BITS];     /* the atomic bits (cleared at boot) */
    int8_t bit_taker[VDPU_ATOMIC_BITS]; /* tasklet that last set each bit (messages) */
    int perf_mode;
    uint64_t perf_base;
    uint64_t total_slots; /* fast-path counters are folded in here */
    uint64_t insn_budget; /* watchdog */
    int faulted;
    vdpu_result_t *res; /* result being filled */
    vdpu_result_t scratch;
    struct vprof_run *prof;          /* the profiler's collector, NULL when off (vprof.h) */
    struct vdpu_gdb *dbg;            /* the gdb stub, NULL when none (gdbstub.h) */
    int slow;                        /* prof or dbg: heads go through issue_head_slow */
    const struct vdpu_jit *jit;      /* the translation fast mode runs, NULL: none (jit.h) */
    const struct vdpu_jit *jit_pure; /* the one timed mode's run-ahead runs, NULL: none */
    const void *const *jit_pure_ent; /* its entries by pc (n + 1), NULL with it */
    const struct vdpu_jit *jit_win;  /* the window form (jit.h), NULL: none */
    struct vdpu_win *win; /* the steady state's per-tasklet windows (run.c), NULL until used */
};

/* shared helpers */
/* diag.c: note, once per program and instruction pc_index for each bit
 * (VDPU_NOTE_*), a rule answered as the hardware does: appends the formatted
 * text and its place to d->res->notes the first time only (returns 1 then,
 * 0 when the place was noted before). */
enum { VDPU_NOTE_DMA_SIZE = 1, VDPU_NOTE_DMA_ALIGN = 2, VDPU_NOTE_STOPPED = 4 };
int vdpu_note(vdpu_t *d, uint32_t pc_index, unsigned bit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* diag.c: the instruction index where tasklet i is (or stopped) */
uint32_t vdpu_tasklet_pc(const vdpu_t *d, unsigned i);
/* diag.c: fill d->res->detail with every live tasklet's state and place */
void vdpu_describe_tasklets(vdpu_t *d);
/* lines.c: decode .debug_line (and the string sections its DWARF 5 form
 * refers to, either may be NULL) into p->line_of / p->line_files. Malformed
 * debug information keeps what was decoded before it; -1 only when out of
 * memory. */
int vdpu_lines_load(vdpu_program_t *p, const uint8_t *line, size_t line_len,
                    const uint8_t *line_str, size_t line_str_len, const uint8_t *str,
                    size_t str_len);
/* run.c: wipe and free d->win (it holds WRAM words and registers of the
 * program: vdpu_free) */
void vdpu_win_free(vdpu_t *d);
void vdpu_fault(vdpu_t *d, int tasklet, uint32_t pc_index, int code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int vdpu_decode(const uint32_t *words, uint32_t n, vinsn_t *out);
/* The DPU cost rules (cost.c, the one place that decides what an instruction
 * costs; docs/VIRTUAL_DPU.md lists each rule with its source). code[] as
 * decoded by vdpu_decode; target[i] says how instruction i may be entered
 * other than from i-1: VDPU_TG_JOIN (branch or jump target, return point),
 * VDPU_TG_ENTRY (program entry, function symbol, IRAM address found in data:
 * nothing is known about the registers there), or both; 0 = only from i-1.
 * Sets `cost` to 0 where an RV32 instruction is part of a DPU instruction
 * (its partner's, or a load/store's address offset), and recomputes `run` as
 * slot sums. Never changes what an instruction does. Returns 0, or -1 when
 * out of memory (costs then incomplete: the caller fails the load). */
enum { VDPU_TG_JOIN = 1, VDPU_TG_ENTRY = 2 };
int vdpu_fuse(vinsn_t *code, uint32_t n, const uint8_t *target);
/* Recompute `run` (suffix slot sums of each straight-line run). */
void vdpu_runs(vinsn_t *code, uint32_t n);

#endif
