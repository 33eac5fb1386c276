/*
 * speed.c -- `cryptopim speed`: throughput of the backends (and, with
 * --compare, of OpenSSL and intel-ipsec-mb) on the CryptoPIM workloads:
 * AES-128-ECB and AES-128-CTR on an 8 MiB and a 256 MiB buffer; SHA-256 on
 * 1024 messages of 32 KiB (`sha256`), on 512 messages of mixed lengths
 * 1 B .. 1 MiB (`sha256-mixed`: log-uniform, a fixed seed, the same every
 * run), on 2048 such messages of 1 B .. 65534 B (`sha256-mix64k`: the
 * longest intel-ipsec-mb's job API takes) and on one message of 64 KiB, 8 MiB and 1 GiB
 * (`sha256-1msg`: the single-stream speed, a batch of one).
 *
 * Method: every case is first checked once against our cpu backend (a
 * mismatch is an error: exit 1), then run once as a warm-up, then repeated
 * until at least 0.5 s and 3 runs have passed; the best run is reported.
 * The SHA-256 workloads run every subject in turn, round by round
 * (measure_many), so their ratios come from the same moments.
 * Times come from cpim_now() (cpim_now in cryptopim.h), the project's one timing
 * module; they are on the measured clock.  A backend that also reports a
 * modeled clock (pim on the virtual UPMEM) gets a second row marked
 * `modeled`: that is what the real UPMEM machine would take, not a
 * measurement.  GB/s = 1e9 bytes/s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "compare.h"
#include "ntt_cpu.h"
#include "speed_kdf.h"

#define MAX_BACKENDS 8

static const char speed_help[] =
    "usage: cryptopim speed [--backend NAME]... [--threads N] [--compare] [--csv]\n"
    "\n"
    "Measures AES-128-ECB, AES-128-CTR, AES-128-GCM (12-byte IV, no AAD) and\n"
    "AES-128-XTS (4096-byte units, plain64 tweaks) on an 8 MiB and a 256 MiB\n"
    "buffer, and\n"
    "SHA-256 on 1024 messages of 32 KiB (sha256), on 512 messages of mixed\n"
    "lengths 1 B..1 MiB (sha256-mixed, seeded), on 2048 of 1 B..65534 B\n"
    "(sha256-mix64k: intel-ipsec-mb takes no longer message) and on one message\n"
    "of 64 KiB, 8 MiB and 1 GiB (sha256-1msg); HMAC-SHA256 of 1024 x 1 KiB\n"
    "(hmac-batch) and 1024 PBKDF2-HMAC-SHA256 chains of 1000 iterations\n"
    "(pbkdf2-batch: its bytes column counts iterations, its rate G iterations/s),\n"
    "then one `cryptsetup benchmark` line per backend (PBKDF2-sha256 iterations\n"
    "per second for a 256-bit key; pim modeled).  Default backends: every\n"
    "available CPU backend (cpu, cpu-table, aesni, shani); operations a backend does not provide "
    "are\n"
    "skipped.  Each case: checked against the cpu backend, one warm-up run, then\n"
    "repeated for >= 0.5 s (and >= 3 runs); the best run is reported.  The\n"
    "SHA-256 cases run all subjects in turn, round by round (same load).\n"
    "\n"
    "  --compare          also measure OpenSSL (EVP) and intel-ipsec-mb, one\n"
    "                     thread each, when compiled in; their output is checked\n"
    "                     against the cpu backend.  `openssl-sw` rows: OpenSSL's\n"
    "                     constant-time software AES (AES-NI masked with\n"
    "                     OPENSSL_ia32cap: vpaes for ECB, bsaes for CTR).  An\n"
    "                     operation a library lacks says so in its row\n"
    "  --csv              rows `op,backend,bytes,threads,clock,seconds,gbps`\n"
    "  --kdf-only         only the HMAC / PBKDF2 rows and lines\n"
    "  --ntt-only         only the NTT rows (forward NTT and the batched negacyclic\n"
    "                     product, N = 4096, one thread, beside FLINT)\n"
    "%s"
    "--backend may be given several times: each backend is measured.\n"
    "\n"
    "GB/s = 1e9 bytes/s.  The `clock` column says `measured` (wall time here) or\n"
    "`modeled` (what real UPMEM hardware would take, from the virtual UPMEM's\n"
    "model).  Exit status: 0, 1 if an output did not match, 2 bad usage.\n";

/* The workloads; --quick (for tests) shrinks them. */
struct workload {
    size_t aes_sizes[2];
    size_t sha_count, sha_len;
    size_t mixed_count, mixed_max; /* lengths log-uniform in 1..mixed_max */
    size_t mix64_count;            /* the same in 1..65534 (intel-ipsec-mb's limit) */
    size_t one_sizes[3];           /* single messages */
    double min_time;
    unsigned min_runs;
};

