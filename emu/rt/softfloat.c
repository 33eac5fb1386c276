/* softfloat.c -- IEEE-754 binary32/binary64 in software: the compiler-rt /
 * libgcc soft-float ABI that clang emits calls to for rv32im (ilp32, no F/D).
 * The real DPU has no FPU either; its SDK links the same routines.
 *
 * Semantics: round to nearest, ties to even (the only mode; no exception
 * flags); subnormals are produced and consumed (no flush to zero); a NaN
 * result is the first NaN operand made quiet, or the default NaN
 * (0x7fc00000 / 0x7ff8000000000000) for invalid operations.
 * Comparisons follow compiler-rt: __eq/__ne/__lt/__le/__cmp return -1/0/1
 * for less/equal/greater and 1 when unordered; __ge/__gt return -1 when
 * unordered; __unord returns 1 when either operand is a NaN.
 * Float -> integer conversions truncate toward zero and, where C leaves the
 * result undefined (out of range, NaN), saturate as compiler-rt does: to the
 * type's min/max by the sign of the operand (NaN included); unsigned targets
 * give 0 for negative operands.
 *
 * Only uint32_t/uint64_t arithmetic: nothing here may itself need a
 * soft-float call. Add, sub, mul and div follow compiler-rt (see the comment
 * above f32_add); their 32x32->64 products are plain C `(uint64_t)x * y`, so
 * they cost what the virtual DPU charges for a multiply (the DPU, with no
 * multiplier, calls a mul_step routine for each). Conversions round with the
 * classic scheme: a significand with the integer bit at a fixed position
 * (bit 30 of 32 / bit 62 of 64) plus round bits below the last kept bit, and
 * an exponent one less than the biased exponent so that packing with '+' lets
 * a rounding carry ripple into the exponent field. */
#include <stdint.h>

/* ------------------------------------------------------------ bit access */
typedef union {
    float f;
    uint32_t u;
} f32_bits;

typedef union {
    double f;
    uint64_t u;
} f64_bits;

static inline uint32_t f2u(float f)
{
    f32_bits b;
    b.f = f;
    return b.u;
}

static inline float u2f(uint32_t u)
{
    f32_bits b;
    b.u = u;
    return b.f;
}

static inline uint64_t d2u(double f)
{
    f64_bits b;
    b.f = f;
    return b.u;
}

static inline double u2d(uint64_t u)
{
    f64_bits b;
    b.u = u;
    return b.f;
}

#define F32_SIGN   0x80000000u
#define F32_ABS    0x7fffffffu
#define F32_INF    0x7f800000u
#define F32_QNAN   0x7fc00000u
#define F32_FRAC   0x007fffffu
#define F32_HIDDEN 0x00800000u

#define F64_SIGN   0x8000000000000000ull
#define F64_ABS    0x7fffffffffffffffull
#define F64_INF    0x7ff0000000000000ull
#define F64_QNAN   0x7ff8000000000000ull
#define F64_FRAC   0x000fffffffffffffull
#define F64_HIDDEN 0x0010000000000000ull

static inline int f32_isnan(uint32_t a)
{
    return (a & F32_ABS) > F32_INF;
}
static inline int f64_isnan(uint64_t a)
{
    return (a & F64_ABS) > F64_INF;
}

/* shift right, OR-ing every bit shifted out into bit 0 ("jamming") so that
 * rounding still sees that the value was inexact; any count allowed */
static inline uint32_t shr_jam32(uint32_t a, uint32_t n)
{
    if (n == 0)
        return a;
    if (n >= 32)
        return a != 0;
    return (a >> n) | ((a << (32 - n)) != 0);
}

static inline uint64_t shr_jam64(uint64_t a, uint32_t n)
{
    if (n == 0)
        return a;
    if (n >= 64)
        return a != 0;
    return (a >> n) | ((a << (64 - n)) != 0);
}

static inline int clz64(uint64_t a)
{
    uint32_t hi = (uint32_t)(a >> 32);
    return hi ? __builtin_clz(hi) : 32 + __builtin_clz((uint32_t)a);
}

/* ------------------------------------------------------- round and pack */
/* binary32: value = sig * 2^(exp - 156), sig's leading 1 at bit 30 (or sig
 * tiny with exp < 0); 7 round bits. */
static uint32_t f32_round_pack(uint32_t sign, int32_t exp, uint32_t sig)
{
    uint32_t round_bits = sig & 0x7f;
    if ((uint32_t)exp >= 0xfd) {
        if (exp < 0) {
            sig = shr_jam32(sig, (uint32_t)-exp);
            exp = 0;
            round_bits = sig & 0x7f;
        } else if (exp > 0xfd || sig + 0x40 >= 0x80000000u) {
            return sign | F32_INF;
        }
    }
    sig = (sig + 0x40) >> 7;
    if (round_bits == 0x40)
        sig &= ~1u; /* tie: to even */
    if (sig == 0)
        exp = 0;
    return sign + ((uint32_t)exp << 23) + sig;
}

