/* see gcm_run.h */
#include "gcm_run.h"

#include <string.h>

#include "gcm.h"
#include "parallel.h"

/* GHASH over threads from this many bytes (a thread start costs about as
 * much as hashing 16-64 KiB here) */
#define GHASH_PAR_MIN   (256u << 10)
#define GHASH_PARTS_MAX 64u

struct ghash_job {
    const cpim_gcm_ops *ops;
    const uint8_t *p;
    size_t nblocks, parts;
    uint8_t (*y)[16]; /* per part; part 0 starts from the caller's y */
    /* cpim_gcm_stitch: */
    cpim_dir dir;
    const uint8_t *c; /* the first part's counter block */
    uint8_t *out;
};

static size_t part_begin(const struct ghash_job *j, size_t k)
{
    return j->nblocks / j->parts * k + (k < j->nblocks % j->parts ? k : j->nblocks % j->parts);
}

static void ghash_parts(void *arg, size_t b, size_t e)
{
    const struct ghash_job *j = arg;
    for (size_t k = b; k < e; k++) {
        size_t first = part_begin(j, k), end = part_begin(j, k + 1);
        j->ops->ghash(j->ops->state, j->y[k], j->p + 16 * first, end - first);
    }
}

static void stitch_parts(void *arg, size_t b, size_t e)
{
    const struct ghash_job *j = arg;
    for (size_t k = b; k < e; k++) {
        size_t first = part_begin(j, k), end = part_begin(j, k + 1);
        uint8_t c[16];
        memcpy(c, j->c, 16);
        cpim_crypto_gcm_inc32(c, (uint32_t)first);
        j->ops->stitch(j->ops->state, j->dir, c, j->y[k], j->p + 16 * first, j->out + 16 * first,
                       end - first);
        cpim_wipe(c, sizeof c);
    }
}

/* x = H^e (H from the ops: 1 * H), square and multiply */
static void h_pow(const cpim_gcm_ops *ops, uint64_t e, uint8_t x[16])
{
    uint8_t b[16] = {0}, one[16] = {0x80}, t[16];
    ops->ghash(ops->state, b, one, 1); /* (0 ^ 1) * H */
    memset(x, 0, 16);
    x[0] = 0x80;
    for (; e; e >>= 1) {
        if (e & 1)
            cpim_crypto_gf128_mul(x, b);
        memcpy(t, b, 16);
        cpim_crypto_gf128_mul(b, t);
    }
    cpim_wipe(b, sizeof b);
    cpim_wipe(t, sizeof t);
}

/* How many parts over threads for nblocks (1: no threads). */
static size_t parts_for(const cpim_gcm_ops *ops, size_t nblocks)
{
    size_t parts = ops->threads ? ops->threads : cpim_cores();
    if (parts > GHASH_PARTS_MAX)
        parts = GHASH_PARTS_MAX;
    return parts < 2 || nblocks * 16 < GHASH_PAR_MIN ? 1 : parts;
}

/* j's parts run by fn over threads, each hashing from zero but the first
 * (from y), then chained into y. */
static void run_parts(struct ghash_job *j, void (*fn)(void *, size_t, size_t), uint8_t y[16])
{
    uint8_t ys[GHASH_PARTS_MAX][16], hl[2][16], acc[16];
    memset(ys, 0, j->parts * 16);
    memcpy(ys[0], y, 16);
    j->y = ys;
    /* a thread that cannot start has its parts done by the caller */
    (void)cpim_parallel_for((unsigned)j->parts, j->parts, 1, fn, j);
    /* the parts are nblocks / parts or one more blocks long */
    const size_t q = j->nblocks / j->parts;
    h_pow(j->ops, q, hl[0]);
    h_pow(j->ops, q + 1, hl[1]);
    memcpy(acc, ys[0], 16);
    for (size_t k = 1; k < j->parts; k++) {
        cpim_crypto_gf128_mul(acc, hl[part_begin(j, k + 1) - part_begin(j, k) - q]);
        for (int i = 0; i < 16; i++)
            acc[i] ^= ys[k][i];
    }
    memcpy(y, acc, 16);
    cpim_wipe(hl, sizeof hl);
    cpim_wipe(ys, sizeof ys);
    cpim_wipe(acc, sizeof acc);
}

/* y absorbs nblocks whole blocks, in parts over threads when large. */
static void ghash_whole(const cpim_gcm_ops *ops, uint8_t y[16], const uint8_t *p, size_t nblocks)
{
    size_t parts = parts_for(ops, nblocks);
    if (parts == 1) {
        ops->ghash(ops->state, y, p, nblocks);
        return;
    }
    struct ghash_job j = {.ops = ops, .p = p, .nblocks = nblocks, .parts = parts};
    run_parts(&j, ghash_parts, y);
}

