/* cost.c -- what each instruction costs on the DPU: the virtual DPU executes
 * RV32 code but charges the DPU's issue slots. Every cost rule lives here (a
 * translator or JIT must take its costs from the same `cost` fields these
 * rules fill in); docs/VIRTUAL_DPU.md lists each rule with its source. A rule
 * only ever changes `cost`, never what an instruction does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "vdpu_internal.h"

/* Straight-line runs, from the back: an instruction after which execution
 * may not continue at the next index ends its run; `run` is the sum of the
 * costs from an instruction to the end of its run. A jump into the middle of
 * a run still runs straight to its end, so runs need no knowledge of branch
 * targets. ecall is not an end: when it does not stop the tasklet it
 * continues at the next index (the interpreter refunds the rest of the run
 * when it stops). n <= 4096 fits uint16_t. */
void vdpu_runs(vinsn_t *code, uint32_t n)
{
    for (uint32_t i = n; i-- > 0;)
        code[i].run = (uint16_t)(code[i].cost + (vdpu_ends_run(&code[i]) ? 0 : code[i + 1].run));
}

/* ------------------------------------------------------------ cost fusion
 * The DPU executes several RV32 idioms as one instruction. Those idioms keep
 * their RV32 instructions (semantics unchanged); only the instructions the
 * DPU does not need cost 0 issue slots. Sources: the DPU instruction set as
 * used by the SDK's compiler-rt (upmem/llvm-project, compiler-rt/lib/builtins/
 * dpu) and its disassembled programs: 48-bit instructions with 32-bit
 * immediates, an optional condition and jump target on ALU instructions,
 * add/addc with a carry flag, 8-byte ld/sd, `call` in one instruction.
 *
 * A folded instruction must only ever execute right after its partner, so
 * nothing between the two (partner excluded) may be a jump target. */

static int is_alu(int op)
{
    return op == OP_LI || vdpu_is_imm_alu(op) || (vdpu_is_reg_alu(op) && op < OP_MUL) ||
           (op >= OP_MUL8 && op <= OP_SUBC);
}
static int is_mem(int op)
{
    return (op >= OP_LB && op <= OP_SW) || op == OP_LD || op == OP_SD ||
           (op >= OP_LDMA && op <= OP_SDMA_R) || op == OP_ECALL;
}
/* the register an instruction writes (32 = none) */
static unsigned dest(const vinsn_t *I)
{
    if (I->op == OP_ADDI_SP || I->op == OP_SPCHK_I || I->op == OP_SPCHK_R)
        return 2;
    if (I->op == OP_ECALL)
        return 10; /* a0 (and a1): results of runtime services */
    return I->rd;
}
static int writes(const vinsn_t *I, unsigned r)
{
    unsigned d = dest(I);
    if (I->op == OP_ECALL)
        return r == 10 || r == 11;
    if (I->op == OP_LD || I->op == OP_MUL_STEP || I->op == OP_DIV_STEP)
        return r == d || r == d + 1;
    return d == r;
}
static int is_cond_branch(int op)
{
    return op >= OP_BEQ && op <= OP_BGEU;
}

/* a save or restore of the return address on the stack */
static int is_ra_slot(const vinsn_t *I)
{
    return I->rs1 == 2 && ((I->op == OP_SW && I->rs2 == 1) || (I->op == OP_LW && I->rd == 1));
}

/* `mv rd, rs` (addi rd, rs, 0) and `li rd, 0` */
static int is_mv(const vinsn_t *I)
{
    return I->op == OP_ADDI && I->imm == 0 && I->rs1 != 0 && I->rd != 32;
}
static int is_zero(const vinsn_t *I)
{
    return (I->op == OP_LI || (I->op == OP_ADDI && I->rs1 == 0)) && I->imm == 0 && I->rd != 32;
}