/* any nonzero sig: normalise the leading 1 to bit 30, then round */
static uint32_t f32_norm_round_pack(uint32_t sign, int32_t exp, uint32_t sig)
{
    int shift = __builtin_clz(sig) - 1;
    if (shift < 0)
        return f32_round_pack(sign, exp + 1, (sig >> 1) | (sig & 1));
    return f32_round_pack(sign, exp - shift, sig << shift);
}

/* binary64: value = sig * 2^(exp - 1084), leading 1 at bit 62; 10 round bits */
static uint64_t f64_round_pack(uint64_t sign, int32_t exp, uint64_t sig)
{
    uint32_t round_bits = (uint32_t)sig & 0x3ff;
    if ((uint32_t)exp >= 0x7fd) {
        if (exp < 0) {
            sig = shr_jam64(sig, (uint32_t)-exp);
            exp = 0;
            round_bits = (uint32_t)sig & 0x3ff;
        } else if (exp > 0x7fd || sig + 0x200 >= 0x8000000000000000ull) {
            return sign | F64_INF;
        }
    }
    sig = (sig + 0x200) >> 10;
    if (round_bits == 0x200)
        sig &= ~1ull;
    if (sig == 0)
        exp = 0;
    return sign + ((uint64_t)(uint32_t)exp << 52) + sig;
}

static uint64_t f64_norm_round_pack(uint64_t sign, int32_t exp, uint64_t sig)
{
    int shift = clz64(sig) - 1;
    if (shift < 0)
        return f64_round_pack(sign, exp + 1, (sig >> 1) | (sig & 1));
    return f64_round_pack(sign, exp - shift, sig << shift);
}

/* ------------------------------------------------------------ binary32 */

/* The four operations of both formats follow LLVM compiler-rt's generic
 * soft-float routines, which the UPMEM SDK compiles for the DPU and links
 * (fp_add_impl.inc, fp_mul_impl.inc, divsf3.c/divdf3.c of its runtime):
 * the same steps on the same widths, so a program executes the operation mix
 * the DPU executes -- in particular the same 32x32->64 products, written as
 * plain C `(uint64_t)x * y`, so that whatever prices a multiply on the
 * virtual DPU prices these. Our own code; differences: the division also
 * rounds subnormal quotients correctly (the SDK's divsf3/divdf3 flush them to
 * zero; that path is only taken for such results), and shifts that C leaves
 * undefined are guarded. */

/* subnormal significand -> leading 1 at the implicit bit; the exponent it
 * implies (compiler-rt's normalize) */
static inline int f32_normalize(uint32_t *sig)
{
    int shift = __builtin_clz(*sig) - __builtin_clz(F32_HIDDEN);
    *sig <<= shift;
    return 1 - shift;
}

/* a + b; b's sign flipped for a - b (compiler-rt __addXf3__) */
static uint32_t f32_add(uint32_t a, uint32_t b)
{
    uint32_t aAbs = a & F32_ABS, bAbs = b & F32_ABS;
    /* zero, infinity or NaN */
    if (aAbs - 1u >= F32_INF - 1u || bAbs - 1u >= F32_INF - 1u) {
        if (aAbs > F32_INF)
            return a | 0x00400000u;
        if (bAbs > F32_INF)
            return b | 0x00400000u;
        if (aAbs == F32_INF)
            return (a ^ b) == F32_SIGN ? F32_QNAN : a; /* inf - inf */
        if (bAbs == F32_INF)
            return b;
        if (!aAbs)
            return bAbs ? b : (a & b); /* -0 + -0 = -0, else +0 */
        if (!bAbs)
            return a;
    }
    if (bAbs > aAbs) { /* a gets the larger magnitude: its sign wins */
        uint32_t t = a;
        a = b;
        b = t;
    }
    int aExp = (int)(a >> 23 & 0xff), bExp = (int)(b >> 23 & 0xff);
    uint32_t aSig = a & F32_FRAC, bSig = b & F32_FRAC;
    if (aExp == 0)
        aExp = f32_normalize(&aSig);
    if (bExp == 0)
        bExp = f32_normalize(&bSig);
    uint32_t sign = a & F32_SIGN;
    int subtraction = ((a ^ b) & F32_SIGN) != 0;
    /* three bits below the significand: round, guard, sticky */
    aSig = (aSig | F32_HIDDEN) << 3;
    bSig = (bSig | F32_HIDDEN) << 3;
    uint32_t align = (uint32_t)(aExp - bExp);
    if (align) {
        if (align < 32) {
            uint32_t sticky = (bSig << (32 - align)) != 0;
            bSig = bSig >> align | sticky;
        } else {
            bSig = 1; /* only the sticky bit: b is nonzero */
        }
    }
    if (subtraction) {
        aSig -= bSig;
        if (aSig == 0)
            return 0; /* exact cancellation: +0 */
        if (aSig < F32_HIDDEN << 3) {
            int shift = __builtin_clz(aSig) - __builtin_clz(F32_HIDDEN << 3);
            aSig <<= shift;
            aExp -= shift;
        }
    } else {
        aSig += bSig;
        if (aSig & F32_HIDDEN << 4) { /* carry out: one bit right */
            uint32_t sticky = aSig & 1;
            aSig = aSig >> 1 | sticky;
            aExp += 1;
        }
    }
    if (aExp >= 0xff)
        return F32_INF | sign;
    if (aExp <= 0) {
        /* subnormal result; it is exact below 2^-126, so the shift is small,
         * but keep it defined */
        uint32_t shift = (uint32_t)(1 - aExp);
        if (shift < 32) {
            uint32_t sticky = (aSig << (32 - shift)) != 0;
            aSig = aSig >> shift | sticky;
        } else {
            aSig = aSig != 0;
        }
        aExp = 0;
    }
    uint32_t rgs = aSig & 7;
    uint32_t result = (aSig >> 3 & F32_FRAC) | (uint32_t)aExp << 23 | sign;
    /* round to nearest, ties to even; may carry into infinity, correctly */
    if (rgs > 4)
        result++;
    if (rgs == 4)
        result += result & 1;
    return result;
}

