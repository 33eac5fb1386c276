/*
 * sha256_rounds.h -- FIPS 180-4's round function as the DPU kernels write it
 * (dpu/sha256.c's compression of whole blocks, dpu/hmac.c's of one block):
 * one copy of the macros, so both kernels keep the same tuned rounds.
 *
 * RND expects in scope: the ring w[16] of schedule words, the constants
 * k[64] and `bc` (b ^ c of the previous round: Maj(a, b, c) as
 * ((a ^ b) & (b ^ c)) ^ b, which saves an instruction per round).
 */
#ifndef CPIM_DPU_SHA256_ROUNDS_H
#define CPIM_DPU_SHA256_ROUNDS_H

#include <stdint.h>

static inline uint32_t ror(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32u - n));
}

#define BSIG0(a) (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22))
#define BSIG1(e) (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25))
#define SSIG0(x) (ror(x, 7) ^ ror(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ror(x, 17) ^ ror(x, 19) ^ ((x) >> 10))

/* Round i; for i >= 16 the schedule word is computed in place in the ring. */
#define RND(a, b, c, d, e, f, g, h, i)                                                             \
    do {                                                                                           \
        if ((i) >= 16)                                                                             \
            w[(i)&15] += SSIG1(w[((i)-2) & 15]) + w[((i)-7) & 15] + SSIG0(w[((i)-15) & 15]);       \
        uint32_t t1_ = h + BSIG1(e) + ((e & f) ^ (g & ~e)) + k[i] + w[(i)&15];                     \
        uint32_t ab_ = a ^ b;                                                                      \
        uint32_t t2_ = BSIG0(a) + ((ab_ & bc) ^ b);                                                \
        bc = ab_;                                                                                  \
        d += t1_;                                                                                  \
        h = t1_ + t2_;                                                                             \
    } while (0)

#define RND8(i)                                                                                    \
    RND(a, b, c, d, e, f, g, h, (i));                                                              \
    RND(h, a, b, c, d, e, f, g, (i) + 1);                                                          \
    RND(g, h, a, b, c, d, e, f, (i) + 2);                                                          \
    RND(f, g, h, a, b, c, d, e, (i) + 3);                                                          \
    RND(e, f, g, h, a, b, c, d, (i) + 4);                                                          \
    RND(d, e, f, g, h, a, b, c, (i) + 5);                                                          \
    RND(c, d, e, f, g, h, a, b, (i) + 6);                                                          \
    RND(b, c, d, e, f, g, h, a, (i) + 7)

#endif /* CPIM_DPU_SHA256_ROUNDS_H */
