/*
 * cpu.c -- the `cpu` backend: the portable primitives of src/crypto/ (the
 * same code the DPUs run), spread over the host's cores for bulk work; the
 * multi-threaded portable path itself (portable.h) lives here too.
 *
 * The primitives take uint32_t lengths (they also run on the 32-bit DPU),
 * so each range is fed to them in pieces of at most CHUNK bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "backend.h"
#include "gcm.h"
#include "gcm_run.h"
#include "ntt_run.h"
#include "parallel.h"
#include "portable.h"
#include "sha256.h"

/* Below 2 * GRAIN_BLOCKS blocks (128 KiB) a job stays on the calling thread:
 * starting a thread costs about as much as encrypting 16 KiB. */
#define GRAIN_BLOCKS     4096u
#define MIN_SHA_PARALLEL (128u * 1024u)
#define CHUNK            (1u << 30) /* bytes per primitive call, a multiple of 64 */

struct cpu_state {
    unsigned threads; /* 0 = all cores */
    int table;        /* the `cpu-table` backend: the T-table code */
    cpim_portable_aes aes;
    cpim_portable_xts_keys xts;
};

static int cpu_available(const char **why)
{
    (void)why;
    return 1;
}

static cpim_err open_as(void **state, const cpim_options *opt, int table)
{
    struct cpu_state *s = calloc(1, sizeof *s);
    if (!s)
        return CPIM_ERR_NOMEM;
    s->threads = opt ? opt->threads : 0;
    s->table = table;
    *state = s;
    return CPIM_OK;
}

static cpim_err cpu_open(void **state, const cpim_options *opt)
{
    return open_as(state, opt, 0);
}

static cpim_err cpu_table_open(void **state, const cpim_options *opt)
{
    return open_as(state, opt, 1);
}

static void cpu_close(void *state)
{
    if (!state)
        return;
    cpim_wipe(state, sizeof(struct cpu_state));
    free(state);
}

/* see portable.h */
cpim_err cpim_portable_set_key_table(cpim_portable_aes *k, const uint8_t *key, size_t key_len)
{
    cpim_wipe(k, sizeof *k);
    k->table = 1;
    if (!cpim_crypto_aes_expand_enc(&k->ek, key, (uint32_t)key_len))
        return CPIM_ERR_KEY_LENGTH;
    cpim_crypto_aes_dec_from_enc(&k->dk, &k->ek);
    uint8_t h[16] = {0};
    cpim_crypto_aes_encrypt(&k->ek, h, h, 1);
    cpim_crypto_ghash_init(&k->gh, h);
    cpim_wipe(h, sizeof h);
    return CPIM_OK;
}

/* see portable.h */
cpim_err cpim_portable_set_key(cpim_portable_aes *k, const uint8_t *key, size_t key_len)
{
    cpim_wipe(k, sizeof *k);
    if (!cpim_crypto_aes_ct_expand(&k->ct, key, (uint32_t)key_len))
        return CPIM_ERR_KEY_LENGTH;
    uint8_t h[16] = {0};
    cpim_crypto_aes_ct_blocks(&k->ct, 0, h, h, 1);
    cpim_crypto_ghash_ct_init(&k->gct, h);
    cpim_wipe(h, sizeof h);
    return CPIM_OK;
}

static cpim_err cpu_set_key(void *state, const uint8_t *key, size_t key_len)
{
    struct cpu_state *s = state;
    return s->table ? cpim_portable_set_key_table(&s->aes, key, key_len)
                    : cpim_portable_set_key(&s->aes, key, key_len);
}

/* ---- AES -------------------------------------------------------------------- */

struct aes_job {
    const cpim_portable_aes *k;
    const cpim_crypto_aes_ct_impl *ct; /* NULL: the T-table code */
    cpim_dir dir;
    const uint8_t *in;
    uint8_t *out;
    size_t len;       /* bytes (CTR) */
    int inc32;        /* CTR: GCM's 32-bit counter (constant-time code only) */
    uint8_t ctr0[16]; /* CTR: counter of block 0 */
};

