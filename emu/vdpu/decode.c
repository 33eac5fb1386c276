/* decode.c -- RV32IM + Zba + Zbb predecoder (4-byte instructions only). */
#include "vdpu_internal.h"

static int32_t sext(uint32_t v, int bits)
{
    uint32_t m = 1u << (bits - 1);
    return (int32_t)((v ^ m) - m);
}

static int is_imm_alu(int op)
{
    return op >= OP_FIRST_IMM && op <= OP_LAST_IMM;
}
static int is_reg_alu(int op)
{
    return op >= OP_FIRST_REG && op <= OP_LAST_REG;
}

/* 1 for ops after which execution does not simply go on at the next index
 * (control transfers, and ops that always fault) */
static int ends_run(const vinsn_t *I)
{
    int op = I->op;
    return (op >= OP_BEQ && op <= OP_BGEU) || op == OP_JAL || op == OP_JALR || op == OP_BADJUMP ||
           op == OP_ILLEGAL || op == OP_EBREAK || (op == OP_MUL_STEP && I->imm >= 0);
}

/* The DPU's own instructions in RV32's custom opcode space (encodings in
 * docs/VIRTUAL_DPU.md, "The DPU's own instructions"). Returns the op, with
 * I's fields set; OP_ILLEGAL for a malformed word. */
static int decode_custom(uint32_t w, uint32_t i, uint32_t n, vinsn_t *I, uint32_t *rdp)
{
    uint32_t opc = w & 0x7f, rd = (w >> 7) & 31, f3 = (w >> 12) & 7;
    uint32_t rs2 = (w >> 20) & 31, f7 = w >> 25;
    /* pair registers: an even register and the next one, as the DPU's d0..d22;
     * not x0 (the sink) nor sp (checked writes) */
    int pair_ok = (rd & 1) == 0 && rd != 0 && rd != 2;
    switch (opc) {
    case 0x0b: /* custom-0: register ALU ops */
        if (rd == 2)
            return OP_ILLEGAL;
        if (f3 == 0 && f7 < 16) {
            I->imm = (int32_t)f7;
            return OP_MUL8;
        }
        if (f3 >= 1 && f3 <= 4 && f7 < 32) {
            static const int sops[5] = {0, OP_LSL_ADD, OP_LSL_SUB, OP_LSR_ADD, OP_ROL_ADD};
            I->imm = (int32_t)f7;
            return sops[f3];
        }
        if (f3 == 5 && f7 < 4) {
            static const int cops[4] = {OP_ADD_C, OP_ADDC, OP_SUB_C, OP_SUBC};
            I->imm = 0;
            return cops[f7];
        }
        return OP_ILLEGAL;
    case 0x2b: { /* custom-1: pair ops */
        uint32_t imm = w >> 20;
        if (f3 <= 1) { /* mul_step / div_step rd:rd+1, rs1, shift, jump */
            uint32_t off = imm >> 5;
            if (!pair_ok || (f3 == 1 && off))
                return OP_ILLEGAL;
            I->rs2 = (uint8_t)(imm & 31);
            if (off) {
                if ((uint64_t)i + off >= n)
                    return OP_ILLEGAL;
                I->imm = (int32_t)(i + off);
            } else {
                I->imm = -1;
            }
            return f3 == 0 ? OP_MUL_STEP : OP_DIV_STEP;
        }
        if (f3 == 2) { /* ld rd:rd+1, imm(rs1) */
            if (!pair_ok)
                return OP_ILLEGAL;
            I->imm = sext(imm, 12);
            return OP_LD;
        }
        if (f3 == 3) { /* sd rs2:rs2+1, imm(rs1) */
            if (rs2 & 1)
                return OP_ILLEGAL;
            I->imm = sext(((w >> 25) << 5) | rd, 12);
            *rdp = 0;
            return OP_SD;
        }
        return OP_ILLEGAL;
    }
    case 0x5b: /* custom-2: ldma/sdma WRAM rs1, MRAM rs2 */
        if (f3 <= 3 && rd == 0) {
            I->imm = (int32_t)(((((f3 >> 1) << 7) | f7) + 1) * 8);
            return (f3 & 1) ? OP_SDMA : OP_LDMA;
        }
        if ((f3 == 4 || f3 == 5) && f7 == 0) {
            I->imm = (int32_t)rd; /* the size register */
            *rdp = 0;
            return f3 == 5 ? OP_SDMA_R : OP_LDMA_R;
        }
        return OP_ILLEGAL;
    }
    return OP_ILLEGAL;
}

/* the caller (program.c) rejects more than VDPU_IRAM_MAX_INSNS instructions */
_Static_assert(VDPU_IRAM_MAX_INSNS + 1 <= UINT16_MAX, "vinsn_t.run must hold a whole .text");

