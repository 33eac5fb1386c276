/* sf_ops.h -- the operations tested by tests/emu/softfloat, shared by the DPU
 * program (dpu_softfloat.c) and the host driver (sf_run.c).
 *
 * X(name, group, ta, tb, tr, expr):
 *   group   the DPU program that holds the operation: 1 binary32, 2 binary64,
 *           3 conversions, 0 all (all of them do not fit in one program's
 *           4096-instruction IRAM);
 *   ta, tb  operand kinds (tb = N: unary), tr the result kind: F float,
 *           D double, I int32_t, U uint32_t, L int64_t, M uint64_t;
 *   expr    the result from a and b.
 * The DPU evaluates expr with the soft-float runtime: C operators and casts,
 * so the calls are the ones clang emits; CMP_xx/UNORD_xx call the ABI
 * functions directly to check their exact return values; NEG_xx calls
 * __neg*2, which clang never emits itself (it flips the sign bit inline).
 * The host evaluates expr natively, with CMP_xx/UNORD_xx and the FIX of
 * out-of-range values given by reference functions of the documented
 * convention. */
#ifndef SF_OPS_H
#define SF_OPS_H

#define SF_OPS(X)                                                                                  \
    X(nop, 0, M, M, M, a ^ b)                                                                      \
    X(addsf3, 1, F, F, F, a + b)                                                                   \
    X(subsf3, 1, F, F, F, a - b)                                                                   \
    X(mulsf3, 1, F, F, F, a *b)                                                                    \
    X(divsf3, 1, F, F, F, a / b)                                                                   \
    X(negsf2, 1, F, N, F, NEG_F(negsf2, a))                                                        \
    X(adddf3, 2, D, D, D, a + b)                                                                   \
    X(subdf3, 2, D, D, D, a - b)                                                                   \
    X(muldf3, 2, D, D, D, a *b)                                                                    \
    X(divdf3, 2, D, D, D, a / b)                                                                   \
    X(negdf2, 2, D, N, D, NEG_D(negdf2, a))                                                        \
    X(lt_f, 1, F, F, I, a < b)                                                                     \
    X(le_f, 1, F, F, I, a <= b)                                                                    \
    X(gt_f, 1, F, F, I, a > b)                                                                     \
    X(ge_f, 1, F, F, I, a >= b)                                                                    \
    X(eq_f, 1, F, F, I, a == b)                                                                    \
    X(ne_f, 1, F, F, I, a != b)                                                                    \
    X(isunordered_f, 1, F, F, I, __builtin_isunordered(a, b))                                      \
    X(lt_d, 2, D, D, I, a < b)                                                                     \
    X(le_d, 2, D, D, I, a <= b)                                                                    \
    X(gt_d, 2, D, D, I, a > b)                                                                     \
    X(ge_d, 2, D, D, I, a >= b)                                                                    \
    X(eq_d, 2, D, D, I, a == b)                                                                    \
    X(ne_d, 2, D, D, I, a != b)                                                                    \
    X(isunordered_d, 2, D, D, I, __builtin_isunordered(a, b))                                      \
    X(eqsf2, 1, F, F, I, CMP_LE_F(eqsf2, a, b))                                                    \
    X(nesf2, 1, F, F, I, CMP_LE_F(nesf2, a, b))                                                    \
    X(ltsf2, 1, F, F, I, CMP_LE_F(ltsf2, a, b))                                                    \
    X(lesf2, 1, F, F, I, CMP_LE_F(lesf2, a, b))                                                    \
    X(cmpsf2, 1, F, F, I, CMP_LE_F(cmpsf2, a, b))                                                  \
    X(gtsf2, 1, F, F, I, CMP_GE_F(gtsf2, a, b))                                                    \
    X(gesf2, 1, F, F, I, CMP_GE_F(gesf2, a, b))                                                    \
    X(unordsf2, 1, F, F, I, UNORD_F(unordsf2, a, b))                                               \
    X(eqdf2, 2, D, D, I, CMP_LE_D(eqdf2, a, b))                                                    \
    X(nedf2, 2, D, D, I, CMP_LE_D(nedf2, a, b))                                                    \
    X(ltdf2, 2, D, D, I, CMP_LE_D(ltdf2, a, b))                                                    \
    X(ledf2, 2, D, D, I, CMP_LE_D(ledf2, a, b))                                                    \
    X(cmpdf2, 2, D, D, I, CMP_LE_D(cmpdf2, a, b))                                                  \
    X(gtdf2, 2, D, D, I, CMP_GE_D(gtdf2, a, b))                                                    \
    X(gedf2, 2, D, D, I, CMP_GE_D(gedf2, a, b))                                                    \
    X(unorddf2, 2, D, D, I, UNORD_D(unorddf2, a, b))                                               \
    X(extendsfdf2, 3, F, N, D, (double)a)                                                          \
    X(truncdfsf2, 3, D, N, F, (float)a)                                                            \
    X(fixsfsi, 3, F, N, I, FIX(I, a))                                                              \
    X(fixunssfsi, 3, F, N, U, FIX(U, a))                                                           \
    X(fixdfsi, 3, D, N, I, FIX(I, a))                                                              \
    X(fixunsdfsi, 3, D, N, U, FIX(U, a))                                                           \
    X(fixsfdi, 3, F, N, L, FIX(L, a))                                                              \
    X(fixunssfdi, 3, F, N, M, FIX(M, a))                                                           \
    X(fixdfdi, 3, D, N, L, FIX(L, a))                                                              \
    X(fixunsdfdi, 3, D, N, M, FIX(M, a))                                                           \
    X(floatsisf, 3, I, N, F, (float)a)                                                             \
    X(floatunsisf, 3, U, N, F, (float)a)                                                           \
    X(floatsidf, 3, I, N, D, (double)a)                                                            \
    X(floatunsidf, 3, U, N, D, (double)a)                                                          \
    X(floatdisf, 3, L, N, F, (float)a)                                                             \
    X(floatundisf, 3, M, N, F, (float)a)                                                           \
    X(floatdidf, 3, L, N, D, (double)a)                                                            \
    X(floatundidf, 3, M, N, D, (double)a)                                                          \
    X(powisf2, 3, F, I, F, __builtin_powif(a, (int)b))                                             \
    X(powidf2, 3, D, I, D, __builtin_powi(a, (int)b))

enum {
#define SF_ENUM(name, group, ta, tb, tr, expr) SF_OP_##name,
    SF_OPS(SF_ENUM)
#undef SF_ENUM
        SF_OP__COUNT
};

/* C types of the kinds (N: unused operand, carried as a uint64_t) */
#define SF_T_F float
#define SF_T_D double
#define SF_T_I int32_t
#define SF_T_U uint32_t
#define SF_T_L int64_t
#define SF_T_M uint64_t
#define SF_T_N uint64_t

/* elements per run (three uint64_t arrays in WRAM) */
#define SF_N      512
#define SF_GROUPS 3

#endif
