/* dpu_softfloat.c -- evaluates one operation of sf_ops.h over the host's
 * operand arrays on the virtual DPU (soft-float runtime emu/rt/softfloat.c).
 * Built once per group (-DSF_GROUP=1..3, see sf_ops.h); the operations of
 * other groups do nothing. The host sets op and count, fills in_a/in_b (float/int32 operands in the
 * low 32 bits) and reads out. One tasklet. */
#include <defs.h>
#include <stdint.h>

#include "sf_ops.h"

__host uint32_t op;
__host uint32_t count;
__host uint64_t in_a[SF_N];
__host uint64_t in_b[SF_N];
__host uint64_t out[SF_N];

/* the ABI functions the CMP_/UNORD_ operations call directly */
int __eqsf2(float, float), __nesf2(float, float), __ltsf2(float, float), __lesf2(float, float);
int __cmpsf2(float, float), __gtsf2(float, float), __gesf2(float, float), __unordsf2(float, float);
int __eqdf2(double, double), __nedf2(double, double), __ltdf2(double, double);
int __ledf2(double, double), __cmpdf2(double, double), __gtdf2(double, double);
int __gedf2(double, double), __unorddf2(double, double);
#define CMP_LE_F(fn, a, b) __##fn(a, b)
#define CMP_GE_F(fn, a, b) __##fn(a, b)
#define UNORD_F(fn, a, b)  __##fn(a, b)
#define CMP_LE_D(fn, a, b) __##fn(a, b)
#define CMP_GE_D(fn, a, b) __##fn(a, b)
#define UNORD_D(fn, a, b)  __##fn(a, b)
float __negsf2(float);
double __negdf2(double);
#define NEG_F(fn, a) __##fn(a)
#define NEG_D(fn, a) __##fn(a)
#define FIX(k, a)    ((SF_T_##k)(a))

/* kind <-> 64-bit slot */
static inline float get_F(uint64_t v)
{
    union {
        uint32_t u;
        float f;
    } x = {(uint32_t)v};
    return x.f;
}
static inline double get_D(uint64_t v)
{
    union {
        uint64_t u;
        double f;
    } x = {v};
    return x.f;
}
static inline int32_t get_I(uint64_t v)
{
    return (int32_t)v;
}
static inline uint32_t get_U(uint64_t v)
{
    return (uint32_t)v;
}
static inline int64_t get_L(uint64_t v)
{
    return (int64_t)v;
}
static inline uint64_t get_M(uint64_t v)
{
    return v;
}
static inline uint64_t get_N(uint64_t v)
{
    return v;
}
static inline uint64_t put_F(float f)
{
    union {
        float f;
        uint32_t u;
    } x = {f};
    return x.u;
}
static inline uint64_t put_D(double f)
{
    union {
        double f;
        uint64_t u;
    } x = {f};
    return x.u;
}
static inline uint64_t put_I(int32_t v)
{
    return (uint32_t)v;
}
static inline uint64_t put_U(uint32_t v)
{
    return v;
}
static inline uint64_t put_L(int64_t v)
{
    return (uint64_t)v;
}
static inline uint64_t put_M(uint64_t v)
{
    return v;
}

/* one loop per operation, each in its own function so that every loop has
 * the same shape (two loads, the operation, one store); no unrolling, so the
 * per-element instruction count is that of a PrIM-style loop */
#define SF_LOOP(name, group, ta, tb, tr, expr)                                                     \
    static void __attribute__((noinline)) loop_##name(uint32_t n)                                  \
    {                                                                                              \
        _Pragma("clang loop unroll(disable)") for (uint32_t i = 0; i < n; i++)                     \
        {                                                                                          \
            SF_T_##ta a = get_##ta(in_a[i]);                                                       \
            SF_T_##tb b = get_##tb(in_b[i]);                                                       \
            (void)b;                                                                               \
            out[i] = put_##tr(expr);                                                               \
        }                                                                                          \
    }
SF_OPS(SF_LOOP)

int main(void)
{
    uint32_t n = count > SF_N ? SF_N : count;
    switch (op) {
#define SF_CASE(name, group, ta, tb, tr, expr)                                                     \
    case SF_OP_##name:                                                                             \
        if (group == 0 || group == SF_GROUP)                                                       \
            loop_##name(n);                                                                        \
        break;
        SF_OPS(SF_CASE)
    default:
        break;
    }
    return 0;
}
