/* isa_ops.h -- instruction-semantics battery, compiled both for the virtual
 * DPU (riscv32, rv32im_zba_zbb) and natively on the host; results compared.
 * in[] comes from the host at run time so nothing is constant-folded. */
#ifndef ISA_OPS_H
#define ISA_OPS_H
#include <stdint.h>

#define ISA_NIN  16
#define ISA_NOUT 1400

static inline uint32_t isa_rotl(uint32_t x, unsigned n)
{
    return (x << (n & 31)) | (x >> ((32 - n) & 31));
}
static inline uint32_t isa_rotr(uint32_t x, unsigned n)
{
    return (x >> (n & 31)) | (x << ((32 - n) & 31));
}

/* returns number of outputs written */
static uint32_t isa_ops(const uint32_t *in, uint32_t *out)
{
    uint32_t k = 0;
    /* add/sub/logic/compare over pairs */
    for (int i = 0; i < ISA_NIN; i++) {
        uint32_t a = in[i], b = in[(i * 7 + 3) % ISA_NIN];
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        out[k++] = a + b;
        out[k++] = a - b;
        out[k++] = a & ~b;   /* andn */
        out[k++] = a | ~b;   /* orn  */
        out[k++] = ~(a ^ b); /* xnor */
        out[k++] = (uint32_t)(sa < sb) | (uint32_t)(a < b) << 1 | (uint32_t)(sa >= sb) << 2 |
                   (uint32_t)(a >= b) << 3 | (uint32_t)(a == b) << 4;
        out[k++] = (uint32_t)(sa < sb ? sa : sb); /* min  */
        out[k++] = (uint32_t)(sa > sb ? sa : sb); /* max  */
        out[k++] = a < b ? a : b;                 /* minu */
        out[k++] = a > b ? a : b;                 /* maxu */
        out[k++] = a + (b << 1);                  /* sh1add */
        out[k++] = a + (b << 2);                  /* sh2add */
        out[k++] = a + (b << 3);                  /* sh3add */
        out[k++] = (uint32_t)(int32_t)(int8_t)a;  /* sext.b */
        out[k++] = (uint32_t)(int32_t)(int16_t)a; /* sext.h */
        out[k++] = a & 0xffff;                    /* zext.h */
        out[k++] = a ? (uint32_t)__builtin_clz(a) : 32;
        out[k++] = a ? (uint32_t)__builtin_ctz(a) : 32;
        out[k++] = (uint32_t)__builtin_popcount(a);
        out[k++] = __builtin_bswap32(a);                    /* rev8 */
        out[k++] = (uint32_t)(sa < 5) + (uint32_t)(a < 7u); /* slti/sltiu */
        out[k++] = a * b;
        out[k++] = (uint32_t)(((int64_t)sa * (int64_t)sb) >> 32);                    /* mulh   */
        out[k++] = (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);                    /* mulhu  */
        out[k++] = (uint32_t)((uint64_t)((int64_t)sa * (int64_t)(uint64_t)b) >> 32); /* mulhsu */
        if (b != 0) {
            out[k++] = a / b;
            out[k++] = a % b;
            if (!(sa == INT32_MIN && sb == -1)) {
                out[k++] = (uint32_t)(sa / sb);
                out[k++] = (uint32_t)(sa % sb);
            }
        }
    }
    /* shifts and rotates by every amount */
    for (unsigned n = 0; n < 32; n++) {
        uint32_t a = in[n % ISA_NIN] ^ 0x80000001u;
        out[k++] = a << n;
        out[k++] = a >> n;
        out[k++] = (uint32_t)((int32_t)a >> n);
        out[k++] = isa_rotl(a, n);
        out[k++] = isa_rotr(a, n);
    }
    /* shifts by register amounts with junk in the high bits (only low 5 used by HW) */
    for (int i = 0; i < ISA_NIN; i++) {
        uint32_t a = in[i], s = in[(i + 5) % ISA_NIN] & 31;
        out[k++] = a << s;
        out[k++] = a >> s;
        out[k++] = (uint32_t)((int32_t)a >> s);
    }
    /* loads/stores of every width and sign through a WRAM buffer */
    {
        volatile uint8_t buf[16] __attribute__((aligned(8)));
        for (int i = 0; i < ISA_NIN; i++) {
            uint32_t a = in[i];
            *(volatile uint32_t *)&buf[0] = a;
            *(volatile uint16_t *)&buf[4] = (uint16_t)a;
            *(volatile uint16_t *)&buf[6] = (uint16_t)(a >> 16);
            buf[8] = (uint8_t)a;
            buf[9] = (uint8_t)(a >> 8);
            buf[10] = (uint8_t)(a >> 16);
            buf[11] = (uint8_t)(a >> 24);
            out[k++] = *(volatile uint32_t *)&buf[0];
            out[k++] = *(volatile uint32_t *)&buf[4];
            out[k++] = *(volatile uint32_t *)&buf[8];
            out[k++] = (uint32_t)(int32_t) * (volatile int16_t *)&buf[4];
            out[k++] = (uint32_t) * (volatile uint16_t *)&buf[6];
            out[k++] = (uint32_t)(int32_t) * (volatile int16_t *)&buf[6];
            out[k++] = (uint32_t)(int32_t) * (volatile int8_t *)&buf[11];
            out[k++] = (uint32_t) * (volatile uint8_t *)&buf[11];
            out[k++] = (uint32_t)(int32_t) * (volatile int8_t *)&buf[9];
        }
    }
    /* 64-bit arithmetic (add/sub carry, mul, div via the runtime) */
    for (int i = 0; i + 1 < ISA_NIN; i += 2) {
        uint64_t x = ((uint64_t)in[i] << 32) | in[i + 1],
                 y = ((uint64_t)in[i + 1] << 32) | in[(i + 3) % ISA_NIN];
        uint64_t s = x + y, m = x * y;
        out[k++] = (uint32_t)s;
        out[k++] = (uint32_t)(s >> 32);
        out[k++] = (uint32_t)m;
        out[k++] = (uint32_t)(m >> 32);
        if (y) {
            uint64_t q = x / y, r = x % y;
            out[k++] = (uint32_t)q;
            out[k++] = (uint32_t)(q >> 32);
            out[k++] = (uint32_t)r;
        }
        int64_t sx = (int64_t)x, sy = (int64_t)(y | 1);
        out[k++] = (uint32_t)(sx / sy);
        out[k++] = (uint32_t)(sx % sy);
    }
    return k;
}
#endif