static void fuse_idioms(vinsn_t *c, uint32_t n, const uint8_t *target)
{
    enum { WIN = 4 }; /* how far apart a pair may be */
    for (uint32_t i = 0; i < n; i++) {
        vinsn_t *A = &c[i];
        /* (0) a compare-and-branch right before an ALU op whose own condition
         * it is: `beq/bne/blt/bge/bltu/bgeu a, b` before `sub d, a, b` (or b,
         * a) is the DPU's `sub d, a, b, z/nz/lts/ges/ltu/geu/gts/les/...,
         * target` (sub_nz_cc compares the operands); `beqz/bnez r` before
         * `clz d, r` is `clz d, r, max/nmax, target` (count_nz_cc: max = 32
         * leading zeros = r is 0). The branch keeps its slot, the op is
         * folded into it (taken or not, one DPU instruction). */
        if (is_cond_branch(A->op) && A->cost && i + 1 < n && !target[i + 1]) {
            vinsn_t *B = &c[i + 1];
            int sub = B->op == OP_SUB && ((B->rs1 == A->rs1 && B->rs2 == A->rs2) ||
                                          (B->rs1 == A->rs2 && B->rs2 == A->rs1));
            int clz = B->op == OP_CLZ && (A->op == OP_BEQ || A->op == OP_BNE) &&
                      ((A->rs1 == B->rs1 && A->rs2 == 0) || (A->rs2 == B->rs1 && A->rs1 == 0));
            if (B->cost && B->rd != 32 && (sub || clz))
                B->cost = 0;
            continue;
        }
        if (A->cost == 0 || vdpu_ends_run(A))
            continue;
        /* (0') the same after the sub, when the sub overwrote neither operand */
        if (A->op == OP_SUB && A->rd != A->rs1 && A->rd != A->rs2 && i + 1 < n && !target[i + 1]) {
            vinsn_t *B = &c[i + 1];
            if (is_cond_branch(B->op) && B->cost &&
                ((B->rs1 == A->rs1 && B->rs2 == A->rs2) ||
                 (B->rs1 == A->rs2 && B->rs2 == A->rs1))) {
                B->cost = 0;
                continue;
            }
        }
        /* (0'') a 64-bit zero extension into a register pair: `mv r(2k+1), x`
         * and `li r(2k), 0`, adjacent in either order, is the DPU's `move.u
         * d, x` (move.u:rr sets both words of the pair) */
        if (i + 1 < n && !target[i + 1]) {
            vinsn_t *B = &c[i + 1];
            const vinsn_t *mv = is_mv(A) ? A : is_mv(B) ? B : NULL;
            const vinsn_t *z = is_zero(A) ? A : is_zero(B) ? B : NULL;
            if (mv && z && mv != z && B->cost && mv->rd == z->rd + 1 && (z->rd & 1) == 0 &&
                z->rd >= 4 && z->rd < 32 && (mv == A || mv->rs1 != z->rd)) {
                B->cost = 0;
                continue;
            }
        }
        /* (1) ALU op + branch on its result vs zero, or + unconditional
         * jump: the DPU's "op rc, ra, rb, cond, target" (e.g. `add r0, r0,
         * -1, nz, loop`, `move r0, r1, true, start`). slt/sltu + branch is
         * the DPU's compare-and-jump (`jltu ra, rb, target`). */
        if (i + 1 < n && !target[i + 1] && is_alu(A->op) && A->rd != 32) {
            vinsn_t *B = &c[i + 1];
            int on_rd = is_cond_branch(B->op) && B->op != OP_BLTU && B->op != OP_BGEU &&
                        ((B->rs1 == A->rd && B->rs2 == 0) ||
                         ((B->op == OP_BEQ || B->op == OP_BNE) && B->rs1 == 0 && B->rs2 == A->rd));
            int jump = B->op == OP_JAL && B->rd == 32;
            if (B->cost && (on_rd || jump)) {
                B->cost = 0;
                continue;
            }
        }
        /* (2) 32-bit constants and calls: lui/auipc + addi, lui + load
         * through it, auipc + jalr (the DPU's move/lw with a 32-bit
         * immediate, and `call`) */
        if (A->op == OP_LI && A->rd != 32 && i + 1 < n && !target[i + 1]) {
            vinsn_t *B = &c[i + 1];
            int addi = B->op == OP_ADDI && B->rs1 == A->rd && B->rd == A->rd;
            int call = B->op == OP_JALR && B->rs1 == A->rd;
            int load = B->op >= OP_LB && B->op <= OP_LHU && B->rs1 == A->rd && B->rd == A->rd;
            if (B->cost && (addi || call || load)) {
                B->cost = 0;
                continue;
            }
        }
        /* (3) 64-bit add/sub: add lo; sltu carry; ...; add hi, x, carry is
         * the DPU's add; addc (2 instructions): the carry extraction and the
         * add of the carry are folded (the latter only if the high word
         * already has its own add, else it is the addc itself). sub: sltu
         * borrow, a, b next to sub lo, a, b. */
        if (A->op == OP_ADD || A->op == OP_ADDI || A->op == OP_SUB) {
            unsigned L = A->rd;
            int sub = A->op == OP_SUB;
            for (uint32_t j = i + 1; j < n && j <= i + WIN && !target[j]; j++) {
                vinsn_t *S = &c[j];
                int carry = S->op == OP_SLTU && S->cost &&
                            (sub ? (S->rs1 == A->rs1 && S->rs2 == A->rs2)
                                 : (S->rs1 == L &&
                                    (S->rs2 == A->rs1 || (A->op == OP_ADD && S->rs2 == A->rs2))));
                if (carry && S->rd != 32) {
                    unsigned C = S->rd;
                    S->cost = 0;
                    /* the high word: x = y op z somewhere in the window, then
                     * hi = x op carry */
                    int have_hi = 0;
                    for (uint32_t k = i + 1; k < n && k <= j + WIN && !target[k]; k++) {
                        vinsn_t *H = &c[k];
                        if (k != j && H->op == A->op && H->cost && (k < j || !writes(H, C)))
                            have_hi = 1;
                        if (k > j && H->op == (sub ? OP_SUB : OP_ADD) && H->cost && have_hi &&
                            (H->rs2 == C || (!sub && H->rs1 == C))) {
                            H->cost = 0;
                            break;
                        }
                        if (k > j && (writes(H, C) || vdpu_ends_run(H)))
                            break;
                    }
                    break;
                }
                if (vdpu_ends_run(S) || writes(S, L) || writes(S, A->rs1) || writes(S, A->rs2))
                    break;
            }
            /* the borrow may also come first: sltu b, x, y; sub lo, x, y */
        }
        if (A->op == OP_SLTU && A->cost && A->rd != 32) {
            for (uint32_t j = i + 1; j < n && j <= i + 2 && !target[j]; j++) {
                vinsn_t *S = &c[j];
                if (S->op == OP_SUB && S->rs1 == A->rs1 && S->rs2 == A->rs2 && A->rd != A->rs1 &&
                    A->rd != A->rs2) {
                    /* the sltu is the borrow of this sub: fold it (the sub
                     * sets the DPU's carry flag) and the sub of the borrow */
                    unsigned C = A->rd;
                    int have_hi = 0, found = 0;
                    for (uint32_t k = j + 1; k < n && k <= j + WIN && !target[k]; k++) {
                        vinsn_t *H = &c[k];
                        if (H->op == OP_SUB && H->cost && H->rs2 != C)
                            have_hi = 1;
                        if (H->op == OP_SUB && H->cost && H->rs2 == C && have_hi) {
                            H->cost = 0;
                            found = 1;
                            break;
                        }
                        if (writes(H, C) || vdpu_ends_run(H))
                            break;
                    }
                    (void)found;
                    /* the sltu is folded into the sub (moved to the sub's
                     * slot: the cost only, semantics unchanged) */
                    S->cost = 1;
                    A->cost = 0;
                    /* A is the first of the pair: it must not be a target
                     * either, as execution entering at the sub would skip
                     * it; it is executed, just not charged */
                    break;
                }
                if (vdpu_ends_run(S) || writes(S, A->rs1) || writes(S, A->rs2) || writes(S, A->rd))
                    break;
            }
        }
        /* (4) two word loads/stores at 8k and 8k+4 from the same base: one
         * 8-byte ld/sd. Not the return address on the stack: the DPU saves
         * and restores it paired with the stack pointer (`sd r22, 0, d22`,
         * `ld d22, r22, -N`, below: frame pop), never with another register */
        if ((A->op == OP_LW || A->op == OP_SW) && A->cost && (A->imm & 3) == 0) {
            int32_t want = (A->imm & 4) ? A->imm - 4 : A->imm + 4;
            if ((A->op == OP_LW && A->rd == A->rs1) || is_ra_slot(A))
                continue;
            for (uint32_t j = i + 1; j < n && j <= i + WIN && !target[j]; j++) {
                vinsn_t *B = &c[j];
                if (is_ra_slot(B))
                    break;
                if (B->op == A->op && B->cost && B->rs1 == A->rs1 && B->imm == want &&
                    (A->op == OP_SW || B->rd != A->rd)) {
                    B->cost = 0;
                    break;
                }
                if (vdpu_ends_run(B) || is_mem(B->op) || writes(B, A->rs1))
                    break;
            }
        }
    }
}

