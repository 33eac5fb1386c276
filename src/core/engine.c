/* see engine.h -- the core's calls into a context's engines. */
#include "engine.h"

#include "core.h"

/* The engine of family f in ctx and its state; NULL when none serves f. */
static const cpim_aes_engine *aes_of(const cpim_ctx *ctx)
{
    const cpim_backend *b = ctx->fam[CPIM_FAMILY_AES].by;
    return b ? b->aes : NULL;
}

static const cpim_sha_engine *sha_of(const cpim_ctx *ctx)
{
    const cpim_backend *b = ctx->fam[CPIM_FAMILY_SHA].by;
    return b ? b->sha : NULL;
}

static const cpim_ntt_engine *ntt_of(const cpim_ctx *ctx)
{
    const cpim_backend *b = ctx->fam[CPIM_FAMILY_NTT].by;
    return b ? b->ntt : NULL;
}

static const cpim_region_engine *region_of(const cpim_ctx *ctx)
{
    const cpim_backend *b = ctx->fam[CPIM_FAMILY_REGION].by;
    return b ? b->region : NULL;
}

#define STATE(ctx, f) ((ctx)->fam[f].state)

int cpim_engine_has(const cpim_ctx *ctx, cpim_engine_op op)
{
    const cpim_aes_engine *a = aes_of(ctx);
    const cpim_sha_engine *s = sha_of(ctx);
    switch (op) {
    case CPIM_OP_SET_KEY:
        return a && a->set_key;
    case CPIM_OP_ECB:
        return a && a->ecb;
    case CPIM_OP_CTR:
        return a && a->ctr;
    case CPIM_OP_XTS_SET_KEY:
        return a && a->xts_set_key;
    case CPIM_OP_XTS:
        return a && a->xts;
    case CPIM_OP_GCM:
        return a && a->gcm;
    case CPIM_OP_GCM_RANGE:
        return a && a->gcm_range;
    case CPIM_OP_SHA_BATCH:
        return s && s->batch;
    case CPIM_OP_SHA_BLOCKS:
        return s && s->blocks;
    case CPIM_OP_SHA_STREAM:
        return s && s->stream;
    case CPIM_OP_HMAC:
        return s && s->hmac;
    case CPIM_OP_PBKDF2:
        return s && s->pbkdf2;
    case CPIM_OP_NTT:
        return ntt_of(ctx) && ntt_of(ctx)->run;
    case CPIM_OP_REGION:
        return region_of(ctx) != NULL;
    }
    return 0;
}

cpim_err cpim_engine_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len)
{
    if (!cpim_engine_has(ctx, CPIM_OP_SET_KEY))
        return CPIM_ERR_UNSUPPORTED;
    return aes_of(ctx)->set_key(STATE(ctx, CPIM_FAMILY_AES), key, key_len);
}

cpim_err cpim_engine_ecb(cpim_ctx *ctx, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                         cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_ECB))
        return CPIM_ERR_UNSUPPORTED;
    return aes_of(ctx)->ecb(STATE(ctx, CPIM_FAMILY_AES), dir, in, out, len, st);
}

cpim_err cpim_engine_ctr(cpim_ctx *ctx, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                         size_t len, cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_CTR))
        return CPIM_ERR_UNSUPPORTED;
    return aes_of(ctx)->ctr(STATE(ctx, CPIM_FAMILY_AES), counter, in, out, len, st);
}

cpim_err cpim_engine_xts_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len)
{
    if (!cpim_engine_has(ctx, CPIM_OP_XTS_SET_KEY))
        return CPIM_ERR_UNSUPPORTED;
    return aes_of(ctx)->xts_set_key(STATE(ctx, CPIM_FAMILY_AES), key, key_len);
}

cpim_err cpim_engine_xts(cpim_ctx *ctx, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                         const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_XTS))
        return CPIM_ERR_UNSUPPORTED;
    return aes_of(ctx)->xts(STATE(ctx, CPIM_FAMILY_AES), dir, first_unit, unit_size, in, out, len,
                            st);
}

cpim_err cpim_engine_gcm(cpim_ctx *ctx, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                         size_t len, uint8_t tag[16], cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_GCM))
        return CPIM_ERR_UNSUPPORTED;
    return aes_of(ctx)->gcm(STATE(ctx, CPIM_FAMILY_AES), dir, iv, iv_len, aad, aad_len, in, out,
                            len, tag, st);
}

cpim_err cpim_engine_gcm_range(cpim_ctx *ctx, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                               const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_GCM_RANGE))
        return CPIM_ERR_UNSUPPORTED;
    return aes_of(ctx)->gcm_range(STATE(ctx, CPIM_FAMILY_AES), dir, c, y, in, out, len, st);
}

