/* x64.c -- the x86-64 encoder of the translator (contract in x64.h). The
 * encodings are the Intel SDM's (vol. 2, "Instruction Format"): optional
 * legacy prefix, REX (W, R = ModRM.reg bit 3, X = SIB.index bit 3, B =
 * ModRM.rm / SIB.base bit 3), opcode, ModRM, SIB, displacement, immediate. */
#include "x64.h"

#include <string.h>

void vdpu_x64_put(vdpu_x64_t *x, const uint8_t *b, size_t n)
{
    if (x->overflow || n > x->cap - x->pos) {
        x->overflow = 1;
        return;
    }
    memcpy(x->buf + x->pos, b, n);
    x->pos += n;
}

void vdpu_x64_u8(vdpu_x64_t *x, uint8_t b)
{
    vdpu_x64_put(x, &b, 1);
}

void vdpu_x64_u32(vdpu_x64_t *x, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    vdpu_x64_put(x, b, 4);
}

void vdpu_x64_patch32(vdpu_x64_t *x, size_t at, uint32_t v)
{
    if (x->overflow || at > x->pos || x->pos - at < 4)
        return;
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    memcpy(x->buf + at, b, 4);
}

static void prefix(vdpu_x64_t *x, uint8_t pfx, int rexw, int reg, int index, int base)
{
    if (pfx)
        vdpu_x64_u8(x, pfx);
    uint8_t rex = (uint8_t)(0x40 | (rexw ? 8 : 0) | ((reg & 8) ? 4 : 0) |
                            (index >= 0 && (index & 8) ? 2 : 0) | ((base & 8) ? 1 : 0));
    if (rex != 0x40)
        vdpu_x64_u8(x, rex);
}

void vdpu_x64_op_mem(vdpu_x64_t *x, uint8_t pfx, int rexw, const uint8_t *opc, size_t nopc, int reg,
                     int base, int index, int scale, int32_t disp)
{
    prefix(x, pfx, rexw, reg, index, base);
    vdpu_x64_put(x, opc, nopc);
    /* mod 0: no displacement, 2: disp32 (disp8 forms are not needed) */
    int mod = disp ? 2 : 0;
    int sib = index >= 0 || (base & 7) == X_SP;
    vdpu_x64_u8(x, (uint8_t)((mod << 6) | ((reg & 7) << 3) | (sib ? 4 : (base & 7))));
    if (sib)
        vdpu_x64_u8(x, (uint8_t)((scale << 6) | ((index >= 0 ? index & 7 : 4) << 3) | (base & 7)));
    if (mod == 2)
        vdpu_x64_u32(x, (uint32_t)disp);
}

void vdpu_x64_op_reg(vdpu_x64_t *x, uint8_t pfx, int rexw, const uint8_t *opc, size_t nopc, int reg,
                     int rm)
{
    prefix(x, pfx, rexw, reg, -1, rm);
    vdpu_x64_put(x, opc, nopc);
    vdpu_x64_u8(x, (uint8_t)(0xc0 | ((reg & 7) << 3) | (rm & 7)));
}

void vdpu_x64_load(vdpu_x64_t *x, int reg, int base, int32_t disp)
{
    static const uint8_t o[] = {0x8b};
    vdpu_x64_op_mem(x, 0, 0, o, 1, reg, base, -1, 0, disp);
}

void vdpu_x64_store(vdpu_x64_t *x, int base, int32_t disp, int reg)
{
    static const uint8_t o[] = {0x89};
    vdpu_x64_op_mem(x, 0, 0, o, 1, reg, base, -1, 0, disp);
}

void vdpu_x64_load64(vdpu_x64_t *x, int reg, int base, int32_t disp)
{
    static const uint8_t o[] = {0x8b};
    vdpu_x64_op_mem(x, 0, 1, o, 1, reg, base, -1, 0, disp);
}

void vdpu_x64_store64(vdpu_x64_t *x, int base, int32_t disp, int reg)
{
    static const uint8_t o[] = {0x89};
    vdpu_x64_op_mem(x, 0, 1, o, 1, reg, base, -1, 0, disp);
}

void vdpu_x64_store_imm(vdpu_x64_t *x, int base, int32_t disp, uint32_t imm)
{
    static const uint8_t o[] = {0xc7};
    vdpu_x64_op_mem(x, 0, 0, o, 1, 0, base, -1, 0, disp);
    vdpu_x64_u32(x, imm);
}

void vdpu_x64_mov_imm(vdpu_x64_t *x, int reg, uint32_t imm)
{
    prefix(x, 0, 0, 0, -1, reg);
    vdpu_x64_u8(x, (uint8_t)(0xb8 + (reg & 7)));
    vdpu_x64_u32(x, imm);
}

void vdpu_x64_load_ext(vdpu_x64_t *x, int reg, int base, int32_t disp, int size, int sign)
{
    uint8_t o[2] = {0x0f, (uint8_t)(0xb6 + (sign ? 8 : 0) + (size == 2 ? 1 : 0))};
    vdpu_x64_op_mem(x, 0, 0, o, 2, reg, base, -1, 0, disp);
}

void vdpu_x64_alu_imm(vdpu_x64_t *x, int op, int reg, uint32_t imm)
{
    static const uint8_t o[] = {0x81};
    vdpu_x64_op_reg(x, 0, 0, o, 1, op, reg);
    vdpu_x64_u32(x, imm);
}

