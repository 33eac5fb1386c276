/*
 * aesni_gcm.c -- the `aesni` backend's AES-GCM: gcm_run.h with this
 * backend's CTR and GHASH.
 */
#include <string.h>

#include "aesni.h"
#include "cryptopim.h"
#include "gcm.h"
#include "gcm_run.h"

/* ---- AES-GCM: gcm_run.h with this backend's CTR and GHASH ---------------------------------- */

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

static void gcm_encrypt1(void *p, const uint8_t in[16], uint8_t out[16])
{
    struct aesni_state *s = p;
    s->enc(s->ek, s->nr, in, out, 1);
}

cpim_err cpim_aesni_gcm(void *p, cpim_dir dir, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                        size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                        uint8_t tag[16], cpim_stats *st)
{
    const cpim_gcm_ops ops = {
        p, gcm_ctr, gcm_ghash, gcm_encrypt1, ((struct aesni_state *)p)->threads, NULL};
    (void)st; /* the core records bytes and the measured time */
    cpim_gcm_run(&ops, dir, iv, iv_len, aad, aad_len, in, out, len, tag);
    return CPIM_OK;
}