/* special operands of mul/div: a NaN or the result for zero/inf operands,
 * else scale the subnormal significands (compiler-rt's prologue) */
static uint32_t f32_mul(uint32_t a, uint32_t b)
{
    uint32_t aExp = a >> 23 & 0xff, bExp = b >> 23 & 0xff;
    uint32_t sign = (a ^ b) & F32_SIGN;
    uint32_t aSig = a & F32_FRAC, bSig = b & F32_FRAC;
    int scale = 0;
    if (aExp - 1u >= 0xfeu || bExp - 1u >= 0xfeu) {
        uint32_t aAbs = a & F32_ABS, bAbs = b & F32_ABS;
        if (aAbs > F32_INF)
            return a | 0x00400000u;
        if (bAbs > F32_INF)
            return b | 0x00400000u;
        if (aAbs == F32_INF)
            return bAbs ? (aAbs | sign) : F32_QNAN; /* inf * 0 */
        if (bAbs == F32_INF)
            return aAbs ? (bAbs | sign) : F32_QNAN;
        if (!aAbs || !bAbs)
            return sign;
        if (aAbs < F32_HIDDEN)
            scale += f32_normalize(&aSig);
        if (bAbs < F32_HIDDEN)
            scale += f32_normalize(&bSig);
    }
    aSig |= F32_HIDDEN;
    bSig |= F32_HIDDEN;
    /* b left-aligned: the 48-bit product's leading 1 is bit 23 or 24 of hi */
    uint64_t product = (uint64_t)aSig * (bSig << 8);
    uint32_t hi = (uint32_t)(product >> 32), lo = (uint32_t)product;
    int pExp = (int)aExp + (int)bExp - 127 + scale;
    if (hi & F32_HIDDEN) {
        pExp++;
    } else {
        hi = hi << 1 | lo >> 31;
        lo <<= 1;
    }
    if (pExp >= 0xff)
        return F32_INF | sign;
    if (pExp <= 0) {
        /* subnormal: shift so that the round bit is lo's top bit */
        uint32_t shift = (uint32_t)(1 - pExp);
        if (shift >= 32)
            return sign; /* below half the smallest subnormal */
        uint32_t sticky = (lo << (32 - shift)) != 0;
        lo = hi << (32 - shift) | lo >> shift | sticky;
        hi >>= shift;
    } else {
        hi = (hi & F32_FRAC) | (uint32_t)pExp << 23;
    }
    hi |= sign;
    if (lo > 0x80000000u)
        hi++;
    if (lo == 0x80000000u)
        hi += hi & 1;
    return hi;
}

/* Subnormal quotient (compiler-rt's divsf3/divdf3 flush it to zero). The
 * 24/53-bit q is below a/b by f = residual / b units of q, 0 < f < 1.125 (the
 * reciprocal is biased low; compiler-rt's error bound), so q + 1 may still be
 * below a/b. shift = how far q goes right. Rounds to nearest even. */
static uint64_t subnormal_quotient(uint64_t q, uint64_t residual, uint64_t b, uint32_t shift)
{
    if (residual >= b) {
        q++;
        residual -= b;
    }
    if (shift > 63)
        return 0;
    uint64_t half = 1ull << (shift - 1), rem = q & ((half << 1) - 1);
    q >>= shift;
    if (rem > half || (rem == half && (residual != 0 || (q & 1))))
        q++;
    return q;
}

