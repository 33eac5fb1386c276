/*
 * auto.c -- the `auto` backend: per operation, the best backend available on
 * this machine (aesni for AES, shani for SHA-256, else the portable cpu one).
 * It never picks pim: offloading is an explicit choice.
 */
#include <stdlib.h>

#include "backend.h"

struct auto_state {
    const cpim_backend_vt *aes_vt, *sha_vt, *ntt_vt;
    void *aes_st, *sha_st, *ntt_st;
};

static const cpim_backend_vt *best(const cpim_backend_vt *first)
{
    const char *why;
    return first->available(&why) ? first : &cpim_backend_cpu;
}

static int auto_available(const char **why)
{
    (void)why;
    return 1;
}

static void auto_close(void *p)
{
    struct auto_state *s = p;
    if (!s)
        return;
    if (s->aes_vt && s->aes_vt->close)
        s->aes_vt->close(s->aes_st);
    if (s->sha_vt && s->sha_vt->close)
        s->sha_vt->close(s->sha_st);
    if (s->ntt_vt && s->ntt_vt->close)
        s->ntt_vt->close(s->ntt_st);
    free(s);
}

static cpim_err auto_open(void **state, const cpim_options *opt)
{
    struct auto_state *s = calloc(1, sizeof *s);
    if (!s)
        return CPIM_ERR_NOMEM;
    cpim_err rc = CPIM_OK;
    s->aes_vt = best(&cpim_backend_aesni);
    if (s->aes_vt->open)
        rc = s->aes_vt->open(&s->aes_st, opt);
    if (rc == CPIM_OK) {
        s->sha_vt = best(&cpim_backend_shani);
        if (s->sha_vt->open)
            rc = s->sha_vt->open(&s->sha_st, opt);
    }
    if (rc == CPIM_OK) {
        /* issue 16: the fastest CPU NTT */
        s->ntt_vt = &cpim_backend_cpu;
        if (s->ntt_vt->open)
            rc = s->ntt_vt->open(&s->ntt_st, opt);
    }
    if (rc != CPIM_OK) {
        auto_close(s);
        return rc;
    }
    *state = s;
    return CPIM_OK;
}

static cpim_err auto_set_key(void *p, const uint8_t *key, size_t key_len)
{
    struct auto_state *s = p;
    return s->aes_vt->set_key(s->aes_st, key, key_len);
}

static cpim_err auto_ecb(void *p, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                         cpim_stats *st)
{
    struct auto_state *s = p;
    return s->aes_vt->aes_ecb(s->aes_st, dir, in, out, len, st);
}

static cpim_err auto_ctr(void *p, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len,
                         cpim_stats *st)
{
    struct auto_state *s = p;
    return s->aes_vt->aes_ctr(s->aes_st, counter, in, out, len, st);
}

static cpim_err auto_sha(void *p, const uint8_t *const *msgs, const size_t *lens, size_t count,
                         uint8_t (*digests)[32], cpim_stats *st)
{
    struct auto_state *s = p;
    return s->sha_vt->sha256_batch(s->sha_st, msgs, lens, count, digests, st);
}

static cpim_err auto_sha_blocks(void *p, uint32_t *const *h, const uint8_t *const *msgs,
                                const size_t *nblocks, size_t count, cpim_stats *st)
{
    struct auto_state *s = p;
    if (!s->sha_vt->sha256_blocks)
        return CPIM_ERR_UNSUPPORTED;
    return s->sha_vt->sha256_blocks(s->sha_st, h, msgs, nblocks, count, st);
}

static cpim_err auto_xts_set_key(void *p, const uint8_t *key, size_t key_len)
{
    struct auto_state *s = p;
    return s->aes_vt->xts_set_key(s->aes_st, key, key_len);
}

static cpim_err auto_xts(void *p, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                         const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st)
{
    struct auto_state *s = p;
    return s->aes_vt->aes_xts(s->aes_st, dir, first_unit, unit_size, in, out, len, st);
}

static cpim_err auto_gcm(void *p, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                         size_t len, uint8_t tag[16], cpim_stats *st)
{
    struct auto_state *s = p;
    if (!s->aes_vt->aes_gcm)
        return CPIM_ERR_UNSUPPORTED;
    return s->aes_vt->aes_gcm(s->aes_st, dir, iv, iv_len, aad, aad_len, in, out, len, tag, st);
}

static cpim_err auto_ntt(void *p, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                         const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st)
{
    struct auto_state *s = p;
    return s->ntt_vt->ntt(s->ntt_st, plan, op, a, b, out, count, st);
}

const cpim_backend_vt cpim_backend_auto = {
    .version = CPIM_BACKEND_VT_VERSION,
    .name = "auto",
    .description = "best available per operation (aesni/shani, else cpu)",
    .available = auto_available,
    .open = auto_open,
    .close = auto_close,
    .set_key = auto_set_key,
    .aes_ecb = auto_ecb,
    .aes_ctr = auto_ctr,
    .sha256_batch = auto_sha,
    .sha256_blocks = auto_sha_blocks,
    .xts_set_key = auto_xts_set_key,
    .aes_xts = auto_xts,
    .aes_gcm = auto_gcm,
    .ntt = auto_ntt,
};
