/* jit.c -- translation of predecoded DPU code to x86-64 (contract in jit.h,
 * design in docs/VIRTUAL_DPU.md, "Translation to host code").
 *
 * Host register use inside the translation: rbx = the tasklet's registers
 * (uint32_t R[34]), r12 = WRAM, r13d = the budget not yet charged, r14 = the
 * entry table (one host address per instruction index, NULL where there is
 * no entry), r15 = the tasklet (stack bounds, carry flag); rax, rcx, rdx are
 * scratch. DPU registers live in R[] in memory, so an exit needs no spill.
 *
 * Layout: prologue, the two exits (to the interpreter with pc in eax; with
 * pc in ecx), then per instruction index i in order an entry ("head": charge
 * the run, or exit if it does not fit) where runs may be entered, and the
 * body; then one exit stub per index that needs one (refund the run from i
 * on, return i). Every jump whose target is not yet emitted is recorded and
 * patched at the end. */
#define _DEFAULT_SOURCE
#include "jit.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__linux__)
#include <sys/mman.h>

#include "x64.h"

struct vdpu_jit {
    vdpu_jit_head_t h; /* first: jit.h's inline call reads it */
    uint8_t *mem;      /* mapped read + execute once emitted */
    size_t size;
    const void **table; /* n + 1 entries: where translated code may jump */
    const void **ext;   /* n + 1: where the interpreter enters it (JIT_MIN_RECORDS) */
    uint32_t n;
};

/* the most bytes one index can take: head (19) + jump over it (2) + body
 * (the longest, jalr, is under 96) + its two exit stubs (under 30 each); in
 * the window form a word store's head with its stubs takes 356, a pair of
 * word stores 636 over its two indices (jit_bounds builds both) */
#define MAX_PER_INSN     192u
#define MAX_PER_INSN_WIN 768u
#define MAX_FIXED        128u /* prologue and the two exits */

enum { FX_HEAD, FX_STUB, FX_HSTUB, FX_DYN, FX_EPI };
typedef struct {
    uint32_t at; /* position of the rel32 */
    uint8_t kind;
    uint32_t idx;
} fixup_t;

typedef struct {
    vdpu_x64_t x;
    const vinsn_t *code;
    uint32_t n;
    uint8_t *is_head;   /* n + 1 */
    uint32_t *head_at;  /* n + 1, position of the head, or UINT32_MAX */
    uint8_t *need_stub; /* n + 1: bit 0 the exit stub, bit 1 the head's */
    uint16_t *len, *sl; /* n + 1, pure: records and slots from i to the end of
                           its segment (pure_seg) */
    int pure;           /* the run-ahead form (jit.h) */
    int win;            /* and in it the window's heads (the window form) */
    fixup_t *fx;
    size_t nfx, capfx;
    size_t epi_at, dyn_at;
    int popcnt;
} jb_t;

#define RO(r)    ((int32_t)(4 * (r)))
#define T_OFF(f) ((int32_t)offsetof(vtask_t, f))

static void fix(jb_t *b, size_t at, int kind, uint32_t idx)
{
    if (b->nfx >= b->capfx) {
        b->x.overflow = 1; /* cannot happen: capfx bounds them (vdpu_jit_build) */
        return;
    }
    b->fx[b->nfx++] = (fixup_t){(uint32_t)at, (uint8_t)kind, idx};
    if (kind == FX_STUB)
        b->need_stub[idx] |= 1;
    if (kind == FX_HSTUB)
        b->need_stub[idx] |= 2;
}

static void exit_at(jb_t *b, uint32_t i)
{
    fix(b, vdpu_x64_jmp(&b->x), FX_STUB, i);
}

static void exit_if(jb_t *b, int cc, uint32_t i)
{
    fix(b, vdpu_x64_jcc(&b->x, cc), FX_STUB, i);
}

static void mov_rr(vdpu_x64_t *x, int dst, int src)
{
    static const uint8_t o[] = {0x89};
    vdpu_x64_op_reg(x, 0, 0, o, 1, src, dst);
}

/* eax = R[rs1] + imm */
static void addr(jb_t *b, const vinsn_t *I)
{
    vdpu_x64_load(&b->x, X_AX, X_BX, RO(I->rs1));
    if (I->imm)
        vdpu_x64_alu_imm(&b->x, ALU_ADD, X_AX, (uint32_t)I->imm);
}

/* a WRAM access of `mask` (exec_core's fast-path test): eax = address,
 * anything else exits before the access */
static void wram_check(jb_t *b, const vinsn_t *I, uint32_t i, uint32_t mask)
{
    addr(b, I);
    vdpu_x64_test_imm(&b->x, X_AX, mask);
    exit_if(b, CC_NE, i);
}

static void load(jb_t *b, const vinsn_t *I, uint32_t i, uint32_t mask, const uint8_t *opc,
                 size_t nopc)
{
    wram_check(b, I, i, mask);
    vdpu_x64_op_mem(&b->x, 0, 0, opc, nopc, X_CX, X_R12, X_AX, 0, 0);
    vdpu_x64_store(&b->x, X_BX, RO(I->rd), X_CX);
}

static void store(jb_t *b, const vinsn_t *I, uint32_t i, uint32_t mask, uint8_t pfx, uint8_t opc)
{
    wram_check(b, I, i, mask);
    vdpu_x64_load(&b->x, X_CX, X_BX, RO(I->rs2));
    vdpu_x64_op_mem(&b->x, pfx, 0, &opc, 1, X_CX, X_R12, X_AX, 0, 0);
}

/* eax = R[rs1] op R[rs2] (or imm), stored to rd */
static void alu_rm(jb_t *b, const vinsn_t *I, int op)
{
    vdpu_x64_load(&b->x, X_AX, X_BX, RO(I->rs1));
    vdpu_x64_alu_rm(&b->x, op, X_AX, X_BX, RO(I->rs2));
    vdpu_x64_store(&b->x, X_BX, RO(I->rd), X_AX);
}

static void alu_imm(jb_t *b, const vinsn_t *I, int op)
{
    vdpu_x64_load(&b->x, X_AX, X_BX, RO(I->rs1));
    vdpu_x64_alu_imm(&b->x, op, X_AX, (uint32_t)I->imm);
    vdpu_x64_store(&b->x, X_BX, RO(I->rd), X_AX);
}

