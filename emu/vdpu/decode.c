/* decode.c -- RV32IM + Zba + Zbb predecoder (4-byte instructions only). */
#include "vdpu_internal.h"

static int32_t sext(uint32_t v, int bits)
{
    uint32_t m = 1u << (bits - 1);
    return (int32_t)((v ^ m) - m);
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
            else if (vdpu_is_imm_alu(op) || op == OP_LI) {
                I.rs2 = (uint8_t)op;
                op = OP_SPCHK_I;
            } else if (vdpu_is_reg_alu(op)) {
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
