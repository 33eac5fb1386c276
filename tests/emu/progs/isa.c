#include <defs.h>

#include "isa_ops.h"
__host uint32_t in[ISA_NIN];
__host uint32_t out[ISA_NOUT];
__host uint32_t nout;
/* explicit encodings (results checked against host references) */
__host uint32_t asm_out[32];

int main(void)
{
    nout = isa_ops(in, out);
    uint32_t a = in[0], b = in[1], r, k = 0;
#define R2(insn)                                                                                   \
    __asm__ volatile(insn " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));                               \
    asm_out[k++] = r
#define R1(insn)                                                                                   \
    __asm__ volatile(insn " %0, %1" : "=r"(r) : "r"(a));                                           \
    asm_out[k++] = r
    R2("andn");
    R2("orn");
    R2("xnor");
    R2("min");
    R2("max");
    R2("minu");
    R2("maxu");
    R2("rol");
    R2("ror");
    R2("sh1add");
    R2("sh2add");
    R2("sh3add");
    R1("clz");
    R1("ctz");
    R1("cpop");
    R1("sext.b");
    R1("sext.h");
    R1("zext.h");
    R1("orc.b");
    R1("rev8");
    __asm__ volatile("rori %0, %1, 7" : "=r"(r) : "r"(a));
    asm_out[k++] = r;
    /* INT_MIN / -1 and INT_MIN % -1 (RISC-V: quotient INT_MIN, remainder 0) */
    uint32_t mn = 0x80000000u, m1 = in[2]; /* host puts 0xffffffff in in[2] */
    __asm__ volatile(".insn r 0x33, 4, 1, %0, %1, %2" /* div (M) */ : "=r"(r) : "r"(mn), "r"(m1));
    asm_out[k++] = r;
    __asm__ volatile(".insn r 0x33, 6, 1, %0, %1, %2" /* rem (M) */ : "=r"(r) : "r"(mn), "r"(m1));
    asm_out[k++] = r;
    __asm__ volatile(".insn r 0x33, 1, 1, %0, %1, %2" /* mulh (M) */ : "=r"(r) : "r"(mn), "r"(m1));
    asm_out[k++] = r;
    __asm__ volatile(".insn r 0x33, 2, 1, %0, %1, %2" /* mulhsu (M) */
                     : "=r"(r)
                     : "r"(m1), "r"(m1));
    asm_out[k++] = r;
    __asm__ volatile(".insn r 0x33, 3, 1, %0, %1, %2" /* mulhu (M) */ : "=r"(r) : "r"(m1), "r"(m1));
    asm_out[k++] = r;
    return 0;
}