static void set_if(jb_t *b, const vinsn_t *I, int cc, int imm)
{
    vdpu_x64_load(&b->x, X_AX, X_BX, RO(I->rs1));
    if (imm)
        vdpu_x64_alu_imm(&b->x, ALU_CMP, X_AX, (uint32_t)I->imm);
    else
        vdpu_x64_alu_rm(&b->x, ALU_CMP, X_AX, X_BX, RO(I->rs2));
    vdpu_x64_setcc_zx(&b->x, cc, X_CX);
    vdpu_x64_store(&b->x, X_BX, RO(I->rd), X_CX);
}

static void shift(jb_t *b, const vinsn_t *I, int op, int imm)
{
    vdpu_x64_load(&b->x, X_AX, X_BX, RO(I->rs1));
    if (imm) {
        vdpu_x64_shift_imm(&b->x, op, X_AX, (uint8_t)(I->imm & 31));
    } else {
        vdpu_x64_load(&b->x, X_CX, X_BX, RO(I->rs2));
        vdpu_x64_shift_cl(&b->x, op, X_AX);
    }
    vdpu_x64_store(&b->x, X_BX, RO(I->rd), X_AX);
}

/* eax = R[rs1], ecx = R[rs2]; cmovcc eax, ecx; store */
static void minmax(jb_t *b, const vinsn_t *I, int cc)
{
    vdpu_x64_load(&b->x, X_AX, X_BX, RO(I->rs1));
    vdpu_x64_load(&b->x, X_CX, X_BX, RO(I->rs2));
    vdpu_x64_alu_rr(&b->x, ALU_CMP, X_AX, X_CX);
    vdpu_x64_0f_rr(&b->x, (uint8_t)(0x40 | cc), X_AX, X_CX);
    vdpu_x64_store(&b->x, X_BX, RO(I->rd), X_AX);
}

/* R[rd] = R[rs1] op (R[rs2] shifted by imm) */
static void shift_op(jb_t *b, const vinsn_t *I, int sh, int op)
{
    vdpu_x64_load(&b->x, X_CX, X_BX, RO(I->rs2));
    vdpu_x64_shift_imm(&b->x, sh, X_CX, (uint8_t)(I->imm & 31));
    vdpu_x64_load(&b->x, X_AX, X_BX, RO(I->rs1));
    vdpu_x64_alu_rr(&b->x, op, X_AX, X_CX);
    vdpu_x64_store(&b->x, X_BX, RO(I->rd), X_AX);
}

/* add.c / addc / sub.c / subc with the tasklet's carry flag (run.c's
 * carry_op): x86's carry is the DPU's after an addition and its inverse
 * (a borrow) after a subtraction */
static void carry(jb_t *b, const vinsn_t *I)
{
    vdpu_x64_t *x = &b->x;
    int sub = I->op == OP_SUB_C || I->op == OP_SUBC;
    vdpu_x64_load(x, X_AX, X_BX, RO(I->rs1));
    if (I->op == OP_ADDC) {
        vdpu_x64_load(x, X_DX, X_R15, T_OFF(carry));
        vdpu_x64_neg(x, X_DX); /* CF = carry != 0 */
    } else if (I->op == OP_SUBC) {
        vdpu_x64_load(x, X_DX, X_R15, T_OFF(carry));
        vdpu_x64_alu_imm(x, ALU_CMP, X_DX, 1); /* CF = carry == 0: the borrow in */
    }
    int op = I->op == OP_ADD_C   ? ALU_ADD
             : I->op == OP_ADDC  ? ALU_ADC
             : I->op == OP_SUB_C ? ALU_SUB
                                 : ALU_SBB;
    vdpu_x64_alu_rm(x, op, X_AX, X_BX, RO(I->rs2));
    vdpu_x64_setcc_zx(x, sub ? CC_AE : CC_B, X_CX);
    vdpu_x64_store(x, X_R15, T_OFF(carry), X_CX);
    vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
}

static void branch(jb_t *b, const vinsn_t *I, int cc)
{
    vdpu_x64_load(&b->x, X_AX, X_BX, RO(I->rs1));
    vdpu_x64_alu_rm(&b->x, ALU_CMP, X_AX, X_BX, RO(I->rs2));
    fix(b, vdpu_x64_jcc(&b->x, cc), FX_HEAD, (uint32_t)I->imm);
}

static void jalr(jb_t *b, const vinsn_t *I, uint32_t i)
{
    vdpu_x64_t *x = &b->x;
    addr(b, I);
    vdpu_x64_alu_imm(x, ALU_AND, X_AX, ~1u);
    vdpu_x64_test_imm(x, X_AX, 3);
    exit_if(b, CC_NE, i);
    mov_rr(x, X_CX, X_AX);
    vdpu_x64_alu_imm(x, ALU_SUB, X_CX, VDPU_IRAM_BASE);
    vdpu_x64_alu_imm(x, ALU_CMP, X_CX, 4u * b->n);
    exit_if(b, CC_AE, i);
    vdpu_x64_store_imm(x, X_BX, RO(I->rd), VDPU_IRAM_BASE + 4u * (i + 1));
    vdpu_x64_shift_imm(x, SH_SHR, X_CX, 2);
    static const uint8_t mov[] = {0x8b}, test[] = {0x85};
    vdpu_x64_op_mem(x, 0, 1, mov, 1, X_DX, X_R14, X_CX, 3, 0); /* rdx = table[idx] */
    vdpu_x64_op_reg(x, 0, 1, test, 1, X_DX, X_DX);
    fix(b, vdpu_x64_jcc(x, CC_E), FX_DYN, 0);
    vdpu_x64_jmp_reg(x, X_DX);
}

/* ------------------------------------------------ the window form's heads */

/* a head the window form runs (jit.h) */
static int win_head_op(const vinsn_t *code, uint32_t i)
{
    return vdpu_jit_win_head(code, i) != 0;
}

#define WC(f) ((int32_t)offsetof(vdpu_jit_wctx_t, f))

/* a short forward jump over what follows, patched by jcc_over_end */
static size_t jcc_over(vdpu_x64_t *x, int cc)
{
    vdpu_x64_jcc_short(x, cc, 0);
    return x->pos;
}

static void jcc_over_end(vdpu_x64_t *x, size_t from)
{
    if (!x->overflow && from <= x->pos && from >= 1 && x->pos - from < 128)
        x->buf[from - 1] = (uint8_t)(x->pos - from);
    else
        x->overflow = 1; /* cannot happen: the jumped-over code is short */
}