/* ------------------------------------------------------ addressing modes
 * The DPU's loads and stores address `ra + off` with a signed 24-bit
 * immediate (`lw rc, ra, off`, `sw ra, off, rb`, `ld`, `sd`, byte and half
 * forms; the UPMEM SDK's ISA description, dpu/isa.py: `lw:rri`, `sw:rir`,
 * `Immediate('off', 24, True)`), so every WRAM address fits. `T[x]` with a
 * link-time-constant T is one load on the DPU (the SDK's compiler emits e.g.
 * `lbu r3, r2, 556`, 556 being a global's address); RV32 has a 12-bit offset
 * and needs T in a register and `add t, x, T` before `lw v, 0(t)`. That add
 * costs nothing on the DPU when
 *   - one of its operands holds a known constant c at that point (a forward
 *     constant propagation over the program's control flow, below), and
 *   - its result is used only as the base address of loads/stores whose
 *     c + offset fits the 24-bit immediate, in the same straight-line run
 *     with no entry point before them, and is then overwritten, or dead on
 *     every path from the run's end or the next entry point (written before
 *     read, dead_at below), the other operand (the DPU's `ra`) not
 *     overwritten before the last such use;
 * or used as the target of a computed jump (`jalr`): the DPU's `jump ra,
 * off` / `call rc, ra, off` (isa.py jump:ri, call:rri) adds a PC immediate
 * to a register. There an `sh2add t, i, K` is folded too, as the DPU's PC
 * counts instructions (the SDK's `__udiv32` jumps into its div_step
 * sequence with `jump r2, label`). */

