/*
 * test_vectors.c -- every vector file of tests/vectors/ through every
 * backend of the registry.
 *
 * One test per (file, backend), named vectors_<file>_<backend>, registered
 * at start-up from the registry (so a new backend is covered without editing
 * this file).  A backend that is unavailable, or answers
 * CPIM_ERR_UNSUPPORTED for the file's operation, is reported as SKIP with
 * the reason; it never passes silently.
 *
 * File format (see tests/vectors/gen_vectors.py): `NAME = value` lines, a
 * blank line ends a record, `#` lines are comments.
 */
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "test.h"

/* ---- the vector files ---------------------------------------------------------- */

enum kind { K_ECB, K_CTR, K_SHA, K_MONTE, K_XTS, K_GCM };

static const struct vfile {
    const char *id; /* in the test name */
    const char *path;
    enum kind kind;
} files[] = {
    {"fips197", "tests/vectors/fips197_appendix_c.txt", K_ECB},
    {"sp800_38a_ecb", "tests/vectors/sp800_38a_ecb.txt", K_ECB},
    {"sp800_38a_ctr", "tests/vectors/sp800_38a_ctr.txt", K_CTR},
    {"aesavs_gfsbox", "tests/vectors/aesavs_gfsbox.txt", K_ECB},
    {"aesavs_keysbox", "tests/vectors/aesavs_keysbox.txt", K_ECB},
    {"aesavs_vartxt", "tests/vectors/aesavs_vartxt.txt", K_ECB},
    {"aesavs_varkey", "tests/vectors/aesavs_varkey.txt", K_ECB},
    {"aesavs_mmt_ecb", "tests/vectors/aesavs_mmt_ecb_generated.txt", K_ECB},
    {"shavs_shortmsg", "tests/vectors/sha256_shortmsg.txt", K_SHA},
    {"shavs_longmsg", "tests/vectors/sha256_longmsg.txt", K_SHA},
    {"shavs_monte", "tests/vectors/sha256_monte.txt", K_MONTE},
    {"xtsvs_128", "tests/vectors/xtsvs_xtsgenaes128.txt", K_XTS},
    {"xtsvs_256", "tests/vectors/xtsvs_xtsgenaes256.txt", K_XTS},
    {"xts_generated", "tests/vectors/xts_generated.txt", K_XTS},
    {"gcmvs", "tests/vectors/gcmvs_subset.txt", K_GCM},
};
#define NFILES (sizeof files / sizeof files[0])

/* ---- record parser ------------------------------------------------------------- */

#define MAX_FIELDS 8

struct rec {
    int n;
    const char *name[MAX_FIELDS];
    const char *val[MAX_FIELDS];
    int line; /* first line of the record */
};

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        *--e = 0;
    return s;
}

/* Next record from *cur (text modified in place); 0 at the end. */
static int next_record(char **cur, int *lineno, struct rec *r)
{
    r->n = 0;
    r->line = 0;
    while (**cur) {
        char *line = *cur, *nl = strchr(line, '\n');
        if (nl) {
            *nl = 0;
            *cur = nl + 1;
        } else {
            *cur = line + strlen(line);
        }
        ++*lineno;
        line = trim(line);
        if (*line == '#')
            continue;
        if (*line == 0) {
            if (r->n)
                return 1;
            continue;
        }
        char *eq = strchr(line, '=');
        if (!eq || r->n == MAX_FIELDS)
            continue;
        *eq = 0;
        if (!r->n)
            r->line = *lineno;
        r->name[r->n] = trim(line);
        r->val[r->n] = trim(eq + 1);
        r->n++;
    }
    return r->n > 0;
}

static const char *field(const struct rec *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->name[i], name) == 0)
            return r->val[i];
    return NULL;
}

/* Decodes field `name` into a fresh buffer; NULL (and a failure) if absent
 * or malformed. */
static uint8_t *hex_field(const struct rec *r, const char *name, size_t *len, const char *path)
{
    const char *hex = field(r, name);
    if (!hex) {
        CHECK(0, "%s:%d: record without %s", path, r->line, name);
        return NULL;
    }
    size_t cap = strlen(hex) / 2 + 1;
    uint8_t *buf = malloc(cap);
    long n = buf ? test_unhex(hex, buf, cap) : -1;
    if (n < 0) {
        CHECK(0, "%s:%d: bad hex in %s", path, r->line, name);
        free(buf);
        return NULL;
    }
    *len = (size_t)n;
    return buf;
}