/* edi = the stamp of the word at [rsi + r11] (a fresh one when another
 * window set it); exit at i when an access at relative cycle edx conflicts
 * with it: a write after edx, or for a store also a read after it.  The
 * flags are left from comparing the stamp's read cycle with edx (a load
 * then keeps the later of the two). */
static void win_stamp_test(jb_t *b, uint32_t i, int store)
{
    static const uint8_t ld[] = {0x8b}, cmovne[] = {0x0f, 0x45};
    vdpu_x64_t *x = &b->x;
    vdpu_x64_op_mem(x, 0, 0, ld, 1, X_DI, X_SI, X_R11, 0, 0);
    mov_rr(x, X_R11, X_DI);
    vdpu_x64_alu_imm(x, ALU_AND, X_R11, 0xff000000u);
    vdpu_x64_alu_rm(x, ALU_CMP, X_R11, X_R8, WC(g));
    vdpu_x64_op_mem(x, 0, 0, cmovne, 2, X_DI, X_R8, -1, 0, WC(g));
    mov_rr(x, X_R11, X_DI);
    vdpu_x64_shift_imm(x, SH_SHR, X_R11, 12);
    vdpu_x64_alu_imm(x, ALU_AND, X_R11, 0xfffu);
    vdpu_x64_alu_rr(x, ALU_CMP, X_R11, X_DX);
    exit_if(b, CC_A, i);
    mov_rr(x, X_R11, X_DI);
    vdpu_x64_alu_imm(x, ALU_AND, X_R11, 0xfffu);
    vdpu_x64_alu_rr(x, ALU_CMP, X_R11, X_DX);
    if (store)
        exit_if(b, CC_A, i);
}

/* The undo entry {word index, old value} of the word at WRAM offset `a`
 * (a register, aligned) at undo + 8 * nu, and nu + 1 (room checked before:
 * nothing exits here).  Uses r11, rdi, rdx. */
static void win_undo_entry(jb_t *b, int a)
{
    static const uint8_t ld[] = {0x8b}, st[] = {0x89};
    vdpu_x64_t *x = &b->x;
    vdpu_x64_load(x, X_R11, X_R8, WC(nu));
    vdpu_x64_load64(x, X_DI, X_R8, WC(undo));
    mov_rr(x, X_DX, a);
    vdpu_x64_shift_imm(x, SH_SHR, X_DX, 2);
    vdpu_x64_op_mem(x, 0, 0, st, 1, X_DX, X_DI, X_R11, 3, 0);
    vdpu_x64_op_mem(x, 0, 0, ld, 1, X_DX, X_R12, a, 0, 0);
    vdpu_x64_op_mem(x, 0, 0, st, 1, X_DX, X_DI, X_R11, 3, 4);
    vdpu_x64_alu_imm(x, ALU_ADD, X_R11, 1);
    vdpu_x64_store(x, X_R8, WC(nu), X_R11);
}

/* Instruction i, a load or store of 1, 2 or 4 bytes alone in its slot, as
 * run.c's window runs it (win_part, win_do): in the window form r8 = the
 * state (vdpu_jit_wctx_t), r9 = the cycle of the head before, r10 = L, rsi =
 * the stamps, ebp = the slots of the run-ahead since. Every check comes
 * before anything is written, and a failed one exits at i. */