/* the registers an instruction reads (data-flow exact per op class; any
 * doubt reads more, which only folds less) */
static int reads(const vinsn_t *I, unsigned r)
{
    int op = I->op;
    if (op == OP_LI || op == OP_JAL || op == OP_HARTID || op == OP_NOP || op == OP_EBREAK ||
        op == OP_ILLEGAL || op == OP_BADJUMP)
        return 0;
    if (op == OP_ECALL)
        return r >= 10 && r <= 17; /* a0..a7: a service's arguments */
    if (op == OP_JALR || (op >= OP_LB && op <= OP_LHU) || op == OP_LD || vdpu_is_imm_alu(op) ||
        op == OP_ADDI_SP || op == OP_SPCHK_I)
        return r == I->rs1;
    if (op == OP_SD)
        return r == I->rs1 || r == I->rs2 || r == I->rs2 + 1u;
    if (op == OP_MUL_STEP || op == OP_DIV_STEP)
        return r == I->rs1 || r == I->rd || r == I->rd + 1u;
    if (op == OP_LDMA_R || op == OP_SDMA_R)
        return r == I->rs1 || r == I->rs2 || r == (unsigned)I->imm;
    return r == I->rs1 || r == I->rs2;
}

/* registers an instruction writes, as a mask of x1..x31 */
static uint32_t write_mask(const vinsn_t *I)
{
    uint32_t m = 0;
    for (unsigned r = 1; r < 32; r++)
        if (writes(I, r))
            m |= 1u << r;
    return m;
}

/* registers a call may change (RISC-V psABI caller-saved: ra, t0-t6,
 * a0-a7); the runtime's assembly keeps the same convention */
#define CALLER_SAVED 0xf003fce2u

typedef struct {
    uint32_t known; /* bit r: register r holds v[r] on every path here */
    uint32_t v[32];
} cstate_t;