static const struct workload full = {.aes_sizes = {8u << 20, 256u << 20},
                                     .sha_count = 1024,
                                     .sha_len = 32u << 10,
                                     .mixed_count = 512,
                                     .mixed_max = 1u << 20,
                                     .mix64_count = 2048,
                                     .one_sizes = {64u << 10, 8u << 20, 1u << 30},
                                     .min_time = 0.5,
                                     .min_runs = 3};
static const struct workload quick = {.aes_sizes = {64u << 10, 1u << 20},
                                      .sha_count = 16,
                                      .sha_len = 4u << 10,
                                      .mixed_count = 40,
                                      .mixed_max = 64u << 10,
                                      .mix64_count = 40,
                                      .one_sizes = {4u << 10, 64u << 10, 1u << 20},
                                      .min_time = 0.01,
                                      .min_runs = 2};

static const uint8_t key[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                                0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
/* Low 64 bits zero: no carry beyond them for any size measured here, so
 * libraries with a narrower counter agree with the 128-bit one. */
static const uint8_t iv0[16] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7};

enum op { OP_ECB, OP_CTR, OP_GCM, OP_XTS, OP_SHA, OP_SHA_MIXED, OP_SHA_MIX64, OP_SHA_ONE };
static const char *const op_name[] = {"aes-128-ecb",   "aes-128-ctr", "aes-128-gcm",
                                      "aes-128-xts",   "sha256",      "sha256-mixed",
                                      "sha256-mix64k", "sha256-1msg"};

/* One SHA-256 batch to measure, with its reference digests (cpu backend). */
struct shaw {
    const uint8_t **msgs;
    size_t *lens, count, bytes;
    uint8_t (*dig)[32], (*ref)[32];
};

/* One thing to measure: either our backend (ctx) or a comparison library. */
struct subject {
    const char *name;
    unsigned threads; /* for the report */
    cpim_ctx *ctx;
    const cmp_impl *lib;
    void *lib_state;
    int no_aes; /* our backend refused the key: it has no AES */
    int no_xts; /* our backend refused the XTS key: it has no XTS */
};

struct bufs {
    uint8_t *big;       /* largest AES size, encrypted in place */
    uint8_t *check_in;  /* aes_sizes[0] bytes of test data */
    uint8_t *check_out; /* output of the subject under check */
    uint8_t *ref_ecb, *ref_ctr, *ref_gcm, *ref_xts;
    uint8_t tag[16], ref_tag[16]; /* GCM */
    uint8_t *sha_data, *mixed_data, *one_data;
    /* [0] 1024 x 32 KiB, [1] mixed lengths, [2] mixed up to 65534 bytes, [3..5] one
     * message of each one_size */
    struct shaw sha[6];
};

/* The SHA workload of (op, k): k selects the single-message size. */
static struct shaw *sha_of(struct bufs *b, enum op op, size_t k)
{
    return &b->sha[op == OP_SHA_ONE ? 3 + k : (size_t)(op - OP_SHA)];
}