/* Returns 0 on success (always: undecodable words become OP_ILLEGAL, which
 * faults only if executed). */
int vdpu_decode(const uint32_t *words, uint32_t n, vinsn_t *out)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t w = words[i];
        vinsn_t I = {OP_ILLEGAL, 0, 0, 0, (int32_t)w, 0, 1};
        uint32_t opc = w & 0x7f, rd = (w >> 7) & 31, f3 = (w >> 12) & 7;
        uint32_t rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31, f7 = w >> 25;
        int32_t immi = sext(w >> 20, 12);
        int32_t imms = sext(((w >> 25) << 5) | ((w >> 7) & 31), 12);
        int32_t immb = sext(((w >> 31) << 12) | (((w >> 7) & 1) << 11) | (((w >> 25) & 63) << 5) |
                                (((w >> 8) & 15) << 1),
                            13);
        int32_t immj = sext(((w >> 31) << 20) | (((w >> 12) & 255) << 12) |
                                (((w >> 20) & 1) << 11) | (((w >> 21) & 1023) << 1),
                            21);
        uint32_t pcaddr = VDPU_IRAM_BASE + 4u * i;
        int op = OP_ILLEGAL;
        I.rs1 = (uint8_t)rs1;
        I.rs2 = (uint8_t)rs2;
        switch (opc) {
        case 0x37:
            op = OP_LI;
            I.imm = (int32_t)(w & 0xfffff000u);
            break; /* lui */
        case 0x17:
            op = OP_LI;
            I.imm = (int32_t)(pcaddr + (w & 0xfffff000u));
            break;   /* auipc */
        case 0x6f: { /* jal */
            int64_t tgt = (int64_t)i + immj / 4;
            op = (tgt >= 0 && tgt < (int64_t)n && (immj & 3) == 0) ? OP_JAL : OP_BADJUMP;
            I.imm = (int32_t)tgt;
            break;
        }
        case 0x67:
            if (f3 == 0) {
                op = OP_JALR;
                I.imm = immi;
            }
            break;
        case 0x63: {
            static const int bops[8] = {OP_BEQ, OP_BNE, OP_ILLEGAL, OP_ILLEGAL,
                                        OP_BLT, OP_BGE, OP_BLTU,    OP_BGEU};
            int64_t tgt = (int64_t)i + immb / 4;
            op = bops[f3];
            if (op != OP_ILLEGAL) {
                if (!(tgt >= 0 && tgt < (int64_t)n && (immb & 3) == 0)) {
                    op = OP_BADJUMP;
                    tgt = immb;
                }
                I.imm = (int32_t)tgt;
            }
            rd = 0;
            break;
        }
        case 0x03: {
            static const int lops[8] = {OP_LB,  OP_LH,  OP_LW,      OP_ILLEGAL,
                                        OP_LBU, OP_LHU, OP_ILLEGAL, OP_ILLEGAL};
            op = lops[f3];
            I.imm = immi;
            if (op != OP_ILLEGAL && rd == 2)
                op = OP_ILLEGAL; /* load into sp: unsupported */
            break;
        }
        case 0x23: {
            static const int sops[8] = {OP_SB,      OP_SH,      OP_SW,      OP_ILLEGAL,
                                        OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL};
            op = sops[f3];
            I.imm = imms;
            rd = 0;
            break;
        }
        case 0x13: {
            uint32_t sh = rs2, top = w >> 20;
            I.imm = immi;
            switch (f3) {
            case 0:
                op = OP_ADDI;
                break;
            case 2:
                op = OP_SLTI;
                break;
            case 3:
                op = OP_SLTIU;
                break;
            case 4:
                op = OP_XORI;
                break;
            case 6:
                op = OP_ORI;
                break;
            case 7:
                op = OP_ANDI;
                break;
            case 1:
                if (f7 == 0) {
                    op = OP_SLLI;
                    I.imm = (int32_t)sh;
                } else if (top == 0x600)
                    op = OP_CLZ;
                else if (top == 0x601)
                    op = OP_CTZ;
                else if (top == 0x602)
                    op = OP_CPOP;
                else if (top == 0x604)
                    op = OP_SEXTB;
                else if (top == 0x605)
                    op = OP_SEXTH;
                break;
            case 5:
                if (f7 == 0) {
                    op = OP_SRLI;
                    I.imm = (int32_t)sh;
                } else if (f7 == 0x20) {
                    op = OP_SRAI;
                    I.imm = (int32_t)sh;
                } else if (f7 == 0x30) {
                    op = OP_RORI;
                    I.imm = (int32_t)sh;
                } else if (top == 0x287)
                    op = OP_ORCB;
                else if (top == 0x698)
                    op = OP_REV8;
                break;
            }
            break;
        }
        case 0x33:
            I.imm = 0;
            if (f7 == 0) {
                static const int r0[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU,
                                          OP_XOR, OP_SRL, OP_OR,  OP_AND};
                op = r0[f3];
            } else if (f7 == 0x20) {
                static const int r1[8] = {OP_SUB,  OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL,
                                          OP_XNOR, OP_SRA,     OP_ORN,     OP_ANDN};
                op = r1[f3];
            } else if (f7 == 1) {
                static const int rm[8] = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU,
                                          OP_DIV, OP_DIVU, OP_REM,    OP_REMU};
                op = rm[f3];
            } else if (f7 == 0x10) {
                if (f3 == 2)
                    op = OP_SH1ADD;
                else if (f3 == 4)
                    op = OP_SH2ADD;
                else if (f3 == 6)
                    op = OP_SH3ADD;
            } else if (f7 == 0x05) {
                if (f3 == 4)
                    op = OP_MIN;
                else if (f3 == 5)
                    op = OP_MINU;
                else if (f3 == 6)
                    op = OP_MAX;
                else if (f3 == 7)
                    op = OP_MAXU;
            } else if (f7 == 0x30) {
                if (f3 == 1)
                    op = OP_ROL;
                else if (f3 == 5)
                    op = OP_ROR;
            } else if (f7 == 0x04 && f3 == 4 && rs2 == 0) {
                op = OP_ZEXTH;
            }
            break;
        case 0x0f:
            op = OP_NOP;
            rd = 0;
            break; /* fence */
        case 0x73:
            if (w == 0x00000073u) {
                op = OP_ECALL;
                rd = 0;
            } else if (w == 0x00100073u) {
                op = OP_EBREAK;
                rd = 0;
            } else if (f3 == 2 && rs1 == 0 && (w >> 20) == 0xf14)
                op = OP_HARTID; /* csrr rd, mhartid */
            break;
        case 0x0b:
        case 0x2b:
        case 0x5b:
            op = decode_custom(w, i, n, &I, &rd);
            break;
        default:
            break;
        }
        if (op == OP_ILLEGAL) {
            I.imm = (int32_t)w;
            rd = 0;
        }
        /* writes to sp are checked against the tasklet's stack region */
        if (rd == 2) {
            if (op == OP_ADDI)
                op = OP_ADDI_SP;
            else if (is_imm_alu(op) || op == OP_LI) {
                I.rs2 = (uint8_t)op;
                op = OP_SPCHK_I;
            } else if (is_reg_alu(op)) {
                I.imm = op;
                op = OP_SPCHK_R;
            }
            /* JAL/JALR/HARTID into sp: leave as is (never emitted by clang) */
        }
        I.op = (uint8_t)op;
        I.rd = (uint8_t)(rd == 0 ? 32 : rd);
        I.cost = 1;
        out[i] = I;
    }
    /* sentinel: falling off the end of .text */
    out[n] = (vinsn_t){OP_BADJUMP, 32, 0, 0, (int32_t)n, 1, 1};
    vdpu_runs(out, n);
    return 0;
}

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
        code[i].run = (uint16_t)(code[i].cost + (ends_run(&code[i]) ? 0 : code[i + 1].run));
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
    return op == OP_LI || is_imm_alu(op) || (is_reg_alu(op) && op < OP_MUL) ||
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