/* Blocks [b, e) of an ECB job. */
static void ecb_range(void *arg, size_t b, size_t e)
{
    const struct aes_job *j = arg;
    const uint8_t *in = j->in + b * 16;
    uint8_t *out = j->out + b * 16;
    for (size_t n = e - b; n;) {
        uint32_t step = n > CHUNK / 16 ? CHUNK / 16 : (uint32_t)n;
        if (j->ct)
            j->ct->blocks(&j->k->ct, j->dir == CPIM_DECRYPT, in, out, step);
        else if (j->dir == CPIM_ENCRYPT)
            cpim_crypto_aes_encrypt(&j->k->ek, in, out, step);
        else
            cpim_crypto_aes_decrypt(&j->k->dk, in, out, step);
        in += (size_t)step * 16;
        out += (size_t)step * 16;
        n -= step;
    }
}

/* Blocks [b, e) of a CTR job; the last block may be partial. */
static void ctr_range(void *arg, size_t b, size_t e)
{
    const struct aes_job *j = arg;
    uint8_t ctr[16];
    memcpy(ctr, j->ctr0, 16);
    if (j->inc32)
        cpim_crypto_gcm_inc32(ctr, (uint32_t)b);
    else
        cpim_crypto_aes_ctr_add(ctr, (uint64_t)b);
    size_t end = e * 16 < j->len ? e * 16 : j->len;
    const uint8_t *in = j->in + b * 16;
    uint8_t *out = j->out + b * 16;
    for (size_t n = end - b * 16; n;) {
        uint32_t step = n > CHUNK ? CHUNK : (uint32_t)n;
        if (j->ct && j->inc32)
            cpim_crypto_aes_ct_ctr32(j->ct, &j->k->ct, ctr, in, out, step);
        else if (j->ct)
            cpim_crypto_aes_ct_ctr(j->ct, &j->k->ct, ctr, in, out, step);
        else
            cpim_crypto_aes_ctr(&j->k->ek, ctr, in, out, step);
        in += step;
        out += step;
        n -= step;
    }
}

/* see portable.h */
void cpim_portable_ecb(const cpim_portable_aes *k, unsigned threads, cpim_dir dir,
                       const uint8_t *in, uint8_t *out, size_t len)
{
    struct aes_job j = {.k = k, .dir = dir, .in = in, .out = out, .len = len};
    j.ct = k->table ? NULL : cpim_aes_ct_impl();
    /* CPIM_ERR_THREAD still means all the work was done (in the caller). */
    (void)cpim_parallel_for(threads, len / 16, GRAIN_BLOCKS, ecb_range, &j);
}

/* see portable.h */
void cpim_portable_ctr(const cpim_portable_aes *k, unsigned threads, uint8_t counter[16],
                       const uint8_t *in, uint8_t *out, size_t len)
{
    struct aes_job j = {.k = k, .in = in, .out = out, .len = len};
    j.ct = k->table ? NULL : cpim_aes_ct_impl();
    memcpy(j.ctr0, counter, 16);
    size_t nblocks = len / 16 + (len % 16 != 0);
    (void)cpim_parallel_for(threads, nblocks, GRAIN_BLOCKS, ctr_range, &j);
    cpim_crypto_aes_ctr_add(counter, (uint64_t)nblocks);
}

static cpim_err cpu_ecb(void *state, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                        cpim_stats *st)
{
    struct cpu_state *s = state;
    double t0 = cpim_now();
    cpim_portable_ecb(&s->aes, s->threads, dir, in, out, len);
    st->measured.total_s = cpim_now() - t0;
    return CPIM_OK;
}

static cpim_err cpu_ctr(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t len, cpim_stats *st)
{
    struct cpu_state *s = state;
    double t0 = cpim_now();
    cpim_portable_ctr(&s->aes, s->threads, counter, in, out, len);
    st->measured.total_s = cpim_now() - t0;
    return CPIM_OK;
}

/* ---- AES-XTS ------------------------------------------------------------------ */