static uint32_t f32_div(uint32_t a, uint32_t b)
{
    uint32_t aExp = a >> 23 & 0xff, bExp = b >> 23 & 0xff;
    uint32_t sign = (a ^ b) & F32_SIGN;
    uint32_t aSig = a & F32_FRAC, bSig = b & F32_FRAC;
    int scale = 0;
    if (aExp - 1u >= 0xfeu || bExp - 1u >= 0xfeu) {
        uint32_t aAbs = a & F32_ABS, bAbs = b & F32_ABS;
        if (aAbs > F32_INF)
            return a | 0x00400000u;
        if (bAbs > F32_INF)
            return b | 0x00400000u;
        if (aAbs == F32_INF)
            return bAbs == F32_INF ? F32_QNAN : (aAbs | sign);
        if (bAbs == F32_INF)
            return sign;
        if (!aAbs)
            return bAbs ? sign : F32_QNAN; /* 0 / 0 */
        if (!bAbs)
            return F32_INF | sign;
        if (aAbs < F32_HIDDEN)
            scale += f32_normalize(&aSig);
        if (bAbs < F32_HIDDEN)
            scale -= f32_normalize(&bSig);
    }
    aSig |= F32_HIDDEN;
    bSig |= F32_HIDDEN;
    int qExp = (int)aExp - (int)bExp + scale;
    /* b as Q31 in [1, 2); reciprocal estimate 3/4 + 1/sqrt(2) - b/2 (Q32,
     * ~3.5 bits), then three Newton-Raphson steps x = x * (2 - x * b), each
     * two 32x32->64 products, to ~28 bits */
    uint32_t q31b = bSig << 8;
    uint32_t recip = 0x7504f333u - q31b;
    uint32_t corr;
    corr = 0u - (uint32_t)((uint64_t)recip * q31b >> 32);
    recip = (uint32_t)((uint64_t)recip * corr >> 31);
    corr = 0u - (uint32_t)((uint64_t)recip * q31b >> 32);
    recip = (uint32_t)((uint64_t)recip * corr >> 31);
    corr = 0u - (uint32_t)((uint64_t)recip * q31b >> 32);
    recip = (uint32_t)((uint64_t)recip * corr >> 31);
    /* bias it below the true reciprocal, so that q <= a/b */
    recip -= 2;
    uint32_t q = (uint32_t)((uint64_t)recip * (aSig << 1) >> 32);
    /* q in [0.5, 2): normalise to [1, 2); residual r = a - q*b in
     * [0, ulp*b): q rounds up when 2r > b (no exact half) */
    uint32_t residual;
    if (q < F32_HIDDEN << 1) {
        residual = (aSig << 24) - q * bSig;
        qExp--;
    } else {
        q >>= 1;
        residual = (aSig << 23) - q * bSig;
    }
    int wExp = qExp + 127;
    if (wExp >= 0xff)
        return F32_INF | sign;
    if (wExp < 1)
        return sign | (uint32_t)subnormal_quotient(q, residual, bSig, (uint32_t)(1 - wExp));
    uint32_t round = (residual << 1) > bSig;
    uint32_t absResult = (q & F32_FRAC) | (uint32_t)wExp << 23;
    absResult += round;
    return absResult | sign;
}

/* ------------------------------------------------------------ binary64 */

static inline int f64_clz(uint64_t a)
{
    /* compiler-rt's rep_clz on a 32-bit machine */
    if (a & 0xffffffff00000000ull)
        return __builtin_clz((uint32_t)(a >> 32));
    return 32 + __builtin_clz((uint32_t)a);
}

static inline int f64_normalize(uint64_t *sig)
{
    int shift = f64_clz(*sig) - f64_clz(F64_HIDDEN);
    *sig <<= shift;
    return 1 - shift;
}

/* 64x64 -> 128 from four 32x32 -> 64 products (compiler-rt's wideMultiply) */
static inline void f64_wide_mul(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t plolo = a0 * b0, plohi = a0 * b1, philo = a1 * b0, phihi = a1 * b1;
    uint64_t r0 = plolo & 0xffffffffu;
    uint64_t r1 = (plolo >> 32) + (plohi & 0xffffffffu) + (philo & 0xffffffffu);
    *lo = r0 + (r1 << 32);
    *hi = (plohi >> 32) + (philo >> 32) + (r1 >> 32) + phihi;
}

static uint64_t f64_add(uint64_t a, uint64_t b)
{
    uint64_t aAbs = a & F64_ABS, bAbs = b & F64_ABS;
    if (aAbs - 1u >= F64_INF - 1u || bAbs - 1u >= F64_INF - 1u) {
        if (aAbs > F64_INF)
            return a | 0x0008000000000000ull;
        if (bAbs > F64_INF)
            return b | 0x0008000000000000ull;
        if (aAbs == F64_INF)
            return (a ^ b) == F64_SIGN ? F64_QNAN : a;
        if (bAbs == F64_INF)
            return b;
        if (!aAbs)
            return bAbs ? b : (a & b);
        if (!bAbs)
            return a;
    }
    if (bAbs > aAbs) {
        uint64_t t = a;
        a = b;
        b = t;
    }
    int aExp = (int)(a >> 52 & 0x7ff), bExp = (int)(b >> 52 & 0x7ff);
    uint64_t aSig = a & F64_FRAC, bSig = b & F64_FRAC;
    if (aExp == 0)
        aExp = f64_normalize(&aSig);
    if (bExp == 0)
        bExp = f64_normalize(&bSig);
    uint64_t sign = a & F64_SIGN;
    int subtraction = ((a ^ b) & F64_SIGN) != 0;
    aSig = (aSig | F64_HIDDEN) << 3;
    bSig = (bSig | F64_HIDDEN) << 3;
    uint32_t align = (uint32_t)(aExp - bExp);
    if (align) {
        if (align < 64) {
            uint64_t sticky = (bSig << (64 - align)) != 0;
            bSig = bSig >> align | sticky;
        } else {
            bSig = 1;
        }
    }
    if (subtraction) {
        aSig -= bSig;
        if (aSig == 0)
            return 0;
        if (aSig < F64_HIDDEN << 3) {
            int shift = f64_clz(aSig) - f64_clz(F64_HIDDEN << 3);
            aSig <<= shift;
            aExp -= shift;
        }
    } else {
        aSig += bSig;
        if (aSig & F64_HIDDEN << 4) {
            uint64_t sticky = aSig & 1;
            aSig = aSig >> 1 | sticky;
            aExp += 1;
        }
    }
    if (aExp >= 0x7ff)
        return F64_INF | sign;
    if (aExp <= 0) {
        uint32_t shift = (uint32_t)(1 - aExp);
        if (shift < 64) {
            uint64_t sticky = (aSig << (64 - shift)) != 0;
            aSig = aSig >> shift | sticky;
        } else {
            aSig = aSig != 0;
        }
        aExp = 0;
    }
    uint32_t rgs = (uint32_t)aSig & 7;
    uint64_t result = (aSig >> 3 & F64_FRAC) | (uint64_t)aExp << 52 | sign;
    if (rgs > 4)
        result++;
    if (rgs == 4)
        result += result & 1;
    return result;
}