struct speed {
    struct workload w;
    int csv;
    int failed;
    struct bufs b;
};

/* Runs op once on subject; 0, CPIM_ERR_UNSUPPORTED (as a positive code), or
 * -1 on another error.  For the SHA ops, len is the index k of sha_of(). */
static int run_op(struct speed *sp, struct subject *su, enum op op, const uint8_t *in, uint8_t *out,
                  size_t len)
{
    struct bufs *b = &sp->b;
    struct shaw *sw = op >= OP_SHA ? sha_of(b, op, len) : NULL;
    if (su->lib) {
        const cmp_impl *l = su->lib;
        if ((op == OP_ECB && !l->ecb_enc) || (op == OP_CTR && !l->ctr) ||
            (op == OP_GCM && !l->gcm_enc) || (op == OP_XTS && !l->xts_enc) ||
            (op >= OP_SHA && !l->sha256_batch))
            return CPIM_ERR_UNSUPPORTED;
        for (size_t i = 0; sw && l->sha_max_len && i < sw->count; i++)
            if (sw->lens[i] > l->sha_max_len)
                return CPIM_ERR_UNSUPPORTED; /* a message longer than the library takes */
        if (op == OP_ECB)
            return l->ecb_enc(su->lib_state, in, out, len);
        if (op == OP_CTR)
            return l->ctr(su->lib_state, iv0, in, out, len);
        if (op == OP_GCM)
            return l->gcm_enc(su->lib_state, iv0, in, out, len, b->tag);
        if (op == OP_XTS)
            return l->xts_enc(su->lib_state, in, out, len);
        return l->sha256_batch(su->lib_state, sw->msgs, sw->lens, sw->count, sw->dig);
    }
    uint8_t ctr[16];
    cpim_err rc;
    if ((op < OP_SHA && su->no_aes) || (op == OP_XTS && su->no_xts))
        return CPIM_ERR_UNSUPPORTED;
    memcpy(ctr, iv0, 16);
    if (op == OP_ECB)
        rc = cpim_aes_ecb(su->ctx, CPIM_ENCRYPT, in, out, len);
    else if (op == OP_CTR)
        rc = cpim_aes_ctr(su->ctx, ctr, in, out, len);
    else if (op == OP_GCM)
        rc = cpim_aes_gcm_encrypt(su->ctx, iv0, 12, NULL, 0, in, out, len, b->tag);
    else if (op == OP_XTS)
        rc = cpim_aes_xts(su->ctx, CPIM_ENCRYPT, 0, CMP_XTS_UNIT, in, out, len);
    else
        rc = cpim_sha256_batch(su->ctx, sw->msgs, sw->lens, sw->count, sw->dig);
    if (rc == CPIM_OK)
        return 0;
    if (rc == CPIM_ERR_UNSUPPORTED)
        return CPIM_ERR_UNSUPPORTED;
    cli_error("speed: %s %s failed: %s", su->name, op_name[op], cpim_strerror(rc));
    return -1;
}

static void print_header(const struct speed *sp)
{
    if (sp->csv)
        puts("op,backend,bytes,threads,clock,seconds,gbps");
    else
        printf("%-12s %-9s %11s %7s %-9s %11s %8s\n", "op", "backend", "bytes", "threads", "clock",
               "seconds", "GB/s");
}

static void print_row(const struct speed *sp, enum op op, const char *backend, size_t bytes,
                      unsigned threads, cpim_clock clock, double s)
{
    double gbps = s > 0 ? (double)bytes / s / 1e9 : 0;
    if (sp->csv)
        printf("%s,%s,%zu,%u,%s,%.9f,%.4f\n", op_name[op], backend, bytes, threads,
               cpim_clock_name(clock), s, gbps);
    else
        printf("%-12s %-9s %11zu %7u %-9s %11.6f %8.3f\n", op_name[op], backend, bytes, threads,
               cpim_clock_name(clock), s, gbps);
    fflush(stdout);
}

