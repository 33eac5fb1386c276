/* muldiv.S -- 32-bit multiply and divide the way the DPU's runtime does
 * them (SDK compiler-rt: compiler-rt/lib/builtins/dpu/mulsi3.c, udiv32.S in
 * upmem/llvm-project), with the DPU's mul_step/div_step instructions (custom
 * opcodes, emu/vdpu/decode.c). DPU programs are compiled without RV32's M
 * extension, so clang calls __mulsi3, __udivsi3, ... and the instruction
 * count of a multiply or a division comes out of executing this code:
 * data-dependent, as on the DPU (__mulsi3 stops when the smaller operand has
 * no bits left; the division steps once per quotient bit position).
 * Comments give the DPU instruction each line stands for. */
    .text

/* uint32_t __mulsi3(uint32_t a, uint32_t b): the multiplier is the smaller
 * operand (min), shifted out one bit per mul_step, which jumps out when it
 * becomes 0: 6 + max(1, bits(min)) instructions. Pair a4 (multiplier) : a5
 * (product). */
    .globl __mulsi3
    .type __mulsi3, @function
    .p2align 2
__mulsi3:
    bltu a0, a1, 2f          /* jgtu r1, r0, __mulsi3_swap */
    mv a2, a0                /* move r2, r0 */
    mv a4, a1                /* move r0, r1, true, __mulsi3_start (with the j) */
    j 3f
2:  mv a2, a1                /* move r2, r1 */
    mv a4, a0                /* move r0, r0 */
3:  li a5, 0                 /* move r1, zero */
    .insn i 0x2b, 0, a4, a2, 1024  /* mul_step d(a4), a2, 0, z, 1f */
    .insn i 0x2b, 0, a4, a2, 993  /* mul_step d(a4), a2, 1, z, 1f */
    .insn i 0x2b, 0, a4, a2, 962  /* mul_step d(a4), a2, 2, z, 1f */
    .insn i 0x2b, 0, a4, a2, 931  /* mul_step d(a4), a2, 3, z, 1f */
    .insn i 0x2b, 0, a4, a2, 900  /* mul_step d(a4), a2, 4, z, 1f */
    .insn i 0x2b, 0, a4, a2, 869  /* mul_step d(a4), a2, 5, z, 1f */
    .insn i 0x2b, 0, a4, a2, 838  /* mul_step d(a4), a2, 6, z, 1f */
    .insn i 0x2b, 0, a4, a2, 807  /* mul_step d(a4), a2, 7, z, 1f */
    .insn i 0x2b, 0, a4, a2, 776  /* mul_step d(a4), a2, 8, z, 1f */
    .insn i 0x2b, 0, a4, a2, 745  /* mul_step d(a4), a2, 9, z, 1f */
    .insn i 0x2b, 0, a4, a2, 714  /* mul_step d(a4), a2, 10, z, 1f */
    .insn i 0x2b, 0, a4, a2, 683  /* mul_step d(a4), a2, 11, z, 1f */
    .insn i 0x2b, 0, a4, a2, 652  /* mul_step d(a4), a2, 12, z, 1f */
    .insn i 0x2b, 0, a4, a2, 621  /* mul_step d(a4), a2, 13, z, 1f */
    .insn i 0x2b, 0, a4, a2, 590  /* mul_step d(a4), a2, 14, z, 1f */
    .insn i 0x2b, 0, a4, a2, 559  /* mul_step d(a4), a2, 15, z, 1f */
    .insn i 0x2b, 0, a4, a2, 528  /* mul_step d(a4), a2, 16, z, 1f */
    .insn i 0x2b, 0, a4, a2, 497  /* mul_step d(a4), a2, 17, z, 1f */
    .insn i 0x2b, 0, a4, a2, 466  /* mul_step d(a4), a2, 18, z, 1f */
    .insn i 0x2b, 0, a4, a2, 435  /* mul_step d(a4), a2, 19, z, 1f */
    .insn i 0x2b, 0, a4, a2, 404  /* mul_step d(a4), a2, 20, z, 1f */
    .insn i 0x2b, 0, a4, a2, 373  /* mul_step d(a4), a2, 21, z, 1f */
    .insn i 0x2b, 0, a4, a2, 342  /* mul_step d(a4), a2, 22, z, 1f */
    .insn i 0x2b, 0, a4, a2, 311  /* mul_step d(a4), a2, 23, z, 1f */
    .insn i 0x2b, 0, a4, a2, 280  /* mul_step d(a4), a2, 24, z, 1f */
    .insn i 0x2b, 0, a4, a2, 249  /* mul_step d(a4), a2, 25, z, 1f */
    .insn i 0x2b, 0, a4, a2, 218  /* mul_step d(a4), a2, 26, z, 1f */
    .insn i 0x2b, 0, a4, a2, 187  /* mul_step d(a4), a2, 27, z, 1f */
    .insn i 0x2b, 0, a4, a2, 156  /* mul_step d(a4), a2, 28, z, 1f */
    .insn i 0x2b, 0, a4, a2, 125  /* mul_step d(a4), a2, 29, z, 1f */
    .insn i 0x2b, 0, a4, a2, 94  /* mul_step d(a4), a2, 30, z, 1f */
    .insn i 0x2b, 0, a4, a2, 63  /* mul_step d(a4), a2, 31, z, 1f */
