/*
 * encdec.c -- the enc/dec driver shared by `cryptopim` and `cryptopim-mpi`
 * (the contracts are in encdec.h).
 */
#include "encdec.h"

#include <string.h>

size_t cli_encdec_unit(const cli_encdec *e)
{
    return e->xts ? e->sector_size : 16;
}

/* see encdec.h; the one place that picks a chunk size */
size_t cli_encdec_chunk(const cli_encdec *e, const char *backend)
{
    uint64_t v;
    size_t c = cpim_backend_chunk(backend); /* pim's is larger: a DPU launch per call */
    int r = cli_env_u64("CRYPTOPIM_CHUNK", 16, 1u << 30, &v);
    if (r < 0)
        return 0;
    if (r > 0 && v % 16) {
        cli_error("CRYPTOPIM_CHUNK=%llu: not a multiple of 16", (unsigned long long)v);
        return 0;
    }
    if (r > 0)
        c = (size_t)v;
    size_t unit = cli_encdec_unit(e);
    return c < unit ? unit : c - c % unit;
}

int cli_encdec_check_size(const cli_encdec *e, const char *in_name, uint64_t size)
{
    unsigned long long n = (unsigned long long)size;
    if (!e->ctr && !e->xts && !e->gcm && size % 16) {
        cli_error("%s: input %s is %llu bytes, not a multiple of 16 (%s takes no padding)", e->cmd,
                  in_name, n, e->alg_name);
        return -1;
    }
    if (e->xts && size > 0 && size % e->sector_size && size % e->sector_size < 16) {
        cli_error("%s: input %s is %llu bytes: its last sector would have %zu bytes (XTS needs "
                  "16 or more)",
                  e->cmd, in_name, n, (size_t)(size % e->sector_size));
        return -1;
    }
    if (e->gcm && e->dir == CPIM_DECRYPT && size < 16) {
        cli_error("%s: input %s is %llu bytes, shorter than the 16-byte GCM tag", e->cmd, in_name,
                  n);
        return -1;
    }
    return 0;
}

cpim_ctx *cli_encdec_open(cli_encdec *e, const char *backend, int ranged)
{
    cpim_ctx *ctx = cli_open(backend, &e->common.opt);
    if (!ctx) {
        cpim_wipe(e->key, sizeof e->key);
        return NULL;
    }
    cpim_err err = e->xts ? cpim_xts_set_key(ctx, e->key, e->key_len)
                          : cpim_aes_set_key(ctx, e->key, e->key_len);
    cpim_wipe(e->key, sizeof e->key);
    if (err != CPIM_OK) {
        cli_error("%s: cannot set the key on backend '%s': %s", e->cmd, backend,
                  cpim_strerror(err));
        cpim_close(ctx);
        return NULL;
    }
    /* An empty call tells whether the backend provides the mode (in the
     * form the caller will use), so that even an empty input gets the
     * error. */
    uint8_t tag[16];
    if (e->gcm && ranged)
        err = cpim_aes_gcm_range(ctx, e->dir, e->gcm_iv, e->gcm_iv_len, 0, NULL, NULL, 0, tag);
    else if (e->gcm)
        err = cpim_aes_gcm_encrypt(ctx, e->gcm_iv, e->gcm_iv_len, NULL, 0, NULL, NULL, 0, tag);
    else if (e->xts)
        err = cpim_aes_xts(ctx, e->dir, 0, e->sector_size, NULL, NULL, 0);
    else if (e->ctr)
        err = cpim_aes_ctr(ctx, e->iv, NULL, NULL, 0);
    else
        err = cpim_aes_ecb(ctx, e->dir, NULL, NULL, 0);
    if (err != CPIM_OK) {
        cli_error("%s: %s on backend '%s': %s", e->cmd, e->alg_name, backend, cpim_strerror(err));
        cpim_close(ctx);
        return NULL;
    }
    return ctx;
}

/* counter += blocks, as a 128-bit big-endian number (CTR's increment) */
static void ctr_add(uint8_t ctr[16], uint64_t blocks)
{
    unsigned carry = 0;
    for (int i = 15; i >= 0; i--) {
        unsigned v = ctr[i] + (unsigned)(blocks & 0xff) + carry;
        ctr[i] = (uint8_t)v;
        carry = v >> 8;
        blocks >>= 8;
    }
}

void cli_encdec_seek(const cli_encdec *e, cli_encdec_pos *p, uint64_t off)
{
    p->off = off;
    memcpy(p->ctr, e->iv, 16);
    ctr_add(p->ctr, off / 16);
    p->sector = e->sector + off / cli_encdec_unit(e);
}

cpim_err cli_encdec_step(cpim_ctx *ctx, const cli_encdec *e, cli_encdec_pos *p, uint8_t *buf,
                         size_t n, uint8_t ghash[16])
{
    cpim_err err;
    if (e->gcm)
        err = cpim_aes_gcm_range(ctx, e->dir, e->gcm_iv, e->gcm_iv_len, p->off / 16, buf, buf, n,
                                 ghash);
    else if (e->xts)
        err = cpim_aes_xts(ctx, e->dir, p->sector, e->sector_size, buf, buf, n);
    else if (e->ctr)
        err = cpim_aes_ctr(ctx, p->ctr, buf, buf, n); /* advances p->ctr */
    else
        err = cpim_aes_ecb(ctx, e->dir, buf, buf, n);
    p->off += n;
    p->sector += n / cli_encdec_unit(e);
    return err;
}
