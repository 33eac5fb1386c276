/*
 * sha256.h -- the portable SHA-256 of cryptopim (FIPS 180-4), used by the
 * `cpu` backend on the host and by the DPU programs (dpu/) on the DPUs.
 *
 * Portability: plain C99 with fixed-width types, depends on <stdint.h> only
 * (no libc, no size_t), so the same file compiles for the host, the 32-bit
 * DPU and the virtual DPU (clang --target=riscv32 -ffreestanding).  Lengths
 * are uint32_t: a caller with more than 4 GiB feeds cpim_crypto_sha256_update() in
 * pieces.  The context holds fixed-width fields only (a DPU can keep one in
 * WRAM, 112 bytes).
 *
 * SHA-256 has no secret-dependent table lookups or branches: it is
 * constant-time for a given message length.
 *
 * The compression function unrolls 16 rounds with the message schedule kept
 * in place in a 16-word ring (4 passes of 16 rounds), rotates written so that
 * clang emits `rori` with Zbb: about 2.6 KiB of RV32 code.
 */
#ifndef CPIM_SHA256_H
#define CPIM_SHA256_H

#include <stdint.h>

#define CPIM_SHA256_DIGEST 32u
#define CPIM_SHA256_BLOCK  64u

/* The initial hash value H(0) (FIPS 180-4 5.3.3): the one copy of it for
 * the host and the DPU programs, as words (CPIM_SHA256_IV0..7, for code that
 * stores them one by one) and as an initializer (CPIM_SHA256_IV). */
#define CPIM_SHA256_IV0 0x6a09e667u
#define CPIM_SHA256_IV1 0xbb67ae85u
#define CPIM_SHA256_IV2 0x3c6ef372u
#define CPIM_SHA256_IV3 0xa54ff53au
#define CPIM_SHA256_IV4 0x510e527fu
#define CPIM_SHA256_IV5 0x9b05688cu
#define CPIM_SHA256_IV6 0x1f83d9abu
#define CPIM_SHA256_IV7 0x5be0cd19u
#define CPIM_SHA256_IV                                                                             \
    {                                                                                              \
        CPIM_SHA256_IV0, CPIM_SHA256_IV1, CPIM_SHA256_IV2, CPIM_SHA256_IV3, CPIM_SHA256_IV4,       \
            CPIM_SHA256_IV5, CPIM_SHA256_IV6, CPIM_SHA256_IV7                                      \
    }

/* The 64 round constants K (FIPS 180-4 4.2.2). */
extern const uint32_t cpim_crypto_sha256_k[64];

typedef struct cpim_crypto_sha256_ctx {
    uint32_t h[8];   /* chaining value */
    uint64_t nbytes; /* message bytes so far */
    uint8_t buf[64]; /* partial block */
    uint32_t nbuf;   /* bytes in buf, < 64 */
} cpim_crypto_sha256_ctx;

/* Streaming: init, any number of updates (any lengths, including 0; p may
 * be NULL when len is 0), final (writes the digest; the context must be
 * re-initialised before reuse). */
void cpim_crypto_sha256_init(cpim_crypto_sha256_ctx *ctx);
void cpim_crypto_sha256_update(cpim_crypto_sha256_ctx *ctx, const uint8_t *p, uint32_t len);
void cpim_crypto_sha256_final(cpim_crypto_sha256_ctx *ctx, uint8_t digest[32]);

/* One-shot: digest = SHA-256(p[0..len)). */
void cpim_crypto_sha256(const uint8_t *p, uint32_t len, uint8_t digest[32]);

/* Batch: digests[i] = SHA-256(msgs[i][0..lens[i])) for i < count (a message
 * of length 0 may be NULL). */
void cpim_crypto_sha256_batch(const uint8_t *const *msgs, const uint32_t *lens, uint32_t count,
                              uint8_t (*digests)[32]);

/* The compression function on nblocks whole 64-byte blocks (no padding):
 * for DPU kernels that stream a message through WRAM themselves. */
void cpim_crypto_sha256_blocks(uint32_t h[8], const uint8_t *p, uint32_t nblocks);

#endif /* CPIM_SHA256_H */