/* the value an ALU op computes from known operands; 0 = not known */
static int const_eval(const vinsn_t *I, const cstate_t *s, uint32_t *out)
{
    int op = I->op;
    int ka = (s->known >> I->rs1) & 1, kb = (s->known >> I->rs2) & 1;
    uint32_t a = s->v[I->rs1], b = s->v[I->rs2], imm = (uint32_t)I->imm;
    switch (op) {
    case OP_LI:
        *out = imm;
        return 1;
    case OP_ADDI:
        *out = a + imm;
        return ka;
    case OP_ANDI:
        *out = a & imm;
        return ka;
    case OP_ORI:
        *out = a | imm;
        return ka;
    case OP_XORI:
        *out = a ^ imm;
        return ka;
    case OP_SLLI:
        *out = a << (imm & 31);
        return ka;
    case OP_SRLI:
        *out = a >> (imm & 31);
        return ka;
    case OP_ADD:
        *out = a + b;
        return ka && kb;
    case OP_SUB:
        *out = a - b;
        return ka && kb;
    case OP_AND:
        *out = a & b;
        return ka && kb;
    case OP_OR:
        *out = a | b;
        return ka && kb;
    case OP_XOR:
        *out = a ^ b;
        return ka && kb;
    case OP_SH1ADD:
    case OP_SH2ADD:
    case OP_SH3ADD:
        *out = (a << (op - OP_SH1ADD + 1)) + b;
        return ka && kb;
    default:
        return 0;
    }
}

static void transfer(cstate_t *s, const vinsn_t *I)
{
    uint32_t val = 0;
    int k = const_eval(I, s, &val);
    s->known &= ~write_mask(I);
    if (k && I->rd > 0 && I->rd < 32 && write_mask(I) == 1u << I->rd) {
        s->known |= 1u << I->rd;
        s->v[I->rd] = val;
    }
}

/* merge `in` into the state at instruction t; 1 if it changed */
static int merge(cstate_t *st, uint8_t *seen, uint32_t t, const cstate_t *in)
{
    cstate_t *d = &st[t];
    if (!seen[t]) {
        *d = *in;
        seen[t] = 1;
        return 1;
    }
    uint32_t k = d->known & in->known;
    for (unsigned r = 0; r < 32; r++)
        if (((k >> r) & 1) && d->v[r] != in->v[r])
            k &= ~(1u << r);
    if (k == d->known)
        return 0;
    d->known = k;
    return 1;
}

/* Forward constant propagation: st[i] = what is known at the entry of
 * instruction i. Entry points know nothing (but x0); a call's return point
 * keeps what the caller knew in callee-saved registers. Returns -1 when out
 * of memory. */
static int propagate(const vinsn_t *c, uint32_t n, const uint8_t *target, cstate_t *st,
                     uint8_t *seen)
{
    uint32_t *work = malloc(((size_t)n + 1) * sizeof *work);
    uint8_t *queued = calloc((size_t)n + 1, 1);
    if (!work || !queued) {
        free(work);
        free(queued);
        return -1;
    }
    uint32_t nw = 0;
    cstate_t none = {1, {0}};
    for (uint32_t i = 0; i < n; i++)
        if (target[i] & VDPU_TG_ENTRY) {
            merge(st, seen, i, &none);
            st[i] = none;
            work[nw++] = i;
            queued[i] = 1;
        }
    while (nw) {
        uint32_t i = work[--nw];
        queued[i] = 0;
        const vinsn_t *I = &c[i];
        cstate_t out = st[i];
        transfer(&out, I);
        uint32_t succ[2];
        int ns = 0, op = I->op;
        if (op >= OP_BEQ && op <= OP_BGEU) {
            succ[ns++] = i + 1;
            succ[ns++] = (uint32_t)I->imm;
        } else if (op == OP_JAL || op == OP_JALR) {
            if (I->rd != 32) { /* a call: back at i + 1 */
                out.known &= ~CALLER_SAVED;
                succ[ns++] = i + 1;
            } else if (op == OP_JAL) {
                succ[ns++] = (uint32_t)I->imm;
            }
        } else if (op == OP_MUL_STEP && I->imm >= 0) {
            succ[ns++] = i + 1;
            succ[ns++] = (uint32_t)I->imm;
        } else if (op != OP_BADJUMP && op != OP_ILLEGAL && op != OP_EBREAK) {
            succ[ns++] = i + 1;
        }
        for (int k = 0; k < ns; k++)
            if (succ[k] < n && merge(st, seen, succ[k], &out) && !queued[succ[k]]) {
                work[nw++] = succ[k];
                queued[succ[k]] = 1;
            }
    }
    free(work);
    free(queued);
    return 0;
}