static void win_head(jb_t *b, uint32_t i)
{
    const vinsn_t *I = &b->code[i];
    /* the second word of a pair, folded into this one's slot */
    const vinsn_t *B = vdpu_jit_win_head(b->code, i) == 2 ? &b->code[i + 1] : NULL;
    vdpu_x64_t *x = &b->x;
    const int op = I->op, store = op == OP_SW || op == OP_SH || op == OP_SB;
    const int size = op == OP_LW || op == OP_SW                   ? 4
                     : op == OP_LH || op == OP_LHU || op == OP_SH ? 2
                                                                  : 1;
    static const uint8_t imul[] = {0x0f, 0xaf}, cmp[] = {0x3b}, ld[] = {0x8b}, st[] = {0x89},
                         stb[] = {0x88}, add_mr[] = {0x01}, grp1[] = {0x81}, lbu[] = {0x0f, 0xb6},
                         lb[] = {0x0f, 0xbe}, lhu[] = {0x0f, 0xb7}, lh[] = {0x0f, 0xbf};
    /* rax = its cycle: the head before + L * (1 + the run-ahead's slots);
     * at or past the horizon: exit */
    mov_rr(x, X_AX, X_BP);
    vdpu_x64_op_reg(x, 0, 1, grp1, 1, ALU_ADD, X_AX);
    vdpu_x64_u32(x, 1);
    vdpu_x64_op_reg(x, 0, 1, imul, 2, X_AX, X_R10);
    vdpu_x64_alu_rr64(x, ALU_ADD, X_AX, X_R9);
    vdpu_x64_op_mem(x, 0, 1, cmp, 1, X_AX, X_R8, -1, 0, WC(T));
    exit_if(b, CC_AE, i);
    /* ecx = the address: aligned to its size in WRAM (exec_core's test) */
    vdpu_x64_load(x, X_CX, X_BX, RO(I->rs1));
    if (I->imm)
        vdpu_x64_alu_imm(x, ALU_ADD, X_CX, (uint32_t)I->imm);
    vdpu_x64_test_imm(x, X_CX, 0xffff0000u | (uint32_t)(size - 1));
    exit_if(b, CC_NE, i);
    /* a pair: the second word's address (from registers the first access
     * does not write: vdpu_jit_win_head), kept in the state while the
     * first's checks run */
    if (B) {
        vdpu_x64_load(x, X_DX, X_BX, RO(B->rs1));
        if (B->imm)
            vdpu_x64_alu_imm(x, ALU_ADD, X_DX, (uint32_t)B->imm);
        vdpu_x64_test_imm(x, X_DX, 0xffff0003u);
        exit_if(b, CC_NE, i);
        vdpu_x64_store(x, X_R8, WC(xa), X_DX);
    }
    if (store) { /* room in the undo log (one entry per word) */
        vdpu_x64_load(x, X_R11, X_R8, WC(nu));
        if (B)
            vdpu_x64_alu_imm(x, ALU_ADD, X_R11, 1);
        vdpu_x64_alu_rm(x, ALU_CMP, X_R11, X_R8, WC(ucap));
        exit_if(b, CC_AE, i);
    }
    /* edx = the relative cycle, edi = the stamp of its word (a fresh one
     * when set in another window) */
    mov_rr(x, X_DX, X_AX);
    vdpu_x64_alu_rm(x, ALU_SUB, X_DX, X_R8, WC(c0));
    if (B) {
        /* the second word's stamp: its conflict test, and its new value
         * kept in the state (another word than the first's: 8k and 8k + 4) */
        vdpu_x64_load(x, X_R11, X_R8, WC(xa));
        win_stamp_test(b, i, store);
        if (store) {
            mov_rr(x, X_R11, X_DX);
            vdpu_x64_shift_imm(x, SH_SHL, X_R11, 12);
            vdpu_x64_alu_imm(x, ALU_AND, X_DI, 0xff000fffu);
            vdpu_x64_alu_rr(x, ALU_OR, X_DI, X_R11);
        } else {
            size_t over = jcc_over(x, CC_AE);
            vdpu_x64_alu_imm(x, ALU_AND, X_DI, 0xfffff000u);
            vdpu_x64_alu_rr(x, ALU_OR, X_DI, X_DX);
            jcc_over_end(x, over);
        }
        vdpu_x64_store(x, X_R8, WC(xe), X_DI);
    }
    mov_rr(x, X_R11, X_CX);
    vdpu_x64_alu_imm(x, ALU_AND, X_R11, ~3u);
    win_stamp_test(b, i, store);
    if (store) {
        /* nothing exits from here: the head runs. Its stamp, at eax = the
         * word's address */
        vdpu_x64_op_reg(x, 0, 1, st, 1, X_AX, X_R9); /* r9 = its cycle */
        mov_rr(x, X_AX, X_DX);
        vdpu_x64_shift_imm(x, SH_SHL, X_AX, 12);
        vdpu_x64_alu_imm(x, ALU_AND, X_DI, 0xff000fffu);
        vdpu_x64_alu_rr(x, ALU_OR, X_DI, X_AX);
        mov_rr(x, X_AX, X_CX);
        vdpu_x64_alu_imm(x, ALU_AND, X_AX, ~3u);
        vdpu_x64_op_mem(x, 0, 0, st, 1, X_DI, X_SI, X_AX, 0, 0);
        win_undo_entry(b, X_AX);
        /* the store (of dl / dx / edx) */
        vdpu_x64_load(x, X_DX, X_BX, RO(I->rs2));
        if (size == 1)
            vdpu_x64_op_mem(x, 0, 0, stb, 1, X_DX, X_R12, X_CX, 0, 0);
        else
            vdpu_x64_op_mem(x, size == 2 ? 0x66 : 0, 0, st, 1, X_DX, X_R12, X_CX, 0, 0);
    } else {
        /* the latest read: this one when later than the stamp's */
        size_t over = jcc_over(x, CC_AE);
        vdpu_x64_alu_imm(x, ALU_AND, X_DI, 0xfffff000u);
        vdpu_x64_alu_rr(x, ALU_OR, X_DI, X_DX);
        mov_rr(x, X_DX, X_CX);
        vdpu_x64_alu_imm(x, ALU_AND, X_DX, ~3u);
        vdpu_x64_op_mem(x, 0, 0, st, 1, X_DI, X_SI, X_DX, 0, 0);
        jcc_over_end(x, over);
        vdpu_x64_op_reg(x, 0, 1, st, 1, X_AX, X_R9); /* r9 = its cycle */
        if (I->rd != 32) {
            const uint8_t *o = op == OP_LW    ? ld
                               : op == OP_LBU ? lbu
                               : op == OP_LB  ? lb
                               : op == OP_LHU ? lhu
                                              : lh;
            vdpu_x64_op_mem(x, 0, 0, o, op == OP_LW ? 1 : 2, X_DI, X_R12, X_CX, 0, 0);
            vdpu_x64_store(x, X_BX, RO(I->rd), X_DI);
        }
    }
    if (B) { /* the second word: its stamp, undo entry, access */
        vdpu_x64_load(x, X_CX, X_R8, WC(xa));
        vdpu_x64_load(x, X_DI, X_R8, WC(xe));
        vdpu_x64_op_mem(x, 0, 0, st, 1, X_DI, X_SI, X_CX, 0, 0);
        if (store) {
            win_undo_entry(b, X_CX);
            vdpu_x64_load(x, X_DX, X_BX, RO(B->rs2));
            vdpu_x64_op_mem(x, 0, 0, st, 1, X_DX, X_R12, X_CX, 0, 0);
        } else if (B->rd != 32) {
            vdpu_x64_op_mem(x, 0, 0, ld, 1, X_DI, X_R12, X_CX, 0, 0);
            vdpu_x64_store(x, X_BX, RO(B->rd), X_DI);
        }
    }
    /* the tally: instructions and slots 1 + the run-ahead's, a head more;
     * then a new run-ahead (cap 64 records, no slots yet) */
    mov_rr(x, X_AX, X_BP);
    vdpu_x64_op_reg(x, 0, 1, grp1, 1, ALU_ADD, X_AX);
    vdpu_x64_u32(x, 1);
    vdpu_x64_op_mem(x, 0, 1, add_mr, 1, X_AX, X_R8, -1, 0, WC(ins));
    vdpu_x64_op_mem(x, 0, 1, add_mr, 1, X_AX, X_R8, -1, 0, WC(slots));
    vdpu_x64_op_mem(x, 0, 1, grp1, 1, ALU_ADD, X_R8, -1, 0, WC(nheads));
    vdpu_x64_u32(x, 1);
    vdpu_x64_alu_rr(x, ALU_XOR, X_BP, X_BP);
    vdpu_x64_mov_imm(x, X_R13, 64);
    fix(b, vdpu_x64_jmp(x), FX_HEAD, B ? i + 2 : i + 1);
}

/* The body of instruction i. Anything not translated exits to the
 * interpreter at i. */
