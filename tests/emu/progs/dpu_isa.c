/* dpu_isa.c -- the DPU's own instructions (built_ins.h, mram.h) and the
 * runtime's multiply/divide helpers, checked by tests/emu/test_vdpu.c
 * (group dpu_isa) against host C references. */
#include "dpu_isa.h"

#include <atomic_bit.h>
#include <built_ins.h>
#include <defs.h>
#include <mram.h>
#include <perfcounter.h>
#include <stdint.h>

/* every 8x8 product: [variant][a][b] for operand bytes a, b (exhaustive) */
__mram_noinit uint32_t mul8_out[16][256][256];
__host uint32_t rin[DISA_N][3];          /* random operands (host) */
__host uint32_t rout[DISA_N][DISA_NOUT]; /* results */
__host uint32_t cost[DISA_NCOST];        /* instruction counts of sequences */
uint32_t row[256];
uint64_t pair_buf[2];
__host uint32_t mulc[2][5]; /* instruction counts of mul(big, x), mul(x, big) */
volatile uint32_t mul_operand[5] = {1, 0, 1, 3, 0xffffffffu};
uint64_t *volatile pair_ptr = pair_buf;
/* tables for the addressing-mode costs: T[x] with a link-time-constant T */
uint32_t tab_a[4] = {11, 22, 33, 44}, tab_b[4] = {55, 66, 77, 88};
uint32_t tab_out[4];
ATOMIC_BIT_INIT(cost_bit); /* the bit the primitives' costs take */

/* the operand words: the selected byte, another value in the other byte */
static inline uint32_t opa(uint32_t a)
{
    return a | ((a ^ 0xa5u) << 8) | 0x12340000u;
}
static inline uint32_t opb(uint32_t b)
{
    return b | ((b ^ 0x3cu) << 8) | 0xfedc0000u;
}

#define MUL8_ROWS(v, insn)                                                                         \
    for (uint32_t a = 0; a < 256; a++) {                                                           \
        uint32_t x = opa(a);                                                                       \
        for (uint32_t b = 0; b < 256; b++) {                                                       \
            uint32_t r;                                                                            \
            insn(r, x, opb(b));                                                                    \
            row[b] = r;                                                                            \
        }                                                                                          \
        mram_write(row, mul8_out[v][a], sizeof row);                                               \
    }

static __attribute__((noinline)) uint32_t mul(uint32_t a, uint32_t b)
{
    return a * b;
}

/* instructions (issue slots) of f's body: perfcounter around it */
#define COUNT(dst, body)                                                                           \
    do {                                                                                           \
        perfcounter_config(COUNT_INSTRUCTIONS, true);                                              \
        body;                                                                                      \
        dst = (uint32_t)perfcounter_get();                                                         \
    } while (0)

