/*
 * aesni.c -- the `aesni` backend: AES-128/192/256 ECB and CTR with AES-NI,
 * and with VAES on 256-bit (ymm) or 512-bit (zmm) vectors where the CPU has
 * them (see backend.h for the contract, cryptopim.h for the modes).
 *
 * Three kernel tiers, chosen once per context at open() from CPUID/XGETBV
 * (x86_cpu.h), each compiled with its own target attribute so that the
 * library needs no global -maes and still runs on any x86-64:
 *
 *   tier      instructions           blocks in flight per loop iteration
 *   --------  ---------------------  -----------------------------------
 *   vaes512   VAES + AVX-512F/BW/VL  16 (4 zmm x 4 blocks)
 *   vaes256   VAES + AVX2            16 (8 ymm x 2 blocks)
 *   aesni     AES-NI + SSE4.1         8 (8 xmm)
 *
 * Many independent blocks are in flight because an AES round instruction has
 * a latency of several cycles but a throughput of one or two per cycle: with
 * one block at a time the unit would idle most of the time.
 *
 * CTR: the 128-bit big-endian counter is kept as two host integers (hi, lo).
 * Kernels build counter blocks with vector adds on the low 64 bits in a
 * byte-reversed (little-endian) layout and byte-swap them with one shuffle;
 * the glue never hands a kernel a run that crosses a 2^64 boundary of the low
 * word, so the kernels never propagate a carry (the glue does, on the rare
 * wrap).  The input is folded into the last round key (aesenclast ends
 * with an XOR with its key), which saves one XOR per vector.  A final
 * partial block goes through a 16-byte bounce buffer.
 *
 * GCM: with VAES and VPCLMULQDQ, CTR and GHASH run in one pass, on zmm
 * (aesni_gcm512.c) or, without AVX-512, on ymm (aesni_gcm256.c);
 * otherwise one after the other, each with its tier's kernel (aesni_gcm.c).
 *
 * XTS: VAES-512 (with VPCLMULQDQ) has its own kernel (4 tweaks per zmm); the other tiers run
 * its tweak passes around the same ECB kernels (see aesni_xts).
 *
 * The NTT of cryptopim_ntt.h runs on the x86 vector kernels of ntt_x86.c
 * (AVX-512 or AVX2 for word moduli).
 *
 * SHA-256 in this backend is cpu's engine (backend.h, `from`): the portable
 * code split over threads by messages; for SHA-256 speed use `shani`.
 *
 * AES-NI is constant-time (no key- or data-dependent table lookups).
 */
#include "aesni.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "ntt_run.h"
#include "ntt_x86.h"
#include "parallel.h"
#include "x86_cpu.h"

/* ---- backend glue ------------------------------------------------------------------------ */

static int aesni_available(const char **why)
{
    unsigned f = cpim_x86_features();
    if (!(f & CPIM_X86_AESNI)) {
        *why = "CPU lacks AES-NI";
        return 0;
    }
    if (!(f & CPIM_X86_SSE41)) {
        *why = "CPU lacks SSE4.1";
        return 0;
    }
    return 1;
}