/* see portable.h */
cpim_err cpim_portable_xts_set_key(cpim_portable_xts_keys *k, const uint8_t *key, size_t key_len)
{
    cpim_wipe(k, sizeof *k);
    uint32_t half = (uint32_t)key_len / 2;
    if ((key_len != 32 && key_len != 64) || !cpim_crypto_aes_ct_expand(&k->c1, key, half) ||
        !cpim_crypto_aes_ct_expand(&k->c2, key + half, half))
        return CPIM_ERR_KEY_LENGTH;
    return CPIM_OK;
}

/* see portable.h */
cpim_err cpim_portable_xts_set_key_table(cpim_portable_xts_keys *k, const uint8_t *key,
                                         size_t key_len)
{
    cpim_wipe(k, sizeof *k);
    k->table = 1;
    uint32_t half = (uint32_t)key_len / 2;
    if ((key_len != 32 && key_len != 64) || !cpim_crypto_aes_expand_enc(&k->k1e, key, half) ||
        !cpim_crypto_aes_expand_enc(&k->k2e, key + half, half))
        return CPIM_ERR_KEY_LENGTH;
    cpim_crypto_aes_dec_from_enc(&k->k1d, &k->k1e);
    return CPIM_OK;
}

struct xts_job {
    const cpim_portable_xts_keys *k;
    const cpim_crypto_aes_ct_impl *ct; /* NULL: the T-table code */
    int dec;
    uint64_t first;
    size_t unit, len;
    const uint8_t *in;
    uint8_t *out;
};

/* Units [b, e) of an XTS job; the last unit of the buffer may be short. */
static void xts_range(void *arg, size_t b, size_t e)
{
    const struct xts_job *j = arg;
    const cpim_crypto_aes_ks *k1 = j->dec ? &j->k->k1d : &j->k->k1e;
    for (size_t i = b; i < e; i++) {
        size_t off = i * j->unit, n = j->len - off < j->unit ? j->len - off : j->unit;
        if (j->ct) {
            cpim_crypto_aes_ct_xts_unit(j->ct, &j->k->c1, &j->k->c2, j->dec, j->first + i,
                                        j->in + off, j->out + off, n);
            continue;
        }
        cpim_crypto_aes_xts_unit(k1, &j->k->k2e, j->dec, j->first + i, j->in + off, j->out + off,
                                 (uint32_t)n);
    }
}

/* see portable.h */
void cpim_portable_xts(const cpim_portable_xts_keys *k, unsigned threads, cpim_dir dir,
                       uint64_t first_unit, size_t unit_size, const uint8_t *in, uint8_t *out,
                       size_t len)
{
    struct xts_job j = {k,
                        k->table ? NULL : cpim_aes_ct_impl(),
                        dir == CPIM_DECRYPT,
                        first_unit,
                        unit_size,
                        len,
                        in,
                        out};
    size_t units = (len + unit_size - 1) / unit_size;
    size_t grain = GRAIN_BLOCKS * 16 / unit_size; /* about GRAIN_BLOCKS blocks per grain */
    (void)cpim_parallel_for(threads, units, grain ? grain : 1, xts_range, &j);
}

static cpim_err cpu_xts_set_key(void *state, const uint8_t *key, size_t key_len)
{
    struct cpu_state *s = state;
    return s->table ? cpim_portable_xts_set_key_table(&s->xts, key, key_len)
                    : cpim_portable_xts_set_key(&s->xts, key, key_len);
}

static cpim_err cpu_xts(void *state, cpim_dir dir, uint64_t first_unit, size_t unit_size,
                        const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st)
{
    struct cpu_state *s = state;
    (void)st; /* the core records bytes and the measured time */
    cpim_portable_xts(&s->xts, s->threads, dir, first_unit, unit_size, in, out, len);
    return CPIM_OK;
}

/* ---- AES-GCM (gcm_run.h with the portable CTR and GHASH) ------------------------- */

struct gcm_state {
    const cpim_portable_aes *k;
    unsigned threads;
};

static void gcm_ctr(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len)
{
    const struct gcm_state *g = state;
    cpim_portable_ctr(g->k, g->threads, counter, in, out, len);
}