1:  mv a0, a5                /* move r0, r1 */
    ret                      /* jump r23 */
    .size __mulsi3, . - __mulsi3

/* uint64_t __vdpu_udiv32(uint32_t n, uint32_t d): quotient in a0 (low word),
 * remainder in a1 (high word), the pair of the div_steps. From the highest
 * quotient bit that can be set (clz(d) - clz(n)) down to bit 0. The DPU's
 * compiler calls its __udiv32 for every 32-bit unsigned division, so
 * __udivsi3 is this very entry (the quotient is already in a0). Written so
 * that each group of RV32 instructions is one of the DPU's (the cost rules
 * of emu/vdpu/cost.c, docs/VIRTUAL_DPU.md): the SDK's 8 + (k + 1), whose
 * `jump` to its `jump r23` stands here for the `lla` of the computed jump. */
    .globl __vdpu_udiv32
    .type __vdpu_udiv32, @function
    .globl __udivsi3
    .p2align 2
__vdpu_udiv32:
__udivsi3:
    beqz a1, 9f              /* clz r2, r1, max, 1f */
    clz a2, a1
    clz a3, a0               /* clz r3, r0 */
    bltu a2, a3, 8f          /* sub r2, r3, r2, gtu, 2f */
    sub a2, a3, a2
    mv a3, a1                /* move r3, r1 */
    mv a1, a0                /* move.u d0, r0 */
    li a0, 0
    lla t0, 4f               /* (jump 3f, at the end of the SDK's sequence) */
    sh2add t0, a2, t0        /* jump r2, 3f */
    jr t0
    .insn i 0x2b, 1, a0, a3, 31  /* div_step d(a0), a3, 31 */
    .insn i 0x2b, 1, a0, a3, 30  /* div_step d(a0), a3, 30 */
    .insn i 0x2b, 1, a0, a3, 29  /* div_step d(a0), a3, 29 */
    .insn i 0x2b, 1, a0, a3, 28  /* div_step d(a0), a3, 28 */
    .insn i 0x2b, 1, a0, a3, 27  /* div_step d(a0), a3, 27 */
    .insn i 0x2b, 1, a0, a3, 26  /* div_step d(a0), a3, 26 */
    .insn i 0x2b, 1, a0, a3, 25  /* div_step d(a0), a3, 25 */
    .insn i 0x2b, 1, a0, a3, 24  /* div_step d(a0), a3, 24 */
    .insn i 0x2b, 1, a0, a3, 23  /* div_step d(a0), a3, 23 */
    .insn i 0x2b, 1, a0, a3, 22  /* div_step d(a0), a3, 22 */
    .insn i 0x2b, 1, a0, a3, 21  /* div_step d(a0), a3, 21 */
    .insn i 0x2b, 1, a0, a3, 20  /* div_step d(a0), a3, 20 */
    .insn i 0x2b, 1, a0, a3, 19  /* div_step d(a0), a3, 19 */
    .insn i 0x2b, 1, a0, a3, 18  /* div_step d(a0), a3, 18 */
    .insn i 0x2b, 1, a0, a3, 17  /* div_step d(a0), a3, 17 */
    .insn i 0x2b, 1, a0, a3, 16  /* div_step d(a0), a3, 16 */
    .insn i 0x2b, 1, a0, a3, 15  /* div_step d(a0), a3, 15 */
    .insn i 0x2b, 1, a0, a3, 14  /* div_step d(a0), a3, 14 */
    .insn i 0x2b, 1, a0, a3, 13  /* div_step d(a0), a3, 13 */
    .insn i 0x2b, 1, a0, a3, 12  /* div_step d(a0), a3, 12 */
    .insn i 0x2b, 1, a0, a3, 11  /* div_step d(a0), a3, 11 */
    .insn i 0x2b, 1, a0, a3, 10  /* div_step d(a0), a3, 10 */
    .insn i 0x2b, 1, a0, a3, 9  /* div_step d(a0), a3, 9 */
    .insn i 0x2b, 1, a0, a3, 8  /* div_step d(a0), a3, 8 */
    .insn i 0x2b, 1, a0, a3, 7  /* div_step d(a0), a3, 7 */
    .insn i 0x2b, 1, a0, a3, 6  /* div_step d(a0), a3, 6 */
    .insn i 0x2b, 1, a0, a3, 5  /* div_step d(a0), a3, 5 */
    .insn i 0x2b, 1, a0, a3, 4  /* div_step d(a0), a3, 4 */
    .insn i 0x2b, 1, a0, a3, 3  /* div_step d(a0), a3, 3 */
    .insn i 0x2b, 1, a0, a3, 2  /* div_step d(a0), a3, 2 */
    .insn i 0x2b, 1, a0, a3, 1  /* div_step d(a0), a3, 1 */