static uint64_t f64_mul(uint64_t a, uint64_t b)
{
    uint32_t aExp = (uint32_t)(a >> 52) & 0x7ff, bExp = (uint32_t)(b >> 52) & 0x7ff;
    uint64_t sign = (a ^ b) & F64_SIGN;
    uint64_t aSig = a & F64_FRAC, bSig = b & F64_FRAC;
    int scale = 0;
    if (aExp - 1u >= 0x7feu || bExp - 1u >= 0x7feu) {
        uint64_t aAbs = a & F64_ABS, bAbs = b & F64_ABS;
        if (aAbs > F64_INF)
            return a | 0x0008000000000000ull;
        if (bAbs > F64_INF)
            return b | 0x0008000000000000ull;
        if (aAbs == F64_INF)
            return bAbs ? (aAbs | sign) : F64_QNAN;
        if (bAbs == F64_INF)
            return aAbs ? (bAbs | sign) : F64_QNAN;
        if (!aAbs || !bAbs)
            return sign;
        if (aAbs < F64_HIDDEN)
            scale += f64_normalize(&aSig);
        if (bAbs < F64_HIDDEN)
            scale += f64_normalize(&bSig);
    }
    aSig |= F64_HIDDEN;
    bSig |= F64_HIDDEN;
    uint64_t hi, lo;
    f64_wide_mul(aSig, bSig << 11, &hi, &lo);
    int pExp = (int)aExp + (int)bExp - 1023 + scale;
    if (hi & F64_HIDDEN) {
        pExp++;
    } else {
        hi = hi << 1 | lo >> 63;
        lo <<= 1;
    }
    if (pExp >= 0x7ff)
        return F64_INF | sign;
    if (pExp <= 0) {
        uint32_t shift = (uint32_t)(1 - pExp);
        if (shift >= 64)
            return sign;
        uint64_t sticky = (lo << (64 - shift)) != 0;
        lo = hi << (64 - shift) | lo >> shift | sticky;
        hi >>= shift;
    } else {
        hi = (hi & F64_FRAC) | (uint64_t)pExp << 52;
    }
    hi |= sign;
    if (lo > 0x8000000000000000ull)
        hi++;
    if (lo == 0x8000000000000000ull)
        hi += hi & 1;
    return hi;
}

