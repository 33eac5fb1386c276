/*
 * sha256_x86.h -- the x86 SHA-256 engines behind the `shani` backend
 * (src/cpu/shani.c holds the lane scheduler and the backend glue).
 *
 * Every kernel here is the bare compression function on whole 64-byte
 * blocks: padding, lengths and lane refills are the scheduler's business.
 * Each kernel carries its own target attribute and must only be called once
 * cpim_x86_features() has reported what it needs (see each comment).
 *
 * Engines:
 *  - SHA-NI, 1 stream (sha256_ni.c): the x1 kernel, latency bound
 *    (one sha256rnds2 chain), for a single message or stream.
 *  - SHA-NI, 2..4 streams interleaved round by round (sha256_ni.c).
 *  - AVX-512, 16 lanes (sha256_avx512.c): one message per 32-bit lane,
 *    state transposed (word j of lane l in element l of vector j).
 *  - AVX2, 8 lanes (sha256_avx2.c): the same on ymm, for CPUs without
 *    AVX-512.
 * Which engine runs when is the scheduler's choice (shani.c), from
 * measurements recorded in docs/CRYPTO.md.
 */
#ifndef CPIM_SHA256_X86_H
#define CPIM_SHA256_X86_H

#include <stddef.h>
#include <stdint.h>

/* Transposed states: v[j][l] = word j (A..H) of lane l. */
typedef struct cpim_sha_x16 {
    _Alignas(64) uint32_t v[8][16];
} cpim_sha_x16;
typedef struct cpim_sha_x8 {
    _Alignas(32) uint32_t v[8][8];
} cpim_sha_x8;

/* SHA-NI (CPIM_X86_SHANI | CPIM_X86_SSE41).  h: 8 words, FIPS order. */
void cpim_sha256_ni_x1(uint32_t h[8], const uint8_t *p, size_t nb);
/* n = 1..4 streams, each nb blocks from p[i] into h[i]. */
void cpim_sha256_ni_lanes(int n, uint32_t *const h[], const uint8_t *const p[], size_t nb);

/* AVX-512 F+BW+VL (CPIM_X86_AVX512): every lane absorbs nb blocks from
 * p[l] (a lane with nothing to do points at any readable 64 * nb bytes;
 * its state is then garbage, the scheduler resets it). */
void cpim_sha256_avx512_x16(cpim_sha_x16 *s, const uint8_t *const p[16], size_t nb);
/* AVX2 (CPIM_X86_AVX2): the same on 8 lanes. */
void cpim_sha256_avx2_x8(cpim_sha_x8 *s, const uint8_t *const p[8], size_t nb);
/* The engines a `shani` context may use (bits). */
enum {
    CPIM_SHA_ENG_NI = 1u << 0,     /* SHA-NI: x1 for one stream, 2..4 interleaved */
    CPIM_SHA_ENG_AVX2 = 1u << 1,   /* AVX2, 8 lanes */
    CPIM_SHA_ENG_AVX512 = 1u << 2, /* AVX-512, 16 lanes */
};

/* The engines this CPU and OS can run (CPUID + XCR0, cpim_x86_features()),
 * restricted by the testing mask below. */
unsigned cpim_sha256_x86_engines(void);

/* Testing aid, like cpim_x86_set_mask(): restricts the engines that `shani`
 * contexts opened afterwards may use to `mask` (~0u = no restriction), so
 * the tests run each engine on a machine that has them all.  Returns the
 * previous mask.  Not a public knob (not in cryptopim.h); not for use while
 * other threads open contexts. */
unsigned cpim_sha256_x86_set_engines(unsigned mask);

/* Lane state <-> FIPS order. */
static inline void cpim_sha_x16_set(cpim_sha_x16 *s, int lane, const uint32_t h[8])
{
    for (int j = 0; j < 8; j++)
        s->v[j][lane] = h[j];
}
static inline void cpim_sha_x16_get(const cpim_sha_x16 *s, int lane, uint32_t h[8])
{
    for (int j = 0; j < 8; j++)
        h[j] = s->v[j][lane];
}
static inline void cpim_sha_x8_set(cpim_sha_x8 *s, int lane, const uint32_t h[8])
{
    for (int j = 0; j < 8; j++)
        s->v[j][lane] = h[j];
}
static inline void cpim_sha_x8_get(const cpim_sha_x8 *s, int lane, uint32_t h[8])
{
    for (int j = 0; j < 8; j++)
        h[j] = s->v[j][lane];
}

#endif /* CPIM_SHA256_X86_H */