/* Checks the subject's output once against the reference.  Returns 0 if it
 * matches, 1 if the operation is unsupported, -1 on mismatch or error.  k:
 * the SHA workload's index (sha_of). */
static int check(struct speed *sp, struct subject *su, enum op op, size_t k)
{
    struct bufs *b = &sp->b;
    size_t len = op >= OP_SHA ? k : sp->w.aes_sizes[0];
    struct shaw *sw = op >= OP_SHA ? sha_of(b, op, k) : NULL;
    int rc = run_op(sp, su, op, b->check_in, b->check_out, len);
    if (rc == CPIM_ERR_UNSUPPORTED)
        return 1;
    if (rc != 0) {
        if (su->lib)
            cli_error("speed: %s %s failed", su->name, op_name[op]);
        return -1;
    }
    int same = op == OP_ECB   ? !memcmp(b->check_out, b->ref_ecb, len)
               : op == OP_CTR ? !memcmp(b->check_out, b->ref_ctr, len)
               : op == OP_GCM
                   ? !memcmp(b->check_out, b->ref_gcm, len) && !memcmp(b->tag, b->ref_tag, 16)
               : op == OP_XTS ? !memcmp(b->check_out, b->ref_xts, len)
                              : !memcmp(sw->dig, sw->ref, sw->count * 32);
    if (!same) {
        cli_error("speed: %s %s output differs from the cpu backend", su->name, op_name[op]);
        return -1;
    }
    return 0;
}

/* Measures op on n subjects with their runs interleaved (one warm-up run
 * each, then rounds of one run per subject until each has min_runs and the
 * rounds took n * min_time), and prints each one's best run.  Interleaving
 * is what makes the ratios of one `speed` run mean something on a shared
 * machine: the subjects see the same load, not one a busy minute and the
 * next a quiet one. */
static int measure_many(struct speed *sp, struct subject **su, size_t n, enum op op, size_t len)
{
    struct bufs *b = &sp->b;
    size_t bytes = op >= OP_SHA ? sha_of(b, op, len)->bytes : len;
    double best[MAX_BACKENDS + 4], best_modeled[MAX_BACKENDS + 4], spent = 0;
    int has_modeled[MAX_BACKENDS + 4];
    for (size_t i = 0; i < n; i++)
        best[i] = best_modeled[i] = 1e300, has_modeled[i] = 0;
    for (int runs = -1; runs < (int)sp->w.min_runs || spent < sp->w.min_time * (double)n; runs++) {
        for (size_t i = 0; i < n; i++) {
            double t0 = cpim_now();
            if (run_op(sp, su[i], op, b->big, b->big, len) != 0) {
                if (su[i]->lib)
                    cli_error("speed: %s %s failed", su[i]->name, op_name[op]);
                return -1;
            }
            if (runs < 0)
                continue; /* the warm-up run */
            double t = cpim_now() - t0;
            spent += t;
            if (t < best[i])
                best[i] = t;
            cpim_stats st;
            if (su[i]->ctx && cpim_last_stats(su[i]->ctx, &st) == CPIM_OK && st.has_modeled) {
                has_modeled[i] = 1;
                if (st.modeled.total_s < best_modeled[i])
                    best_modeled[i] = st.modeled.total_s;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        print_row(sp, op, su[i]->name, bytes, su[i]->threads, CPIM_CLOCK_MEASURED, best[i]);
        if (has_modeled[i])
            print_row(sp, op, su[i]->name, bytes, su[i]->threads, CPIM_CLOCK_MODELED,
                      best_modeled[i]);
    }
    return 0;
}

static int measure(struct speed *sp, struct subject *su, enum op op, size_t len)
{
    return measure_many(sp, &su, 1, op, len);
}

/* The SHA-256 workloads: every subject on each, interleaved. */
static void run_sha(struct speed *sp, struct subject *subj, size_t ns)
{
    for (int op = OP_SHA; op <= OP_SHA_ONE; op++) {
        for (size_t k = 0; k < (op == OP_SHA_ONE ? 3u : 1u); k++) {
            struct subject *ok[MAX_BACKENDS + 4];
            size_t n = 0;
            for (size_t i = 0; i < ns; i++) {
                struct subject *su = &subj[i];
                int c = check(sp, su, (enum op)op, k);
                if (c == 1 && !sp->csv && k == 0)
                    printf("%-12s %-9s (not provided by this backend%s: skipped)\n", op_name[op],
                           su->name,
                           su->lib && su->lib->sha_max_len ? ", or a message is too long" : "");
                if (c < 0)
                    sp->failed = 1;
                if (c == 0)
                    ok[n++] = su;
            }
            if (n && measure_many(sp, ok, n, (enum op)op, k))
                sp->failed = 1;
        }
    }
}

static void run_subject(struct speed *sp, struct subject *su)
{
    for (int op = OP_ECB; op < OP_SHA; op++) { /* AES; SHA-256: run_sha */
        int c = check(sp, su, (enum op)op, 0);
        if (c == 1) {
            if (!sp->csv && op == OP_XTS && su->lib && su->lib->no_xts)
                printf("%-12s %-9s (absent: %s)\n", op_name[op], su->name, su->lib->no_xts);
            else if (!sp->csv)
                printf("%-12s %-9s (not provided by this backend: skipped)\n", op_name[op],
                       su->name);
            continue;
        }
        if (c < 0) {
            sp->failed = 1;
            continue;
        }
        for (int k = 0; k < 2; k++)
            if (measure(sp, su, (enum op)op, sp->w.aes_sizes[k]))
                sp->failed = 1;
    }
}

static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (uint8_t)(x >> 32);
    }
}

