/*
 * engine.h -- the core's calls into a context's engines (backend.h), one
 * named wrapper per operation (engine.c): the only code that calls an
 * engine.  Arguments are the ones the engine's contract (backend.h) asks
 * for, already checked by the caller; a wrapper whose operation the
 * context's engine lacks returns CPIM_ERR_UNSUPPORTED, and
 * cpim_engine_has() says so beforehand (the API answers that before it
 * takes the context).
 */
#ifndef CPIM_ENGINE_H
#define CPIM_ENGINE_H

#include "backend.h"
#include "cryptopim.h"

typedef enum cpim_engine_op {
    CPIM_OP_SET_KEY,
    CPIM_OP_ECB,
    CPIM_OP_CTR,
    CPIM_OP_XTS_SET_KEY,
    CPIM_OP_XTS,
    CPIM_OP_GCM,
    CPIM_OP_GCM_RANGE,
    CPIM_OP_SHA_BATCH,
    CPIM_OP_SHA_BLOCKS,
    CPIM_OP_SHA_STREAM,
    CPIM_OP_HMAC,
    CPIM_OP_PBKDF2,
    CPIM_OP_NTT,
    CPIM_OP_REGION
} cpim_engine_op;

/* 1 when the context's engine provides op. */
int cpim_engine_has(const cpim_ctx *ctx, cpim_engine_op op);

/* AES */
cpim_err cpim_engine_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len);
cpim_err cpim_engine_ecb(cpim_ctx *ctx, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                         cpim_stats *st);
cpim_err cpim_engine_ctr(cpim_ctx *ctx, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                         size_t len, cpim_stats *st);
cpim_err cpim_engine_xts_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len);
cpim_err cpim_engine_xts(cpim_ctx *ctx, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                         const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st);
cpim_err cpim_engine_gcm(cpim_ctx *ctx, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                         size_t len, uint8_t tag[16], cpim_stats *st);
cpim_err cpim_engine_gcm_range(cpim_ctx *ctx, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                               const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st);

/* SHA-256 */
cpim_err cpim_engine_sha_batch(cpim_ctx *ctx, const uint8_t *const *msgs, const size_t *lens,
                               size_t count, uint8_t (*digests)[32], cpim_stats *st);
/* May be called from several threads at once (hmac_api.c's PBKDF2 when the
 * engine has no pbkdf2 of its own: backend.h). */
cpim_err cpim_engine_sha_blocks(const cpim_ctx *ctx, uint32_t *const *h, const uint8_t *const *p,
                                const size_t *nblocks, size_t count, cpim_stats *st);
/* The engine's one-stream op (CPIM_OP_SHA_STREAM: check first). */
void cpim_engine_sha_stream(const cpim_ctx *ctx, uint32_t h[8], const uint8_t *p, size_t nblocks);
cpim_err cpim_engine_hmac(cpim_ctx *ctx, const uint8_t *const *keys, const size_t *key_lens,
                          const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                          uint8_t (*macs)[32], cpim_stats *st);
cpim_err cpim_engine_pbkdf2(cpim_ctx *ctx, const uint8_t *const *passes, const size_t *pass_lens,
                            const uint8_t *const *salts, const size_t *salt_lens, size_t count,
                            uint32_t iterations, uint8_t *const *outs, size_t out_len,
                            cpim_stats *st);

/* NTT */
cpim_err cpim_engine_ntt(cpim_ctx *ctx, const cpim_ntt_plan *plan, cpim_ntt_op op,
                         const uint64_t *a, const uint64_t *b, uint64_t *out, size_t count,
                         cpim_stats *st);
/* The host kernels of ctx's NTT (backend.h ntt.kernels), NULL when it has
 * none; any thread, any time. */
const cpim_ntt_kernels *cpim_engine_ntt_kernels(const cpim_ctx *ctx);

/* Resident regions: impl is what region_create made, in the same context. */
cpim_err cpim_engine_region_create(cpim_ctx *ctx, uint64_t size, uint32_t unit, void **impl);
void cpim_engine_region_destroy(const cpim_ctx *ctx, void *impl);
void cpim_engine_region_layout(const cpim_ctx *ctx, const void *impl, uint32_t *dpus,
                               uint64_t *per_dpu, uint32_t *unit);
cpim_err cpim_engine_region_xfer(const cpim_ctx *ctx, void *impl, int to_dpus, uint64_t off,
                                 uint8_t *buf, size_t len, cpim_stats *st);
cpim_err cpim_engine_region_crypt(const cpim_ctx *ctx, void *impl, const cpim_region_op *op,
                                  cpim_stats *st);
cpim_err cpim_engine_region_sha256(const cpim_ctx *ctx, void *impl, uint32_t seq,
                                   uint8_t (*digests)[32], uint8_t root[32], cpim_stats *st);

#endif /* CPIM_ENGINE_H */