void vdpu_fuse(vinsn_t *c, uint32_t n, const uint8_t *target)
{
    enum { WIN = 4 }; /* how far apart a pair may be */
    for (uint32_t i = 0; i < n; i++) {
        vinsn_t *A = &c[i];
        if (A->cost == 0 || ends_run(A))
            continue;
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
                        if (k > j && (writes(H, C) || ends_run(H)))
                            break;
                    }
                    break;
                }
                if (ends_run(S) || writes(S, L) || writes(S, A->rs1) || writes(S, A->rs2))
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
                        if (writes(H, C) || ends_run(H))
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
                if (ends_run(S) || writes(S, A->rs1) || writes(S, A->rs2) || writes(S, A->rd))
                    break;
            }
        }
        /* (4) two word loads/stores at 8k and 8k+4 from the same base: one
         * 8-byte ld/sd */
        if ((A->op == OP_LW || A->op == OP_SW) && A->cost && (A->imm & 3) == 0) {
            int32_t want = (A->imm & 4) ? A->imm - 4 : A->imm + 4;
            if (A->op == OP_LW && A->rd == A->rs1)
                continue;
            for (uint32_t j = i + 1; j < n && j <= i + WIN && !target[j]; j++) {
                vinsn_t *B = &c[j];
                if (B->op == A->op && B->cost && B->rs1 == A->rs1 && B->imm == want &&
                    (A->op == OP_SW || B->rd != A->rd)) {
                    B->cost = 0;
                    break;
                }
                if (ends_run(B) || is_mem(B->op) || writes(B, A->rs1))
                    break;
            }
        }
    }
    vdpu_runs(c, n);
}