/* ---- running one file on one backend --------------------------------------------- */

static char skip_reason[256];

/* 1 if rc means "skip": records the reason. */
static int unsupported(cpim_err rc, const char *backend, const char *op)
{
    if (rc != CPIM_ERR_UNSUPPORTED)
        return 0;
    snprintf(skip_reason, sizeof skip_reason, "backend %s does not support %s", backend, op);
    test_skip(skip_reason);
    return 1;
}

static void run_ecb_ctr(cpim_ctx *ctx, const char *be, const struct vfile *f, char *text)
{
    char *cur = text;
    int lineno = 0, nrec = 0, nfail = 0;
    struct rec r;
    while (next_record(&cur, &lineno, &r)) {
        size_t kl = 0, pl = 0, cl = 0, il = 0;
        uint8_t *key = hex_field(&r, "KEY", &kl, f->path);
        uint8_t *pt = hex_field(&r, "PT", &pl, f->path);
        uint8_t *ct = hex_field(&r, "CT", &cl, f->path);
        uint8_t *iv = f->kind == K_CTR ? hex_field(&r, "IV", &il, f->path) : NULL;
        uint8_t *out = malloc(pl + 1);
        int ok = key && pt && ct && out && pl == cl && (f->kind != K_CTR || (iv && il == 16));
        CHECK(ok || !(key && pt && ct), "%s:%d: malformed record", f->path, r.line);
        cpim_err rc = ok ? cpim_aes_set_key(ctx, key, kl) : CPIM_OK;
        if (ok && unsupported(rc, be, "AES")) {
            ok = 0, nrec = -1;
        } else if (ok) {
            CHECK(rc == CPIM_OK, "%s: set_key: %s", be, cpim_strerror(rc));
        }
        if (ok && rc == CPIM_OK && f->kind == K_ECB) {
            rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, pt, out, pl);
            if (unsupported(rc, be, "AES-ECB")) {
                nrec = -1;
            } else {
                CHECK(rc == CPIM_OK, "%s: ecb: %s", be, cpim_strerror(rc));
                int bad = memcmp(out, ct, pl) != 0;
                rc = cpim_aes_ecb(ctx, CPIM_DECRYPT, ct, out, cl);
                CHECK(rc == CPIM_OK, "%s: ecb decrypt: %s", be, cpim_strerror(rc));
                bad |= (memcmp(out, pt, pl) != 0) << 1;
                if (bad) {
                    nfail++;
                    CHECK(0, "%s: %s:%d: ECB %s wrong (key %zu bytes)", be, f->path, r.line,
                          bad == 1   ? "encrypt"
                          : bad == 2 ? "decrypt"
                                     : "encrypt+decrypt",
                          kl);
                }
            }
        } else if (ok && rc == CPIM_OK) {
            uint8_t ctr[16], want[16];
            memcpy(ctr, iv, 16);
            memcpy(want, iv, 16);
            for (size_t b = 0; b < (pl + 15) / 16; b++) /* counter after the call */
                for (int i = 15; i >= 0 && ++want[i] == 0; i--)
                    ;
            rc = cpim_aes_ctr(ctx, ctr, pt, out, pl);
            if (unsupported(rc, be, "AES-CTR")) {
                nrec = -1;
            } else {
                CHECK(rc == CPIM_OK, "%s: ctr: %s", be, cpim_strerror(rc));
                if (memcmp(out, ct, pl) || memcmp(ctr, want, 16)) {
                    nfail++;
                    CHECK(0, "%s: %s:%d: CTR %s wrong", be, f->path, r.line,
                          memcmp(out, ct, pl) ? "output" : "final counter");
                }
            }
        }
        free(key), free(pt), free(ct), free(iv), free(out);
        if (nrec < 0)
            return;
        nrec++;
    }
    CHECK(nrec > 0, "%s: no records in %s", be, f->path);
    if (nfail)
        fprintf(stderr, "    %s: %d of %d records of %s failed\n", be, nfail, nrec, f->path);
}