4:  .insn i 0x2b, 1, a0, a3, 0  /* div_step d(a0), a3, 0 */
    ret                      /* jump r23 */
8:  mv a1, a0                /* move.u d0, r0, true, 4b (quotient 0) */
    li a0, 0
    ret
9:  li a0, 2                 /* fault 2: VDPU_FAULT_DIV_ZERO (abi.h) */
    li a1, 0
    li a7, 1                 /* VDPU_SYS_FAULT */
    ecall
    ret
    .size __vdpu_udiv32, . - __vdpu_udiv32

/* int32_t __divsi3(n, d) / __modsi3(n, d): the SDK's __div32 (compiler-rt
 * div32.c): branch on the signs, divide the magnitudes, negate the quotient
 * when the signs differ and the remainder when n < 0. Written out here
 * rather than compiled from C so that, like the SDK's, it has no frame but
 * the return address (INT_MIN / -1 = INT_MIN, as 0 - INT_MIN wraps). */
    .globl __divsi3
    .type __divsi3, @function
    .p2align 2
__divsi3:
    addi sp, sp, -8          /* sd r22, 0, d22 */
    sw ra, 4(sp)             /* add r22, r22, 8 */
    bltz a0, 1f              /* clo zero, r0, z, pos_dividend */
    bltz a1, 2f              /* clo zero, r1, z, pos_pos */
    call __vdpu_udiv32       /* pos / pos */
    lw ra, 4(sp)             /* ld d22, r22, -8 */
    addi sp, sp, 8
    ret                      /* jump r23 */
2:  neg a1, a1               /* pos / neg: quotient negative */
    call __vdpu_udiv32
    neg a0, a0
    j 9f
1:  neg a0, a0
    bltz a1, 3f
    call __vdpu_udiv32       /* neg / pos: quotient negative */
    neg a0, a0
    j 9f
3:  neg a1, a1               /* neg / neg: quotient positive */
    call __vdpu_udiv32
9:  lw ra, 4(sp)             /* ld d22, r22, -8 */
    addi sp, sp, 8
    ret                      /* jump r23 */
    .size __divsi3, . - __divsi3

    .globl __modsi3
    .type __modsi3, @function
    .p2align 2
__modsi3:
    addi sp, sp, -8
    sw ra, 4(sp)
    bltz a1, 1f              /* the remainder has the dividend's sign only */
    bltz a0, 2f
0:  call __vdpu_udiv32
    mv a0, a1
    j 9f
1:  neg a1, a1
    bgez a0, 0b
2:  neg a0, a0
    call __vdpu_udiv32
    neg a0, a1
9:  lw ra, 4(sp)
    addi sp, sp, 8
    ret
    .size __modsi3, . - __modsi3