static uint64_t f64_div(uint64_t a, uint64_t b)
{
    uint32_t aExp = (uint32_t)(a >> 52) & 0x7ff, bExp = (uint32_t)(b >> 52) & 0x7ff;
    uint64_t sign = (a ^ b) & F64_SIGN;
    uint64_t aSig = a & F64_FRAC, bSig = b & F64_FRAC;
    int scale = 0;
    if (aExp - 1u >= 0x7feu || bExp - 1u >= 0x7feu) {
        uint64_t aAbs = a & F64_ABS, bAbs = b & F64_ABS;
        if (aAbs > F64_INF)
            return a | 0x0008000000000000ull;
        if (bAbs > F64_INF)
            return b | 0x0008000000000000ull;
        if (aAbs == F64_INF)
            return bAbs == F64_INF ? F64_QNAN : (aAbs | sign);
        if (bAbs == F64_INF)
            return sign;
        if (!aAbs)
            return bAbs ? sign : F64_QNAN;
        if (!bAbs)
            return F64_INF | sign;
        if (aAbs < F64_HIDDEN)
            scale += f64_normalize(&aSig);
        if (bAbs < F64_HIDDEN)
            scale -= f64_normalize(&bSig);
    }
    aSig |= F64_HIDDEN;
    bSig |= F64_HIDDEN;
    int qExp = (int)aExp - (int)bExp + scale;
    /* 32-bit reciprocal of b's top bits, three Newton-Raphson steps (as in
     * the binary32 division) */
    uint32_t q31b = (uint32_t)(bSig >> 21);
    uint32_t recip32 = 0x7504f333u - q31b;
    uint32_t corr32;
    corr32 = 0u - (uint32_t)((uint64_t)recip32 * q31b >> 32);
    recip32 = (uint32_t)((uint64_t)recip32 * corr32 >> 31);
    corr32 = 0u - (uint32_t)((uint64_t)recip32 * q31b >> 32);
    recip32 = (uint32_t)((uint64_t)recip32 * corr32 >> 31);
    corr32 = 0u - (uint32_t)((uint64_t)recip32 * q31b >> 32);
    recip32 = (uint32_t)((uint64_t)recip32 * corr32 >> 31);
    /* keep it from having wrapped to zero when b's top word is exactly 1.0 */
    recip32--;
    /* a fourth step in 64 bits, to ~56 bits */
    uint32_t q63blo = (uint32_t)bSig << 11;
    uint64_t corr = 0 - ((uint64_t)recip32 * q31b + ((uint64_t)recip32 * q63blo >> 32));
    uint32_t cHi = (uint32_t)(corr >> 32), cLo = (uint32_t)corr;
    uint64_t recip = (uint64_t)recip32 * cHi + ((uint64_t)recip32 * cLo >> 32);
    recip -= 2; /* strictly below the true reciprocal: q <= a/b */
    uint64_t q, qLo;
    f64_wide_mul(aSig << 2, recip, &q, &qLo);
    uint64_t residual;
    if (q < F64_HIDDEN << 1) {
        residual = (aSig << 53) - q * bSig;
        qExp--;
    } else {
        q >>= 1;
        residual = (aSig << 52) - q * bSig;
    }
    int wExp = qExp + 1023;
    if (wExp >= 0x7ff)
        return F64_INF | sign;
    if (wExp < 1)
        return sign | subnormal_quotient(q, residual, bSig, (uint32_t)(1 - wExp));
    uint64_t round = (residual << 1) > bSig;
    uint64_t absResult = (q & F64_FRAC) | (uint64_t)wExp << 52;
    absResult += round;
    return absResult | sign;
}

/* ------------------------------------------------------------ compare */
/* -1/0/1 for a < b, a == b, a > b; 'unordered' when either is a NaN */
static int f32_cmp(uint32_t a, uint32_t b, int unordered)
{
    if (f32_isnan(a) || f32_isnan(b))
        return unordered;
    if (((a | b) & F32_ABS) == 0)
        return 0; /* +0 == -0 */
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    if ((sa & sb) >= 0) /* not both negative: integer order is float order */
        return sa < sb ? -1 : sa > sb;
    return sa > sb ? -1 : sa < sb; /* both negative: reversed */
}

static int f64_cmp(uint64_t a, uint64_t b, int unordered)
{
    if (f64_isnan(a) || f64_isnan(b))
        return unordered;
    if (((a | b) & F64_ABS) == 0)
        return 0;
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    if ((sa & sb) >= 0)
        return sa < sb ? -1 : sa > sb;
    return sa > sb ? -1 : sa < sb;
}

/* ------------------------------------------------- float -> integer */
/* |a| truncated to an integer, saturated to 'max' (inf and NaN too) */
static uint64_t f32_to_u64_trunc(uint32_t aabs, uint64_t max)
{
    int32_t e = (int32_t)(aabs >> 23) - 127; /* unbiased */
    if (e < 0)
        return 0;
    if (e >= 64)
        return max;
    uint64_t s = (aabs & F32_FRAC) | F32_HIDDEN;
    uint64_t v = e >= 23 ? s << (e - 23) : s >> (23 - e);
    return v > max ? max : v;
}

static uint64_t f64_to_u64_trunc(uint64_t aabs, uint64_t max)
{
    int32_t e = (int32_t)(aabs >> 52) - 1023;
    if (e < 0)
        return 0;
    if (e >= 64)
        return max;
    uint64_t s = (aabs & F64_FRAC) | F64_HIDDEN;
    uint64_t v = e >= 52 ? s << (e - 52) : s >> (52 - e);
    return v > max ? max : v;
}

/* signed: |a| saturates at 2^(bits-1) - 1, or 2^(bits-1) when negative
 * (exactly INT_MIN, or the saturation to it) */
static int64_t f32_to_i64(uint32_t a, uint64_t max)
{
    if (a & F32_SIGN)
        return (int64_t)(0 - f32_to_u64_trunc(a & F32_ABS, max + 1));
    return (int64_t)f32_to_u64_trunc(a, max);
}

static int64_t f64_to_i64(uint64_t a, uint64_t max)
{
    if (a & F64_SIGN)
        return (int64_t)(0 - f64_to_u64_trunc(a & F64_ABS, max + 1));
    return (int64_t)f64_to_u64_trunc(a, max);
}

/* ------------------------------------------------- integer -> float */
static uint32_t u64_to_f32(uint32_t sign, uint64_t v)
{
    if (v == 0)
        return sign;
    int lz = clz64(v);
    uint32_t s = (uint32_t)shr_jam64(v << lz, 32); /* leading 1 at bit 31 */
    return f32_norm_round_pack(sign, 188 - lz, s);
}

static uint64_t u64_to_f64(uint64_t sign, uint64_t v)
{
    if (v == 0)
        return sign;
    return f64_norm_round_pack(sign, 1084, v);
}