static void body(jb_t *b, uint32_t i)
{
    const vinsn_t *I = &b->code[i];
    vdpu_x64_t *x = &b->x;
    if (b->pure && ((I->op >= OP_LB && I->op <= OP_SW) || I->op == OP_LD || I->op == OP_SD)) {
        if (b->win && win_head_op(b->code, i))
            win_head(b, i);
        else
            exit_at(b, i); /* a head: executed at its issue cycle by the scheduler */
        return;
    }
    static const uint8_t lw[] = {0x8b}, lbu[] = {0x0f, 0xb6}, lb[] = {0x0f, 0xbe},
                         lhu[] = {0x0f, 0xb7}, lh[] = {0x0f, 0xbf};
    switch (I->op) {
    case OP_NOP:
        break;
    case OP_LI:
        vdpu_x64_store_imm(x, X_BX, RO(I->rd), (uint32_t)I->imm);
        break;
    case OP_ADDI:
        alu_imm(b, I, ALU_ADD);
        break;
    case OP_XORI:
        alu_imm(b, I, ALU_XOR);
        break;
    case OP_ORI:
        alu_imm(b, I, ALU_OR);
        break;
    case OP_ANDI:
        alu_imm(b, I, ALU_AND);
        break;
    case OP_SLTI:
        set_if(b, I, CC_L, 1);
        break;
    case OP_SLTIU:
        set_if(b, I, CC_B, 1);
        break;
    case OP_SLLI:
        shift(b, I, SH_SHL, 1);
        break;
    case OP_SRLI:
        shift(b, I, SH_SHR, 1);
        break;
    case OP_SRAI:
        shift(b, I, SH_SAR, 1);
        break;
    case OP_RORI:
        shift(b, I, SH_ROR, 1);
        break;
    case OP_CLZ: /* 31 - bsr, with bsr(0) taken as -1 */
        vdpu_x64_mov_imm(x, X_CX, 0xffffffffu);
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rs1));
        vdpu_x64_0f_rr(x, 0xbd, X_AX, X_AX);
        vdpu_x64_0f_rr(x, 0x40 | CC_E, X_AX, X_CX);
        vdpu_x64_mov_imm(x, X_CX, 31);
        vdpu_x64_alu_rr(x, ALU_SUB, X_CX, X_AX);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_CX);
        break;
    case OP_CTZ:
        vdpu_x64_mov_imm(x, X_CX, 32);
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rs1));
        vdpu_x64_0f_rr(x, 0xbc, X_AX, X_AX);
        vdpu_x64_0f_rr(x, 0x40 | CC_E, X_AX, X_CX);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        break;
    case OP_CPOP:
        if (!b->popcnt) {
            exit_at(b, i);
            break;
        }
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rs1));
        vdpu_x64_popcnt(x, X_AX, X_AX);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        break;
    case OP_SEXTB:
    case OP_SEXTH:
    case OP_ZEXTH:
        vdpu_x64_load_ext(x, X_AX, X_BX, RO(I->rs1), I->op == OP_SEXTB ? 1 : 2, I->op != OP_ZEXTH);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        break;
    case OP_REV8:
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rs1));
        vdpu_x64_bswap(x, X_AX);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        break;
    case OP_ADD:
        alu_rm(b, I, ALU_ADD);
        break;
    case OP_SUB:
        alu_rm(b, I, ALU_SUB);
        break;
    case OP_XOR:
        alu_rm(b, I, ALU_XOR);
        break;
    case OP_OR:
        alu_rm(b, I, ALU_OR);
        break;
    case OP_AND:
        alu_rm(b, I, ALU_AND);
        break;
    case OP_SLT:
        set_if(b, I, CC_L, 0);
        break;
    case OP_SLTU:
        set_if(b, I, CC_B, 0);
        break;
    case OP_SLL:
        shift(b, I, SH_SHL, 0);
        break;
    case OP_SRL:
        shift(b, I, SH_SHR, 0);
        break;
    case OP_SRA:
        shift(b, I, SH_SAR, 0);
        break;
    case OP_ROR:
        shift(b, I, SH_ROR, 0);
        break;
    case OP_ROL:
        shift(b, I, SH_ROL, 0);
        break;
    case OP_ANDN:
    case OP_ORN:
        vdpu_x64_load(x, X_CX, X_BX, RO(I->rs2));
        vdpu_x64_not(x, X_CX);
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rs1));
        vdpu_x64_alu_rr(x, I->op == OP_ANDN ? ALU_AND : ALU_OR, X_AX, X_CX);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        break;
    case OP_XNOR:
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rs1));
        vdpu_x64_alu_rm(x, ALU_XOR, X_AX, X_BX, RO(I->rs2));
        vdpu_x64_not(x, X_AX);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        break;
    case OP_MAX:
        minmax(b, I, CC_L);
        break;
    case OP_MAXU:
        minmax(b, I, CC_B);
        break;
    case OP_MIN:
        minmax(b, I, CC_G);
        break;
    case OP_MINU:
        minmax(b, I, CC_A);
        break;
    case OP_SH1ADD:
    case OP_SH2ADD:
    case OP_SH3ADD:
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rs1));
        vdpu_x64_load(x, X_CX, X_BX, RO(I->rs2));
        vdpu_x64_lea_sib(x, X_AX, X_CX, X_AX, 1 + I->op - OP_SH1ADD);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        break;
    case OP_MUL8: {
        uint32_t sa = (uint32_t)I->imm >> 2, sb = (uint32_t)I->imm & 3;
        vdpu_x64_load_ext(x, X_AX, X_BX, RO(I->rs1) + (int32_t)(sa & 1), 1, (sa & 2) != 0);
        vdpu_x64_load_ext(x, X_CX, X_BX, RO(I->rs2) + (int32_t)(sb & 1), 1, (sb & 2) != 0);
        vdpu_x64_0f_rr(x, 0xaf, X_AX, X_CX);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        break;
    }
    case OP_LSL_ADD:
        shift_op(b, I, SH_SHL, ALU_ADD);
        break;
    case OP_LSL_SUB:
        shift_op(b, I, SH_SHL, ALU_SUB);
        break;
    case OP_LSR_ADD:
        shift_op(b, I, SH_SHR, ALU_ADD);
        break;
    case OP_ROL_ADD:
        shift_op(b, I, SH_ROL, ALU_ADD);
        break;
    case OP_ADD_C:
    case OP_ADDC:
    case OP_SUB_C:
    case OP_SUBC:
        carry(b, I);
        break;
    case OP_MUL_STEP: /* multiplier in R[rd] (shifted right), accumulator R[rd+1] */
        vdpu_x64_load(x, X_CX, X_BX, RO(I->rs1));
        vdpu_x64_shift_imm(x, SH_SHL, X_CX, I->rs2 & 31);
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rd));
        vdpu_x64_load(x, X_DX, X_BX, RO(I->rd + 1));
        vdpu_x64_test_imm(x, X_AX, 1);
        vdpu_x64_jcc_short(x, CC_E, 2);
        vdpu_x64_alu_rr(x, ALU_ADD, X_DX, X_CX); /* 2 bytes */
        vdpu_x64_shift_imm(x, SH_SHR, X_AX, 1);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        vdpu_x64_store(x, X_BX, RO(I->rd + 1), X_DX);
        if (I->imm >= 0) {
            vdpu_x64_alu_rr(x, ALU_OR, X_AX, X_AX);
            fix(b, vdpu_x64_jcc(x, CC_E), FX_HEAD, (uint32_t)I->imm);
        }
        break;
    case OP_DIV_STEP: /* quotient in R[rd], dividend becoming the remainder R[rd+1] */
        vdpu_x64_load(x, X_CX, X_BX, RO(I->rs1)); /* zero-extended to rcx */
        vdpu_x64_shift_imm64(x, SH_SHL, X_CX, I->rs2 & 31);
        vdpu_x64_load(x, X_AX, X_BX, RO(I->rd));
        vdpu_x64_alu_rr(x, ALU_ADD, X_AX, X_AX);     /* q << 1 */
        vdpu_x64_load(x, X_DX, X_BX, RO(I->rd + 1)); /* zero-extended to rdx */
        vdpu_x64_alu_rr64(x, ALU_CMP, X_DX, X_CX);
        vdpu_x64_jcc_short(x, CC_B, 5);
        vdpu_x64_alu_rr(x, ALU_SUB, X_DX, X_CX); /* 2 bytes */
        vdpu_x64_u8(x, 0x83);                    /* or eax, 1: 3 bytes */
        vdpu_x64_u8(x, 0xc8);
        vdpu_x64_u8(x, 0x01);
        vdpu_x64_store(x, X_BX, RO(I->rd), X_AX);
        vdpu_x64_store(x, X_BX, RO(I->rd + 1), X_DX);
        break;
    case OP_LW:
        load(b, I, i, 0xffff0003u, lw, 1);
        break;
    case OP_LBU:
        load(b, I, i, 0xffff0000u, lbu, 2);
        break;
    case OP_LB:
        load(b, I, i, 0xffff0000u, lb, 2);
        break;
    case OP_LHU:
        load(b, I, i, 0xffff0001u, lhu, 2);
        break;
    case OP_LH:
        load(b, I, i, 0xffff0001u, lh, 2);
        break;
    case OP_SW:
        store(b, I, i, 0xffff0003u, 0, 0x89);
        break;
    case OP_SH:
        store(b, I, i, 0xffff0001u, 0x66, 0x89);
        break;
    case OP_SB:
        store(b, I, i, 0xffff0000u, 0, 0x88);
        break;
    case OP_LD:
        wram_check(b, I, i, 0xffff0007u);
        vdpu_x64_op_mem(x, 0, 1, lw, 1, X_CX, X_R12, X_AX, 0, 0);
        vdpu_x64_store64(x, X_BX, RO(I->rd), X_CX);
        break;
    case OP_SD: {
        static const uint8_t st[] = {0x89};
        wram_check(b, I, i, 0xffff0007u);
        vdpu_x64_load64(x, X_CX, X_BX, RO(I->rs2));
        vdpu_x64_op_mem(x, 0, 1, st, 1, X_CX, X_R12, X_AX, 0, 0);
        break;
    }
    case OP_ADDI_SP: /* the stack check of exec_core: v - lo > hi - lo exits */
        addr(b, I);
        mov_rr(x, X_CX, X_AX);
        vdpu_x64_alu_rm(x, ALU_SUB, X_CX, X_R15, T_OFF(stack_lo));
        vdpu_x64_load(x, X_DX, X_R15, T_OFF(stack_hi));
        vdpu_x64_alu_rm(x, ALU_SUB, X_DX, X_R15, T_OFF(stack_lo));
        vdpu_x64_alu_rr(x, ALU_CMP, X_CX, X_DX);
        exit_if(b, CC_A, i);
        vdpu_x64_store(x, X_BX, RO(2), X_AX);
        break;
    case OP_BEQ:
        branch(b, I, CC_E);
        break;
    case OP_BNE:
        branch(b, I, CC_NE);
        break;
    case OP_BLT:
        branch(b, I, CC_L);
        break;
    case OP_BGE:
        branch(b, I, CC_GE);
        break;
    case OP_BLTU:
        branch(b, I, CC_B);
        break;
    case OP_BGEU:
        branch(b, I, CC_AE);
        break;
    case OP_JAL:
        vdpu_x64_store_imm(x, X_BX, RO(I->rd), VDPU_IRAM_BASE + 4u * (i + 1));
        fix(b, vdpu_x64_jmp(x), FX_HEAD, (uint32_t)I->imm);
        break;
    case OP_JALR:
        jalr(b, I, i);
        break;
    default: /* ecall, DMA, multiply/divide, hartid, checked sp writes, faults */
        exit_at(b, i);
        break;
    }
}