/* GCM's inc32 CTR in constant time, threaded as cpim_portable_ctr */
static void gcm_ctr32(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len)
{
    const struct gcm_state *g = state;
    struct aes_job j = {.k = g->k, .in = in, .out = out, .len = len, .inc32 = 1};
    j.ct = cpim_aes_ct_impl();
    memcpy(j.ctr0, counter, 16);
    size_t nblocks = len / 16 + (len % 16 != 0);
    (void)cpim_parallel_for(g->threads, nblocks, GRAIN_BLOCKS, ctr_range, &j);
    cpim_crypto_gcm_inc32(counter, (uint32_t)nblocks);
}

static void gcm_ghash(void *state, uint8_t y[16], const uint8_t *p, size_t nblocks)
{
    const struct gcm_state *g = state;
    if (g->k->table)
        cpim_crypto_ghash_blocks(&g->k->gh, y, p, nblocks);
    else
        cpim_crypto_ghash_ct_blocks(&g->k->gct, y, p, nblocks);
}

static void gcm_encrypt1(void *state, const uint8_t in[16], uint8_t out[16])
{
    const struct gcm_state *g = state;
    if (g->k->table)
        cpim_crypto_aes_encrypt(&g->k->ek, in, out, 1);
    else
        cpim_crypto_aes_ct_blocks(&g->k->ct, 0, in, out, 1);
}

/* see portable.h */
void cpim_portable_gcm(const cpim_portable_aes *k, unsigned threads, cpim_dir dir,
                       const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                       const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[16])
{
    struct gcm_state g = {k, threads};
    const cpim_gcm_ops ops = {.state = &g,
                              .ctr = gcm_ctr,
                              .ghash = gcm_ghash,
                              .encrypt1 = gcm_encrypt1,
                              .threads = threads,
                              .ctr32 = k->table ? NULL : gcm_ctr32};
    cpim_gcm_run(&ops, dir, iv, iv_len, aad, aad_len, in, out, len, tag);
}

static cpim_err cpu_gcm(void *state, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                        const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                        size_t len, uint8_t tag[16], cpim_stats *st)
{
    struct cpu_state *s = state;
    (void)st; /* the core records bytes and the measured time */
    cpim_portable_gcm(&s->aes, s->threads, dir, iv, iv_len, aad, aad_len, in, out, len, tag);
    return CPIM_OK;
}

/* ---- SHA-256 ------------------------------------------------------------------ */

struct sha_job {
    const uint8_t *const *msgs;
    const size_t *lens;
    uint8_t (*digests)[32];
};

static void sha_one(const uint8_t *p, size_t len, uint8_t digest[32])
{
    cpim_crypto_sha256_ctx c;
    cpim_crypto_sha256_init(&c);
    while (len) {
        uint32_t step = len > CHUNK ? CHUNK : (uint32_t)len;
        cpim_crypto_sha256_update(&c, p, step);
        p += step;
        len -= step;
    }
    cpim_crypto_sha256_final(&c, digest);
}

static void sha_runs(void *arg, size_t first, size_t end)
{
    const struct sha_job *j = arg;
    for (size_t i = first; i < end; i++)
        sha_one(j->msgs[i], j->lens[i], j->digests[i]);
}

/* see portable.h */
void cpim_portable_sha256_batch(unsigned threads, const uint8_t *const *msgs, const size_t *lens,
                                size_t count, uint8_t (*digests)[32])
{
    struct sha_job j = {msgs, lens, digests};
    /* A thread that cannot start has its share done by the caller. */
    (void)cpim_parallel_msgs(threads, lens, count, MIN_SHA_PARALLEL, sha_runs, &j);
}

/* ---- whole blocks of many streams (the streaming API) ---- */

struct blocks_job {
    uint32_t *const *h;
    const uint8_t *const *p;
    const size_t *nb;
};

/* see portable.h */
void cpim_portable_sha256_stream(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
    /* cpim_crypto_sha256_blocks counts blocks in 32 bits (DPU-sized) */
    for (size_t left = nblocks; left;) {
        uint32_t n = left > 0x10000000u ? 0x10000000u : (uint32_t)left;
        cpim_crypto_sha256_blocks(h, p, n);
        p += (size_t)n * 64;
        left -= n;
    }
}

