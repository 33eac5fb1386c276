/*
 * sha256.c -- portable SHA-256 (see sha256.h for the contract).
 *
 * The compression keeps the eight working variables in registers and never
 * moves them: each round macro takes them in rotated order instead.  The
 * message schedule W is a 16-word ring updated in place, W[i & 15] +=
 * sigma1(W[i-2]) + W[i-7] + sigma0(W[i-15]).
 */
#include "sha256.h"

#include "bytes.h"

/* see sha256.h */
const uint32_t cpim_crypto_sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u};

static const uint32_t iv[8] = CPIM_SHA256_IV;

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define BSIG0(x)    (ROR32(x, 2) ^ ROR32(x, 13) ^ ROR32(x, 22))
#define BSIG1(x)    (ROR32(x, 6) ^ ROR32(x, 11) ^ ROR32(x, 25))
#define SSIG0(x)    (ROR32(x, 7) ^ ROR32(x, 18) ^ ((x) >> 3))
#define SSIG1(x)    (ROR32(x, 17) ^ ROR32(x, 19) ^ ((x) >> 10))
#define CH(e, f, g) ((((f) ^ (g)) & (e)) ^ (g))

/* Round i (0..15 within a pass) with schedule word X.  Maj(a,b,c) is
 * b ^ ((a ^ b) & (b ^ c)), and b ^ c is the previous round's a ^ b, so each
 * round computes one of the two and the pair (P, Q) alternates. */
#define RND(a, b, c, d, e, f, g, h, i, X, P, Q)                                                    \
    do {                                                                                           \
        uint32_t t1_ = h + BSIG1(e) + CH(e, f, g) + k[i] + (X);                                    \
        P = a ^ b;                                                                                 \
        d += t1_;                                                                                  \
        h = t1_ + BSIG0(a) + (b ^ (P & Q));                                                        \
    } while (0)

/* Eight rounds with the variables rotated in place, W word from expression
 * W8(j) for j = i .. i+7. */
#define RND8(i, W8)                                                                                \
    RND(a, b, c, d, e, f, g, h, (i) + 0, W8((i) + 0), x, y);                                       \
    RND(h, a, b, c, d, e, f, g, (i) + 1, W8((i) + 1), y, x);                                       \
    RND(g, h, a, b, c, d, e, f, (i) + 2, W8((i) + 2), x, y);                                       \
    RND(f, g, h, a, b, c, d, e, (i) + 3, W8((i) + 3), y, x);                                       \
    RND(e, f, g, h, a, b, c, d, (i) + 4, W8((i) + 4), x, y);                                       \
    RND(d, e, f, g, h, a, b, c, (i) + 5, W8((i) + 5), y, x);                                       \
    RND(c, d, e, f, g, h, a, b, (i) + 6, W8((i) + 6), x, y);                                       \
    RND(b, c, d, e, f, g, h, a, (i) + 7, W8((i) + 7), y, x)

/* Rounds 0..15 read the block; rounds 16..63 update the ring in place. */
#define WLOAD(j) (w[j] = LD(p + 4 * (j)))
#define WNEXT(j) (w[j] += SSIG1(w[((j) + 14) & 15]) + w[((j) + 9) & 15] + SSIG0(w[((j) + 1) & 15]))

/* A 64-bit host gains ~3% from unrolling the passes; a 32-bit DPU keeps
 * the loop (4x less code in its 4096-instruction IRAM, 3 instructions per
 * pass).  CPIM_SMALL_CODE forces the loop everywhere. */
#if defined(__GNUC__) && !defined(CPIM_SMALL_CODE) && UINTPTR_MAX > 0xffffffffu
#define UNROLL_PASSES _Pragma("GCC unroll 4")
#else
#define UNROLL_PASSES
#endif