void cpim_gcm_stitch(const cpim_gcm_ops *ops, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                     const uint8_t *in, uint8_t *out, size_t nblocks)
{
    size_t parts = parts_for(ops, nblocks);
    if (parts == 1) {
        ops->stitch(ops->state, dir, c, y, in, out, nblocks);
        return;
    }
    struct ghash_job j = {
        .ops = ops, .p = in, .nblocks = nblocks, .parts = parts, .dir = dir, .c = c, .out = out};
    run_parts(&j, stitch_parts, y);
    cpim_crypto_gcm_inc32(c, (uint32_t)nblocks);
}

void cpim_gcm_ghash_bytes(const cpim_gcm_ops *ops, uint8_t y[16], const uint8_t *p, size_t len)
{
    if (len >= 16)
        ghash_whole(ops, y, p, len / 16);
    if (len % 16) {
        uint8_t b[16] = {0};
        memcpy(b, p + len - len % 16, len % 16);
        ops->ghash(ops->state, y, b, 1);
        cpim_wipe(b, sizeof b);
    }
}

void cpim_gcm_j0(const cpim_gcm_ops *ops, const uint8_t *iv, size_t iv_len, uint8_t j0[16])
{
    memset(j0, 0, 16);
    if (iv_len == 12) {
        memcpy(j0, iv, 12);
        j0[15] = 1;
        return;
    }
    uint8_t lb[16];
    cpim_gcm_ghash_bytes(ops, j0, iv, iv_len);
    cpim_crypto_gcm_len_block(lb, 0, iv_len);
    ops->ghash(ops->state, j0, lb, 1);
}

void cpim_gcm_ctr32(const cpim_gcm_ops *ops, uint8_t c[16], const uint8_t *in, uint8_t *out,
                    size_t len)
{
    if (ops->ctr32) {
        ops->ctr32(ops->state, c, in, out, len);
        return;
    }
    while (len) {
        uint32_t low = (uint32_t)c[12] << 24 | (uint32_t)c[13] << 16 | (uint32_t)c[14] << 8 | c[15];
        /* blocks before the low word wraps: 2^32 - low */
        uint64_t room = (uint64_t)1 << 32;
        room -= low;
        size_t n = len;
        if ((uint64_t)(n + 15) / 16 > room)
            n = (size_t)(room * 16);
        uint8_t c0[16];
        memcpy(c0, c, 16);
        ops->ctr(ops->state, c, in, out, n);
        /* ops->ctr advanced c with a 128-bit carry: redo it as inc32 */
        memcpy(c, c0, 16);
        cpim_crypto_gcm_inc32(c, (uint32_t)((n + 15) / 16));
        cpim_wipe(c0, sizeof c0);
        in += n, out += n, len -= n;
    }
}

void cpim_gcm_bulk(const cpim_gcm_ops *ops, cpim_dir dir, uint8_t c[16], uint8_t y[16],
                   const uint8_t *in, uint8_t *out, size_t len)
{
    size_t whole = ops->stitch ? len / 16 : 0; /* blocks for ops->stitch */
    if (whole)
        cpim_gcm_stitch(ops, dir, c, y, in, out, whole);
    for (size_t off = 16 * whole; off < len; off += GCM_RUN_PIECE) {
        size_t n = len - off < GCM_RUN_PIECE ? len - off : GCM_RUN_PIECE;
        if (dir == CPIM_DECRYPT)
            cpim_gcm_ghash_bytes(ops, y, in + off, n);
        cpim_gcm_ctr32(ops, c, in + off, out + off, n);
        if (dir == CPIM_ENCRYPT)
            cpim_gcm_ghash_bytes(ops, y, out + off, n);
    }
}

void cpim_gcm_run(const cpim_gcm_ops *ops, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                  const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                  uint8_t tag[16])
{
    uint8_t j0[16], c[16], y[16] = {0}, lb[16];
    cpim_gcm_j0(ops, iv, iv_len, j0);
    memcpy(c, j0, 16);
    cpim_crypto_gcm_inc32(c, 1);
    if (aad_len)
        cpim_gcm_ghash_bytes(ops, y, aad, aad_len);
    cpim_gcm_bulk(ops, dir, c, y, in, out, len);
    cpim_crypto_gcm_len_block(lb, aad_len, len);
    ops->ghash(ops->state, y, lb, 1);
    ops->encrypt1(ops->state, j0, tag);
    for (int i = 0; i < 16; i++)
        tag[i] ^= y[i];
    cpim_wipe(j0, sizeof j0);
    cpim_wipe(c, sizeof c);
    cpim_wipe(y, sizeof y);
}
