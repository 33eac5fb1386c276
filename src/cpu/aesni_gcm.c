/*
 * aesni_gcm.c -- the `aesni` backend's AES-GCM: gcm_run.h with this
 * backend's CTR and GHASH, or its one-pass kernel where the CPU has one.
 */
#include <string.h>

#include "aesni.h"
#include "cryptopim.h"
#include "gcm.h"
#include "gcm_run.h"

/* ---- AES-GCM: gcm_run.h with this backend's kernels ---------------------------------------- */

static void gcm_ctr(void *p, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len)
{
    (void)cpim_aesni_ctr(p, counter, in, out, len, NULL);
}

static void gcm_ghash(void *p, uint8_t y[16], const uint8_t *data, size_t nblocks)
{
    struct aesni_state *s = p;
    if (s->ghash)
        s->ghash(s->hpow, y, data, nblocks);
    else
        cpim_crypto_ghash_blocks(&s->gh, y, data, nblocks);
}

static void gcm_stitch(void *p, cpim_dir dir, uint8_t c[16], uint8_t y[16], const uint8_t *in,
                       uint8_t *out, size_t nblocks)
{
    struct aesni_state *s = p;
    s->gcm(s->ek, s->nr, s->hpow, dir == CPIM_DECRYPT, c, y, in, out, nblocks);
}

static void gcm_encrypt1(void *p, const uint8_t in[16], uint8_t out[16])
{
    struct aesni_state *s = p;
    s->enc(s->ek, s->nr, in, out, 1);
}

static cpim_gcm_ops gcm_ops(struct aesni_state *s)
{
    const cpim_gcm_ops ops = {.state = s,
                              .ctr = gcm_ctr,
                              .ghash = gcm_ghash,
                              .encrypt1 = gcm_encrypt1,
                              .threads = s->threads,
                              .stitch = s->gcm ? gcm_stitch : NULL};
    return ops;
}

cpim_err cpim_aesni_gcm_range(void *p, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                              const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st)
{
    const cpim_gcm_ops ops = gcm_ops(p);
    (void)st; /* the core records bytes and the measured time */
    cpim_gcm_bulk(&ops, dir, c, y, in, out, len);
    return CPIM_OK;
}

cpim_err cpim_aesni_gcm(void *p, cpim_dir dir, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                        size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                        uint8_t tag[16], cpim_stats *st)
{
    const cpim_gcm_ops ops = gcm_ops(p);
    (void)st; /* the core records bytes and the measured time */
    cpim_gcm_run(&ops, dir, iv, iv_len, aad, aad_len, in, out, len, tag);
    return CPIM_OK;
}