static int pure_exit(int op);

/* where runs may be entered: branch and jump targets, after an instruction
 * that ends a run (a branch's fall-through, a call's return point) or an
 * ecall (where a tasklet resumes), and the program's first instruction */
static void find_heads(jb_t *b)
{
    const vinsn_t *code = b->code;
    b->is_head[0] = 1;
    for (uint32_t i = 0; i < b->n; i++) {
        const vinsn_t *I = &code[i];
        int op = I->op;
        if ((op >= OP_BEQ && op <= OP_BGEU) || op == OP_JAL || (op == OP_MUL_STEP && I->imm >= 0))
            if ((uint32_t)I->imm < b->n)
                b->is_head[I->imm] = 1;
        if (vdpu_ends_run(I) || op == OP_ECALL)
            b->is_head[i + 1] = 1;
        /* the pure form: run-ahead starts after each head (an access, a
         * service, anything it does not run) */
        if (b->pure && pure_exit(op))
            b->is_head[i + 1] = 1;
        /* the window form is entered at the heads it runs */
        if (b->win && win_head_op(code, i))
            b->is_head[i] = 1;
    }
}

/* the ops after which run-ahead starts anew: heads (accesses, services)
 * and what it leaves to the interpreter (OP_LDMA and the ops after it in
 * VDPU_OPS: DMA, system, checked sp writes) */
static int pure_exit(int op)
{
    return (op >= OP_LB && op <= OP_SW) || op == OP_LD || op == OP_SD ||
           (op >= OP_MUL && op <= OP_REMU) || (op >= OP_LDMA && op != OP_ADDI_SP);
}

/* The pure form charges per segment: the records of a run up to the first
 * op it does not run (pure_exit), and their slots; such an op has an empty
 * segment, so reaching it refunds nothing. */
