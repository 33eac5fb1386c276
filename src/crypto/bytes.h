/*
 * bytes.h -- big-endian word load/store shared by the portable primitives
 * (aes.c, sha256.c).  Private to src/crypto; stdint.h only, like them, so it
 * compiles for the host, the DPU and the virtual DPU.
 *
 * ld32/st32 work at any alignment.  On a strict-alignment little-endian
 * 32-bit RISC (RV32, the DPU) they become four byte accesses, so when the
 * buffers are known to be 4-byte aligned ld32a/st32a use one word access plus
 * a byte swap instead; ALIGNED_IO says whether that form exists (only where
 * the compiler tells us the target is little-endian), else they fall back to
 * ld32/st32 and crypto_aligned() is always 0.
 */
#ifndef CPIM_BYTES_H
#define CPIM_BYTES_H

#include <stdint.h>

static inline uint32_t ld32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void st32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) &&            \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ALIGNED_IO 1
static inline uint32_t ld32a(const uint8_t *p)
{
    uint32_t v;
    __builtin_memcpy(&v, __builtin_assume_aligned(p, 4), 4);
    return __builtin_bswap32(v);
}

static inline void st32a(uint8_t *p, uint32_t v)
{
    v = __builtin_bswap32(v);
    __builtin_memcpy(__builtin_assume_aligned(p, 4), &v, 4);
}

/* 1 when both pointers are 4-byte aligned (b may equal a). */
static inline int crypto_aligned(const void *a, const void *b)
{
    return (((uintptr_t)a | (uintptr_t)b) & 3u) == 0;
}
#else
#define ALIGNED_IO 0
#define ld32a      ld32
#define st32a      st32
static inline int crypto_aligned(const void *a, const void *b)
{
    (void)a;
    (void)b;
    return 0;
}
#endif

#endif /* CPIM_BYTES_H */
