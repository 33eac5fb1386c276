/* built_ins.h -- the DPU's own instructions as the SDK's built-ins (virtual UPMEM).
 *
 * The SDK names an instruction built-in __builtin_<instruction>_<operand kinds>
 * (r = register, i = immediate, d = register pair), destination first, e.g.
 * __builtin_mul_sl_sl_rrr(dc, ra, rb). The virtual DPU encodes each of them
 * in RV32's custom opcode space as ONE instruction of one issue slot (decoded
 * by emu/vdpu/decode.c; encodings in docs/VIRTUAL_DPU.md, "The DPU's own
 * instructions"). Semantics follow the SDK's use of them (compiler-rt's
 * mulsi3/udiv32/muldi3 in upmem/llvm-project):
 *
 *   mul_<a>_<b>    8x8-bit product of one byte of ra and one of rb: ul/uh =
 *                  unsigned low (bits 7:0) / high (15:8) byte, sl/sh = signed
 *   lsl_add        dc = ra + (rb << shift)     lsl_sub  dc = ra - (rb << shift)
 *   lsr_add        dc = ra + (rb >> shift)     rol_add  dc = ra + rol(rb, shift)
 *   add / addc     dc = ra + rb (+ carry); both set the tasklet's carry flag
 *   sub / subc     dc = ra - rb (- borrow), carry = no borrow (subc = ra + ~rb + carry)
 *   ld / sd        8-byte WRAM load / store of a register pair (8-aligned)
 *   mul_step / div_step   one step of the SDK's multiply / divide (pairs, below)
 *
 * The carry flag is per tasklet and only these instructions read or write it:
 * compiled C code never does, so use __builtin_add_rrr then __builtin_addc_rrr
 * with nothing that could be a flag-setting built-in in between.
 */
#ifndef _DPU_BUILT_INS_H_
#define _DPU_BUILT_INS_H_

#include <stdint.h>

#define __builtin_nop_() __asm__ volatile("nop")

/* custom-0 (0x0b), R-type: funct3 = operation, funct7 = operand selector or shift */
#define __VDPU_RRR(f3, f7, dc, ra, rb)                                                             \
    __asm__(".insn r 0x0b, %3, %4, %0, %1, %2"                                                     \
            : "=r"(dc)                                                                             \
            : "r"((uint32_t)(ra)), "r"((uint32_t)(rb)), "i"(f3), "i"(f7))
/* the carry-flag ones are volatile: the flag is state the compiler cannot see */
#define __VDPU_RRRC(f7, dc, ra, rb)                                                                \
    __asm__ volatile(".insn r 0x0b, 5, %3, %0, %1, %2"                                             \
                     : "=r"(dc)                                                                    \
                     : "r"((uint32_t)(ra)), "r"((uint32_t)(rb)), "i"(f7))

/* byte selectors: 0 ul, 1 uh, 2 sl, 3 sh (ra's in funct7 bits 3:2, rb's in 1:0) */
#define __builtin_mul_ul_ul_rrr(dc, ra, rb) __VDPU_RRR(0, 0x0, dc, ra, rb)
#define __builtin_mul_ul_uh_rrr(dc, ra, rb) __VDPU_RRR(0, 0x1, dc, ra, rb)
#define __builtin_mul_ul_sl_rrr(dc, ra, rb) __VDPU_RRR(0, 0x2, dc, ra, rb)
#define __builtin_mul_ul_sh_rrr(dc, ra, rb) __VDPU_RRR(0, 0x3, dc, ra, rb)
#define __builtin_mul_uh_ul_rrr(dc, ra, rb) __VDPU_RRR(0, 0x4, dc, ra, rb)
#define __builtin_mul_uh_uh_rrr(dc, ra, rb) __VDPU_RRR(0, 0x5, dc, ra, rb)
#define __builtin_mul_uh_sl_rrr(dc, ra, rb) __VDPU_RRR(0, 0x6, dc, ra, rb)
#define __builtin_mul_uh_sh_rrr(dc, ra, rb) __VDPU_RRR(0, 0x7, dc, ra, rb)
#define __builtin_mul_sl_ul_rrr(dc, ra, rb) __VDPU_RRR(0, 0x8, dc, ra, rb)
#define __builtin_mul_sl_uh_rrr(dc, ra, rb) __VDPU_RRR(0, 0x9, dc, ra, rb)
#define __builtin_mul_sl_sl_rrr(dc, ra, rb) __VDPU_RRR(0, 0xa, dc, ra, rb)
#define __builtin_mul_sl_sh_rrr(dc, ra, rb) __VDPU_RRR(0, 0xb, dc, ra, rb)
#define __builtin_mul_sh_ul_rrr(dc, ra, rb) __VDPU_RRR(0, 0xc, dc, ra, rb)
#define __builtin_mul_sh_uh_rrr(dc, ra, rb) __VDPU_RRR(0, 0xd, dc, ra, rb)
#define __builtin_mul_sh_sl_rrr(dc, ra, rb) __VDPU_RRR(0, 0xe, dc, ra, rb)
#define __builtin_mul_sh_sh_rrr(dc, ra, rb) __VDPU_RRR(0, 0xf, dc, ra, rb)