static void pure_seg(const vinsn_t *code, uint32_t n, uint16_t *len, uint16_t *sl)
{
    len[n] = sl[n] = 0; /* the sentinel */
    for (uint32_t i = n; i-- > 0;) {
        const vinsn_t *I = &code[i];
        int more = !vdpu_ends_run(I) && !pure_exit(I->op);
        len[i] = pure_exit(I->op) ? 0 : (uint16_t)(1 + (more ? len[i + 1] : 0));
        sl[i] = pure_exit(I->op) ? 0 : (uint16_t)(I->cost + (more ? sl[i + 1] : 0));
    }
}

static const uint8_t prologue[] = {
    0x53, 0x55, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57, /* push rbx rbp r12-r15 */
    0x48, 0x89, 0xfb,                                           /* mov rbx, rdi (R)      */
    0x49, 0x89, 0xf4,                                           /* mov r12, rsi (W)      */
    0x41, 0x89, 0xd5,                                           /* mov r13d, edx (left)  */
    0x49, 0x89, 0xce,                                           /* mov r14, rcx (table)  */
    0x4d, 0x89, 0xc7,                                           /* mov r15, r8 (t)       */
    0x31, 0xed,                                                 /* xor ebp, ebp (slots)  */
    0x41, 0xff, 0xe1,                                           /* jmp r9 (entry)        */
};
static const uint8_t dyn_exit[] = {0x89, 0xc8}; /* mov eax, ecx; then the epilogue */
static const uint8_t epilogue[] = {
    0xc1, 0xe5, 0x10,       /* shl ebp, 16        */
    0x09, 0xe8,             /* or eax, ebp        */
    0x4c, 0x89, 0xea,       /* mov rdx, r13       */
    0x48, 0xc1, 0xe2, 0x20, /* shl rdx, 32        */
    0x48, 0x09, 0xd0,       /* or rax, rdx        */
    0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d, 0x41, 0x5c, 0x5d, 0x5b, 0xc3,
};

/* The window form's (jit.h: vdpu_jit_wfn_t): rdx is the state, kept in
 * r8; r9 = H, r10 = L, rsi = the stamps, r13d = left, ebp = sl from it */
static const uint8_t win_prologue[] = {
    0x53, 0x55, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57, /* push rbx rbp r12-r15 */
    0x48, 0x89, 0xfb,                                           /* mov rbx, rdi (R)      */
    0x49, 0x89, 0xf4,                                           /* mov r12, rsi (W)      */
    0x49, 0x89, 0xce,                                           /* mov r14, rcx (table)  */
    0x4d, 0x89, 0xc7,                                           /* mov r15, r8 (t)       */
    0x49, 0x89, 0xd0,                                           /* mov r8, rdx (state)   */
    0x4d, 0x89, 0xcb,                                           /* mov r11, r9 (entry)   */
};
static const uint8_t win_pop[] = {0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d, 0x41, 0x5c, 0x5d, 0x5b, 0xc3};

static int emit(jb_t *b)
{
    vdpu_x64_t *x = &b->x;
    const vinsn_t *code = b->code;
    if (b->win) {
        vdpu_x64_put(x, win_prologue, sizeof win_prologue);
        vdpu_x64_load64(x, X_R9, X_R8, WC(H));
        vdpu_x64_load64(x, X_R10, X_R8, WC(L));
        vdpu_x64_load64(x, X_SI, X_R8, WC(st));
        vdpu_x64_load(x, X_R13, X_R8, WC(left));
        vdpu_x64_load(x, X_BP, X_R8, WC(sl));
        vdpu_x64_jmp_reg(x, X_R11);
        b->dyn_at = x->pos;
        vdpu_x64_put(x, dyn_exit, sizeof dyn_exit);
        b->epi_at = x->pos; /* eax = the index; the state back */
        vdpu_x64_store64(x, X_R8, WC(H), X_R9);
        vdpu_x64_store(x, X_R8, WC(left), X_R13);
        vdpu_x64_store(x, X_R8, WC(sl), X_BP);
        vdpu_x64_put(x, win_pop, sizeof win_pop);
    } else {
        vdpu_x64_put(x, prologue, sizeof prologue);
        b->dyn_at = x->pos;
        vdpu_x64_put(x, dyn_exit, sizeof dyn_exit);
        b->epi_at = x->pos;
        vdpu_x64_put(x, epilogue, sizeof epilogue);
    }
    for (uint32_t i = 0; i <= b->n; i++) {
        if (b->is_head[i]) {
            /* falling into i from the same run: past the head (13 bytes,
             * 19 with the slot count of the pure form) */
            if (i > 0 && !vdpu_ends_run(&code[i - 1]))
                vdpu_x64_jmp_short(x, b->pure ? 19 : 13);
            b->head_at[i] = (uint32_t)x->pos;
            if (b->pure) { /* the budget counts records, ebp the slots */
                vdpu_x64_alu_imm(x, ALU_SUB, X_R13, b->len[i]);
                fix(b, vdpu_x64_jcc(x, CC_B), FX_HSTUB, i);
                vdpu_x64_alu_imm(x, ALU_ADD, X_BP, b->sl[i]);
            } else {
                vdpu_x64_alu_imm(x, ALU_SUB, X_R13, code[i].run);
                exit_if(b, CC_B, i);
            }
        }
        if (i == b->n)
            exit_at(b, i); /* the sentinel: falling off .text */
        else
            body(b, i);
    }
    /* the exit stubs: refund the run from i on, return i (the pure form's
     * head stub refunds the records only: its slots were not added yet) */
    uint32_t *stub_at = b->head_at + b->n + 1, *hstub_at = stub_at + b->n + 1;
    for (uint32_t i = 0; i <= b->n; i++) {
        for (unsigned kind = 1; kind <= 2; kind++) {
            if (!(b->need_stub[i] & kind))
                continue;
            (kind == 1 ? stub_at : hstub_at)[i] = (uint32_t)x->pos;
            if (b->pure) {
                vdpu_x64_alu_imm(x, ALU_ADD, X_R13, b->len[i]);
                if (kind == 1)
                    vdpu_x64_alu_imm(x, ALU_SUB, X_BP, b->sl[i]);
            } else {
                vdpu_x64_alu_imm(x, ALU_ADD, X_R13, code[i].run);
            }
            vdpu_x64_mov_imm(x, X_AX, i);
            fix(b, vdpu_x64_jmp(x), FX_EPI, 0);
        }
    }
    for (size_t k = 0; k < b->nfx; k++) {
        const fixup_t *f = &b->fx[k];
        size_t to;
        if (f->kind == FX_HEAD) {
            if (f->idx > b->n || b->head_at[f->idx] == UINT32_MAX)
                return -1;
            to = b->head_at[f->idx];
        } else if (f->kind == FX_STUB || f->kind == FX_HSTUB) {
            to = (f->kind == FX_STUB ? stub_at : hstub_at)[f->idx];
        } else {
            to = f->kind == FX_DYN ? b->dyn_at : b->epi_at;
        }
        vdpu_x64_patch32(x, f->at, (uint32_t)(to - (f->at + 4)));
    }
    return x->overflow ? -1 : 0;
}