int main(void)
{
    MUL8_ROWS(0, __builtin_mul_ul_ul_rrr)
    MUL8_ROWS(1, __builtin_mul_ul_uh_rrr)
    MUL8_ROWS(2, __builtin_mul_ul_sl_rrr)
    MUL8_ROWS(3, __builtin_mul_ul_sh_rrr)
    MUL8_ROWS(4, __builtin_mul_uh_ul_rrr)
    MUL8_ROWS(5, __builtin_mul_uh_uh_rrr)
    MUL8_ROWS(6, __builtin_mul_uh_sl_rrr)
    MUL8_ROWS(7, __builtin_mul_uh_sh_rrr)
    MUL8_ROWS(8, __builtin_mul_sl_ul_rrr)
    MUL8_ROWS(9, __builtin_mul_sl_uh_rrr)
    MUL8_ROWS(10, __builtin_mul_sl_sl_rrr)
    MUL8_ROWS(11, __builtin_mul_sl_sh_rrr)
    MUL8_ROWS(12, __builtin_mul_sh_ul_rrr)
    MUL8_ROWS(13, __builtin_mul_sh_uh_rrr)
    MUL8_ROWS(14, __builtin_mul_sh_sl_rrr)
    MUL8_ROWS(15, __builtin_mul_sh_sh_rrr)

    for (int i = 0; i < DISA_N; i++) {
        uint32_t a = rin[i][0], b = rin[i][1], c = rin[i][2], *o = rout[i], k = 0, r;
        __builtin_lsl_add_rrri(r, a, b, 0);
        o[k++] = r;
        __builtin_lsl_add_rrri(r, a, b, 5);
        o[k++] = r;
        __builtin_lsl_add_rrri(r, a, b, 31);
        o[k++] = r;
        __builtin_lsl_sub_rrri(r, a, b, 3);
        o[k++] = r;
        __builtin_lsl_sub_rrri(r, a, b, 17);
        o[k++] = r;
        __builtin_lsr_add_rrri(r, a, b, 1);
        o[k++] = r;
        __builtin_lsr_add_rrri(r, a, b, 30);
        o[k++] = r;
        __builtin_rol_add_rrri(r, a, b, 0);
        o[k++] = r;
        __builtin_rol_add_rrri(r, a, b, 13);
        o[k++] = r;
        /* 64-bit add and sub through the carry flag: (a:b) + (c:a), (a:b) - (c:a) */
        uint32_t lo, hi;
        __builtin_add_rrr(lo, b, a);
        __builtin_addc_rrr(hi, a, c);
        o[k++] = lo;
        o[k++] = hi;
        __builtin_sub_rrr(lo, b, a);
        __builtin_subc_rrr(hi, a, c);
        o[k++] = lo;
        o[k++] = hi;
        /* one mul_step / div_step on the pair (c:a) with ra = b */
        uint64_t d = ((uint64_t)c << 32) | a;
        __builtin_mul_step_drdi(d, b, 7);
        o[k++] = (uint32_t)d;
        o[k++] = (uint32_t)(d >> 32);
        d = ((uint64_t)c << 32) | a;
        __builtin_div_step_drdi(d, b >> 12, 9);
        o[k++] = (uint32_t)d;
        o[k++] = (uint32_t)(d >> 32);
        /* ld/sd: store (a, b), load back swapped halves through a second slot */
        uint64_t v = ((uint64_t)b << 32) | a, w;
        __builtin_sd_rid(pair_buf, 8, v);
        __builtin_ld_dri(w, pair_buf, 8);
        o[k++] = (uint32_t)w;
        o[k++] = (uint32_t)(w >> 32);
        /* the runtime's helpers (no M: __mulsi3, __udivsi3, ...) */
        uint32_t dv = (i & 1) ? (b >> (i % 31)) | 1u : b | 1u;
        o[k++] = a * b;
        o[k++] = a / dv;
        o[k++] = a % dv;
        o[k++] = (uint32_t)((int32_t)a / (int32_t)dv);
        o[k++] = (uint32_t)((int32_t)a % (int32_t)dv);
        uint64_t x = ((uint64_t)a << 32) | b, y = ((uint64_t)c << 32) | (a ^ b);
        uint64_t p = x * y, y2 = (i & 1) ? (y >> (i % 61)) | 1u : y | 1u;
        o[k++] = (uint32_t)p;
        o[k++] = (uint32_t)(p >> 32);
        p = (uint64_t)a * b;
        o[k++] = (uint32_t)p;
        o[k++] = (uint32_t)(p >> 32);
        p = x / y2;
        o[k++] = (uint32_t)p;
        o[k++] = (uint32_t)(p >> 32);
        p = x % y2;
        o[k++] = (uint32_t)p;
        o[k++] = (uint32_t)(p >> 32);
        p = (uint64_t)((int64_t)x / (int64_t)y2);
        o[k++] = (uint32_t)p;
        o[k++] = (uint32_t)(p >> 32);
        p = (uint64_t)((int64_t)x % (int64_t)y2);
        o[k++] = (uint32_t)p;
        o[k++] = (uint32_t)(p >> 32);
    }

    /* costs: __mulsi3 is data-dependent (one mul_step per bit of the
     * smaller operand), and the folded idioms cost what the DPU's
     * instructions cost */
    volatile uint32_t big = 0xffffffffu;
    volatile uint32_t s;
    uint64_t *pb = pair_ptr; /* in a register before the counts */
    /* the same call site for each operand (index 0 warms the loop up) */
#pragma clang loop unroll(disable)
    for (int i = 0; i < 5; i++) {
        uint32_t x = big, y = mul_operand[i];
        COUNT(mulc[0][i], s = mul(x, y));
    }
#pragma clang loop unroll(disable)
    for (int i = 0; i < 5; i++) {
        uint32_t x = big, y = mul_operand[i];
        COUNT(mulc[1][i], s = mul(y, x));
    }
    (void)s;
    uint32_t t0 = big, t1 = mul_operand[3], t2 = 0, t3 = 0;
    /* add; sltu; add; add = add; addc: 2 */
    COUNT(cost[4], __asm__ volatile("add %0, %0, %2\n\tsltu %1, %0, %2\n\tadd %3, %3, %2\n\t"
                                    "add %3, %3, %1"
                                    : "+r"(t0), "+r"(t2), "+r"(t1), "+r"(t3)));
    /* two independent adds: 2 */
    COUNT(cost[5], __asm__ volatile("add %0, %0, %1\n\tadd %0, %0, %1" : "+r"(t0) : "r"(t1)));
    /* lw pair at 8k/8k+4: one ld */
    COUNT(cost[6], __asm__ volatile("lw %0, 0(%2)\n\tlw %1, 4(%2)"
                                    : "=&r"(t2), "=&r"(t3)
                                    : "r"(pb)
                                    : "memory"));
    /* sw pair: one sd */
    COUNT(cost[7], __asm__ volatile("sw %0, 8(%2)\n\tsw %1, 12(%2)"
                                    :
                                    : "r"(t2), "r"(t3), "r"(pb)
                                    : "memory"));
    /* addi + branch on its result: one add with a condition */
    COUNT(cost[8], __asm__ volatile("addi %0, %0, -1\n\tbnez %0, 1f\n\t1:" : "+r"(t1)));
    /* lui + addi: one move with a 32-bit immediate */
    COUNT(cost[9], __asm__ volatile("lui %0, 0x12345\n\taddi %0, %0, 0x678" : "=r"(t1)));
    /* one addi, the reference */
    COUNT(cost[10], __asm__ volatile("addi %0, %0, 1" : "+r"(t1)));
    /* lw pair at 4/8: not one ld (crosses 8 bytes) */
    COUNT(cost[11], __asm__ volatile("lw %0, 4(%2)\n\tlw %1, 8(%2)"
                                     : "=&r"(t2), "=&r"(t3)
                                     : "r"(pb)
                                     : "memory"));
    /* one lw, the reference of the pairs */
    COUNT(cost[12], __asm__ volatile("lw %0, 0(%1)" : "=r"(t2) : "r"(pb) : "memory"));
    /* T[x]: the table's address in a register, an add, the load: the DPU's
     * `lw rc, ra, T` needs neither the add nor the register (1 for the
     * 32-bit constant, 1 for the load) */
    uint32_t x = (uint32_t)big & 4, base, v = (uint32_t)big ^ 0xa5a5edcbu,
             far = (uint32_t)tab_a + x - 0x800000u;
    COUNT(cost[13], __asm__ volatile("lui %1, %%hi(tab_a)\n\taddi %1, %1, %%lo(tab_a)\n\t"
                                     "add %0, %2, %1\n\tlw %0, 0(%0)"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(x)
                                     : "memory"));
    /* a store through it (its address then overwritten): `sw ra, T, rb`, 3 */
    COUNT(cost[14], __asm__ volatile("lui %1, %%hi(tab_out)\n\taddi %1, %1, %%lo(tab_out)\n\t"
                                     "add %0, %2, %1\n\tsw %3, 0(%0)\n\tli %0, 0"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(x), "r"(v)
                                     : "memory"));
    /* the address is used otherwise too: the add stays, 4 */
    COUNT(cost[15], __asm__ volatile("lui %1, %%hi(tab_a)\n\taddi %1, %1, %%lo(tab_a)\n\t"
                                     "add %0, %2, %1\n\tlw %1, 0(%0)\n\txor %0, %0, %1"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(x)
                                     : "memory"));
    /* the constant does not fit the 24-bit offset (2^23): the add stays, 3 */
    COUNT(cost[16], __asm__ volatile("lui %1, 0x800\n\tadd %0, %2, %1\n\tlw %0, 0(%0)"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(far)
                                     : "memory"));
    /* after a join where the base differs (tab_a or tab_b): not a constant,
     * the add stays (lui+addi, beqz, add, lw: 4 when the branch is taken) */
    uint32_t zero = (uint32_t)big - 0xffffffffu;
    COUNT(cost[17], __asm__ volatile("lui %1, %%hi(tab_a)\n\taddi %1, %1, %%lo(tab_a)\n\t"
                                     "beqz %3, 1f\n\tlui %1, %%hi(tab_b)\n\t"
                                     "addi %1, %1, %%lo(tab_b)\n1:\n\t"
                                     "add %0, %2, %1\n\tlw %0, 0(%0)"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(x), "r"(zero)
                                     : "memory"));
    /* the same join where both paths set the same base: folded, 3 */
    COUNT(cost[18], __asm__ volatile("lui %1, %%hi(tab_a)\n\taddi %1, %1, %%lo(tab_a)\n\t"
                                     "beqz %3, 1f\n\tlui %1, %%hi(tab_a)\n\t"
                                     "addi %1, %1, %%lo(tab_a)\n1:\n\t"
                                     "add %0, %2, %1\n\tlw %0, 0(%0)"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(x), "r"(zero)
                                     : "memory"));
    tab_out[0] = t2; /* the loads' value: tab_a[1] */
    /* conditions of the DPU's ALU ops (each 1, like one addi = cost[10]):
     * a compare-and-branch before a sub of the same operands (not taken) */
    uint32_t hi = (uint32_t)big, lo = hi >> 4, r = 0;
    COUNT(cost[19], __asm__ volatile("bltu %1, %2, 1f\n\tsub %0, %1, %2\n1:"
                                     : "=&r"(r)
                                     : "r"(hi), "r"(lo)));
    /* ... or after it */
    COUNT(cost[20], __asm__ volatile("sub %0, %1, %2\n\tbgeu %2, %1, 1f\n1:"
                                     : "=&r"(r)
                                     : "r"(hi), "r"(lo)));
    /* beqz r; clz d, r = clz with the max condition */
    COUNT(cost[21], __asm__ volatile("beqz %1, 1f\n\tclz %0, %1\n1:" : "=&r"(r) : "r"(lo)));
    /* mv odd; li even, 0 of one pair = move.u (1); the other way round is
     * not a pair (2) */
    COUNT(cost[22], __asm__ volatile("mv a5, %0\n\tli a4, 0" : : "r"(lo) : "a4", "a5"));
    COUNT(cost[23], __asm__ volatile("mv a4, %0\n\tli a5, 0" : : "r"(lo) : "a4", "a5"));
    /* (before the computed jump below: the code after it is entered only
     * through it, which the cost analysis does not follow)
     * a compare with a constant: `jeq ra, imm` (11-bit immediate) when the
     * constant's register is dead on both paths: beq + li (2); read after
     * the branch: li, beq, addi (3); 2000 does not fit: 3 */
    uint32_t kk;
    COUNT(cost[27], __asm__ volatile("li %1, 255\n\tbeq %0, %1, 1f\n1:\n\tli %1, 0"
                                     : "+r"(zero), "=&r"(kk)));
    COUNT(cost[28], __asm__ volatile("li %1, 255\n\tbeq %0, %1, 1f\n1:\n\taddi %1, %1, 1"
                                     : "+r"(zero), "=&r"(kk)));
    COUNT(cost[29], __asm__ volatile("li %1, 2000\n\tbeq %0, %1, 1f\n1:\n\tli %1, 0"
                                     : "+r"(zero), "=&r"(kk)));
    tab_out[3] = kk;
    /* the runtime's primitives as the DPU's single instructions: acquire
     * and release of a bit (2); the operand's register also read otherwise:
     * mv, xor, acquire, release (4); a service that is not one DPU
     * instruction (yield) keeps its li a7 (2) */
    uint32_t bit = (uint32_t)&ATOMIC_BIT_GET(cost_bit), junk;
    __asm__ volatile("" : "+r"(bit)); /* in a register before the windows */
    COUNT(cost[30], __asm__ volatile("mv a0, %0\n\tli a7, 4\n\tecall\n\tli a7, 5\n\tecall"
                                     :
                                     : "r"(bit)
                                     : "a0", "a7", "memory"));
    COUNT(cost[31], __asm__ volatile("mv a0, %1\n\txor %0, a0, a0\n\tli a7, 4\n\tecall\n\t"
                                     "li a7, 5\n\tecall"
                                     : "=&r"(junk)
                                     : "r"(bit)
                                     : "a0", "a7", "memory"));
    COUNT(cost[32], __asm__ volatile("li a7, 14\n\tecall" ::: "a0", "a1", "a7", "memory"));
    tab_out[3] += junk;
    /* T[x] whose address is dead only after the run's branch (both paths
     * overwrite it): folded, lui+addi, lw, bnez, li (4); read on the path
     * after the branch: the add stays (5) */
    COUNT(cost[33], __asm__ volatile("lui %1, %%hi(tab_a)\n\taddi %1, %1, %%lo(tab_a)\n\t"
                                     "add %0, %2, %1\n\tlw %1, 0(%0)\n\tbnez %3, 1f\n1:\n\t"
                                     "li %0, 0"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(x), "r"(zero)
                                     : "memory"));
    COUNT(cost[34], __asm__ volatile("lui %1, %%hi(tab_a)\n\taddi %1, %1, %%lo(tab_a)\n\t"
                                     "add %0, %2, %1\n\tlw %1, 0(%0)\n\tbnez %3, 1f\n1:\n\t"
                                     "addi %0, %0, 4"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(x), "r"(zero)
                                     : "memory"));
    /* the same address dead at an entry point (a branch target) right after
     * its load: folded, lui+addi, bnez, lw, li (4) */
    COUNT(cost[35], __asm__ volatile("lui %1, %%hi(tab_a)\n\taddi %1, %1, %%lo(tab_a)\n\t"
                                     "bnez %3, 1f\n\tadd %0, %2, %1\n\tlw %1, 0(%0)\n1:\n\t"
                                     "li %0, 0"
                                     : "=&r"(t2), "=&r"(base)
                                     : "r"(x), "r"(zero)
                                     : "memory"));
    tab_out[3] += t2;
    /* a computed jump to a known label + index: lla (1) + jump ra, off (1) */
    COUNT(cost[24], __asm__ volatile("lla t0, 1f\n\tsh2add t0, %0, t0\n\tjr t0\n1:"
                                     :
                                     : "r"(zero)
                                     : "t0"));
    /* a frame opened and closed: sd d22 + add, ld d22 (3) */
    COUNT(cost[25], __asm__ volatile("addi sp, sp, -16\n\tsw ra, 12(sp)\n\tlw ra, 12(sp)\n\t"
                                     "addi sp, sp, 16" ::
                                         : "memory"));
    /* the return address is saved with sp, never paired with a register:
     * sd d22 + add, sd, ld, ld d22 (5) */
    COUNT(cost[26], __asm__ volatile("addi sp, sp, -16\n\tsw ra, 12(sp)\n\tsw s1, 8(sp)\n\t"
                                     "lw s1, 8(sp)\n\tlw ra, 12(sp)\n\taddi sp, sp, 16" ::
                                         : "s1", "memory"));
    tab_out[2] = r;
    return 0;
}