/* All records of a ShortMsg/LongMsg file in one batch call. */
static void run_sha(cpim_ctx *ctx, const char *be, const struct vfile *f, char *text)
{
    enum { MAXREC = 256 };
    const uint8_t *msgs[MAXREC];
    uint8_t *bufs[MAXREC], *mds[MAXREC];
    size_t lens[MAXREC];
    int lines[MAXREC], n = 0;
    char *cur = text;
    int lineno = 0;
    struct rec r;
    while (n < MAXREC && next_record(&cur, &lineno, &r)) {
        size_t ml = 0, dl = 0;
        const char *len = field(&r, "LEN");
        bufs[n] = hex_field(&r, "MSG", &ml, f->path);
        mds[n] = hex_field(&r, "MD", &dl, f->path);
        if (!len || !bufs[n] || !mds[n] || dl != 32) {
            CHECK(0, "%s:%d: malformed record", f->path, r.line);
            free(bufs[n]), free(mds[n]);
            continue;
        }
        lens[n] = (size_t)strtoul(len, NULL, 10) / 8; /* "MSG = 00" when LEN = 0 */
        CHECK(lens[n] <= ml, "%s:%d: LEN longer than MSG", f->path, r.line);
        if (lens[n] > ml)
            lens[n] = ml;
        msgs[n] = lens[n] ? bufs[n] : NULL;
        lines[n++] = r.line;
    }
    CHECK(n > 0, "no records in %s", f->path);
    uint8_t(*dig)[32] = calloc((size_t)n + 1, 32);
    cpim_err rc = cpim_sha256_batch(ctx, msgs, lens, (size_t)n, dig);
    if (!unsupported(rc, be, "SHA-256")) {
        CHECK(rc == CPIM_OK, "%s: sha256_batch: %s", be, cpim_strerror(rc));
        int nfail = 0;
        for (int i = 0; rc == CPIM_OK && i < n; i++) {
            if (memcmp(dig[i], mds[i], 32)) {
                nfail++;
                CHECK(0, "%s: %s:%d: digest of the %zu-byte message wrong", be, f->path, lines[i],
                      lens[i]);
            }
        }
        if (nfail)
            fprintf(stderr, "    %s: %d of %d digests of %s wrong\n", be, nfail, n, f->path);
    }
    /* the same records through the streaming API, all streams at once, fed
     * in pieces of 1, 2, 3, ... 64, 1, ... bytes (every block boundary
     * crossed at every offset), where the backend streams */
    cpim_sha256_state *st = calloc((size_t)n + 1, sizeof *st);
    cpim_sha256_state **sp = calloc((size_t)n + 1, sizeof *sp);
    size_t *done = calloc((size_t)n + 1, sizeof *done), *pn = calloc((size_t)n + 1, sizeof *pn);
    const uint8_t **pp = calloc((size_t)n + 1, sizeof *pp);
    if (st && sp && done && pn && pp) {
        for (int i = 0; i < n; i++)
            sp[i] = &st[i], cpim_sha256_init(&st[i]);
        rc = CPIM_OK;
        for (size_t step = 0, more = 1; more && rc == CPIM_OK; step++) {
            more = 0;
            for (int i = 0; i < n; i++) {
                size_t c = 1 + step % 64, rest = lens[i] - done[i];
                pn[i] = c < rest ? c : rest;
                pp[i] = pn[i] ? msgs[i] + done[i] : NULL;
                done[i] += pn[i];
                more |= done[i] < lens[i];
            }
            rc = cpim_sha256_update_many(ctx, sp, pp, pn, (size_t)n);
        }
        if (rc == CPIM_OK)
            rc = cpim_sha256_final_many(ctx, sp, (size_t)n, dig);
        if (rc != CPIM_ERR_UNSUPPORTED) {
            CHECK(rc == CPIM_OK, "%s: streaming: %s", be, cpim_strerror(rc));
            for (int i = 0; rc == CPIM_OK && i < n; i++)
                CHECK(memcmp(dig[i], mds[i], 32) == 0,
                      "%s: %s:%d: streamed digest of the %zu-byte message wrong", be, f->path,
                      lines[i], lens[i]);
        }
    } else {
        CHECK(0, "out of memory");
    }
    free(st), free(sp), free(done), free(pn), free(pp);
    for (int i = 0; i < n; i++)
        free(bufs[i]), free(mds[i]);
    free(dig);
}

/* SHAVS Monte Carlo: MD0 = MD1 = MD2 = seed, MDi = SHA(MDi-3 || MDi-2 ||
 * MDi-1) for i = 3..1002, checkpoint MD1002 = next seed.  Every backend does
 * at least the first two checkpoints, then continues while it has spent
 * under 3 s (a virtual-DPU launch per digest is slow). */
