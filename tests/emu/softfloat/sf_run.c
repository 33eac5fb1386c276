/* sf_run.c -- tests of the soft-float runtime (emu/rt/softfloat.c) on the
 * virtual DPU. usage: sf_run DIR [--stats]  (DIR holds dpu_softfloat_{1,2,3}.elf
 * built by emu/softfloat.mk).
 *
 * For every operation of sf_ops.h: special operands (all pairs) and seeded
 * random ones (mixes aimed at alignment, cancellation, ties, subnormal and
 * overflowing results, integer-conversion boundaries) are evaluated on the
 * virtual DPU and compared bit for bit with the host's native IEEE result
 * (any NaN matches any NaN): one test softfloat_<op> each, on the harness of
 * tests/test.h (further arguments: name prefixes).
 * --stats also prints the modeled per-element instruction and issue-slot
 * counts of each operation on typical operands ("# " lines). The seed is
 * SF_SEED from the environment, else fixed. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf_ops.h"
#include "test.h"
#include "vdpu.h"

/* ------------------------------------------------------------ host reference */
static int ref_cmp(double a, double b, int unordered)
{
    if (isnan(a) || isnan(b))
        return unordered;
    return a < b ? -1 : a > b;
}

/* float -> integer where C is undefined: saturate by sign (NaN included),
 * unsigned targets give 0 for negative operands (emu/rt/softfloat.c) */
static int32_t ref_fix_I(double x)
{
    if (isnan(x))
        return signbit(x) ? INT32_MIN : INT32_MAX;
    if (x >= 2147483648.0)
        return INT32_MAX;
    if (x < -2147483648.0)
        return INT32_MIN;
    return (int32_t)x;
}

static uint32_t ref_fix_U(double x)
{
    if (isnan(x))
        return signbit(x) ? 0 : UINT32_MAX;
    if (x <= -1.0)
        return 0;
    if (x >= 4294967296.0)
        return UINT32_MAX;
    return (uint32_t)x;
}

static int64_t ref_fix_L(double x)
{
    if (isnan(x))
        return signbit(x) ? INT64_MIN : INT64_MAX;
    if (x >= 9223372036854775808.0)
        return INT64_MAX;
    if (x < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)x;
}

static uint64_t ref_fix_M(double x)
{
    if (isnan(x))
        return signbit(x) ? 0 : UINT64_MAX;
    if (x <= -1.0)
        return 0;
    if (x >= 18446744073709551616.0)
        return UINT64_MAX;
    return (uint64_t)x;
}

#define CMP_LE_F(fn, a, b) ref_cmp(a, b, 1)
#define CMP_GE_F(fn, a, b) ref_cmp(a, b, -1)
#define UNORD_F(fn, a, b)  (isnan(a) || isnan(b))
#define CMP_LE_D(fn, a, b) ref_cmp(a, b, 1)
#define CMP_GE_D(fn, a, b) ref_cmp(a, b, -1)
#define UNORD_D(fn, a, b)  (isnan(a) || isnan(b))
#define NEG_F(fn, a)       (-(a))
#define NEG_D(fn, a)       (-(a))
#define FIX(k, a)          ref_fix_##k((double)(a))