static cpim_err aesni_open(void **state, const cpim_options *opt)
{
#ifdef CPIM_HAVE_X86
    struct aesni_state *s = calloc(1, sizeof *s);
    if (!s)
        return CPIM_ERR_NOMEM;
    s->threads = opt->threads;
    unsigned f = cpim_x86_features();
    if (f & CPIM_X86_VAES512) {
        s->enc = cpim_aesni_v512_enc, s->dec = cpim_aesni_v512_dec, s->ctr = cpim_aesni_v512_ctrk;
        if (f & CPIM_X86_VPCLMUL)
            s->xts = cpim_aesni_v512_xts;
    } else if (f & CPIM_X86_VAES) {
        s->enc = cpim_aesni_v256_enc, s->dec = cpim_aesni_v256_dec, s->ctr = cpim_aesni_v256_ctrk;
    } else {
        s->enc = cpim_aesni_ni_enc, s->dec = cpim_aesni_ni_dec, s->ctr = cpim_aesni_ni_ctrk;
    }
    if (f & CPIM_X86_VPCLMUL)
        s->ghash = cpim_aesni_vcl_ghash;
    else if (f & CPIM_X86_PCLMUL)
        s->ghash = cpim_aesni_cl_ghash;
    if ((f & CPIM_X86_VPCLMUL) && (f & CPIM_X86_VAES512))
        s->gcm = cpim_aesni_v512_gcm;
    else if ((f & CPIM_X86_VPCLMUL256) && (f & CPIM_X86_VAES))
        s->gcm = cpim_aesni_v256_gcm;
    *state = s;
    return CPIM_OK;
#else
    (void)state, (void)opt;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

static void aesni_close(void *p)
{
    struct aesni_state *s = p;
    if (!s)
        return;
    cpim_wipe(s, sizeof *s);
    free(s);
}

static cpim_err aesni_set_key(void *p, const uint8_t *key, size_t key_len)
{
#ifdef CPIM_HAVE_X86
    struct aesni_state *s = p;
    cpim_wipe(s->ek, sizeof s->ek);
    cpim_wipe(s->dk, sizeof s->dk);
    cpim_wipe(s->hpow, sizeof s->hpow);
    cpim_wipe(&s->gh, sizeof s->gh);
    cpim_aesni_expand_key(s, key, key_len);
    uint8_t h[16] = {0};
    s->enc(s->ek, s->nr, h, h, 1); /* the GCM hash key E_K(0^128) */
    if (s->ghash)
        cpim_aesni_cl_powers(h, s->hpow);
    else
        cpim_crypto_ghash_init(&s->gh, h);
    cpim_wipe(h, sizeof h);
    return CPIM_OK;
#else
    (void)p, (void)key, (void)key_len;
    return CPIM_ERR_UNAVAILABLE;
#endif
}

struct aes_job {
    const struct aesni_state *s;
    const uint8_t *in;
    uint8_t *out;
    size_t nblocks; /* CTR: ceil(len / 16) */
    size_t tail;    /* CTR: len % 16 (0 = last block is whole) */
    cpim_dir dir;
    uint64_t hi, lo; /* CTR: start counter */
};

static void ecb_range(void *arg, size_t b, size_t e)
{
    const struct aes_job *j = arg;
    ecb_kernel k = j->dir == CPIM_DECRYPT ? j->s->dec : j->s->enc;
    const uint8_t *rk = j->dir == CPIM_DECRYPT ? j->s->dk : j->s->ek;
    k(rk, j->s->nr, j->in + 16 * b, j->out + 16 * b, e - b);
}

static void ctr_range(void *arg, size_t b, size_t e)
{
    const struct aes_job *j = arg;
    const struct aesni_state *s = j->s;
    uint64_t lo = j->lo + (uint64_t)b, hi = j->hi + (lo < j->lo);
    size_t full_end = e, i = b;
    if (e == j->nblocks && j->tail)
        full_end = e - 1;
    while (i < full_end) {
        /* Blocks until the low word wraps (2^64 - lo; lo == 0 means 2^64). */
        uint64_t room = lo ? 0 - lo : UINT64_MAX;
        size_t n = full_end - i;
        if ((uint64_t)n > room)
            n = (size_t)room;
        s->ctr(s->ek, s->nr, hi, lo, j->in + 16 * i, j->out + 16 * i, n);
        lo += n;
        hi += lo == 0;
        i += n;
    }
    if (full_end != e) {
        uint8_t buf[16] = {0};
        memcpy(buf, j->in + 16 * full_end, j->tail);
        s->ctr(s->ek, s->nr, hi, lo, buf, buf, 1);
        memcpy(j->out + 16 * full_end, buf, j->tail);
        cpim_wipe(buf, sizeof buf);
    }
}

static cpim_err aesni_ecb(void *p, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                          cpim_stats *st)
{
    struct aesni_state *s = p;
    struct aes_job j = {.s = s, .in = in, .out = out, .nblocks = len / 16, .dir = dir};
    (void)st; /* the core records bytes and the measured time */
    /* A thread that cannot start has its share done by the caller. */
    (void)cpim_parallel_for(s->threads, j.nblocks, AESNI_GRAIN_BLOCKS, ecb_range, &j);
    return CPIM_OK;
}

static uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

static void store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

cpim_err cpim_aesni_ctr(void *p, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len,
                        cpim_stats *st)
{
    struct aesni_state *s = p;
    struct aes_job j = {.s = s,
                        .in = in,
                        .out = out,
                        .nblocks = len / 16 + (len % 16 != 0),
                        .tail = len % 16,
                        .hi = load_be64(counter),
                        .lo = load_be64(counter + 8)};
    (void)st;
    (void)cpim_parallel_for(s->threads, j.nblocks, AESNI_GRAIN_BLOCKS, ctr_range, &j);
    uint64_t lo = j.lo + (uint64_t)j.nblocks;
    store_be64(counter, j.hi + (lo < j.lo));
    store_be64(counter + 8, lo);
    return CPIM_OK;
}

/* The NTT with the x86 vector kernels (ntt_x86.c): this backend is the
 * library's x86 vector backend, so the NTT lives here too. */
static cpim_err aesni_ntt(void *state, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                          const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st)
{
    struct aesni_state *s = state;
    (void)st;
    return cpim_ntt_run(cpim_ntt_x86_kernels(NULL), s->threads, plan, op, a, b, out, count);
}

static const cpim_aes_engine aesni_aes = {
    .set_key = aesni_set_key,
    .ecb = aesni_ecb,
    .ctr = cpim_aesni_ctr,
    .xts_set_key = cpim_aesni_xts_set_key,
    .xts = cpim_aesni_xts,
    .gcm = cpim_aesni_gcm,
    .gcm_range = cpim_aesni_gcm_range,
};

static const cpim_ntt_kernels *aesni_ntt_kernels(void)
{
    return cpim_ntt_x86_kernels(NULL);
}

static const cpim_ntt_engine aesni_ntt_engine = {
    .run = aesni_ntt,
    .kernels = aesni_ntt_kernels,
};

/* SHA-256 is cpu's engine (the portable code); for its speed use `shani`. */
const cpim_backend cpim_backend_aesni = {
    .name = "aesni",
    .description = "AES-NI / VAES (x86), the portable code for SHA-256",
    .available = aesni_available,
    .chunk = CPIM_BACKEND_CHUNK,
    .constant_time = 1,
    .open = aesni_open,
    .close = aesni_close,
    .aes = &aesni_aes,
    .ntt = &aesni_ntt_engine,
    .from = {[CPIM_FAMILY_SHA] = &cpim_backend_cpu},
};