static void run_monte(cpim_ctx *ctx, const char *be, const struct vfile *f, char *text)
{
    char *cur = text;
    int lineno = 0, checked = 0;
    struct rec r;
    uint8_t seed[32];
    size_t sl = 0;
    if (!next_record(&cur, &lineno, &r) || !field(&r, "SEED")) {
        CHECK(0, "%s: no SEED record", f->path);
        return;
    }
    uint8_t *s = hex_field(&r, "SEED", &sl, f->path);
    if (!s || sl != 32) {
        free(s);
        CHECK(0, "%s: bad SEED", f->path);
        return;
    }
    memcpy(seed, s, 32);
    free(s);
    double t0 = cpim_now();
    while (next_record(&cur, &lineno, &r)) {
        if (checked >= 2 && cpim_now() - t0 > 3.0)
            break;
        size_t dl = 0;
        uint8_t *want = hex_field(&r, "MD", &dl, f->path);
        if (!want || dl != 32) {
            free(want);
            return;
        }
        uint8_t m[96];
        memcpy(m, seed, 32), memcpy(m + 32, seed, 32), memcpy(m + 64, seed, 32);
        for (int i = 3; i < 1003; i++) {
            const uint8_t *msgs[1] = {m};
            size_t len = 96;
            uint8_t md[1][32];
            cpim_err rc = cpim_sha256_batch(ctx, msgs, &len, 1, md);
            if (unsupported(rc, be, "SHA-256")) {
                free(want);
                return;
            }
            if (rc != CPIM_OK) {
                CHECK(0, "%s: sha256_batch: %s", be, cpim_strerror(rc));
                free(want);
                return;
            }
            memmove(m, m + 32, 64);
            memcpy(m + 64, md[0], 32);
        }
        memcpy(seed, m + 64, 32);
        int good = memcmp(seed, want, 32) == 0;
        free(want);
        CHECK(good, "%s: %s:%d: Monte Carlo checkpoint %d wrong", be, f->path, r.line, checked);
        if (!good)
            return;
        checked++;
    }
    CHECK(checked >= 2, "%s: only %d Monte Carlo checkpoints", be, checked);
}

/* XTS: KEY, UNIT (decimal), optional USIZE (default: one unit = the whole
 * PT), PT, CT; every record both ways (also the XTSVS ones, whose DIR only
 * says which direction NIST ran). */
static void run_xts(cpim_ctx *ctx, const char *be, const struct vfile *f, char *text)
{
    char *cur = text;
    int lineno = 0, nrec = 0, nfail = 0;
    struct rec r;
    while (next_record(&cur, &lineno, &r)) {
        size_t kl = 0, pl = 0, cl = 0;
        const char *unit = field(&r, "UNIT"), *usize = field(&r, "USIZE");
        uint8_t *key = hex_field(&r, "KEY", &kl, f->path);
        uint8_t *pt = hex_field(&r, "PT", &pl, f->path);
        uint8_t *ct = hex_field(&r, "CT", &cl, f->path);
        uint8_t *out = malloc(pl + 1);
        int ok = key && pt && ct && out && unit && pl == cl;
        CHECK(ok, "%s:%d: malformed XTS record", f->path, r.line);
        if (!ok) {
            free(key), free(pt), free(ct), free(out);
            continue;
        }
        uint64_t u = strtoull(unit, NULL, 10);
        size_t us = usize ? (size_t)strtoul(usize, NULL, 10) : pl;
        cpim_err rc = cpim_xts_set_key(ctx, key, kl);
        if (unsupported(rc, be, "AES-XTS")) {
            free(key), free(pt), free(ct), free(out);
            return;
        }
        CHECK(rc == CPIM_OK, "%s: xts_set_key: %s", be, cpim_strerror(rc));
        int bad = 0;
        if (rc == CPIM_OK) {
            rc = cpim_aes_xts(ctx, CPIM_ENCRYPT, u, us, pt, out, pl);
            CHECK(rc == CPIM_OK, "%s: xts encrypt: %s", be, cpim_strerror(rc));
            bad = rc != CPIM_OK || memcmp(out, ct, pl) != 0;
            rc = cpim_aes_xts(ctx, CPIM_DECRYPT, u, us, ct, out, cl);
            CHECK(rc == CPIM_OK, "%s: xts decrypt: %s", be, cpim_strerror(rc));
            bad |= (rc != CPIM_OK || memcmp(out, pt, pl) != 0) << 1;
        }
        if (bad) {
            nfail++;
            CHECK(0, "%s: %s:%d: XTS %s wrong (key %zu bytes, unit %zu, %zu bytes)", be, f->path,
                  r.line,
                  bad == 1   ? "encrypt"
                  : bad == 2 ? "decrypt"
                             : "encrypt+decrypt",
                  kl, us, pl);
        }
        free(key), free(pt), free(ct), free(out);
        nrec++;
    }
    CHECK(nrec > 0, "%s: no records in %s", be, f->path);
    if (nfail)
        fprintf(stderr, "    %s: %d of %d records of %s failed\n", be, nfail, nrec, f->path);
}