static float get_F(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static double get_D(uint64_t v)
{
    double f;
    memcpy(&f, &v, 8);
    return f;
}
static int32_t get_I(uint64_t v)
{
    return (int32_t)(uint32_t)v;
}
static uint32_t get_U(uint64_t v)
{
    return (uint32_t)v;
}
static int64_t get_L(uint64_t v)
{
    return (int64_t)v;
}
static uint64_t get_M(uint64_t v)
{
    return v;
}
static uint64_t get_N(uint64_t v)
{
    return v;
}
static uint64_t put_F(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint64_t put_D(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}
static uint64_t put_I(int32_t v)
{
    return (uint32_t)v;
}
static uint64_t put_U(uint32_t v)
{
    return v;
}
static uint64_t put_L(int64_t v)
{
    return (uint64_t)v;
}
static uint64_t put_M(uint64_t v)
{
    return v;
}

#define SF_REF(name, group, ta, tb, tr, expr)                                                      \
    static uint64_t ref_##name(uint64_t ua, uint64_t ub)                                           \
    {                                                                                              \
        SF_T_##ta a = get_##ta(ua);                                                                \
        SF_T_##tb b = get_##tb(ub);                                                                \
        (void)b;                                                                                   \
        return put_##tr(expr);                                                                     \
    }
SF_OPS(SF_REF)

typedef struct {
    const char *name;
    int group;
    char ta, tb, tr;
    uint64_t (*ref)(uint64_t, uint64_t);
} op_t;

static const op_t ops[SF_OP__COUNT] = {
#define SF_DESC(name, group, ta, tb, tr, expr) {#name, group, #ta[0], #tb[0], #tr[0], ref_##name},
    SF_OPS(SF_DESC)
#undef SF_DESC
};

/* ------------------------------------------------------------------ random */
static uint64_t rng_state;

static uint64_t rnd(void) /* the harness's generator, seeded by SF_SEED */
{
    return test_rand(&rng_state);
}

static uint32_t rnd_below(uint32_t n)
{
    return (uint32_t)(rnd() % n);
}

/* a fraction of 'bits' bits: random, or only a few leading bits set (so that
 * products, quotients and sums are often exact or exact ties) */
static uint64_t rnd_frac(int bits)
{
    uint64_t f = rnd() & ((1ull << bits) - 1);
    switch (rnd_below(4)) {
    case 0: { /* keep the top k bits */
        int k = (int)rnd_below((uint32_t)bits + 1);
        return k == 0 ? 0 : f & (((1ull << k) - 1) << (bits - k));
    }
    case 1: /* all ones / all zeros at the bottom */
        return f | ((1ull << rnd_below((uint32_t)bits)) - 1);
    default:
        return f;
    }
}

static uint64_t mk_f32(uint32_t sign, int32_t exp, uint64_t frac)
{
    if (exp < 0)
        exp = 0;
    if (exp > 255)
        exp = 255;
    return (uint64_t)((sign << 31) | ((uint32_t)exp << 23) | ((uint32_t)frac & 0x7fffff));
}

static uint64_t mk_f64(uint64_t sign, int32_t exp, uint64_t frac)
{
    if (exp < 0)
        exp = 0;
    if (exp > 2047)
        exp = 2047;
    return (sign << 63) | ((uint64_t)exp << 52) | (frac & 0xfffffffffffffull);
}

/* a random operand of a float kind; 'near_exp' >= 0 asks for a biased
 * exponent near it; 'fmt' 0 = binary32, 1 = binary64 */
static uint64_t rnd_float(int fmt, int32_t near_exp, int32_t spread)
{
    int ebits = fmt ? 11 : 8, fbits = fmt ? 52 : 23;
    int32_t emax = (1 << ebits) - 1;
    uint32_t sign = (uint32_t)(rnd() & 1);
    int32_t e;
    if (near_exp >= 0)
        e = near_exp + (int32_t)rnd_below((uint32_t)(2 * spread + 1)) - spread;
    else if (rnd_below(8) == 0)
        e = (int32_t)rnd_below(3) == 0 ? 0 : emax - (int32_t)rnd_below(3); /* edges */
    else
        e = (int32_t)rnd_below((uint32_t)emax + 1);
    return fmt ? mk_f64(sign, e, rnd_frac(fbits)) : mk_f32(sign, e, rnd_frac(fbits));
}

static const uint32_t special32[] = {
    0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x007fffff, 0x00400000, 0x00800000,
    0x00800001, 0x00ffffff, 0x33800000, 0x34000000, 0x3effffff, 0x3f000000, 0x3f000001,
    0x3f7fffff, 0x3f800000, 0x3f800001, 0x3fc00000, 0x40000000, 0x40400000, 0x4b000000,
    0x4b000001, 0x4b7fffff, 0x4b800000, 0x4effffff, 0x4f000000, 0x4f7fffff, 0x4f800000,
    0x5effffff, 0x5f000000, 0x5f7fffff, 0x5f800000, 0x7effffff, 0x7f000000, 0x7f7ffffe,
    0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fa00000, 0x7fc00000, 0x7fffffff,
};
static const uint64_t special64[] = {
    0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000003ull, 0x000fffffffffffffull,
    0x0008000000000000ull, 0x0010000000000000ull, 0x0010000000000001ull, 0x001fffffffffffffull,
    0x3ca0000000000000ull, 0x3cb0000000000000ull, 0x3fdfffffffffffffull, 0x3fe0000000000000ull,
    0x3fefffffffffffffull, 0x3ff0000000000000ull, 0x3ff0000000000001ull, 0x3ff8000000000000ull,
    0x4000000000000000ull, 0x4330000000000000ull, 0x4330000000000001ull, 0x433fffffffffffffull,
    0x4340000000000000ull, 0x41dfffffffc00000ull, 0x41dfffffffffffffull, 0x41e0000000000000ull,
    0x41e0000000100000ull, 0x41efffffffffffffull, 0x41f0000000000000ull, 0x43dfffffffffffffull,
    0x43e0000000000000ull, 0x43efffffffffffffull, 0x43f0000000000000ull, 0x3690000000000000ull,
    0x36a0000000000000ull, 0x36a0000000000001ull, 0x380fffffffffffffull, 0x3810000000000000ull,
    0x47efffffe0000000ull, 0x47efffffefffffffull, 0x47effffff0000000ull, 0x47f0000000000000ull,
    0x7fefffffffffffffull, 0x7fe0000000000000ull, 0x7ff0000000000000ull, 0x7ff0000000000001ull,
    0x7ff4000000000000ull, 0x7ff8000000000000ull, 0x7fffffffffffffffull,
};
static const uint64_t special_int[] = {
    0,
    1,
    2,
    3,
    0x7f,
    0xff,
    0xffffff,
    0x1000000,
    0x1000001,
    0x1000002,
    0x1000003,
    0x2000003,
    0x7fffff80,
    0x7fffffbf,
    0x7fffffc0,
    0x7fffffff,
    0x80000000,
    0x80000001,
    0xffffff7f,
    0xffffff80,
    0xffffffff,
    0x100000000ull,
    0x1fffffffffffffull,
    0x20000000000000ull,
    0x20000000000001ull,
    0x20000000000003ull,
    0x7ffffffffffffdffull,
    0x7ffffffffffffe00ull,
    0x7fffffffffffffffull,
    0x8000000000000000ull,
    0x8000000000000001ull,
    0xfffffffffffffbffull,
    0xfffffffffffffc00ull,
    0xffffffffffffffffull,
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int is_float_kind(char k)
{
    return k == 'F' || k == 'D';
}

/* the i-th special operand of a kind, negatives after positives */
static size_t special_count(char k)
{
    if (k == 'F')
        return 2 * COUNT(special32);
    if (k == 'D')
        return 2 * COUNT(special64);
    if (k == 'N')
        return 1;
    return 2 * COUNT(special_int);
}

static uint64_t special_at(char k, size_t i)
{
    if (k == 'F')
        return special32[i % COUNT(special32)] | (i >= COUNT(special32) ? 0x80000000u : 0);
    if (k == 'D')
        return special64[i % COUNT(special64)] | (i >= COUNT(special64) ? 1ull << 63 : 0);
    if (k == 'N')
        return 0;
    uint64_t v = special_int[i % COUNT(special_int)];
    return i >= COUNT(special_int) ? 0 - v : v;
}

/* a random integer operand: a random bit length, sometimes few bits set */
static uint64_t rnd_int(void)
{
    uint32_t len = rnd_below(65);
    uint64_t v = rnd();
    if (rnd_below(3) == 0) { /* a run of ones/zeros below a few high bits: ties */
        uint32_t k = rnd_below(64);
        v = rnd_below(2) ? v | ((1ull << k) - 1) : v & ~((1ull << k) - 1);
    }
    v = len == 64 ? v : v & ((1ull << len) - 1);
    if (len > 0 && len < 64)
        v |= 1ull << (len - 1);
    return rnd_below(4) == 0 ? 0 - v : v;
}

/* a random operand pair for 'op' */
static void rnd_pair(const op_t *o, uint64_t *a, uint64_t *b)
{
    int fmt = o->ta == 'D';
    int32_t bias = fmt ? 1023 : 127, emax = fmt ? 2047 : 255;
    if (!is_float_kind(o->ta)) {
        *a = rnd_int();
        *b = 0;
        return;
    }
    if (o->tb == 'N') { /* unary: conversions want the integer boundaries */
        uint32_t m = rnd_below(4);
        *a = m == 0 ? rnd_float(fmt, -1, 0) : rnd_float(fmt, bias + 32, 34);
        *b = 0;
        return;
    }
    if (o->tb == 'I') { /* powi */
        *a = rnd_below(2) ? rnd_float(fmt, bias, 3) : rnd_float(fmt, -1, 0);
        *b = (uint64_t)(uint32_t)((int32_t)rnd_below(81) - 40);
        return;
    }
    uint64_t sign = fmt ? 1ull << 63 : 1u << 31;
    switch (rnd_below(8)) {
    case 0: /* raw random bits */
        *a = rnd();
        *b = rnd();
        if (!fmt) {
            *a &= 0xffffffffu;
            *b &= 0xffffffffu;
        }
        break;
    case 1: { /* exponents close: alignment, cancellation */
        int32_t e = (int32_t)rnd_below((uint32_t)emax - 1) + 1;
        *a = rnd_float(fmt, e, 2);
        *b = rnd_float(fmt, e, fmt ? 60 : 30);
        break;
    }
    case 2: /* nearly equal magnitudes, opposite or equal signs */
        *a = rnd_float(fmt, -1, 0);
        *b = (*a + (rnd() % 9) - 4) ^ (rnd_below(2) ? sign : 0);
        break;
    case 3: { /* product / quotient near the subnormal range or overflow */
        int32_t ea = (int32_t)rnd_below((uint32_t)emax - 1) + 1;
        int32_t target = rnd_below(2) ? (fmt ? 60 : 30) : emax - 2; /* result exponent */
        int32_t eb = o->name[0] == 'd' ? ea - target + bias : target + bias - ea;
        *a = rnd_float(fmt, ea, 0);
        *b = rnd_float(fmt, eb, fmt ? 60 : 30);
        break;
    }
    case 4: /* subnormal and tiny operands */
        *a = rnd_float(fmt, 0, 2);
        *b = rnd_float(fmt, rnd_below(2) ? 0 : bias, 2);
        break;
    default: /* anywhere */
        *a = rnd_float(fmt, -1, 0);
        *b = rnd_float(fmt, -1, 0);
        break;
    }
}

/* ------------------------------------------------------------------- grid */
/* Add/sub/mul/div: every pair of 5-bit significands (1.xxxx: exact sums,
 * products and quotients, ties) at 32 exponent settings: for add/sub an
 * alignment distance of 0..31 (x2 for binary64), for mul/div a result
 * exponent from 4 above the smallest normal down to 27 below it (subnormal
 * results, their rounding, and underflow to zero), both signs of b. */
#define GRID_PAIRS (16 * 16 * 32 * 2)

static int grid_kind(const op_t *o)
{
    if (o->ta != o->tb || !is_float_kind(o->ta) || strlen(o->name) != 6)
        return 0;
    if (!strncmp(o->name, "add", 3) || !strncmp(o->name, "sub", 3))
        return 1;
    return !strncmp(o->name, "mul", 3) ? 2 : !strncmp(o->name, "div", 3) ? 3 : 0;
}

static void grid_pair(const op_t *o, size_t i, uint64_t *a, uint64_t *b)
{
    int fmt = o->ta == 'D', kind = grid_kind(o);
    uint32_t fbits = fmt ? 52 : 23;
    int32_t bias = fmt ? 1023 : 127;
    uint64_t fa = (uint64_t)(i & 15) << (fbits - 4), fb = (uint64_t)(i >> 4 & 15) << (fbits - 4);
    int32_t k = (int32_t)(i >> 8 & 31), ea, eb;
    uint64_t sign_b = (i >> 13 & 1) ? 1ull << (fmt ? 63 : 31) : 0;
    if (kind == 1) { /* alignment distance */
        ea = bias;
        eb = bias - k * (fmt ? 2 : 1);
    } else if (kind == 2) { /* ea + eb - bias = result exponent 5 - k */
        ea = 10;
        eb = 5 - k + bias - ea;
    } else { /* ea - eb + bias = 5 - k */
        ea = 5;
        eb = ea + bias - 5 + k;
    }
    *a = ((uint64_t)ea << fbits) | fa;
    *b = (((uint64_t)eb << fbits) | fb) ^ sign_b;
}

/* ---------------------------------------------------------------- the DPUs */
static const char *dir;
/* Why loading the DPU programs failed ("" when it did not). */
static char load_error[1024];
static vdpu_program_t *prog[SF_GROUPS + 1];
static vdpu_t *dpu[SF_GROUPS + 1];

static int wr(vdpu_t *d, vdpu_program_t *p, const char *sym, const void *buf, size_t n)
{
    vdpu_symbol_t s;
    if (vdpu_program_symbol(p, sym, &s) != VDPU_OK || s.size < n)
        return -1;
    return vdpu_wram_write(d, s.offset, buf, n) == VDPU_OK ? 0 : -1;
}

static int rd(vdpu_t *d, vdpu_program_t *p, const char *sym, void *buf, size_t n)
{
    vdpu_symbol_t s;
    if (vdpu_program_symbol(p, sym, &s) != VDPU_OK || s.size < n)
        return -1;
    return vdpu_wram_read(d, s.offset, buf, n) == VDPU_OK ? 0 : -1;
}

/* run op over n operand pairs on DPU 'g'; returns 0 or writes err */
static int dpu_eval(int g, int op, const uint64_t *a, const uint64_t *b, uint64_t *r, uint32_t n,
                    vdpu_result_t *res, char *err, size_t errlen)
{
    uint32_t o = (uint32_t)op;
    if (wr(dpu[g], prog[g], "op", &o, 4) || wr(dpu[g], prog[g], "count", &n, 4) ||
        wr(dpu[g], prog[g], "in_a", a, 8 * n) || wr(dpu[g], prog[g], "in_b", b, 8 * n)) {
        snprintf(err, errlen, "cannot write the operands");
        return -1;
    }
    if (vdpu_run(dpu[g], res) != VDPU_OK || res->status != VDPU_STATUS_DONE) {
        snprintf(err, errlen, "DPU run failed: %s in %s: %s",
                 res->status == VDPU_STATUS_FAULT ? vdpu_fault_name(res->fault_code) : "error",
                 res->fault_func, res->fault_msg);
        return -1;
    }
    if (rd(dpu[g], prog[g], "out", r, 8 * n)) {
        snprintf(err, errlen, "cannot read the results");
        return -1;
    }
    return 0;
}

static int is_nan_kind(char k, uint64_t v)
{
    if (k == 'F')
        return (v & 0x7fffffffu) > 0x7f800000u;
    if (k == 'D')
        return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    return 0;
}

static uint64_t result_mask(char k)
{
    return k == 'F' || k == 'I' || k == 'U' ? 0xffffffffu : ~0ull;
}

/* ------------------------------------------------------------------ tests */
#define RANDOM_PAIRS 24576

static void test_op(int op)
{
    const op_t *o = &ops[op];
    int g = o->group ? o->group : 1;
    static uint64_t a[SF_N], b[SF_N], r[SF_N];
    size_t na = special_count(o->ta), nb = special_count(o->tb);
    if (o->tb == 'I') /* powi exponents: small */
        nb = 1;
    size_t nspecial = na * nb, ngrid = grid_kind(o) ? GRID_PAIRS : 0;
    size_t total = nspecial + ngrid + RANDOM_PAIRS, done = 0, checked = 0;
    char err[512];
    vdpu_result_t res;
    if (load_error[0]) {
        CHECK(0, "no DPU program: %s", load_error);
        return;
    }
    while (done < total) {
        uint32_t n = 0;
        for (; n < SF_N && done < total; n++, done++) {
            if (done < nspecial) {
                a[n] = special_at(o->ta, done / nb);
                b[n] = o->tb == 'I' ? (uint64_t)(uint32_t)((int32_t)(done % 7) - 3)
                                    : special_at(o->tb, done % nb);
            } else if (done < nspecial + ngrid) {
                grid_pair(o, done - nspecial, &a[n], &b[n]);
            } else {
                rnd_pair(o, &a[n], &b[n]);
            }
            if (o->ta == 'F' || o->ta == 'I' || o->ta == 'U')
                a[n] &= 0xffffffffu;
            if (o->tb == 'F' || o->tb == 'I' || o->tb == 'U')
                b[n] &= 0xffffffffu;
        }
        if (dpu_eval(g, op, a, b, r, n, &res, err, sizeof err)) {
            CHECK(0, "%s", err);
            return;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint64_t want = o->ref(a[i], b[i]) & result_mask(o->tr);
            uint64_t got = r[i] & result_mask(o->tr);
            if (got == want || (is_nan_kind(o->tr, got) && is_nan_kind(o->tr, want)))
                continue;
            CHECK(0, "a=0x%llx b=0x%llx: DPU 0x%llx, host 0x%llx", (unsigned long long)a[i],
                  (unsigned long long)b[i], (unsigned long long)got, (unsigned long long)want);
            return;
        }
        checked += n;
    }
    printf("# softfloat_%s: %zu operand sets, %zu special, %zu grid\n", o->name, checked, nspecial,
           ngrid);
}

/* The test softfloat_<op> (a = the operation). */
static void test_op_case(size_t op, size_t unused)
{
    (void)unused;
    test_op((int)op);
}

/* modeled cost per element on typical operands: normal numbers of moderate
 * magnitude (|x| in about [2^-10, 2^10]), integers of random length */
static void typical(const op_t *o, uint64_t *a, uint64_t *b)
{
    int fmt = o->ta == 'D';
    int32_t bias = fmt ? 1023 : 127;
    uint64_t fr = rnd();
    if (o->ta == 'F')
        *a = mk_f32((uint32_t)(rnd() & 1), bias + (int32_t)rnd_below(21) - 10, fr);
    else if (o->ta == 'D')
        *a = mk_f64(rnd() & 1, bias + (int32_t)rnd_below(21) - 10, fr);
    else
        *a = o->ta == 'I' || o->ta == 'U' ? rnd() & 0xffffffffu : rnd_int();
    fr = rnd();
    if (o->tb == 'F')
        *b = mk_f32((uint32_t)(rnd() & 1), bias + (int32_t)rnd_below(21) - 10, fr);
    else if (o->tb == 'D')
        *b = mk_f64(rnd() & 1, bias + (int32_t)rnd_below(21) - 10, fr);
    else if (o->tb == 'I')
        *b = (uint64_t)(uint32_t)((int32_t)rnd_below(17) - 8);
    else
        *b = rnd();
}

static int measure(int op, int g, double *insn, double *slots)
{
    static uint64_t a[SF_N], b[SF_N], r[SF_N];
    char err[512];
    vdpu_result_t r0, r1;
    for (uint32_t i = 0; i < SF_N; i++)
        typical(&ops[op], &a[i], &b[i]);
    if (dpu_eval(g, op, a, b, r, 0, &r0, err, sizeof err) ||
        dpu_eval(g, op, a, b, r, SF_N, &r1, err, sizeof err)) {
        fprintf(stderr, "softfloat_stats: %s\n", err);
        return -1;
    }
    *insn = (double)(r1.instructions - r0.instructions) / SF_N;
    *slots = (double)(r1.slots - r0.slots) / SF_N;
    return 0;
}

static void stats(void)
{
    /* PrIM Fig. 4 (upmem-perf-facts.md §1.3): instructions per element of a
     * WRAM load + op + store loop, 350 MHz / MOPS */
    static const struct {
        const char *op;
        double prim;
    } prim[] = {{"addsf3", 71},  {"subsf3", 76},  {"mulsf3", 183}, {"divsf3", 1030},
                {"adddf3", 105}, {"subdf3", 113}, {"muldf3", 660}, {"divdf3", 2190}};
    double nop_insn, nop_slots;
    if (measure(SF_OP_nop, 1, &nop_insn, &nop_slots))
        return;
    printf("# modeled per element (loop: 2 loads + op + store; 'op' = loop - integer loop of "
           "%.1f instructions / %.1f slots)\n",
           nop_insn, nop_slots);
    printf("# %-14s %8s %8s %8s %8s  %s\n", "op", "loop-ins", "loop-slt", "op-ins", "op-slt",
           "PrIM instr/op");
    for (int op = 1; op < SF_OP__COUNT; op++) {
        double insn, slots;
        if (measure(op, ops[op].group, &insn, &slots))
            return;
        char p[32] = "";
        for (size_t k = 0; k < COUNT(prim); k++)
            if (!strcmp(prim[k].op, ops[op].name))
                snprintf(p, sizeof p, "%s%.0f", k == 1 || k == 5 ? "~" : "", prim[k].prim);
        printf("# %-14s %8.1f %8.1f %8.1f %8.1f  %s\n", ops[op].name, insn, slots, insn - nop_insn,
               slots - nop_slots, p);
    }
}

TEST(softfloat_load)
{
    CHECK(load_error[0] == 0, "%s", load_error);
}

int main(int argc, char **argv)
{
    int want_stats = 0, nargs = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--stats"))
            want_stats = 1;
        else if (dir == NULL)
            dir = argv[i];
        else
            argv[nargs++] = argv[i]; /* the harness's name filters */
    }
    if (dir == NULL) {
        fprintf(stderr, "usage: sf_run DIR [--stats] [NAME-PREFIX...]\n");
        return 2;
    }
    const char *seed = getenv("SF_SEED");
    rng_state = seed ? strtoull(seed, NULL, 0) : 0x5f0f7ull;
    printf("# seed 0x%llx (set SF_SEED to change)\n", (unsigned long long)rng_state);
    for (int g = 1; g <= SF_GROUPS && !load_error[0]; g++) {
        char path[512], msg[256];
        snprintf(path, sizeof path, "%s/dpu_softfloat_%d.elf", dir, g);
        vdpu_err_t e = vdpu_program_load_file(path, &prog[g], msg, sizeof msg);
        if (e != VDPU_OK) {
            snprintf(load_error, sizeof load_error, "%s: %s: %s", path, vdpu_strerror(e), msg);
            prog[g] = NULL;
            break;
        }
        vdpu_params_t prm;
        vdpu_params_default(&prm);
        prm.mode = want_stats ? VDPU_MODE_TIMED : VDPU_MODE_FAST;
        if (vdpu_create(&prm, &dpu[g]) != VDPU_OK || vdpu_load(dpu[g], prog[g]) != VDPU_OK)
            snprintf(load_error, sizeof load_error, "cannot create/load the DPU for %s", path);
    }
    int status;
    if (want_stats) {
        if (load_error[0])
            fprintf(stderr, "sf_run: %s\n", load_error);
        else
            stats();
        status = load_error[0] != 0;
    } else {
        /* registered here, not by TEST(): one per operation of sf_ops.h */
        for (int op = 0; op < SF_OP__COUNT; op++) {
            char name[96];
            snprintf(name, sizeof name, "softfloat_%s", ops[op].name);
            test_register_case(name, test_op_case, (size_t)op, 0);
        }
        status = test_main(nargs, argv);
    }
    for (int g = 1; g <= SF_GROUPS; g++) {
        vdpu_free(dpu[g]);
        vdpu_program_free(prog[g]);
    }
    return status;
}