/* The run-ahead form is entered from the interpreter only where the segment
 * has at least this many records: a call into translated code costs more
 * than interpreting one or two instructions (between two table lookups of
 * an AES kernel, say); docs/VIRTUAL_DPU.md has the measurements behind 4. */
#define JIT_MIN_RECORDS 4u

vdpu_jit_t *vdpu_jit_build(const vinsn_t *code, uint32_t n, int pure)
{
    if (n > VDPU_IRAM_MAX_INSNS)
        return NULL;
    jb_t b;
    memset(&b, 0, sizeof b);
    b.code = code;
    b.n = n;
    b.popcnt = __builtin_cpu_supports("popcnt");
    b.pure = pure != 0;
    b.win = pure == 2;
    b.len = malloc((n + 1) * sizeof *b.len);
    b.sl = malloc((n + 1) * sizeof *b.sl);
    if (b.len && b.sl)
        pure_seg(code, n, b.len, b.sl);
    b.is_head = calloc(n + 1, 1);
    b.need_stub = calloc(n + 1, 1);
    b.head_at = malloc(3 * (n + 1) * sizeof *b.head_at); /* heads, the two stubs */
    /* at most 6 per index: a head, jalr's 3, the two exit stubs' jumps; in
     * the window form a pair's 8 exits and its jump on, 12 */
    b.capfx = (b.win ? 12 : 6) * (size_t)(n + 1) + 4;
    b.fx = malloc(b.capfx * sizeof *b.fx);
    vdpu_jit_t *j = calloc(1, sizeof *j);
    size_t cap = (size_t)(n + 1) * (b.win ? MAX_PER_INSN_WIN : MAX_PER_INSN) + MAX_FIXED;
    void *mem = MAP_FAILED;
    if (b.is_head && b.need_stub && b.head_at && b.fx && b.len && b.sl && j)
        mem = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem != MAP_FAILED) {
        for (uint32_t i = 0; i <= n; i++)
            b.head_at[i] = UINT32_MAX;
        b.x = (vdpu_x64_t){mem, cap, 0, 0};
        find_heads(&b);
        j->table = calloc(n + 1, sizeof *j->table);
        j->ext = calloc(n + 1, sizeof *j->ext);
        /* W^X: written while read + write only, then read + execute only */
        if (j->table && j->ext && emit(&b) == 0 && mprotect(mem, cap, PROT_READ | PROT_EXEC) == 0) {
            j->mem = mem;
            j->size = cap;
            j->n = n;
            _Static_assert(sizeof j->h.fn == sizeof mem, "a code address is a data address");
            memcpy(&j->h.fn, &mem, sizeof j->h.fn);
            j->h.table = (const void *const *)j->table;
            for (uint32_t i = 0; i <= n; i++)
                j->table[i] = b.head_at[i] == UINT32_MAX ? NULL : j->mem + b.head_at[i];
            for (uint32_t i = 0; i <= n; i++)
                j->ext[i] = pure != 1 || b.len[i] >= JIT_MIN_RECORDS ? j->table[i] : NULL;
            mem = MAP_FAILED;
        } else {
            free(j->table);
            free(j->ext);
            free(j);
            j = NULL;
        }
    } else {
        free(j);
        j = NULL;
    }
    if (mem != MAP_FAILED)
        munmap(mem, cap);
    free(b.is_head);
    free(b.need_stub);
    free(b.len);
    free(b.sl);
    free(b.head_at);
    free(b.fx);
    return j;
}

void vdpu_jit_free(vdpu_jit_t *j)
{
    if (!j)
        return;
    munmap(j->mem, j->size);
    free(j->table);
    free(j->ext);
    free(j);
}

const void *vdpu_jit_entry(const vdpu_jit_t *j, uint32_t pc)
{
    return pc <= j->n ? j->ext[pc] : NULL;
}

const void *const *vdpu_jit_entries(const vdpu_jit_t *j)
{
    return j->ext;
}

#else /* no translation on other hosts: the interpreter runs everything */

vdpu_jit_t *vdpu_jit_build(const vinsn_t *code, uint32_t n, int pure)
{
    (void)code;
    (void)n;
    (void)pure;
    return NULL;
}

void vdpu_jit_free(vdpu_jit_t *j)
{
    (void)j;
}

const void *vdpu_jit_entry(const vdpu_jit_t *j, uint32_t pc)
{
    (void)j;
    (void)pc;
    return NULL;
}

const void *const *vdpu_jit_entries(const vdpu_jit_t *j)
{
    (void)j;
    return NULL;
}

#endif

/* a translation that failed, so that it is not tried again on every run */
static const char jit_none;

void vdpu_jit_release(vdpu_program_t *p)
{
    if (!p->jit)
        return;
    for (int k = 0; k < 6; k++)
        if (p->jit[k] != (vdpu_jit_t *)(uintptr_t)&jit_none)
            vdpu_jit_free(p->jit[k]);
    free(p->jit);
    p->jit = NULL;
}

const vdpu_jit_t *vdpu_jit_get(const vdpu_program_t *p, int fused, int pure)
{
    if (!p->jit)
        return NULL;
    struct vdpu_jit **slot = &p->jit[(fused ? 1 : 0) + 2 * (pure < 0 ? 0 : pure > 2 ? 2 : pure)];
    vdpu_jit_t *j = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!j) {
        vdpu_jit_t *mine = vdpu_jit_build(fused ? p->code : p->code_rv32, p->n_insns, pure);
        vdpu_jit_t *want = mine ? mine : (vdpu_jit_t *)(uintptr_t)&jit_none;
        if (__atomic_compare_exchange_n(slot, &j, want, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            j = want;
        else
            vdpu_jit_free(mine);
    }
    return j == (const vdpu_jit_t *)(const void *)&jit_none ? NULL : j;
}