static int alloc_shaw(struct shaw *sw, size_t count)
{
    sw->count = count;
    sw->msgs = calloc(count, sizeof *sw->msgs);
    sw->lens = calloc(count, sizeof *sw->lens);
    sw->dig = calloc(count, sizeof *sw->dig);
    sw->ref = calloc(count, sizeof *sw->ref);
    return sw->msgs && sw->lens && sw->dig && sw->ref ? 0 : -1;
}

/* The mixed lengths: log-uniform in 1..max (xorshift64, fixed seed, so every
 * run and every subject hashes the same batch); returns the total. */
static size_t mixed_lengths(size_t *lens, size_t n, size_t max)
{
    uint64_t x = 0x243f6a8885a308d3u;
    unsigned bits = 0;
    while (((size_t)2 << bits) <= max)
        bits++;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t lo = (size_t)1 << ((x >> 40) % (bits + 1)); /* a power of two 1..max */
        lens[i] = lo + (size_t)(x & 0xffffffffu) % lo;     /* in [lo, 2 lo) */
        if (lens[i] > max)
            lens[i] = max;
        total += lens[i];
    }
    return total;
}

static int alloc_bufs(struct speed *sp)
{
    struct bufs *b = &sp->b;
    const struct workload *w = &sp->w;
    size_t small = w->aes_sizes[0], shab = w->sha_count * w->sha_len;
    b->big = malloc(w->aes_sizes[1]);
    b->check_in = malloc(small);
    b->check_out = malloc(small);
    b->ref_ecb = malloc(small);
    b->ref_ctr = malloc(small);
    b->ref_gcm = malloc(small);
    b->ref_xts = malloc(small);
    b->sha_data = malloc(shab);
    b->one_data = malloc(w->one_sizes[2]);
    if (!b->big || !b->check_in || !b->check_out || !b->ref_ecb || !b->ref_ctr || !b->ref_gcm ||
        !b->ref_xts || !b->sha_data || !b->one_data || alloc_shaw(&b->sha[0], w->sha_count) ||
        alloc_shaw(&b->sha[1], w->mixed_count) || alloc_shaw(&b->sha[2], w->mix64_count))
        return -1;
    for (int k = 0; k < 3; k++)
        if (alloc_shaw(&b->sha[3 + k], 1))
            return -1;
    fill(b->big, w->aes_sizes[1], 0x9e3779b97f4a7c15u);
    fill(b->check_in, small, 0x2545f4914f6cdd1du);
    fill(b->sha_data, shab, 0x853c49e6748fea9bu);
    fill(b->one_data, w->one_sizes[2], 0x5851f42d4c957f2du);
    for (size_t i = 0; i < w->sha_count; i++) {
        b->sha[0].msgs[i] = b->sha_data + i * w->sha_len;
        b->sha[0].lens[i] = w->sha_len;
    }
    b->sha[0].bytes = shab;
    /* Mixed: one buffer, each message at its own (mostly unaligned) offset;
     * both mixed batches share it. */
    struct shaw *m = &b->sha[1], *m64 = &b->sha[2];
    m->bytes = mixed_lengths(m->lens, m->count, w->mixed_max);
    m64->bytes = mixed_lengths(m64->lens, m64->count, 65534);
    size_t mb = m->bytes > m64->bytes ? m->bytes : m64->bytes;
    if (!(b->mixed_data = malloc(mb + 64)))
        return -1;
    fill(b->mixed_data, mb + 64, 0x14057b7ef767814fu);
    for (size_t i = 0, off = 0; i < m->count; off += m->lens[i++])
        m->msgs[i] = b->mixed_data + off;
    for (size_t i = 0, off = 0; i < m64->count; off += m64->lens[i++])
        m64->msgs[i] = b->mixed_data + off;
    for (int k = 0; k < 3; k++) {
        b->sha[3 + k].msgs[0] = b->one_data;
        b->sha[3 + k].lens[0] = b->sha[3 + k].bytes = w->one_sizes[k];
    }
    return 0;
}