/* a^n by square-and-multiply, the same operation order as compiler-rt and
 * libgcc (__builtin_powi is not correctly rounded; it matches them) */
static uint32_t f32_powi(uint32_t a, int32_t n)
{
    uint32_t m = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;
    uint32_t r = 0x3f800000u; /* 1.0f */
    for (;;) {
        if (m & 1)
            r = f32_mul(r, a);
        m >>= 1;
        if (m == 0)
            break;
        a = f32_mul(a, a);
    }
    return n < 0 ? f32_div(0x3f800000u, r) : r;
}

static uint64_t f64_powi(uint64_t a, int32_t n)
{
    uint32_t m = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;
    uint64_t r = 0x3ff0000000000000ull;
    for (;;) {
        if (m & 1)
            r = f64_mul(r, a);
        m >>= 1;
        if (m == 0)
            break;
        a = f64_mul(a, a);
    }
    return n < 0 ? f64_div(0x3ff0000000000000ull, r) : r;
}

/* ==================================================== the ABI entry points */
float __addsf3(float a, float b);
float __subsf3(float a, float b);
float __mulsf3(float a, float b);
float __divsf3(float a, float b);
float __negsf2(float a);
double __adddf3(double a, double b);
double __subdf3(double a, double b);
double __muldf3(double a, double b);
double __divdf3(double a, double b);
double __negdf2(double a);

int __eqsf2(float a, float b);
int __nesf2(float a, float b);
int __ltsf2(float a, float b);
int __lesf2(float a, float b);
int __cmpsf2(float a, float b);
int __gtsf2(float a, float b);
int __gesf2(float a, float b);
int __unordsf2(float a, float b);
int __eqdf2(double a, double b);
int __nedf2(double a, double b);
int __ltdf2(double a, double b);
int __ledf2(double a, double b);
int __cmpdf2(double a, double b);
int __gtdf2(double a, double b);
int __gedf2(double a, double b);
int __unorddf2(double a, double b);

double __extendsfdf2(float a);
float __truncdfsf2(double a);
int32_t __fixsfsi(float a);
uint32_t __fixunssfsi(float a);
int32_t __fixdfsi(double a);
uint32_t __fixunsdfsi(double a);
int64_t __fixsfdi(float a);
uint64_t __fixunssfdi(float a);
int64_t __fixdfdi(double a);
uint64_t __fixunsdfdi(double a);
float __floatsisf(int32_t a);
float __floatunsisf(uint32_t a);
double __floatsidf(int32_t a);
double __floatunsidf(uint32_t a);
float __floatdisf(int64_t a);
float __floatundisf(uint64_t a);
double __floatdidf(int64_t a);
double __floatundidf(uint64_t a);
float __powisf2(float a, int32_t n);
double __powidf2(double a, int32_t n);

/* __sub?f3 calls __add?f3 with b's sign flipped, as compiler-rt's
 * subsf3.c/subdf3.c do (a separate unit there: the call stays) */
__attribute__((noinline)) float __addsf3(float a, float b)
{
    return u2f(f32_add(f2u(a), f2u(b)));
}
float __subsf3(float a, float b)
{
    return __addsf3(a, u2f(f2u(b) ^ F32_SIGN));
}
float __mulsf3(float a, float b)
{
    return u2f(f32_mul(f2u(a), f2u(b)));
}
float __divsf3(float a, float b)
{
    return u2f(f32_div(f2u(a), f2u(b)));
}
float __negsf2(float a)
{
    return u2f(f2u(a) ^ F32_SIGN);
}

__attribute__((noinline)) double __adddf3(double a, double b)
{
    return u2d(f64_add(d2u(a), d2u(b)));
}
double __subdf3(double a, double b)
{
    return __adddf3(a, u2d(d2u(b) ^ F64_SIGN));
}
double __muldf3(double a, double b)
{
    return u2d(f64_mul(d2u(a), d2u(b)));
}
double __divdf3(double a, double b)
{
    return u2d(f64_div(d2u(a), d2u(b)));
}
double __negdf2(double a)
{
    return u2d(d2u(a) ^ F64_SIGN);
}

/* One body per convention; the other names are aliases (as in compiler-rt),
 * so a program using several comparisons pays IRAM for the body once. */
int __lesf2(float a, float b)
{
    return f32_cmp(f2u(a), f2u(b), 1);
}
int __gesf2(float a, float b)
{
    return f32_cmp(f2u(a), f2u(b), -1);
}
int __eqsf2(float a, float b) __attribute__((alias("__lesf2")));
int __nesf2(float a, float b) __attribute__((alias("__lesf2")));
int __ltsf2(float a, float b) __attribute__((alias("__lesf2")));
int __cmpsf2(float a, float b) __attribute__((alias("__lesf2")));
int __gtsf2(float a, float b) __attribute__((alias("__gesf2")));
int __unordsf2(float a, float b)
{
    return f32_isnan(f2u(a)) || f32_isnan(f2u(b));
}