static int fits_off24(int64_t v)
{
    return v >= -(1 << 23) && v < (1 << 23);
}

static int dead_at(const vinsn_t *c, uint32_t n, const cstate_t *st, const uint8_t *seen,
                   uint32_t at, unsigned r, int budget);

/* 1 when the add at i is the DPU's load/store offset (rules above), x being
 * the register the DPU's load keeps and c the constant */
static int add_is_offset(const vinsn_t *c, uint32_t n, const uint8_t *target, const cstate_t *st,
                         const uint8_t *seen, uint32_t i, unsigned x, uint32_t cval)
{
    enum { BUDGET = 64 };
    enum { SCAN = 16 }; /* how far the uses may be */
    unsigned d = c[i].rd;
    int uses = 0, x_changed = 0;
    for (uint32_t j = i + 1; j < n && j <= i + SCAN; j++) {
        const vinsn_t *B = &c[j];
        if (target[j]) /* entered from elsewhere too: d must be dead here */
            return uses > 0 && dead_at(c, n, st, seen, j, d, BUDGET);
        if (B->op == OP_JALR && B->rs1 == d && !x_changed)
            return 1; /* `jump/call ra, off`: the DPU's PC offset takes any IRAM address */
        if (reads(B, d)) {
            if (c[i].op != OP_ADD)
                return 0; /* a scaled index only for a jump (fold_addressing) */
            int load = (B->op >= OP_LB && B->op <= OP_LHU) || B->op == OP_LD;
            int store = B->op == OP_SB || B->op == OP_SH || B->op == OP_SW || B->op == OP_SD;
            if (!(load || store) || B->rs1 != d || x_changed ||
                !fits_off24((int64_t)(int32_t)cval + B->imm))
                return 0;
            if (store && (B->rs2 == d || (B->op == OP_SD && B->rs2 + 1u == d)))
                return 0; /* the address itself is stored */
            uses++;
        }
        if (writes(B, d))
            return uses > 0;
        if (x != d && writes(B, x))
            x_changed = 1;
        if (vdpu_ends_run(B)) /* d must be dead on every path from here */
            return uses > 0 && dead_at(c, n, st, seen, j, d, BUDGET);
    }
    return 0;
}

static void fold_addressing(vinsn_t *c, uint32_t n, const uint8_t *target, const cstate_t *st,
                            const uint8_t *seen)
{
    for (uint32_t i = 0; i < n; i++) {
        vinsn_t *A = &c[i];
        if (!seen[i] || A->cost == 0 || A->rd == 32 || A->rd == 2)
            continue;
        if (A->op == OP_SH2ADD) {
            /* a jump table index scaled to RV32's byte addresses: the DPU's
             * PC counts instructions, so its `jump ra, off` takes the index
             * itself and the scaled add is the jump's own */
            if (((st[i].known >> A->rs2) & 1) && A->rs2 != 0 &&
                add_is_offset(c, n, target, st, seen, i, A->rs1, st[i].v[A->rs2]))
                A->cost = 0;
            continue;
        }
        if (A->op != OP_ADD)
            continue;
        for (int side = 0; side < 2; side++) {
            unsigned k = side ? A->rs1 : A->rs2, x = side ? A->rs2 : A->rs1;
            if (k != 0 && ((st[i].known >> k) & 1) &&
                add_is_offset(c, n, target, st, seen, i, x, st[i].v[k])) {
                A->cost = 0;
                break;
            }
        }
    }
}

/* ------------------------------------------- compare with an immediate
 * The DPU's conditional jumps compare a register with an 11-bit signed
 * immediate (isa.py `jeq:rii` ... `jges:rii`, `Immediate('imm', 11, True)`;
 * the SDK's `barrier_wait` is compiled to `jeq r3, 1, ...`, `jeq r2, 255,
 * ...`). RV32 branches compare two registers, so `li t, K; beq a, t` needs
 * the constant in a register first: the `li` costs 0 when K fits, the branch
 * right after it compares t with a register other than zero, and t is dead
 * on both of the branch's paths (the DPU never writes t). */