/* ---- GCM ------------------------------------------------------------------------- */

/* 1 if decrypting ct under (iv, aad, tag) is refused as it must be:
 * CPIM_ERR_AUTH and an all-zero output. */
static int gcm_refused(cpim_ctx *ctx, const uint8_t *iv, size_t il, const uint8_t *aad, size_t al,
                       const uint8_t *ct, size_t cl, const uint8_t tag[16])
{
    uint8_t *out = malloc(cl + 1);
    if (!out)
        return 0;
    memset(out, 0xa5, cl + 1);
    cpim_err rc = cpim_aes_gcm_decrypt(ctx, iv, il, aad, al, ct, out, cl, tag);
    int ok = rc == CPIM_ERR_AUTH;
    for (size_t i = 0; i < cl; i++)
        ok &= out[i] == 0;
    free(out);
    return ok;
}

/* Every record; for each encrypt record with a full tag also the four
 * tamperings (tag, AAD, ciphertext, IV) must be refused. */
static void run_gcm(cpim_ctx *ctx, const char *be, const struct vfile *f, char *text)
{
    char *cur = text;
    int lineno = 0, nrec = 0, nfail = 0;
    struct rec r;
    while (next_record(&cur, &lineno, &r)) {
        size_t kl = 0, il = 0, pl = 0, al = 0, cl = 0, tl = 0;
        const char *mode = field(&r, "MODE"), *res = field(&r, "RESULT");
        uint8_t *key = hex_field(&r, "KEY", &kl, f->path);
        uint8_t *iv = hex_field(&r, "IV", &il, f->path);
        uint8_t *pt = hex_field(&r, "PT", &pl, f->path);
        uint8_t *aad = hex_field(&r, "AAD", &al, f->path);
        uint8_t *ct = hex_field(&r, "CT", &cl, f->path);
        uint8_t *tag = hex_field(&r, "TAG", &tl, f->path);
        uint8_t *out = malloc(pl + cl + 2), *aad1 = malloc(al + 1), t[16];
        int fail = res && strcmp(res, "FAIL") == 0;
        int ok = mode && key && iv && pt && aad && ct && tag && out && aad1 && tl >= 4 &&
                 tl <= 16 && (fail || pl == cl);
        CHECK(ok, "%s:%d: malformed GCM record", f->path, r.line);
        cpim_err rc = ok ? cpim_aes_set_key(ctx, key, kl) : CPIM_OK;
        if (ok && unsupported(rc, be, "AES")) {
            ok = 0, nrec = -1;
        } else if (ok) {
            CHECK(rc == CPIM_OK, "%s: set_key: %s", be, cpim_strerror(rc));
        }
        int bad = 0;
        if (ok && rc == CPIM_OK && strcmp(mode, "GCM-ENC") == 0) {
            rc = cpim_aes_gcm_encrypt(ctx, iv, il, aad, al, pt, out, pl, t);
            if (unsupported(rc, be, "AES-GCM")) {
                nrec = -1;
            } else {
                bad |= rc != CPIM_OK || memcmp(out, ct, cl) || memcmp(t, tag, tl);
                if (!bad && tl == 16) {
                    /* round trip, then the tamperings */
                    rc = cpim_aes_gcm_decrypt(ctx, iv, il, aad, al, ct, out, cl, tag);
                    bad |= (rc != CPIM_OK || memcmp(out, pt, pl)) << 1;
                    t[r.line % 16] ^= 0x80;
                    bad |= !gcm_refused(ctx, iv, il, aad, al, ct, cl, t) << 2;
                    memcpy(aad1, aad, al);
                    if (al)
                        aad1[al / 2] ^= 1;
                    else
                        aad1[0] = 0; /* an AAD byte that was not there */
                    bad |= !gcm_refused(ctx, iv, il, aad1, al ? al : 1, ct, cl, tag) << 3;
                    if (cl) {
                        memcpy(out, ct, cl);
                        out[cl - 1] ^= 0x01;
                        bad |= !gcm_refused(ctx, iv, il, aad, al, out, cl, tag) << 4;
                    }
                    iv[0] ^= 0x40;
                    bad |= !gcm_refused(ctx, iv, il, aad, al, ct, cl, tag) << 5;
                }
            }
        } else if (ok && rc == CPIM_OK) {
            rc = cpim_aes_gcm_decrypt(ctx, iv, il, aad, al, ct, out, cl, tag);
            if (unsupported(rc, be, "AES-GCM")) {
                nrec = -1;
            } else if (fail) {
                bad |= !gcm_refused(ctx, iv, il, aad, al, ct, cl, tag) << 6;
            } else {
                bad |= (rc != CPIM_OK || memcmp(out, pt, pl)) << 7;
            }
        }
        if (bad) {
            nfail++;
            CHECK(0, "%s: %s:%d: GCM record wrong (failure bits 0x%x)", be, f->path, r.line,
                  (unsigned)bad);
        }
        free(key), free(iv), free(pt), free(aad), free(ct), free(tag), free(out), free(aad1);
        if (nrec < 0)
            return;
        nrec++;
    }
    CHECK(nrec > 0, "%s: no records in %s", be, f->path);
    if (nfail)
        fprintf(stderr, "    %s: %d of %d records of %s failed\n", be, nfail, nrec, f->path);
}

