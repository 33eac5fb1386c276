/* x64.h -- a small x86-64 machine-code encoder for the virtual DPU's
 * translator (jit.c): only the instruction forms the translator emits.
 *
 * Bounds: every emit goes through vdpu_x64_put, which writes nothing once the
 * buffer's capacity would be passed and marks the buffer as overflowed
 * instead; the translator checks `overflow` before the code is made
 * executable and throws the translation away if it is set. So no input
 * (however hostile the DPU program) makes the encoder write outside `buf`. */
#ifndef VDPU_X64_H
#define VDPU_X64_H

#include <stddef.h>
#include <stdint.h>

/* host registers by their x86-64 numbers */
enum {
    X_AX = 0,
    X_CX,
    X_DX,
    X_BX,
    X_SP,
    X_BP,
    X_SI,
    X_DI,
    X_R8,
    X_R9,
    X_R10,
    X_R11,
    X_R12,
    X_R13,
    X_R14,
    X_R15
};

/* condition codes (the low nibble of jcc / setcc / cmovcc) */
enum {
    CC_B = 0x2,
    CC_AE = 0x3,
    CC_E = 0x4,
    CC_NE = 0x5,
    CC_BE = 0x6,
    CC_A = 0x7,
    CC_L = 0xc,
    CC_GE = 0xd,
    CC_LE = 0xe,
    CC_G = 0xf
};

/* the ALU group (the /digit of 81, and opcode = 8 * digit + 1 for r/m,r or +3
 * for r,r/m) */
enum {
    ALU_ADD = 0,
    ALU_OR = 1,
    ALU_ADC = 2,
    ALU_SBB = 3,
    ALU_AND = 4,
    ALU_SUB = 5,
    ALU_XOR = 6,
    ALU_CMP = 7
};
/* the shift group (the /digit of C1 and D3) */
enum { SH_ROL = 0, SH_ROR = 1, SH_SHL = 4, SH_SHR = 5, SH_SAR = 7 };

typedef struct {
    uint8_t *buf;
    size_t cap, pos;
    int overflow; /* set once an emit did not fit: nothing written since */
} vdpu_x64_t;

/* raw bytes */
void vdpu_x64_put(vdpu_x64_t *x, const uint8_t *b, size_t n);
void vdpu_x64_u8(vdpu_x64_t *x, uint8_t b);
void vdpu_x64_u32(vdpu_x64_t *x, uint32_t v);
/* write a 32-bit value at an earlier position (a jump's displacement);
 * ignored outside what was emitted */
void vdpu_x64_patch32(vdpu_x64_t *x, size_t at, uint32_t v);

/* The general form: [pfx] [REX] opc[0..nopc) ModRM [SIB] [disp] with the
 * memory operand [base + index * (1 << scale) + disp] (index -1: none; base
 * any register but rsp, rbp and r13) and `reg` in ModRM.reg (a register or a
 * /digit); pfx 0x66 (16-bit operand) or 0xF3, else 0; rexw for 64-bit. */
void vdpu_x64_op_mem(vdpu_x64_t *x, uint8_t pfx, int rexw, const uint8_t *opc, size_t nopc, int reg,
                     int base, int index, int scale, int32_t disp);
/* the same with a register operand (ModRM.mod = 3): opc reg, rm */
void vdpu_x64_op_reg(vdpu_x64_t *x, uint8_t pfx, int rexw, const uint8_t *opc, size_t nopc, int reg,
                     int rm);

/* 32-bit register <- [base + disp] and back */
void vdpu_x64_load(vdpu_x64_t *x, int reg, int base, int32_t disp);
void vdpu_x64_store(vdpu_x64_t *x, int base, int32_t disp, int reg);
/* the same, 64-bit */
void vdpu_x64_load64(vdpu_x64_t *x, int reg, int base, int32_t disp);
void vdpu_x64_store64(vdpu_x64_t *x, int base, int32_t disp, int reg);
/* dword [base + disp] <- imm */
void vdpu_x64_store_imm(vdpu_x64_t *x, int base, int32_t disp, uint32_t imm);
/* reg <- imm (32-bit, zero-extended) */
void vdpu_x64_mov_imm(vdpu_x64_t *x, int reg, uint32_t imm);
/* reg <- zero- or sign-extended byte/word at [base + disp] (size 1 or 2) */
void vdpu_x64_load_ext(vdpu_x64_t *x, int reg, int base, int32_t disp, int size, int sign);
/* op reg, imm32 / op dst, src / op reg, [base + disp] (32-bit; ALU_*) */
void vdpu_x64_alu_imm(vdpu_x64_t *x, int op, int reg, uint32_t imm);
void vdpu_x64_alu_rr(vdpu_x64_t *x, int op, int dst, int src);
void vdpu_x64_alu_rm(vdpu_x64_t *x, int op, int reg, int base, int32_t disp);
/* 64-bit op dst, src */
void vdpu_x64_alu_rr64(vdpu_x64_t *x, int op, int dst, int src);
/* shift reg by imm / by cl (32-bit; SH_*); 64-bit by imm */
void vdpu_x64_shift_imm(vdpu_x64_t *x, int op, int reg, uint8_t n);
void vdpu_x64_shift_cl(vdpu_x64_t *x, int op, int reg);
void vdpu_x64_shift_imm64(vdpu_x64_t *x, int op, int reg, uint8_t n);
/* 0F-prefixed two-operand forms: dst, src (32-bit): bsf BC, bsr BD,
 * imul AF, cmovcc 40+cc, popcnt (F3) B8 */
void vdpu_x64_0f_rr(vdpu_x64_t *x, uint8_t op2, int dst, int src);
void vdpu_x64_popcnt(vdpu_x64_t *x, int dst, int src);
/* setcc on the low byte of eax/ecx/edx/ebx, then zero-extend it to 32 bits */
void vdpu_x64_setcc_zx(vdpu_x64_t *x, int cc, int reg);
void vdpu_x64_not(vdpu_x64_t *x, int reg);
void vdpu_x64_neg(vdpu_x64_t *x, int reg);
void vdpu_x64_bswap(vdpu_x64_t *x, int reg);
/* test reg, imm32 */
void vdpu_x64_test_imm(vdpu_x64_t *x, int reg, uint32_t imm);
/* lea dst, [base + index * (1 << scale)] (32-bit result) */
void vdpu_x64_lea_sib(vdpu_x64_t *x, int dst, int base, int index, int scale);
/* jumps: the position of the rel32 to patch is returned (rel32 = target -
 * (pos + 4)); jcc_short / jmp_short take a known rel8 */
size_t vdpu_x64_jcc(vdpu_x64_t *x, int cc);
size_t vdpu_x64_jmp(vdpu_x64_t *x);
void vdpu_x64_jcc_short(vdpu_x64_t *x, int cc, int8_t rel);
void vdpu_x64_jmp_short(vdpu_x64_t *x, int8_t rel);
void vdpu_x64_jmp_reg(vdpu_x64_t *x, int reg);

#endif