/* 1 when register r is written before it is read on every path from
 * instruction `at` (within `budget` instructions; any doubt: 0) */
static int one_insn_service(const cstate_t *s, int with_arg);

/* 1 when the ecall at j is one of the DPU's primitives (below), which read
 * a0 and a7 only */
static int primitive_ecall(const vinsn_t *B, const cstate_t *s, const uint8_t *seen, uint32_t j)
{
    return B->op == OP_ECALL && seen[j] && one_insn_service(&s[j], 0);
}

static int dead_at(const vinsn_t *c, uint32_t n, const cstate_t *st, const uint8_t *seen,
                   uint32_t at, unsigned r, int budget)
{
    enum { ARGS = 0x3fc00u }; /* a0..a7: a callee's arguments */
    for (uint32_t j = at; j < n && budget-- > 0; j++) {
        const vinsn_t *B = &c[j];
        if (primitive_ecall(B, st, seen, j) ? (r == 10 || r == 17) : reads(B, r))
            return 0;
        if (writes(B, r))
            return 1;
        if (is_cond_branch(B->op)) {
            uint32_t t = (uint32_t)B->imm;
            return t < n && dead_at(c, n, st, seen, j + 1, r, budget / 2) &&
                   dead_at(c, n, st, seen, t, r, budget / 2);
        }
        if (B->op == OP_JAL && B->rd == 32) {
            if ((uint32_t)B->imm >= n)
                return 0;
            j = (uint32_t)B->imm - 1; /* the jump's target next */
            continue;
        }
        if (B->op == OP_JAL || B->op == OP_JALR) {
            /* a call clobbers the caller-saved registers it does not take
             * as arguments; a return leaves every caller-saved register
             * but the results (a0, a1) dead */
            uint32_t bit = 1u << r;
            if (B->rd != 32)
                return (CALLER_SAVED & ~ARGS & bit) != 0;
            return B->op == OP_JALR && B->rs1 == 1 && B->imm == 0 &&
                   (CALLER_SAVED & ~(3u << 10) & ~2u & bit) != 0;
        }
        if (vdpu_ends_run(B))
            return 0;
    }
    return 0;
}

static void fold_compare_imm(vinsn_t *c, uint32_t n, const uint8_t *target, const cstate_t *st,
                             const uint8_t *seen)
{
    enum { BUDGET = 64 };
    for (uint32_t i = 0; i + 1 < n; i++) {
        vinsn_t *A = &c[i], *B = &c[i + 1];
        uint32_t k;
        if (!seen[i] || A->cost == 0 || target[i + 1] || !is_cond_branch(B->op) || B->cost == 0)
            continue;
        unsigned t = A->rd;
        if (t == 0 || t >= 32 || t == 2 || !const_eval(A, &st[i], &k) ||
            !(A->op == OP_LI || (A->op == OP_ADDI && A->rs1 == 0)))
            continue;
        unsigned other = B->rs1 == t ? B->rs2 : B->rs2 == t ? B->rs1 : 32;
        if (other == 0 || other >= 32 || other == t || (int32_t)k < -1024 || (int32_t)k > 1023)
            continue;
        if (dead_at(c, n, st, seen, i + 2, t, BUDGET) && (uint32_t)B->imm < n &&
            dead_at(c, n, st, seen, (uint32_t)B->imm, t, BUDGET))
            A->cost = 0;
    }
}

/* ------------------------------------------------ runtime primitives
 * acquire, release, resume and stop are single DPU instructions on `ra +
 * imm` (isa.py `acquire:rici`, `release:rici`, `resume:rici`: a register
 * and a 16-bit signed immediate; the SDK's `mutex_lock` is one inline
 * `acquire`, its `barrier_wait` and `handshake_notify` use them on any
 * register, disassembled from the SDK 2023.1 librt). The virtual DPU reaches
 * them through `ecall` with the service in a7 and the operand in a0 (abi.h):
 * the ecall is the DPU's instruction, and the set-up the DPU does not need
 * costs 0: `li a7, service`, and `mv a0, x` / `addi a0, x, imm` / `li a0,
 * imm` whose only use is that ecall (x unchanged until then). */