int __ledf2(double a, double b)
{
    return f64_cmp(d2u(a), d2u(b), 1);
}
int __gedf2(double a, double b)
{
    return f64_cmp(d2u(a), d2u(b), -1);
}
int __eqdf2(double a, double b) __attribute__((alias("__ledf2")));
int __nedf2(double a, double b) __attribute__((alias("__ledf2")));
int __ltdf2(double a, double b) __attribute__((alias("__ledf2")));
int __cmpdf2(double a, double b) __attribute__((alias("__ledf2")));
int __gtdf2(double a, double b) __attribute__((alias("__gedf2")));
int __unorddf2(double a, double b)
{
    return f64_isnan(d2u(a)) || f64_isnan(d2u(b));
}

double __extendsfdf2(float a)
{
    uint32_t u = f2u(a);
    uint64_t sign = (uint64_t)(u & F32_SIGN) << 32;
    uint32_t aabs = u & F32_ABS;
    if (aabs >= F32_INF) /* inf keeps a zero fraction; NaN payload kept, quieted */
        return u2d(sign | F64_INF | ((uint64_t)(aabs & F32_FRAC) << 29) |
                   (aabs > F32_INF ? 0x0008000000000000ull : 0));
    if (aabs == 0)
        return u2d(sign);
    int32_t e = (int32_t)(aabs >> 23);
    uint32_t s = aabs & F32_FRAC;
    if (e == 0)
        e = f32_normalize(&s); /* exact: 24 bits fit in 53 */
    return u2d(sign | ((uint64_t)(uint32_t)(e + 896) << 52) | ((uint64_t)(s & F32_FRAC) << 29));
}

float __truncdfsf2(double a)
{
    uint64_t u = d2u(a);
    uint32_t sign = (uint32_t)(u >> 32) & F32_SIGN;
    uint64_t aabs = u & F64_ABS;
    if (aabs >= F64_INF)
        return u2f(sign | F32_INF |
                   (aabs > F64_INF ? 0x00400000u | (uint32_t)((aabs & F64_FRAC) >> 29) : 0));
    if (aabs == 0)
        return u2f(sign);
    int32_t e = (int32_t)(aabs >> 52);
    uint64_t s = aabs & F64_FRAC;
    if (e)
        s |= F64_HIDDEN;
    else
        e = 1;
    /* hidden bit 52 -> 30; a subnormal double is far below the float range
     * (exp < 0), so its unnormalised sig is fine for the round step */
    return u2f(f32_round_pack(sign, e - 897, (uint32_t)shr_jam64(s, 22)));
}

int32_t __fixsfsi(float a)
{
    return (int32_t)f32_to_i64(f2u(a), 0x7fffffffu);
}
uint32_t __fixunssfsi(float a)
{
    uint32_t u = f2u(a);
    return u & F32_SIGN ? 0 : (uint32_t)f32_to_u64_trunc(u, 0xffffffffu);
}
int32_t __fixdfsi(double a)
{
    return (int32_t)f64_to_i64(d2u(a), 0x7fffffffu);
}
uint32_t __fixunsdfsi(double a)
{
    uint64_t u = d2u(a);
    return u & F64_SIGN ? 0 : (uint32_t)f64_to_u64_trunc(u, 0xffffffffu);
}
int64_t __fixsfdi(float a)
{
    return f32_to_i64(f2u(a), 0x7fffffffffffffffull);
}
uint64_t __fixunssfdi(float a)
{
    uint32_t u = f2u(a);
    return u & F32_SIGN ? 0 : f32_to_u64_trunc(u, ~0ull);
}
int64_t __fixdfdi(double a)
{
    return f64_to_i64(d2u(a), 0x7fffffffffffffffull);
}
uint64_t __fixunsdfdi(double a)
{
    uint64_t u = d2u(a);
    return u & F64_SIGN ? 0 : f64_to_u64_trunc(u, ~0ull);
}

float __floatsisf(int32_t a)
{
    uint32_t m = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
    return u2f(u64_to_f32(a < 0 ? F32_SIGN : 0, m));
}
float __floatunsisf(uint32_t a)
{
    return u2f(u64_to_f32(0, a));
}
double __floatsidf(int32_t a)
{
    uint32_t m = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
    return u2d(u64_to_f64(a < 0 ? F64_SIGN : 0, m));
}
double __floatunsidf(uint32_t a)
{
    return u2d(u64_to_f64(0, a));
}
float __floatdisf(int64_t a)
{
    uint64_t m = a < 0 ? 0ull - (uint64_t)a : (uint64_t)a;
    return u2f(u64_to_f32(a < 0 ? F32_SIGN : 0, m));
}
float __floatundisf(uint64_t a)
{
    return u2f(u64_to_f32(0, a));
}
double __floatdidf(int64_t a)
{
    uint64_t m = a < 0 ? 0ull - (uint64_t)a : (uint64_t)a;
    return u2d(u64_to_f64(a < 0 ? F64_SIGN : 0, m));
}
double __floatundidf(uint64_t a)
{
    return u2d(u64_to_f64(0, a));
}

float __powisf2(float a, int32_t n)
{
    return u2f(f32_powi(f2u(a), n));
}
double __powidf2(double a, int32_t n)
{
    return u2d(f64_powi(d2u(a), n));
}