static void blocks_runs(void *arg, size_t first, size_t end)
{
    const struct blocks_job *j = arg;
    for (size_t i = first; i < end; i++)
        cpim_portable_sha256_stream(j->h[i], j->p[i], j->nb[i]);
}

/* see portable.h */
void cpim_portable_sha256_blocks(unsigned threads, uint32_t *const *h, const uint8_t *const *p,
                                 const size_t *nblocks, size_t count)
{
    struct blocks_job j = {h, p, nblocks};
    /* balanced by blocks (cpim_parallel_msgs weighs each entry + 64) */
    (void)cpim_parallel_msgs(threads, nblocks, count, MIN_SHA_PARALLEL / 64, blocks_runs, &j);
}

static cpim_err cpu_sha_blocks(void *state, uint32_t *const *h, const uint8_t *const *p,
                               const size_t *nblocks, size_t count, cpim_stats *st)
{
    struct cpu_state *s = state;
    (void)st; /* the core records bytes and the measured time */
    cpim_portable_sha256_blocks(s->threads, h, p, nblocks, count);
    return CPIM_OK;
}

static void cpu_sha_stream(void *state, uint32_t h[8], const uint8_t *p, size_t nblocks)
{
    (void)state; /* one stream: one thread */
    cpim_portable_sha256_stream(h, p, nblocks);
}

static cpim_err cpu_sha(void *state, const uint8_t *const *msgs, const size_t *lens, size_t count,
                        uint8_t (*digests)[32], cpim_stats *st)
{
    struct cpu_state *s = state;
    double t0 = cpim_now();
    cpim_portable_sha256_batch(s->threads, msgs, lens, count, digests);
    st->measured.total_s = cpim_now() - t0;
    return CPIM_OK;
}

/* The portable NTT (src/crypto/ntt.c) over (element, limb) items */
static cpim_err cpu_ntt(void *state, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                        const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st)
{
    struct cpu_state *s = state;
    (void)st;
    return cpim_ntt_run(&cpim_ntt_portable_kernels, s->threads, plan, op, a, b, out, count);
}

static const cpim_aes_engine cpu_aes = {
    .set_key = cpu_set_key,
    .ecb = cpu_ecb,
    .ctr = cpu_ctr,
    .xts_set_key = cpu_xts_set_key,
    .xts = cpu_xts,
    .gcm = cpu_gcm,
};

static const cpim_sha_engine cpu_sha256 = {
    .batch = cpu_sha,
    .blocks = cpu_sha_blocks,
    .stream = cpu_sha_stream,
};

static const cpim_ntt_kernels *cpu_ntt_kernels(void)
{
    return &cpim_ntt_portable_kernels;
}

static const cpim_ntt_engine cpu_ntt_engine = {
    .run = cpu_ntt,
    .kernels = cpu_ntt_kernels,
};

const cpim_backend cpim_backend_cpu = {
    .name = "cpu",
    .description = "portable C: constant-time bitsliced AES (AVX2/AVX-512 by CPUID), SHA-256; "
                   "multi-threaded",
    .available = cpu_available,
    .chunk = CPIM_BACKEND_CHUNK,
    .constant_time = 1,
    .open = cpu_open,
    .close = cpu_close,
    .aes = &cpu_aes,
    .sha = &cpu_sha256,
    .ntt = &cpu_ntt_engine,
};

/* The same AES engine on the T-table code (its state says which, open):
 * the DPUs' code, selectable by name to compare with the constant-time
 * default; SHA-256 and the NTT (no tables to choose between) are cpu's. */
const cpim_backend cpim_backend_cpu_table = {
    .name = "cpu-table",
    .description = "portable C, T-table AES (the DPUs' code; not constant-time on a CPU), "
                   "SHA-256; multi-threaded",
    .available = cpu_available,
    .chunk = CPIM_BACKEND_CHUNK,
    .constant_time = 0,
    .open = cpu_table_open,
    .close = cpu_close,
    .aes = &cpu_aes,
    .from = {[CPIM_FAMILY_SHA] = &cpim_backend_cpu, [CPIM_FAMILY_NTT] = &cpim_backend_cpu},
};