static void run_one(size_t fi, size_t bi)
{
    const struct vfile *f = &files[fi];
    cpim_backend_info info;
    if (cpim_backend_info_at(bi, &info) != CPIM_OK) {
        CHECK(0, "backend %zu vanished", bi);
        return;
    }
    if (!info.available) {
        snprintf(skip_reason, sizeof skip_reason, "backend %s unavailable: %s", info.name,
                 info.why);
        test_skip(skip_reason);
        return;
    }
    char *text = test_read_file(f->path, NULL);
    if (!text) {
        CHECK(0, "cannot read %s (run from the project root)", f->path);
        return;
    }
    cpim_ctx *ctx = NULL;
    /* The XTS files are ~1 000 one-unit records: on the virtual UPMEM a
     * rank of 64 DPUs per call made them a minute each; 8 DPUs still
     * exercise the split (test_xts.c runs whole ranks). */
    cpim_options opt;
    cpim_options_init(&opt);
    if (f->kind == K_XTS)
        opt.dpus = 8;
    cpim_err rc = cpim_open(&ctx, info.name, &opt);
    if (rc == CPIM_ERR_UNAVAILABLE) {
        snprintf(skip_reason, sizeof skip_reason, "backend %s unavailable at open", info.name);
        test_skip(skip_reason);
    } else if (rc != CPIM_OK) {
        CHECK(0, "cpim_open(%s): %s", info.name, cpim_strerror(rc));
    } else if (f->kind == K_ECB || f->kind == K_CTR) {
        run_ecb_ctr(ctx, info.name, f, text);
    } else if (f->kind == K_SHA) {
        run_sha(ctx, info.name, f, text);
    } else if (f->kind == K_XTS) {
        run_xts(ctx, info.name, f, text);
    } else if (f->kind == K_GCM) {
        run_gcm(ctx, info.name, f, text);
    } else {
        run_monte(ctx, info.name, f, text);
    }
    cpim_close(ctx);
    free(text);
}

/* ---- registration: one test per (file, backend) ----------------------------------- */

__attribute__((constructor)) static void register_vector_tests(void)
{
    for (size_t fi = 0; fi < NFILES; fi++) {
        for (size_t bi = 0; bi < cpim_backend_count(); bi++) {
            cpim_backend_info info;
            const char *name = cpim_backend_info_at(bi, &info) == CPIM_OK ? info.name : "?";
            char test_name[64];
            snprintf(test_name, sizeof test_name, "vectors_%s_%s", files[fi].id, name);
            test_register_case(test_name, run_one, fi, bi);
        }
    }
}