cpim_err cpim_engine_sha_batch(cpim_ctx *ctx, const uint8_t *const *msgs, const size_t *lens,
                               size_t count, uint8_t (*digests)[32], cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_SHA_BATCH))
        return CPIM_ERR_UNSUPPORTED;
    return sha_of(ctx)->batch(STATE(ctx, CPIM_FAMILY_SHA), msgs, lens, count, digests, st);
}

cpim_err cpim_engine_sha_blocks(const cpim_ctx *ctx, uint32_t *const *h, const uint8_t *const *p,
                                const size_t *nblocks, size_t count, cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_SHA_BLOCKS))
        return CPIM_ERR_UNSUPPORTED;
    return sha_of(ctx)->blocks(STATE(ctx, CPIM_FAMILY_SHA), h, p, nblocks, count, st);
}

void cpim_engine_sha_stream(const cpim_ctx *ctx, uint32_t h[8], const uint8_t *p, size_t nblocks)
{
    sha_of(ctx)->stream(STATE(ctx, CPIM_FAMILY_SHA), h, p, nblocks);
}

cpim_err cpim_engine_hmac(cpim_ctx *ctx, const uint8_t *const *keys, const size_t *key_lens,
                          const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                          uint8_t (*macs)[32], cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_HMAC))
        return CPIM_ERR_UNSUPPORTED;
    return sha_of(ctx)->hmac(STATE(ctx, CPIM_FAMILY_SHA), keys, key_lens, msgs, msg_lens, count,
                             macs, st);
}

cpim_err cpim_engine_pbkdf2(cpim_ctx *ctx, const uint8_t *const *passes, const size_t *pass_lens,
                            const uint8_t *const *salts, const size_t *salt_lens, size_t count,
                            uint32_t iterations, uint8_t *const *outs, size_t out_len,
                            cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_PBKDF2))
        return CPIM_ERR_UNSUPPORTED;
    return sha_of(ctx)->pbkdf2(STATE(ctx, CPIM_FAMILY_SHA), passes, pass_lens, salts, salt_lens,
                               count, iterations, outs, out_len, st);
}

cpim_err cpim_engine_ntt(cpim_ctx *ctx, const cpim_ntt_plan *plan, cpim_ntt_op op,
                         const uint64_t *a, const uint64_t *b, uint64_t *out, size_t count,
                         cpim_stats *st)
{
    if (!cpim_engine_has(ctx, CPIM_OP_NTT))
        return CPIM_ERR_UNSUPPORTED;
    return ntt_of(ctx)->run(STATE(ctx, CPIM_FAMILY_NTT), plan, op, a, b, out, count, st);
}

const cpim_ntt_kernels *cpim_engine_ntt_kernels(const cpim_ctx *ctx)
{
    const cpim_ntt_engine *e = ntt_of(ctx);
    return e && e->kernels ? e->kernels() : NULL;
}

cpim_err cpim_engine_region_create(cpim_ctx *ctx, uint64_t size, uint32_t unit, void **impl)
{
    if (!cpim_engine_has(ctx, CPIM_OP_REGION))
        return CPIM_ERR_UNSUPPORTED;
    return region_of(ctx)->create(STATE(ctx, CPIM_FAMILY_REGION), size, unit, impl);
}

/* The region calls below have an impl, so the context has a region engine. */
void cpim_engine_region_destroy(const cpim_ctx *ctx, void *impl)
{
    region_of(ctx)->destroy(impl);
}

void cpim_engine_region_layout(const cpim_ctx *ctx, const void *impl, uint32_t *dpus,
                               uint64_t *per_dpu, uint32_t *unit)
{
    region_of(ctx)->layout(impl, dpus, per_dpu, unit);
}

cpim_err cpim_engine_region_xfer(const cpim_ctx *ctx, void *impl, int to_dpus, uint64_t off,
                                 uint8_t *buf, size_t len, cpim_stats *st)
{
    return region_of(ctx)->xfer(impl, to_dpus, off, buf, len, st);
}

cpim_err cpim_engine_region_crypt(const cpim_ctx *ctx, void *impl, const cpim_region_op *op,
                                  cpim_stats *st)
{
    return region_of(ctx)->crypt(impl, op, st);
}

cpim_err cpim_engine_region_sha256(const cpim_ctx *ctx, void *impl, uint32_t seq,
                                   uint8_t (*digests)[32], uint8_t root[32], cpim_stats *st)
{
    return region_of(ctx)->sha256(impl, seq, digests, root, st);
}
