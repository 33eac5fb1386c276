/* x64.c -- the x86-64 encoder of the translator (contract in x64.h). The
 * encodings are the Intel SDM's (vol. 2, "Instruction Format"): optional
 * legacy prefix, REX (W, R = ModRM.reg bit 3, X = SIB.index bit 3, B =
 * ModRM.rm / SIB.base bit 3), opcode, ModRM, SIB, displacement, immediate. */
#include "x64.h"

#include <string.h>

void x64_put(x64_t *x, const uint8_t *b, size_t n)
{
    if (x->overflow || n > x->cap - x->pos) {
        x->overflow = 1;
        return;
    }
    memcpy(x->buf + x->pos, b, n);
    x->pos += n;
}

void x64_u8(x64_t *x, uint8_t b)
{
    x64_put(x, &b, 1);
}

void x64_u32(x64_t *x, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    x64_put(x, b, 4);
}

void x64_patch32(x64_t *x, size_t at, uint32_t v)
{
    if (x->overflow || at > x->pos || x->pos - at < 4)
        return;
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    memcpy(x->buf + at, b, 4);
}

static void prefix(x64_t *x, uint8_t pfx, int rexw, int reg, int index, int base)
{
    if (pfx)
        x64_u8(x, pfx);
    uint8_t rex = (uint8_t)(0x40 | (rexw ? 8 : 0) | ((reg & 8) ? 4 : 0) |
                            (index >= 0 && (index & 8) ? 2 : 0) | ((base & 8) ? 1 : 0));
    if (rex != 0x40)
        x64_u8(x, rex);
}

void x64_op_mem(x64_t *x, uint8_t pfx, int rexw, const uint8_t *opc, size_t nopc, int reg, int base,
                int index, int scale, int32_t disp)
{
    prefix(x, pfx, rexw, reg, index, base);
    x64_put(x, opc, nopc);
    /* mod 0: no displacement, 2: disp32 (disp8 forms are not needed) */
    int mod = disp ? 2 : 0;
    int sib = index >= 0 || (base & 7) == X_SP;
    x64_u8(x, (uint8_t)((mod << 6) | ((reg & 7) << 3) | (sib ? 4 : (base & 7))));
    if (sib)
        x64_u8(x, (uint8_t)((scale << 6) | ((index >= 0 ? index & 7 : 4) << 3) | (base & 7)));
    if (mod == 2)
        x64_u32(x, (uint32_t)disp);
}

void x64_op_reg(x64_t *x, uint8_t pfx, int rexw, const uint8_t *opc, size_t nopc, int reg, int rm)
{
    prefix(x, pfx, rexw, reg, -1, rm);
    x64_put(x, opc, nopc);
    x64_u8(x, (uint8_t)(0xc0 | ((reg & 7) << 3) | (rm & 7)));
}

void x64_load(x64_t *x, int reg, int base, int32_t disp)
{
    static const uint8_t o[] = {0x8b};
    x64_op_mem(x, 0, 0, o, 1, reg, base, -1, 0, disp);
}

void x64_store(x64_t *x, int base, int32_t disp, int reg)
{
    static const uint8_t o[] = {0x89};
    x64_op_mem(x, 0, 0, o, 1, reg, base, -1, 0, disp);
}

void x64_load64(x64_t *x, int reg, int base, int32_t disp)
{
    static const uint8_t o[] = {0x8b};
    x64_op_mem(x, 0, 1, o, 1, reg, base, -1, 0, disp);
}

void x64_store64(x64_t *x, int base, int32_t disp, int reg)
{
    static const uint8_t o[] = {0x89};
    x64_op_mem(x, 0, 1, o, 1, reg, base, -1, 0, disp);
}

void x64_store_imm(x64_t *x, int base, int32_t disp, uint32_t imm)
{
    static const uint8_t o[] = {0xc7};
    x64_op_mem(x, 0, 0, o, 1, 0, base, -1, 0, disp);
    x64_u32(x, imm);
}

void x64_mov_imm(x64_t *x, int reg, uint32_t imm)
{
    prefix(x, 0, 0, 0, -1, reg);
    x64_u8(x, (uint8_t)(0xb8 + (reg & 7)));
    x64_u32(x, imm);
}

void x64_load_ext(x64_t *x, int reg, int base, int32_t disp, int size, int sign)
{
    uint8_t o[2] = {0x0f, (uint8_t)(0xb6 + (sign ? 8 : 0) + (size == 2 ? 1 : 0))};
    x64_op_mem(x, 0, 0, o, 2, reg, base, -1, 0, disp);
}