static int one_insn_service(const cstate_t *s, int with_arg)
{
    if (!((s->known >> 17) & 1))
        return 0;
    uint32_t v = s->v[17];
    return v == VDPU_SYS_ACQUIRE || v == VDPU_SYS_RELEASE || v == VDPU_SYS_ACQUIRE_TRY ||
           v == VDPU_SYS_RESUME || (!with_arg && v == VDPU_SYS_STOP);
}

static void fold_service_args(vinsn_t *c, uint32_t n, const uint8_t *target, const cstate_t *st,
                              const uint8_t *seen)
{
    enum { SCAN = 8 };
    for (uint32_t i = 0; i < n; i++) {
        vinsn_t *A = &c[i];
        unsigned r = A->rd;
        if (!seen[i] || A->cost == 0 || (r != 17 && r != 10))
            continue;
        int setk = A->op == OP_LI || (A->op == OP_ADDI && A->rs1 == 0);
        int mv =
            A->op == OP_ADDI && A->rs1 != 0 && A->rs1 != r && A->imm >= -32768 && A->imm < 32768;
        if (r == 17 ? !setk : !(mv || (setk && A->imm >= -32768 && A->imm < 32768)))
            continue;
        for (uint32_t j = i + 1; j < n && j <= i + SCAN; j++) {
            const vinsn_t *B = &c[j];
            if (target[j] || !seen[j])
                break;
            if (B->op == OP_ECALL) {
                if (one_insn_service(&st[j], r == 10))
                    A->cost = 0;
                break;
            }
            if (reads(B, r) || writes(B, r) || (mv && writes(B, A->rs1)) || vdpu_ends_run(B))
                break;
        }
    }
}

/* ---------------------------------------------------------- frame pop
 * The DPU saves and restores the stack pointer with the return address as
 * one register pair: the SDK's code opens a frame with `sd r22, 0, d22; add
 * r22, r22, N` and closes it with `ld d22, r22, -N; jump r23` (r22 = sp, r23
 * = return address; e.g. `__div32` of the SDK's librt, disassembled with its
 * dpu/disasm.py). RV32 closes it with `lw ra, k(sp); addi sp, sp, N; ret`:
 * the `addi` that pops the frame is part of the DPU's `ld d22`. So an `addi
 * sp, sp, N > 0` costs 0 when a `lw ra, k(sp)` precedes it in the same
 * straight-line run (nothing entered or changing sp in between). */
static void fold_frame_pop(vinsn_t *c, uint32_t n, const uint8_t *target)
{
    enum { BACK = 16 }; /* how far before the pop the restore of ra may be */
    for (uint32_t i = 1; i < n; i++) {
        vinsn_t *P = &c[i];
        if (P->op != OP_ADDI_SP || P->rs1 != 2 || P->imm <= 0 || P->cost == 0)
            continue;
        for (uint32_t j = i; j-- > 0 && j + BACK >= i;) {
            const vinsn_t *R = &c[j];
            if (vdpu_ends_run(R) || writes(R, 2))
                break;
            if (R->op == OP_LW && R->rd == 1 && R->rs1 == 2) {
                P->cost = 0;
                break;
            }
            if (target[j])
                break;
        }
    }
}

int vdpu_fuse(vinsn_t *c, uint32_t n, const uint8_t *target)
{
    fuse_idioms(c, n, target);
    fold_frame_pop(c, n, target);
    /* the rules below need the constants each register holds */
    cstate_t *st = malloc(((size_t)n + 1) * sizeof *st);
    uint8_t *seen = calloc((size_t)n + 1, 1);
    int rc = -1;
    if (st && seen && propagate(c, n, target, st, seen) == 0) {
        fold_addressing(c, n, target, st, seen);
        fold_compare_imm(c, n, target, st, seen);
        fold_service_args(c, n, target, st, seen);
        rc = 0;
    }
    free(st);
    free(seen);
    vdpu_runs(c, n);
    return rc;
}