/* shift: a constant 0..31 */
#define __builtin_lsl_add_rrri(dc, ra, rb, shift) __VDPU_RRR(1, shift, dc, ra, rb)
#define __builtin_lsl_sub_rrri(dc, ra, rb, shift) __VDPU_RRR(2, shift, dc, ra, rb)
#define __builtin_lsr_add_rrri(dc, ra, rb, shift) __VDPU_RRR(3, shift, dc, ra, rb)
#define __builtin_rol_add_rrri(dc, ra, rb, shift) __VDPU_RRR(4, shift, dc, ra, rb)

#define __builtin_add_rrr(dc, ra, rb)  __VDPU_RRRC(0, dc, ra, rb)
#define __builtin_addc_rrr(dc, ra, rb) __VDPU_RRRC(1, dc, ra, rb)
#define __builtin_sub_rrr(dc, ra, rb)  __VDPU_RRRC(2, dc, ra, rb)
#define __builtin_subc_rrr(dc, ra, rb) __VDPU_RRRC(3, dc, ra, rb)

/* Register pairs: the DPU's d registers are an even register and the next
 * one; here a uint64_t lvalue held in a4 (low word, the even register) and a5
 * (high word). ld/sd keep RV32's order (low word at the lower address). */
#define __VDPU_PAIR_IN(d)                                                                          \
    register uint32_t __vdpu_e __asm__("a4") = (uint32_t)(d);                                      \
    register uint32_t __vdpu_o __asm__("a5") = (uint32_t)((uint64_t)(d) >> 32)
#define __VDPU_PAIR_OUT(d) (d) = ((uint64_t)__vdpu_o << 32) | __vdpu_e

/* 8-byte load / store: off a constant -2048..2047, address 8-aligned */
#define __builtin_ld_dri(dc, ra, off)                                                              \
    do {                                                                                           \
        register uint32_t __vdpu_e __asm__("a4");                                                  \
        register uint32_t __vdpu_o __asm__("a5");                                                  \
        __asm__ volatile(".insn i 0x2b, 2, a4, %2, %3"                                             \
                         : "=r"(__vdpu_e), "=r"(__vdpu_o)                                          \
                         : "r"((uint32_t)(ra)), "i"(off)                                           \
                         : "memory");                                                              \
        __VDPU_PAIR_OUT(dc);                                                                       \
    } while (0)
#define __builtin_sd_rid(ra, off, db)                                                              \
    do {                                                                                           \
        __VDPU_PAIR_IN(db);                                                                        \
        __asm__ volatile(".insn s 0x2b, 3, a4, %3(%2)"                                             \
                         :                                                                         \
                         : "r"(__vdpu_e), "r"(__vdpu_o), "r"((uint32_t)(ra)), "i"(off)             \
                         : "memory");                                                              \
    } while (0)

/* mul_step / div_step on a pair d (a uint64_t lvalue), shift a constant 0..31:
 *   mul_step: low word = multiplier, high = accumulator:
 *             if (low & 1) high += ra << shift; low >>= 1
 *   div_step: low word = quotient bits, high = dividend/remainder:
 *             if (high >= ra << shift) { high -= ra << shift; low = low << 1 | 1 }
 *             else low <<= 1
 * (the DPU's form also jumps when the multiplier becomes 0; the runtime's
 * __mulsi3 uses that form, emu/rt/muldiv.S) */
#define __VDPU_STEP(f3, d, ra, shift)                                                              \
    do {                                                                                           \
        __VDPU_PAIR_IN(d);                                                                         \
        __asm__(".insn i 0x2b, " #f3 ", a4, %2, %3"                                                \
                : "+r"(__vdpu_e), "+r"(__vdpu_o)                                                   \
                : "r"((uint32_t)(ra)), "i"(shift));                                                \
        __VDPU_PAIR_OUT(d);                                                                        \
    } while (0)
#define __builtin_mul_step_drdi(d, ra, shift) __VDPU_STEP(0, d, ra, shift)
#define __builtin_div_step_drdi(d, ra, shift) __VDPU_STEP(1, d, ra, shift)

#endif