void x64_alu_imm(x64_t *x, int op, int reg, uint32_t imm)
{
    static const uint8_t o[] = {0x81};
    x64_op_reg(x, 0, 0, o, 1, op, reg);
    x64_u32(x, imm);
}

void x64_alu_rr(x64_t *x, int op, int dst, int src)
{
    uint8_t o[] = {(uint8_t)(8 * op + 1)};
    x64_op_reg(x, 0, 0, o, 1, src, dst);
}

void x64_alu_rr64(x64_t *x, int op, int dst, int src)
{
    uint8_t o[] = {(uint8_t)(8 * op + 1)};
    x64_op_reg(x, 0, 1, o, 1, src, dst);
}

void x64_alu_rm(x64_t *x, int op, int reg, int base, int32_t disp)
{
    uint8_t o[] = {(uint8_t)(8 * op + 3)};
    x64_op_mem(x, 0, 0, o, 1, reg, base, -1, 0, disp);
}

void x64_shift_imm(x64_t *x, int op, int reg, uint8_t n)
{
    static const uint8_t o[] = {0xc1};
    x64_op_reg(x, 0, 0, o, 1, op, reg);
    x64_u8(x, n);
}

void x64_shift_imm64(x64_t *x, int op, int reg, uint8_t n)
{
    static const uint8_t o[] = {0xc1};
    x64_op_reg(x, 0, 1, o, 1, op, reg);
    x64_u8(x, n);
}

void x64_shift_cl(x64_t *x, int op, int reg)
{
    static const uint8_t o[] = {0xd3};
    x64_op_reg(x, 0, 0, o, 1, op, reg);
}

void x64_0f_rr(x64_t *x, uint8_t op2, int dst, int src)
{
    uint8_t o[2] = {0x0f, op2};
    x64_op_reg(x, 0, 0, o, 2, dst, src);
}

void x64_popcnt(x64_t *x, int dst, int src)
{
    static const uint8_t o[2] = {0x0f, 0xb8};
    x64_op_reg(x, 0xf3, 0, o, 2, dst, src);
}

void x64_setcc_zx(x64_t *x, int cc, int reg)
{
    /* only al/cl/dl/bl: their byte forms need no REX */
    uint8_t s[2] = {0x0f, (uint8_t)(0x90 | cc)};
    x64_op_reg(x, 0, 0, s, 2, 0, reg & 3);
    static const uint8_t z[2] = {0x0f, 0xb6};
    x64_op_reg(x, 0, 0, z, 2, reg & 3, reg & 3);
}

void x64_not(x64_t *x, int reg)
{
    static const uint8_t o[] = {0xf7};
    x64_op_reg(x, 0, 0, o, 1, 2, reg);
}

void x64_neg(x64_t *x, int reg)
{
    static const uint8_t o[] = {0xf7};
    x64_op_reg(x, 0, 0, o, 1, 3, reg);
}

void x64_bswap(x64_t *x, int reg)
{
    prefix(x, 0, 0, 0, -1, reg);
    uint8_t o[2] = {0x0f, (uint8_t)(0xc8 + (reg & 7))};
    x64_put(x, o, 2);
}

void x64_test_imm(x64_t *x, int reg, uint32_t imm)
{
    static const uint8_t o[] = {0xf7};
    x64_op_reg(x, 0, 0, o, 1, 0, reg);
    x64_u32(x, imm);
}

void x64_lea_sib(x64_t *x, int dst, int base, int index, int scale)
{
    static const uint8_t o[] = {0x8d};
    x64_op_mem(x, 0, 0, o, 1, dst, base, index, scale, 0);
}

size_t x64_jcc(x64_t *x, int cc)
{
    uint8_t o[2] = {0x0f, (uint8_t)(0x80 | cc)};
    x64_put(x, o, 2);
    size_t at = x->pos;
    x64_u32(x, 0);
    return at;
}

size_t x64_jmp(x64_t *x)
{
    x64_u8(x, 0xe9);
    size_t at = x->pos;
    x64_u32(x, 0);
    return at;
}

void x64_jcc_short(x64_t *x, int cc, int8_t rel)
{
    uint8_t o[2] = {(uint8_t)(0x70 | cc), (uint8_t)rel};
    x64_put(x, o, 2);
}

void x64_jmp_short(x64_t *x, int8_t rel)
{
    uint8_t o[2] = {0xeb, (uint8_t)rel};
    x64_put(x, o, 2);
}

void x64_jmp_reg(x64_t *x, int reg)
{
    static const uint8_t o[] = {0xff};
    x64_op_reg(x, 0, 0, o, 1, 4, reg);
}