static void free_bufs(struct bufs *b)
{
    free(b->big);
    free(b->check_in);
    free(b->check_out);
    free(b->ref_ecb);
    free(b->ref_ctr);
    free(b->ref_gcm);
    free(b->ref_xts);
    free(b->sha_data);
    free(b->mixed_data);
    free(b->one_data);
    for (int k = 0; k < 6; k++) {
        free(b->sha[k].msgs);
        free(b->sha[k].lens);
        free(b->sha[k].dig);
        free(b->sha[k].ref);
    }
}

/* The reference outputs, from the cpu backend. */
static int make_reference(struct speed *sp)
{
    struct bufs *b = &sp->b;
    size_t len = sp->w.aes_sizes[0];
    uint8_t ctr[16];
    cpim_ctx *ctx = cli_open("cpu", NULL);
    if (!ctx)
        return -1;
    memcpy(ctr, iv0, 16);
    cpim_err rc = cpim_aes_set_key(ctx, key, sizeof key);
    if (rc == CPIM_OK)
        rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, b->check_in, b->ref_ecb, len);
    if (rc == CPIM_OK)
        rc = cpim_aes_ctr(ctx, ctr, b->check_in, b->ref_ctr, len);
    if (rc == CPIM_OK)
        rc = cpim_aes_gcm_encrypt(ctx, iv0, 12, NULL, 0, b->check_in, b->ref_gcm, len, b->ref_tag);
    uint8_t xk[32];
    cmp_xts_key(key, xk);
    if (rc == CPIM_OK)
        rc = cpim_xts_set_key(ctx, xk, sizeof xk);
    if (rc == CPIM_OK)
        rc = cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, CMP_XTS_UNIT, b->check_in, b->ref_xts, len);
    cpim_wipe(xk, sizeof xk);
    for (int k = 0; k < 6 && rc == CPIM_OK; k++)
        rc = cpim_sha256_batch(ctx, b->sha[k].msgs, b->sha[k].lens, b->sha[k].count, b->sha[k].ref);
    cpim_close(ctx);
    if (rc != CPIM_OK) {
        cli_error("speed: the cpu backend (the reference) failed: %s", cpim_strerror(rc));
        return -1;
    }
    return 0;
}