void vdpu_x64_alu_rr(vdpu_x64_t *x, int op, int dst, int src)
{
    uint8_t o[] = {(uint8_t)(8 * op + 1)};
    vdpu_x64_op_reg(x, 0, 0, o, 1, src, dst);
}

void vdpu_x64_alu_rr64(vdpu_x64_t *x, int op, int dst, int src)
{
    uint8_t o[] = {(uint8_t)(8 * op + 1)};
    vdpu_x64_op_reg(x, 0, 1, o, 1, src, dst);
}

void vdpu_x64_alu_rm(vdpu_x64_t *x, int op, int reg, int base, int32_t disp)
{
    uint8_t o[] = {(uint8_t)(8 * op + 3)};
    vdpu_x64_op_mem(x, 0, 0, o, 1, reg, base, -1, 0, disp);
}

void vdpu_x64_shift_imm(vdpu_x64_t *x, int op, int reg, uint8_t n)
{
    static const uint8_t o[] = {0xc1};
    vdpu_x64_op_reg(x, 0, 0, o, 1, op, reg);
    vdpu_x64_u8(x, n);
}

void vdpu_x64_shift_imm64(vdpu_x64_t *x, int op, int reg, uint8_t n)
{
    static const uint8_t o[] = {0xc1};
    vdpu_x64_op_reg(x, 0, 1, o, 1, op, reg);
    vdpu_x64_u8(x, n);
}

void vdpu_x64_shift_cl(vdpu_x64_t *x, int op, int reg)
{
    static const uint8_t o[] = {0xd3};
    vdpu_x64_op_reg(x, 0, 0, o, 1, op, reg);
}

void vdpu_x64_0f_rr(vdpu_x64_t *x, uint8_t op2, int dst, int src)
{
    uint8_t o[2] = {0x0f, op2};
    vdpu_x64_op_reg(x, 0, 0, o, 2, dst, src);
}

void vdpu_x64_popcnt(vdpu_x64_t *x, int dst, int src)
{
    static const uint8_t o[2] = {0x0f, 0xb8};
    vdpu_x64_op_reg(x, 0xf3, 0, o, 2, dst, src);
}

void vdpu_x64_setcc_zx(vdpu_x64_t *x, int cc, int reg)
{
    /* only al/cl/dl/bl: their byte forms need no REX */
    uint8_t s[2] = {0x0f, (uint8_t)(0x90 | cc)};
    vdpu_x64_op_reg(x, 0, 0, s, 2, 0, reg & 3);
    static const uint8_t z[2] = {0x0f, 0xb6};
    vdpu_x64_op_reg(x, 0, 0, z, 2, reg & 3, reg & 3);
}

void vdpu_x64_not(vdpu_x64_t *x, int reg)
{
    static const uint8_t o[] = {0xf7};
    vdpu_x64_op_reg(x, 0, 0, o, 1, 2, reg);
}

void vdpu_x64_neg(vdpu_x64_t *x, int reg)
{
    static const uint8_t o[] = {0xf7};
    vdpu_x64_op_reg(x, 0, 0, o, 1, 3, reg);
}

void vdpu_x64_bswap(vdpu_x64_t *x, int reg)
{
    prefix(x, 0, 0, 0, -1, reg);
    uint8_t o[2] = {0x0f, (uint8_t)(0xc8 + (reg & 7))};
    vdpu_x64_put(x, o, 2);
}

void vdpu_x64_test_imm(vdpu_x64_t *x, int reg, uint32_t imm)
{
    static const uint8_t o[] = {0xf7};
    vdpu_x64_op_reg(x, 0, 0, o, 1, 0, reg);
    vdpu_x64_u32(x, imm);
}

void vdpu_x64_lea_sib(vdpu_x64_t *x, int dst, int base, int index, int scale)
{
    static const uint8_t o[] = {0x8d};
    vdpu_x64_op_mem(x, 0, 0, o, 1, dst, base, index, scale, 0);
}

size_t vdpu_x64_jcc(vdpu_x64_t *x, int cc)
{
    uint8_t o[2] = {0x0f, (uint8_t)(0x80 | cc)};
    vdpu_x64_put(x, o, 2);
    size_t at = x->pos;
    vdpu_x64_u32(x, 0);
    return at;
}

size_t vdpu_x64_jmp(vdpu_x64_t *x)
{
    vdpu_x64_u8(x, 0xe9);
    size_t at = x->pos;
    vdpu_x64_u32(x, 0);
    return at;
}

void vdpu_x64_jcc_short(vdpu_x64_t *x, int cc, int8_t rel)
{
    uint8_t o[2] = {(uint8_t)(0x70 | cc), (uint8_t)rel};
    vdpu_x64_put(x, o, 2);
}

void vdpu_x64_jmp_short(vdpu_x64_t *x, int8_t rel)
{
    uint8_t o[2] = {0xeb, (uint8_t)rel};
    vdpu_x64_put(x, o, 2);
}

void vdpu_x64_jmp_reg(vdpu_x64_t *x, int reg)
{
    static const uint8_t o[] = {0xff};
    vdpu_x64_op_reg(x, 0, 0, o, 1, 4, reg);
}
