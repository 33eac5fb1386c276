/*
 * aesni_xts.c -- the `aesni` backend's AES-XTS (IEEE 1619): the XTS key slot,
 * and data units split over threads around the tier kernels.
 */
#include <stdlib.h>
#include <string.h>

#include "aesni.h"
#include "cryptopim.h"
#include "parallel.h"

/* ---- AES-XTS ------------------------------------------------------------------------------ */

/* XTS on VAES-512 is its own kernel (v512_xts: tweaks made 4 per zmm).
 * Elsewhere it runs on the context's ECB kernel (VAES-256 or AES-NI):
 * per batch of up to XTS_BATCH blocks of a data unit, the tweaks are made
 * (multiplication by alpha on two 64-bit halves: the tweak's bytes are a
 * little-endian 128-bit number), xored into a copy of the input, the copy
 * goes through the ECB kernel, and the tweaks are xored into its output.
 * 64 blocks are 1 KiB of tweaks and 1 KiB of copy: both stay in L1. */
#define XTS_BATCH 64u

cpim_err cpim_aesni_xts_set_key(void *p, const uint8_t *key, size_t key_len)
{
#ifdef CPIM_HAVE_X86
    struct aesni_state *s = p, *t = calloc(1, sizeof *t);
    if (!t)
        return CPIM_ERR_NOMEM;
    cpim_wipe(s->xek1, sizeof s->xek1);
    cpim_wipe(s->xdk1, sizeof s->xdk1);
    cpim_wipe(s->xek2, sizeof s->xek2);
    cpim_aesni_expand_key(t, key, key_len / 2);
    memcpy(s->xek1, t->ek, sizeof s->xek1);
    memcpy(s->xdk1, t->dk, sizeof s->xdk1);
    cpim_aesni_expand_key(t, key + key_len / 2, key_len / 2);
    memcpy(s->xek2, t->ek, sizeof s->xek2);
    s->xnr = t->nr;
    cpim_wipe(t, sizeof *t);
    free(t);
    return CPIM_OK;
#else
    (void)p, (void)key, (void)key_len;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

/* One block: out = K(in ^ t) ^ t. */
static void xts_one(ecb_kernel k, const uint8_t *rk, unsigned nr, const uint64_t t[2],
                    const uint8_t *in, uint8_t *out)
{
    uint64_t w[2];
    memcpy(w, in, 16);
    w[0] ^= t[0], w[1] ^= t[1];
    k(rk, nr, (const uint8_t *)w, (uint8_t *)w, 1);
    w[0] ^= t[0], w[1] ^= t[1];
    memcpy(out, w, 16);
    cpim_wipe(w, sizeof w);
}

/* tw, buf: 2 * XTS_BATCH words each, the caller's (wiped once per range,
 * not per unit: a 2 KiB wipe per 512-byte unit cost more than the AES).
 * rk2: NULL, or (with s->xts only) t0 is the plain tweak, which the kernel
 * encrypts. */
static void xts_unit(const struct aesni_state *s, int dec, const uint8_t *rk2, const uint64_t t0[2],
                     const uint8_t *in, uint8_t *out, size_t len, uint64_t *tw, uint64_t *buf)
{
    ecb_kernel k = dec ? s->dec : s->enc;
    const uint8_t *rk = dec ? s->xdk1 : s->xek1;
    uint64_t t[2] = {t0[0], t0[1]};
    const size_t r = len % 16, m = len / 16 - (r != 0);
    if (s->xts)
        s->xts(rk, rk2, s->xnr, dec, r != 0, t, 1, 0, in, out, m);
    for (size_t j = 0; j < m && !s->xts;) {
        size_t n = m - j < XTS_BATCH ? m - j : XTS_BATCH;
        memcpy(buf, in + 16 * j, 16 * n);
        for (size_t i = 0; i < n; i++) {
            tw[2 * i] = t[0], tw[2 * i + 1] = t[1];
            buf[2 * i] ^= t[0], buf[2 * i + 1] ^= t[1];
            xts_alpha(t);
        }
        k(rk, s->xnr, (const uint8_t *)buf, (uint8_t *)buf, n);
        for (size_t i = 0; i < 2 * n; i++)
            buf[i] ^= tw[i];
        memcpy(out + 16 * j, buf, 16 * n);
        j += n;
    }
    if (r) { /* ciphertext stealing (IEEE 1619 5.3.2, 5.4.2): t = T_m-1 */
        uint64_t t2[2] = {t[0], t[1]};
        uint8_t a[16], b[16];
        xts_alpha(t2);
        in += 16 * m, out += 16 * m;
        xts_one(k, rk, s->xnr, dec ? t2 : t, in, a);
        memcpy(b, in + 16, r); /* the short block, read before out is written */
        memcpy(b + r, a + r, 16 - r);
        memcpy(out + 16, a, r);
        xts_one(k, rk, s->xnr, dec ? t : t2, b, out);
        cpim_wipe(a, sizeof a), cpim_wipe(b, sizeof b), cpim_wipe(t2, sizeof t2);
    }
    cpim_wipe(t, sizeof t);
}

struct xts_job {
    const struct aesni_state *s;
    int dec;
    uint64_t first;
    size_t unit, len;
    const uint8_t *in;
    uint8_t *out;
};

/* The units' first tweaks are encrypted XTS_UNITS at a time (one ECB call
 * of that many blocks, pipelined, instead of one single-block call per
 * unit: with VAES a 512-byte unit takes ~50 cycles, a lone block's ten
 * dependent rounds as many). */
#define XTS_UNITS 16u

static void xts_range(void *arg, size_t b, size_t e)
{
    const struct xts_job *j = arg;
    uint64_t tw[2 * XTS_BATCH], buf[2 * XTS_BATCH], t0[2 * XTS_UNITS];
    for (size_t i = b; i < e; i += XTS_UNITS) {
        const size_t nu = e - i < XTS_UNITS ? e - i : XTS_UNITS;
        for (size_t u = 0; u < nu; u++) /* plain64: little-endian unit number, 8 zero bytes */
            t0[2 * u] = j->first + i + u, t0[2 * u + 1] = 0;
        /* A lone unit (every provider update: one unit per call) has its
         * tweak encrypted inside the kernel, on xmm: an ECB call of one
         * block cost about 2% of a 16 KiB unit. */
        const uint8_t *rk2 = j->s->xts && nu == 1 ? j->s->xek2 : NULL;
        if (!rk2)
            j->s->enc(j->s->xek2, j->s->xnr, (const uint8_t *)t0, (uint8_t *)t0, nu); /* x86: LE */
        size_t u = 0;
        if (j->s->xts && j->unit % 16 == 0) { /* the whole units in one kernel call */
            size_t full = (j->len - i * j->unit) / j->unit;
            full = full < nu ? full : nu;
            const uint8_t *rk = j->dec ? j->s->xdk1 : j->s->xek1;
            j->s->xts(rk, rk2, j->s->xnr, j->dec, 0, t0, full, j->unit, j->in + i * j->unit,
                      j->out + i * j->unit, j->unit / 16);
            u = full;
        }
        for (; u < nu; u++) {
            size_t off = (i + u) * j->unit, n = j->len - off < j->unit ? j->len - off : j->unit;
            xts_unit(j->s, j->dec, rk2, t0 + 2 * u, j->in + off, j->out + off, n, tw, buf);
        }
    }
    if (!j->s->xts) /* the batch path's copies; the kernel keeps none */
        cpim_wipe(tw, sizeof tw), cpim_wipe(buf, sizeof buf);
    cpim_wipe(t0, sizeof t0);
}

cpim_err cpim_aesni_xts(void *p, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                        const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st)
{
    struct aesni_state *s = p;
    struct xts_job j = {s, dir == CPIM_DECRYPT, first_unit, unit_size, len, in, out};
    size_t units = (len + unit_size - 1) / unit_size, grain = AESNI_GRAIN_BLOCKS * 16 / unit_size;
    (void)st;
    (void)cpim_parallel_for(s->threads, units, grain ? grain : 1, xts_range, &j);
    return CPIM_OK;
}