#define COMPRESS_BODY                                                                              \
    uint32_t a = h8[0], b = h8[1], c = h8[2], d = h8[3], e = h8[4], f = h8[5], g = h8[6],          \
             h = h8[7];                                                                            \
    uint32_t w[16], x, y = b ^ c;                                                                  \
    const uint32_t *k = cpim_crypto_sha256_k;                                                      \
    RND8(0, WLOAD);                                                                                \
    RND8(8, WLOAD);                                                                                \
    UNROLL_PASSES for (int pass = 1; pass < 4; pass++)                                             \
    {                                                                                              \
        k += 16;                                                                                   \
        RND8(0, WNEXT);                                                                            \
        RND8(8, WNEXT);                                                                            \
    }                                                                                              \
    h8[0] += a, h8[1] += b, h8[2] += c, h8[3] += d;                                                \
    h8[4] += e, h8[5] += f, h8[6] += g, h8[7] += h;

static inline void compress(uint32_t h8[8], const uint8_t *p)
{
#define LD ld32
    COMPRESS_BODY
#undef LD
}

#if ALIGNED_IO
static inline void compress_a(uint32_t h8[8], const uint8_t *p)
{
#define LD ld32a
    COMPRESS_BODY
#undef LD
}
#endif

/* see sha256.h */
void cpim_crypto_sha256_blocks(uint32_t h[8], const uint8_t *p, uint32_t nblocks)
{
#if ALIGNED_IO
    if (crypto_aligned(p, p)) {
        for (; nblocks; nblocks--, p += 64)
            compress_a(h, p);
        return;
    }
#endif
    for (; nblocks; nblocks--, p += 64)
        compress(h, p);
}

/* see sha256.h */
void cpim_crypto_sha256_init(cpim_crypto_sha256_ctx *ctx)
{
    for (int i = 0; i < 8; i++)
        ctx->h[i] = iv[i];
    ctx->nbytes = 0;
    ctx->nbuf = 0;
}

/* see sha256.h */
void cpim_crypto_sha256_update(cpim_crypto_sha256_ctx *ctx, const uint8_t *p, uint32_t len)
{
    if (len == 0)
        return;
    ctx->nbytes += len;
    if (ctx->nbuf) {
        uint32_t take = 64 - ctx->nbuf;
        if (take > len)
            take = len;
        for (uint32_t i = 0; i < take; i++)
            ctx->buf[ctx->nbuf + i] = p[i];
        ctx->nbuf += take;
        p += take;
        len -= take;
        if (ctx->nbuf < 64)
            return;
        cpim_crypto_sha256_blocks(ctx->h, ctx->buf, 1);
        ctx->nbuf = 0;
    }
    if (len >= 64) {
        cpim_crypto_sha256_blocks(ctx->h, p, len / 64);
        p += len & ~63u;
        len &= 63;
    }
    for (uint32_t i = 0; i < len; i++)
        ctx->buf[i] = p[i];
    ctx->nbuf = len;
}

/* see sha256.h */
void cpim_crypto_sha256_final(cpim_crypto_sha256_ctx *ctx, uint8_t digest[32])
{
    uint64_t bits = ctx->nbytes << 3;
    uint32_t n = ctx->nbuf;
    ctx->buf[n++] = 0x80;
    if (n > 56) {
        while (n < 64)
            ctx->buf[n++] = 0;
        cpim_crypto_sha256_blocks(ctx->h, ctx->buf, 1);
        n = 0;
    }
    while (n < 56)
        ctx->buf[n++] = 0;
    st32(ctx->buf + 56, (uint32_t)(bits >> 32));
    st32(ctx->buf + 60, (uint32_t)bits);
    cpim_crypto_sha256_blocks(ctx->h, ctx->buf, 1);
    for (int i = 0; i < 8; i++)
        st32(digest + 4 * i, ctx->h[i]);
}

/* see sha256.h */
void cpim_crypto_sha256(const uint8_t *p, uint32_t len, uint8_t digest[32])
{
    cpim_crypto_sha256_ctx ctx;
    cpim_crypto_sha256_init(&ctx);
    cpim_crypto_sha256_update(&ctx, p, len);
    cpim_crypto_sha256_final(&ctx, digest);
}

/* see sha256.h */
void cpim_crypto_sha256_batch(const uint8_t *const *msgs, const uint32_t *lens, uint32_t count,
                              uint8_t (*digests)[32])
{
    for (uint32_t i = 0; i < count; i++)
        cpim_crypto_sha256(msgs[i], lens[i], digests[i]);
}