/* OpenSSL's constant-time software AES: OpenSSL picks its AES
 * code once, from its capability vector, which it reads from the
 * OPENSSL_ia32cap environment variable when the library loads.  Clearing
 * bit 57 (AES-NI) and bit 33 (PCLMULQDQ) of its first word makes it use
 * vpaes (SSSE3 byte shuffles) for ECB and bsaes (Kaesper-Schwabe
 * bitslicing) for CTR.  So this runs the OpenSSL rows again in a child
 * process started with that variable: rows `openssl-sw`, same workloads,
 * one thread, checked against our cpu backend as the `openssl` rows are.
 * Returns 0, or -1 if the child failed. */
static int run_openssl_sw(int csv, int quick_flag)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char *args[6] = {"cryptopim-bench", "speed", "--openssl-sw-child", NULL, NULL, NULL};
        int n = 3;
        if (csv)
            args[n++] = "--csv";
        if (quick_flag)
            args[n++] = "--quick";
        setenv("OPENSSL_ia32cap", "~0x200000200000000", 1);
        execv("/proc/self/exe", args);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return 0;
}

/* see cli.h */
int cmd_speed(int argc, char **argv)
{
    struct speed sp;
    cli_common c;
    cli_args a;
    const char *opt, *operand;
    const char *names[MAX_BACKENDS];
    size_t nnames = 0;
    int compare = 0, quick_flag = 0, kdf_only = 0, ntt_only = 0, sw_child = 0;

    memset(&sp, 0, sizeof sp);
    cli_common_init(&c);
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            cli_error("speed: unexpected operand (argument %d)", cli_arg_number(&a));
            return CLI_USAGE;
        }
        int k = cli_common_option(&c, &a, opt);
        if (k < 0)
            return CLI_USAGE;
        if (k > 0) {
            if (strcmp(opt, "--backend") == 0) {
                if (nnames == MAX_BACKENDS) {
                    cli_error("speed: at most %d --backend options", MAX_BACKENDS);
                    return CLI_USAGE;
                }
                names[nnames++] = c.backend;
            }
            continue;
        }
        int *flag;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            printf(speed_help, cli_common_help);
            return CLI_OK;
        } else if (strcmp(opt, "--compare") == 0) {
            flag = &compare;
        } else if (strcmp(opt, "--csv") == 0) {
            flag = &sp.csv;
        } else if (strcmp(opt, "--kdf-only") == 0) {
            flag = &kdf_only;
        } else if (strcmp(opt, "--ntt-only") == 0) {
            flag = &ntt_only;
        } else if (strcmp(opt, "--quick") == 0) { /* undocumented: tiny sizes for tests */
            flag = &quick_flag;
        } else if (strcmp(opt, "--openssl-sw-child") == 0) { /* internal: run_openssl_sw */
            flag = &sw_child;
        } else {
            cli_error("speed: unknown option %s (see `cryptopim speed --help`)", cli_quote(opt));
            return CLI_USAGE;
        }
        if (cli_has_inline_value(&a)) {
            cli_error("speed: option %s takes no value", opt);
            return CLI_USAGE;
        }
        *flag = 1;
    }
    sp.w = quick_flag ? quick : full;

    /* Which backends: the named ones (must open), else the available CPU ones. */
    struct subject subj[MAX_BACKENDS + 4];
    size_t ns = 0;
    if (sw_child)
        compare = 1;
    else if (!nnames) {
        static const char *const defaults[] = {"cpu", "cpu-table", "aesni", "shani"};
        for (size_t i = 0; i < 4; i++) {
            cpim_backend_info info;
            if (cpim_backend_info_by_name(defaults[i], &info) == CPIM_OK && info.available)
                names[nnames++] = defaults[i];
        }
    }
    if (ntt_only) {
        print_header(&sp);
        return speed_ntt(names, nnames, sp.csv, quick_flag) ? CLI_FAIL : CLI_OK;
    }
    if (kdf_only) { /* no AES / SHA-256 buffers (1.3 GiB) for these rows */
        print_header(&sp);
        return speed_kdf(names, nnames, &c.opt, compare, sp.csv, quick_flag) ? CLI_FAIL : CLI_OK;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = c.opt.threads ? c.opt.threads : (unsigned)(cores > 0 ? cores : 1);
    int rc = CLI_USAGE;
    memset(subj, 0, sizeof subj);
    for (size_t i = 0; i < nnames; i++) {
        struct subject *su = &subj[ns];
        su->name = names[i];
        su->threads = threads;
        if (!(su->ctx = cli_open(names[i], &c.opt)))
            goto out;
        ns++;
        cpim_err err = cpim_aes_set_key(su->ctx, key, sizeof key);
        su->no_aes = err == CPIM_ERR_UNSUPPORTED;
        if (err != CPIM_OK && !su->no_aes) {
            cli_error("speed: %s: cannot set the key: %s", names[i], cpim_strerror(err));
            goto out;
        }
        uint8_t xk[32];
        cmp_xts_key(key, xk);
        err = cpim_xts_set_key(su->ctx, xk, sizeof xk);
        cpim_wipe(xk, sizeof xk);
        su->no_xts = err == CPIM_ERR_UNSUPPORTED;
        if (err != CPIM_OK && !su->no_xts) {
            cli_error("speed: %s: cannot set the XTS key: %s", names[i], cpim_strerror(err));
            goto out;
        }
    }
    if (compare) {
        if (!cmp_count())
            cli_error("speed: --compare: no comparison library was compiled in "
                      "(needs OpenSSL or intel-ipsec-mb headers at build time)");
        for (size_t i = 0; i < cmp_count(); i++) {
            struct subject *su = &subj[ns];
            const char *why = "";
            su->lib = cmp_at(i);
            su->name = su->lib->name;
            if (sw_child && strcmp(su->name, "openssl") != 0)
                continue;
            if (sw_child)
                su->name = "openssl-sw";
            su->threads = 1;
            if (!(su->lib_state = su->lib->open(key, &why))) {
                cli_error("speed: %s: %s", su->name, why);
                sp.failed = 1;
                su->lib = NULL;
                continue;
            }
            ns++;
        }
    }
    if (alloc_bufs(&sp) != 0) {
        cli_error("speed: out of memory for the workloads");
        goto out;
    }
    if (make_reference(&sp) != 0)
        goto out;
    if (!sw_child)
        print_header(&sp);
    for (size_t i = 0; i < ns; i++)
        run_subject(&sp, &subj[i]);
    if (sw_child) { /* only the AES rows of OpenSSL's software path */
        rc = sp.failed ? CLI_FAIL : CLI_OK;
        goto out;
    }
#ifdef HAVE_OPENSSL
    if (compare && run_openssl_sw(sp.csv, quick_flag) != 0) {
        cli_error("speed: the openssl-sw rows (OpenSSL without AES-NI) failed");
        sp.failed = 1;
    }
#endif
    run_sha(&sp, subj, ns);
    if (speed_kdf(names, nnames, &c.opt, compare, sp.csv, quick_flag))
        sp.failed = 1;
    if (speed_ntt(names, nnames, sp.csv, quick_flag))
        sp.failed = 1;
    if (!sp.csv)
        printf("(GB/s = 1e9 bytes/s; best of >= %u runs and >= %.2g s after a warm-up)\n",
               sp.w.min_runs, sp.w.min_time);
    rc = sp.failed ? CLI_FAIL : CLI_OK;
out:
    for (size_t i = 0; i < ns; i++) {
        cpim_close(subj[i].ctx);
        if (subj[i].lib)
            subj[i].lib->close(subj[i].lib_state);
    }
    free_bufs(&sp.b);
    return rc;
}
