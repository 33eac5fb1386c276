/*
 * ciph_gcm.c -- AES-128/192/256-GCM for the provider, with OpenSSL's EVP
 * behaviour: AAD in any number of updates before the data, data in any
 * split (each update outputs as many bytes as it takes), IV lengths from 1
 * to 128 bytes (`ivlen`), tags of 1..16 bytes set before decrypting and got
 * after encrypting, reuse after a new IV.
 *
 * The common case, the whole message in one update (TLS records, EVP_Cipher
 * callers), is one cpim_aes_gcm_encrypt / _decrypt: the backend's own GCM,
 * fast and constant-time.  EVP cannot say whether more data follows: a
 * second update turns the message into ranges, from a copy of its
 * ciphertext, or with a 96-bit IV from its tag (the GHASH state is
 * recovered from it: gcm_unshot_q) and no copy but of a decryption in
 * place (whose input the backend wipes on a wrong tag, when the plaintext
 * is still owed).
 * Ranges are cpim_aes_gcm_range (CTR on the engine's backend, a partial
 * GHASH per range, hashed by the library on the host) closed with
 * cpim_aes_gcm_finish, which chains the partials (cryptopim.h).  Whole
 * blocks go to the backend in one range per update; a block split between
 * updates is encrypted with its keystream block (a range over zeros) and
 * hashed, once complete or at the end, as a range of its ciphertext.
 * Decrypting in one update needs the full 16-byte tag set before it (as
 * TLS does); with a shorter tag, or none yet, the message goes by ranges.
 *
 * TLS 1.2's records (libssl sets `tlsaad`, then hands over explicit IV ||
 * payload || tag in place) follow OpenSSL's gcm_tls_cipher: the fixed IV
 * part from `tlsivfixed` (the rest random, then counted up per record when
 * encrypting; taken from each record when decrypting), one backend GCM call
 * per record, a wrong tag an error with the payload wiped.
 */
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <stdlib.h>
#include <string.h>

#include "prov.h"

#define BLK        16
#define GCM_IV_MAX 128
#define GCM_MAX    ((1ull << 36) - 32) /* SP 800-38D's message limit */

enum { IV_UNSET, IV_SET, IV_FINISHED };

typedef struct gcm_ctx {
    cpp_eng eng;
    size_t keylen;
    uint8_t key[32];
    int key_set, enc;
    size_t ivlen;
    uint8_t iv[GCM_IV_MAX];
    int iv_state;
    uint8_t *aad; /* all of it: cpim_aes_gcm_finish hashes it */
    size_t aadlen, aadcap;
    int data;        /* data seen: AAD no longer accepted */
    uint64_t blocks; /* whole blocks processed */
    uint8_t pend[BLK], pks[BLK];
    size_t npend; /* ciphertext bytes of the split block, its keystream in pks */
    uint8_t (*gh)[BLK];
    uint64_t *lens;
    size_t nparts, partcap;
    uint8_t tag[BLK];
    size_t taglen; /* decrypt: the expected tag's length (0: none set); encrypt: 16 after final */
    /* one-update messages: the ciphertext so far, and its tag (encrypt) or
     * the tag it was verified against (decrypt) */
    int oneshot,
        ct_kept; /* ct_kept: ct holds the ciphertext (else only its last partial block, in pend) */
    uint8_t *ct;
    size_t ctlen, ctcap;
    uint8_t ostag[BLK];
    /* an encryption continued after a one-update message (96-bit IV), with
     * no copy of it: q = its GHASH state times H, from its tag (below) */
    int qmode;
    uint8_t q[BLK];
    uint64_t q_block; /* the block it left split, of which it gave q_r bytes */
    size_t q_r;
    /* TLS 1.2 records */
    uint8_t tls_aad[13];
    int tls_aad_set, iv_gen;
} gcm_ctx;

#define TLS_EXPLICIT 8  /* the record's explicit IV */
#define TLS_FIXED    4  /* the IV's fixed part (tlsivfixed) */
#define TLS_AAD      13 /* EVP_AEAD_TLS1_AAD_LEN */

static void gcm_reset_msg(gcm_ctx *c)
{
    if (c->aad != NULL)
        OPENSSL_cleanse(c->aad, c->aadcap);
    c->aadlen = 0;
    c->data = 0;
    c->blocks = 0;
    OPENSSL_cleanse(c->pend, sizeof c->pend);
    OPENSSL_cleanse(c->pks, sizeof c->pks);
    c->npend = 0;
    if (c->gh != NULL)
        OPENSSL_cleanse(c->gh, c->partcap * sizeof *c->gh);
    c->nparts = 0;
    /* ct is not wiped: while kept it holds only ciphertext, which is public
     * (the decryption's input, the encryption's output), and gcm_unshot wipes
     * it after decrypting into it; wiping a whole message per message cost a
     * quarter of a 16 KiB decryption */
    c->ctlen = 0;
    c->oneshot = 0;
    c->ct_kept = 0;
    c->qmode = 0;
    OPENSSL_cleanse(c->q, sizeof c->q);
    OPENSSL_cleanse(c->ostag, sizeof c->ostag);
}

static void *gcm_new(void *provctx, size_t keylen)
{
    gcm_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    cpp_eng_init(&c->eng, provctx);
    c->keylen = keylen;
    c->ivlen = 12;
    return c;
}

static void gcm_free(void *vctx)
{
    gcm_ctx *c = vctx;
    if (c == NULL)
        return;
    gcm_reset_msg(c);
    free(c->aad);
    free(c->gh);
    free(c->lens);
    free(c->ct);
    cpp_eng_free(&c->eng);
    OPENSSL_cleanse(c, sizeof *c);
    free(c);
}

static void *gcm_dup(void *vctx)
{
    const gcm_ctx *s = vctx;
    gcm_ctx *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    cpp_eng_dup(&c->eng, &s->eng);
    c->aad = NULL;
    c->gh = NULL;
    c->lens = NULL;
    c->ct = NULL;
    c->aadcap = c->partcap = c->ctcap = 0;
    if (s->ct_kept && s->ctlen > 0) {
        if ((c->ct = malloc(s->ctlen)) == NULL)
            goto fail;
        memcpy(c->ct, s->ct, s->ctlen);
        c->ctcap = s->ctlen;
    }
    if (s->aadcap > 0) {
        if ((c->aad = malloc(s->aadcap)) == NULL)
            goto fail;
        memcpy(c->aad, s->aad, s->aadcap);
        c->aadcap = s->aadcap;
    }
    if (s->partcap > 0) {
        c->gh = malloc(s->partcap * sizeof *c->gh);
        c->lens = malloc(s->partcap * sizeof *c->lens);
        if (c->gh == NULL || c->lens == NULL)
            goto fail;
        memcpy(c->gh, s->gh, s->partcap * sizeof *c->gh);
        memcpy(c->lens, s->lens, s->partcap * sizeof *c->lens);
        c->partcap = s->partcap;
    }
    return c;
fail:
    gcm_free(c);
    return NULL;
}

/* One range on the engine: dir over in[0..len) from block `first`. */
static int gcm_range(gcm_ctx *c, cpim_dir dir, uint64_t first, const uint8_t *in, uint8_t *out,
                     size_t len, uint8_t gh[BLK])
{
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, len, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = CPIM_OK;
    if (pim || !c->eng.cpu_keyed) {
        rc = cpim_aes_set_key(x, c->key, c->keylen);
        if (rc == CPIM_OK && !pim)
            c->eng.cpu_keyed = 1;
    }
    if (rc == CPIM_OK)
        rc = cpim_aes_gcm_range(x, dir, c->iv, c->ivlen, first, in, out, len, gh);
    cpp_eng_release(&c->eng, x, pim, CPP_OP_CIPHER, 1, rc == CPIM_OK);
    if (rc != CPIM_OK) {
        OPENSSL_cleanse(out, len);
        return cpp_err_lib(c->eng.prov, rc);
    }
    return 1;
}

static int gcm_add_part(gcm_ctx *c, const uint8_t gh[BLK], uint64_t len)
{
    if (c->nparts == c->partcap) {
        size_t cap = c->partcap ? 2 * c->partcap : 8;
        uint8_t(*g)[BLK] = malloc(cap * sizeof *g);
        uint64_t *l = realloc(c->lens, cap * sizeof *l);
        if (l != NULL)
            c->lens = l;
        if (g == NULL || l == NULL) {
            free(g);
            return 0;
        }
        if (c->nparts > 0)
            memcpy(g, c->gh, c->nparts * sizeof *g);
        if (c->gh != NULL)
            OPENSSL_cleanse(c->gh, c->partcap * sizeof *c->gh);
        free(c->gh);
        c->gh = g;
        c->partcap = cap;
    }
    memcpy(c->gh[c->nparts], gh, BLK);
    c->lens[c->nparts++] = len;
    return 1;
}

/* The partial GHASH of the split block (its ciphertext in pend). */
static int gcm_hash_pending(gcm_ctx *c)
{
    uint8_t scratch[2 * BLK], gh[BLK];
    int ok;
    if (c->qmode && c->blocks == c->q_block && c->q_r > 0) {
        /* the block the one-update message left split: q already holds it
         * with zeros after its q_r bytes; add the rest, D = 0^q_r || the
         * new bytes || 0, where it stands: q ^= D * H^2 (GHASH of D || 0) */
        uint8_t d[2 * BLK] = {0};
        memcpy(d + c->q_r, c->pend + c->q_r, c->npend - c->q_r);
        ok = gcm_range(c, CPIM_DECRYPT, 0, d, scratch, sizeof d, gh);
        if (ok)
            for (int i = 0; i < BLK; i++)
                c->q[i] ^= gh[i];
        OPENSSL_cleanse(d, sizeof d);
    } else {
        ok = gcm_range(c, CPIM_DECRYPT, c->blocks, c->pend, scratch, c->npend, gh) &&
             gcm_add_part(c, gh, c->npend);
    }
    OPENSSL_cleanse(scratch, sizeof scratch);
    if (!ok)
        return 0;
    if (c->npend == BLK)
        c->blocks++;
    c->npend = 0;
    return 1;
}

/* The one-update message becomes ranges: the partial GHASH of its whole
 * blocks, its split last block pending; `plain` (or NULL) receives its
 * plaintext (a decryption whose one-shot tag check failed). */
/* GHASH of one block from zero, x * H (the library's ranged GHASH). */
static int gcm_mul_h(gcm_ctx *c, const uint8_t x[BLK], uint8_t out[BLK])
{
    uint8_t scratch[BLK];
    int ok = gcm_range(c, CPIM_DECRYPT, 0, x, scratch, BLK, out);
    OPENSSL_cleanse(scratch, sizeof scratch);
    return ok;
}

/* E_K(J0) for a 96-bit IV (J0 = IV || 0^31 || 1) on the context's backend. */
static int gcm_e_j0(gcm_ctx *c, uint8_t out[BLK])
{
    uint8_t j0[BLK] = {0};
    memcpy(j0, c->iv, 12);
    j0[15] = 1;
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, 0, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = CPIM_OK;
    if (pim || !c->eng.cpu_keyed) {
        rc = cpim_aes_set_key(x, c->key, c->keylen);
        if (rc == CPIM_OK && !pim)
            c->eng.cpu_keyed = 1;
    }
    if (rc == CPIM_OK)
        rc = cpim_aes_ecb(x, CPIM_ENCRYPT, j0, out, BLK);
    cpp_eng_release(&c->eng, x, pim, -1, 1, rc == CPIM_OK);
    return rc == CPIM_OK ? 1 : cpp_err_lib(c->eng.prov, rc);
}

/* The length block: bits of AAD and of `len` bytes of data, big-endian. */
static void gcm_len_block(uint64_t aadlen, uint64_t len, uint8_t out[BLK])
{
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)((aadlen * 8) >> (56 - 8 * i));
        out[8 + i] = (uint8_t)((len * 8) >> (56 - 8 * i));
    }
}

/* A message given in one update, continued, without its ciphertext:
 * its tag T (the encryption's, or the full tag a decryption was checked
 * against) = E_K(J0) ^ (Y ^ L) * H with Y its GHASH state and L its length
 * block, so Y * H = T ^ E_K(J0) ^ L * H, which is q; finish chains it
 * (gcm_final). */
static int gcm_unshot_q(gcm_ctx *c)
{
    uint8_t e0[BLK], l[BLK], lh[BLK];
    size_t len = c->ctlen;
    c->oneshot = 0;
    c->ctlen = 0;
    gcm_len_block(c->aadlen, len, l);
    if (!gcm_e_j0(c, e0) || !gcm_mul_h(c, l, lh))
        return 0;
    for (int i = 0; i < BLK; i++)
        c->q[i] = c->ostag[i] ^ e0[i] ^ lh[i];
    OPENSSL_cleanse(e0, sizeof e0);
    c->qmode = 1;
    c->q_block = len / BLK;
    c->q_r = len % BLK;
    c->blocks = len / BLK;
    if (c->q_r > 0) {
        /* pend holds the split block's ciphertext; its keystream: */
        static const uint8_t zero[BLK];
        uint8_t gh[BLK];
        if (!gcm_range(c, CPIM_ENCRYPT, c->blocks, zero, c->pks, BLK, gh))
            return 0;
        c->npend = c->q_r;
    }
    return 1;
}

/* The one-update message of ciphertext ct (the kept copy c->ct, or the
 * caller's input while its update runs) becomes ranges, as gcm_unshot. */
static int gcm_unshot_ct(gcm_ctx *c, const uint8_t *ct, uint8_t *plain)
{
    size_t len = c->ctlen, whole = len & ~(size_t)(BLK - 1), r = len - whole;
    uint8_t gh[BLK];
    c->oneshot = 0;
    c->ctlen = 0;
    c->ct_kept = 0;
    memcpy(c->pend, ct + whole, r);
    if (whole > 0) {
        /* without plain, the kept copy is decrypted onto itself */
        if (!gcm_range(c, CPIM_DECRYPT, 0, ct, plain ? plain : c->ct, whole, gh) ||
            !gcm_add_part(c, gh, whole))
            return 0;
        c->blocks = whole / BLK;
    }
    if (ct == c->ct)
        OPENSSL_cleanse(c->ct, len);
    if (r > 0) {
        static const uint8_t zero[BLK];
        if (!gcm_range(c, CPIM_ENCRYPT, c->blocks, zero, c->pks, BLK, gh))
            return 0;
        if (plain != NULL)
            for (size_t i = 0; i < r; i++)
                plain[whole + i] = c->pend[i] ^ c->pks[i];
        c->npend = r;
    }
    return 1;
}

static int gcm_unshot(gcm_ctx *c, uint8_t *plain)
{
    return c->ct_kept ? gcm_unshot_ct(c, c->ct, plain) : gcm_unshot_q(c);
}

/* The message's first data: one call of the backend's GCM. */
static int gcm_oneshot(gcm_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
    /* with a 96-bit IV only the last partial block of ciphertext is kept: a
     * continuation recovers the GHASH from the tag (gcm_unshot_q), the
     * encryption's or the one the decryption was checked against.  A
     * decryption in place keeps a copy of its input: on a wrong tag the
     * backend wipes its output, and the plaintext is owed anyway */
    const uintptr_t i0 = (uintptr_t)in, o0 = (uintptr_t)out;
    const int overlap = i0 < o0 + len && o0 < i0 + len;
    int keep = !(c->ivlen == 12 && (c->enc || !overlap));
    if (keep && len > c->ctcap) {
        uint8_t *n = malloc(len);
        if (n == NULL)
            return 0;
        free(c->ct); /* ciphertext only (see gcm_reset_msg) */
        c->ct = n;
        c->ctcap = len;
    }
    if (!c->enc && keep)
        memcpy(c->ct, in, len); /* before an in-place decryption */
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, len, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = CPIM_OK;
    if (pim || !c->eng.cpu_keyed) {
        rc = cpim_aes_set_key(x, c->key, c->keylen);
        if (rc == CPIM_OK && !pim)
            c->eng.cpu_keyed = 1;
    }
    if (rc == CPIM_OK && c->enc)
        rc = cpim_aes_gcm_encrypt(x, c->iv, c->ivlen, c->aad, c->aadlen, in, out, len, c->ostag);
    else if (rc == CPIM_OK)
        rc = cpim_aes_gcm_decrypt(x, c->iv, c->ivlen, c->aad, c->aadlen, in, out, len, c->tag);
    cpp_eng_release(&c->eng, x, pim, CPP_OP_CIPHER, 1, rc == CPIM_OK || rc == CPIM_ERR_AUTH);
    c->ctlen = len;
    c->oneshot = 1;
    c->ct_kept = keep;
    if (rc == CPIM_OK) {
        if (c->enc && keep)
            memcpy(c->ct, out, len);
        else if (c->enc)
            memcpy(c->pend, out + (len & ~(size_t)(BLK - 1)), len % BLK);
        if (!c->enc) {
            memcpy(c->ostag, c->tag, BLK);
            if (!keep)
                memcpy(c->pend, in + (len & ~(size_t)(BLK - 1)), len % BLK);
        }
        return 1;
    }
    if (rc == CPIM_ERR_AUTH) /* the plaintext anyway, as OpenSSL; final fails */
        return keep ? gcm_unshot(c, out) : gcm_unshot_ct(c, in, out);
    c->oneshot = 0;
    c->ctlen = 0;
    c->ct_kept = 0;
    OPENSSL_cleanse(out, len);
    return cpp_err_lib(c->eng.prov, rc);
}

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int gcm_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                    size_t ivlen, const OSSL_PARAM params[], int enc)
{
    gcm_ctx *c = vctx;
    c->enc = enc;
    /* as OpenSSL's: an init without an IV keeps the one set before (a key
     * and an IV may come in separate inits, in either order); any init
     * restarts the message */
    gcm_reset_msg(c);
    /* OpenSSL applies the params first (an `ivlen` for the IV given here) */
    if (!gcm_set_ctx_params(c, params))
        return 0;
    if (iv != NULL) {
        if (ivlen == 0 || ivlen > GCM_IV_MAX)
            return cpp_err(c->eng.prov, CPP_R_INVALID_IV_LENGTH, NULL);
        c->ivlen = ivlen;
        memcpy(c->iv, iv, ivlen);
        c->iv_state = IV_SET;
    }
    if (key != NULL) {
        if (keylen != c->keylen)
            return cpp_err(c->eng.prov, CPP_R_INVALID_KEY_LENGTH, NULL);
        /* the same key again (a new message with EVP_CipherInit_ex(ctx,
         * NULL, NULL, key, iv), as `openssl speed` and many callers do):
         * the CPU context keeps its schedule and powers of H, whose
         * computation cost as much as hashing a few KiB */
        int same = c->key_set && CRYPTO_memcmp(c->key, key, keylen) == 0;
        OPENSSL_cleanse(c->key, sizeof c->key);
        memcpy(c->key, key, keylen);
        c->key_set = 1;
        if (!same)
            c->eng.cpu_keyed = 0;
    }
    return 1;
}

static int gcm_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int gcm_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[])
{
    return gcm_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int gcm_aad(gcm_ctx *c, const uint8_t *in, size_t len)
{
    if (c->data)
        return cpp_err(c->eng.prov, CPP_R_AAD_AFTER_DATA, NULL);
    if (len > SIZE_MAX / 2 - c->aadlen)
        return cpp_err(c->eng.prov, CPP_R_INVALID_DATA_LENGTH, "AAD too long");
    if (c->aadlen + len > c->aadcap) {
        size_t cap = c->aadcap ? c->aadcap : 64;
        while (cap < c->aadlen + len)
            cap *= 2;
        uint8_t *a = malloc(cap);
        if (a == NULL)
            return 0;
        if (c->aadlen > 0)
            memcpy(a, c->aad, c->aadlen);
        if (c->aad != NULL)
            OPENSSL_cleanse(c->aad, c->aadcap);
        free(c->aad);
        c->aad = a;
        c->aadcap = cap;
    }
    memcpy(c->aad + c->aadlen, in, len);
    c->aadlen += len;
    return 1;
}

static int gcm_data(gcm_ctx *c, const uint8_t *in, uint8_t *out, size_t len)
{
    uint64_t done = c->blocks * BLK + c->npend;
    if (len > GCM_MAX - done)
        return cpp_err(c->eng.prov, CPP_R_INVALID_DATA_LENGTH, "over 2^36 - 32 bytes");
    if (c->oneshot) {
        if (!gcm_unshot(c, NULL))
            return 0;
    } else if (!c->data && (c->enc || c->taglen == BLK)) {
        c->data = 1;
        return gcm_oneshot(c, in, out, len);
    }
    c->data = 1;
    if (c->npend > 0) {
        size_t take = BLK - c->npend < len ? BLK - c->npend : len;
        for (size_t i = 0; i < take; i++) {
            uint8_t b = in[i];
            out[i] = b ^ c->pks[c->npend + i];
            c->pend[c->npend + i] = c->enc ? out[i] : b;
        }
        c->npend += take;
        in += take;
        out += take;
        len -= take;
        if (c->npend == BLK && !gcm_hash_pending(c))
            return 0;
    }
    size_t whole = len & ~(size_t)(BLK - 1);
    if (whole > 0) {
        uint8_t gh[BLK];
        if (!gcm_range(c, c->enc ? CPIM_ENCRYPT : CPIM_DECRYPT, c->blocks, in, out, whole, gh) ||
            !gcm_add_part(c, gh, whole))
            return 0;
        c->blocks += whole / BLK;
        in += whole;
        out += whole;
        len -= whole;
    }
    if (len > 0) {
        static const uint8_t zero[BLK];
        uint8_t gh[BLK];
        if (!gcm_range(c, CPIM_ENCRYPT, c->blocks, zero, c->pks, BLK, gh))
            return 0;
        for (size_t i = 0; i < len; i++) {
            uint8_t b = in[i];
            out[i] = b ^ c->pks[i];
            c->pend[i] = c->enc ? out[i] : b;
        }
        c->npend = len;
    }
    return 1;
}

/* One TLS 1.2 record, in place: explicit IV || payload || tag. */
static int gcm_tls_record(gcm_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                          const unsigned char *in, size_t len)
{
    c->tls_aad_set = 0;
    if (out != in || len < TLS_EXPLICIT + BLK || outsize < len || c->ivlen != 12 || !c->iv_gen)
        return cpp_err(c->eng.prov, CPP_R_INVALID_DATA_LENGTH, "not a TLS 1.2 GCM record");
    size_t plen = len - TLS_EXPLICIT - BLK;
    uint8_t iv[12];
    if (c->enc) {
        memcpy(iv, c->iv, sizeof iv);
        memcpy(out, iv + TLS_FIXED, TLS_EXPLICIT);
        for (int i = 11; i >= TLS_FIXED && ++c->iv[i] == 0; i--)
            ; /* the invocation counter, big-endian */
    } else {
        memcpy(c->iv + TLS_FIXED, in, TLS_EXPLICIT);
        memcpy(iv, c->iv, sizeof iv);
    }
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, plen, &pim);
    if (x == NULL)
        return 0;
    cpim_err rc = CPIM_OK;
    if (pim || !c->eng.cpu_keyed) {
        rc = cpim_aes_set_key(x, c->key, c->keylen);
        if (rc == CPIM_OK && !pim)
            c->eng.cpu_keyed = 1;
    }
    uint8_t *payload = out + TLS_EXPLICIT;
    if (rc == CPIM_OK && c->enc)
        rc = cpim_aes_gcm_encrypt(x, iv, sizeof iv, c->tls_aad, TLS_AAD, payload, payload, plen,
                                  payload + plen);
    else if (rc == CPIM_OK)
        rc = cpim_aes_gcm_decrypt(x, iv, sizeof iv, c->tls_aad, TLS_AAD, payload, payload, plen,
                                  payload + plen);
    cpp_eng_release(&c->eng, x, pim, CPP_OP_CIPHER, 1, rc == CPIM_OK);
    c->iv_state = IV_FINISHED;
    if (rc != CPIM_OK) {
        OPENSSL_cleanse(out, len);
        return rc == CPIM_ERR_AUTH ? 0 : cpp_err_lib(c->eng.prov, rc);
    }
    *outl = c->enc ? len : plen;
    return 1;
}

/* An encryption begun without an IV gets a random one of the IV length
 * set (at least 96 bits), readable afterwards as `iv`, as OpenSSL's default
 * provider does (SP 800-38D 8.2.2); a decryption needs the IV it was given. */
static int gcm_need_iv(gcm_ctx *c)
{
    if (c->iv_state != IV_UNSET)
        return 1;
    if (!c->enc || c->ivlen < 12)
        return cpp_err(c->eng.prov, CPP_R_IV_NOT_SET, NULL);
    if (!cpp_random(c->eng.prov, c->iv, c->ivlen))
        return cpp_err(c->eng.prov, CPP_R_IV_NOT_SET, "no random bytes");
    c->iv_state = IV_SET;
    return 1;
}

static int gcm_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    gcm_ctx *c = vctx;
    *outl = 0;
    if (c->tls_aad_set && c->key_set)
        return gcm_tls_record(c, out, outl, outsize, in, inl);
    if (inl == 0)
        return 1;
    if (!c->key_set)
        return cpp_err(c->eng.prov, CPP_R_NO_KEY_SET, NULL);
    if (!gcm_need_iv(c))
        return 0;
    if (c->iv_state == IV_FINISHED)
        return cpp_err(c->eng.prov, CPP_R_OPERATION_FINISHED, NULL);
    if (out == NULL)
        return gcm_aad(c, in, inl);
    if (outsize < inl)
        return cpp_err(c->eng.prov, CPP_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
    if (!gcm_data(c, in, out, inl))
        return 0;
    *outl = inl;
    return 1;
}

/* The tag of a continued one-update message (gcm_unshot_q), made
 * (encryption) or compared with the one set (decryption): q is the
 * GHASH state after it, times H.  With no range after it, the tag is
 * E_K(J0) ^ q ^ L * H.  Else finish chains [q, ranges...] with no AAD and
 * the first range declared 16 bytes short, which takes the extra H off q;
 * its length block is then wrong by a known difference, whose product by H
 * corrects the tag (GHASH is linear). */
static int gcm_final_q(gcm_ctx *c, uint64_t total)
{
    uint8_t l[BLK], fix[BLK], tag[BLK];
    gcm_len_block(c->aadlen, total, l);
    int ok = 1;
    if (c->nparts == 0) {
        ok = gcm_e_j0(c, tag) && gcm_mul_h(c, l, fix);
        for (int i = 0; ok && i < BLK; i++)
            tag[i] ^= c->q[i] ^ fix[i];
    } else {
        size_t n = c->nparts + 1;
        uint8_t(*g)[BLK] = malloc(n * sizeof *g);
        uint64_t *lens = malloc(n * sizeof *lens), declared = 0;
        ok = g != NULL && lens != NULL;
        if (ok) {
            memcpy(g[0], c->q, BLK);
            lens[0] = 0;
            memcpy(g + 1, c->gh, c->nparts * sizeof *g);
            memcpy(lens + 1, c->lens, c->nparts * sizeof *lens);
            lens[1] = lens[1] >= BLK ? lens[1] - BLK : 0;
            for (size_t i = 0; i < n; i++)
                declared += lens[i];
            int pim;
            cpim_ctx *x = cpp_eng_acquire(&c->eng, 0, &pim);
            cpim_err rc = x == NULL ? CPIM_ERR_INVALID_ARG : CPIM_OK;
            if (x != NULL && (pim || !c->eng.cpu_keyed)) {
                rc = cpim_aes_set_key(x, c->key, c->keylen);
                if (rc == CPIM_OK && !pim)
                    c->eng.cpu_keyed = 1;
            }
            if (rc == CPIM_OK)
                rc = cpim_aes_gcm_finish(x, CPIM_ENCRYPT, c->iv, c->ivlen, NULL, 0,
                                         (const uint8_t(*)[BLK])g, lens, n, tag);
            if (x != NULL)
                cpp_eng_release(&c->eng, x, pim, -1, 1, rc == CPIM_OK);
            ok = rc == CPIM_OK || (x != NULL && cpp_err_lib(c->eng.prov, rc));
        }
        if (g != NULL)
            OPENSSL_cleanse(g, n * sizeof *g);
        free(g);
        free(lens);
        uint8_t l2[BLK];
        gcm_len_block(0, declared, l2);
        for (int i = 0; i < BLK; i++)
            l2[i] ^= l[i];
        ok = ok && gcm_mul_h(c, l2, fix);
        for (int i = 0; ok && i < BLK; i++)
            tag[i] ^= fix[i];
    }
    gcm_reset_msg(c);
    if (ok && !c->enc) /* a wrong tag: 0 without an error, as gcm_final */
        ok = CRYPTO_memcmp(tag, c->tag, c->taglen) == 0;
    else if (ok) {
        memcpy(c->tag, tag, BLK);
        c->taglen = BLK;
    }
    OPENSSL_cleanse(tag, sizeof tag);
    return ok;
}

static int gcm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    gcm_ctx *c = vctx;
    (void)out, (void)outsize;
    *outl = 0;
    if (!c->key_set)
        return cpp_err(c->eng.prov, CPP_R_NO_KEY_SET, NULL);
    if (!gcm_need_iv(c))
        return 0;
    if (c->iv_state == IV_FINISHED)
        return cpp_err(c->eng.prov, CPP_R_OPERATION_FINISHED, NULL);
    if (!c->enc && c->taglen == 0)
        return cpp_err(c->eng.prov, CPP_R_TAG_NOT_SET, NULL);
    if (c->oneshot) {
        /* the backend made (or checked) the tag of the whole message; a
         * decryption whose tag was changed since goes by ranges */
        if (c->enc) {
            memcpy(c->tag, c->ostag, BLK);
            c->taglen = BLK;
        }
        if (c->enc || (c->taglen == BLK && CRYPTO_memcmp(c->ostag, c->tag, BLK) == 0)) {
            c->iv_state = IV_FINISHED;
            gcm_reset_msg(c);
            return 1;
        }
        if (!gcm_unshot(c, NULL))
            return 0;
    }
    uint64_t total = c->blocks * BLK + c->npend;
    if (c->npend > 0 && !gcm_hash_pending(c))
        return 0;
    c->iv_state = IV_FINISHED;
    if (c->qmode)
        return gcm_final_q(c, total);
    int pim;
    cpim_ctx *x = cpp_eng_acquire(&c->eng, 0, &pim);
    if (x == NULL)
        return 0;
    uint8_t tag[BLK];
    cpim_err rc = CPIM_OK;
    if (pim || !c->eng.cpu_keyed) {
        rc = cpim_aes_set_key(x, c->key, c->keylen);
        if (rc == CPIM_OK && !pim)
            c->eng.cpu_keyed = 1;
    }
    if (rc == CPIM_OK)
        rc = cpim_aes_gcm_finish(x, CPIM_ENCRYPT, c->iv, c->ivlen, c->aad, c->aadlen,
                                 (const uint8_t(*)[BLK])c->gh, c->lens, c->nparts, tag);
    cpp_eng_release(&c->eng, x, pim, -1, 1, rc == CPIM_OK);
    gcm_reset_msg(c);
    if (rc != CPIM_OK)
        return cpp_err_lib(c->eng.prov, rc);
    if (c->enc) {
        memcpy(c->tag, tag, BLK);
        c->taglen = BLK;
        return 1;
    }
    int ok = CRYPTO_memcmp(tag, c->tag, c->taglen) == 0;
    OPENSSL_cleanse(tag, sizeof tag);
    return ok; /* a wrong tag: 0 without an error, as OpenSSL's GCM */
}

static int gcm_cipher(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl)
{
    /* EVP_Cipher() on an AEAD: update with data, final with in == NULL */
    if (in == NULL)
        return gcm_final(vctx, out, outl, outsize);
    return gcm_update(vctx, out, outl, outsize, in, inl);
}

static const OSSL_PARAM gcm_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    CPP_ENG_GETTABLE,
    OSSL_PARAM_END};
static const OSSL_PARAM gcm_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0), CPP_ENG_SETTABLE, OSSL_PARAM_END};

static const OSSL_PARAM *gcm_gettable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return gcm_gettable;
}

static const OSSL_PARAM *gcm_settable_ctx(void *vctx, void *provctx)
{
    (void)vctx, (void)provctx;
    return gcm_settable;
}

/* The params gcm_get_ctx_params answers, the ones EVP asks per message
 * first (cpp_params_find). */
enum { G_IVLEN, G_KEYLEN, G_TAG, G_TAGLEN, G_IV, G_UPDATED_IV, G_TLSAADPAD, G_TLSIVGEN, G_N };
static const char *const gcm_get_names[G_N] = {OSSL_CIPHER_PARAM_IVLEN,
                                               OSSL_CIPHER_PARAM_KEYLEN,
                                               OSSL_CIPHER_PARAM_AEAD_TAG,
                                               OSSL_CIPHER_PARAM_AEAD_TAGLEN,
                                               OSSL_CIPHER_PARAM_IV,
                                               OSSL_CIPHER_PARAM_UPDATED_IV,
                                               OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD,
                                               OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN};

static int gcm_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    gcm_ctx *c = vctx;
    const OSSL_PARAM *f[G_N];
    cpp_params_find(params, gcm_get_names, G_N, f);
    OSSL_PARAM *q; /* found in the caller's (writable) params */
    if ((q = (OSSL_PARAM *)f[G_KEYLEN]) != NULL && !OSSL_PARAM_set_size_t(q, c->keylen))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "keylen");
    if ((q = (OSSL_PARAM *)f[G_IVLEN]) != NULL && !OSSL_PARAM_set_size_t(q, c->ivlen))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "ivlen");
    if ((q = (OSSL_PARAM *)f[G_TAGLEN]) != NULL &&
        !OSSL_PARAM_set_size_t(q, c->taglen ? c->taglen : BLK))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "taglen");
    for (int which = 0; which < 2; which++) {
        q = (OSSL_PARAM *)f[which ? G_UPDATED_IV : G_IV];
        if (q == NULL)
            continue;
        if (c->iv_state == IV_UNSET || c->ivlen > q->data_size ||
            !OSSL_PARAM_set_octet_string(q, c->iv, c->ivlen))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "iv");
    }
    if ((q = (OSSL_PARAM *)f[G_TLSAADPAD]) != NULL &&
        (!c->tls_aad_set || !OSSL_PARAM_set_size_t(q, BLK)))
        return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "tlsaadpad");
    if ((q = (OSSL_PARAM *)f[G_TLSIVGEN]) != NULL) {
        size_t sz = q->data_size;
        if (!c->iv_gen || !c->key_set || q->data_type != OSSL_PARAM_OCTET_STRING || q->data == NULL)
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "tlsivgen");
        if (sz == 0 || sz > c->ivlen)
            sz = c->ivlen;
        memcpy(q->data, c->iv + c->ivlen - sz, sz);
        q->return_size = sz;
        for (size_t i = c->ivlen; i-- > c->ivlen - 8 && ++c->iv[i] == 0;)
            ;
        c->iv_state = IV_SET;
    }
    if ((q = (OSSL_PARAM *)f[G_TAG]) != NULL) {
        size_t sz = q->data_size;
        if (sz == 0 || sz > BLK || !c->enc || c->taglen == 0)
            return cpp_err(c->eng.prov, CPP_R_INVALID_TAG, NULL);
        if (!OSSL_PARAM_set_octet_string(q, c->tag, sz))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_GET_PARAMETER, "tag");
    }
    return cpp_eng_get_params(&c->eng, params);
}

/* The params gcm_set_ctx_params takes (cpp_params_find). */
enum { S_IVLEN, S_TAG, S_TLSAAD, S_TLSIVFIXED, S_TLSIVINV, S_N };
static const char *const gcm_set_names[S_N] = {
    OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD,
    OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV};

static int gcm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    gcm_ctx *c = vctx;
    const OSSL_PARAM *q, *f[S_N];
    if (params == NULL)
        return 1;
    cpp_params_find(params, gcm_set_names, S_N, f);
    if ((q = f[S_TAG]) != NULL) {
        if (q->data_type != OSSL_PARAM_OCTET_STRING)
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "tag");
        size_t sz = q->data_size;
        if (sz == 0 || sz > BLK || c->enc)
            return cpp_err(c->eng.prov, CPP_R_INVALID_TAG_LENGTH, NULL);
        if (q->data != NULL)
            memcpy(c->tag, q->data, sz);
        c->taglen = sz;
    }
    if ((q = f[S_TLSAAD]) != NULL) {
        /* the record's AAD; its length field becomes the payload's */
        if (q->data_type != OSSL_PARAM_OCTET_STRING || q->data_size != TLS_AAD)
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "tlsaad");
        memcpy(c->tls_aad, q->data, TLS_AAD);
        size_t len = (size_t)c->tls_aad[11] << 8 | c->tls_aad[12],
               less = TLS_EXPLICIT + (c->enc ? 0 : BLK);
        if (len < less)
            return cpp_err(c->eng.prov, CPP_R_INVALID_DATA_LENGTH, "TLS record too short");
        len -= less;
        c->tls_aad[11] = (uint8_t)(len >> 8);
        c->tls_aad[12] = (uint8_t)len;
        c->tls_aad_set = 1;
    }
    if ((q = f[S_TLSIVFIXED]) != NULL) {
        size_t sz = q->data_size;
        if (q->data_type != OSSL_PARAM_OCTET_STRING || sz < TLS_FIXED ||
            c->ivlen < sz + TLS_EXPLICIT)
            return cpp_err(c->eng.prov, CPP_R_INVALID_IV_LENGTH, "tlsivfixed");
        memcpy(c->iv, q->data, sz);
        if (c->enc && !cpp_random(c->eng.prov, c->iv + sz, c->ivlen - sz))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "no random bytes");
        c->iv_gen = 1;
        c->iv_state = IV_SET;
    }
    if ((q = f[S_TLSIVINV]) != NULL) {
        size_t sz = q->data_size;
        if (q->data_type != OSSL_PARAM_OCTET_STRING || !c->iv_gen || !c->key_set || c->enc ||
            sz > c->ivlen)
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "tlsivinv");
        memcpy(c->iv + c->ivlen - sz, q->data, sz);
        c->iv_state = IV_SET;
    }
    if ((q = f[S_IVLEN]) != NULL) {
        size_t sz;
        if (!OSSL_PARAM_get_size_t(q, &sz))
            return cpp_err(c->eng.prov, CPP_R_FAILED_TO_SET_PARAMETER, "ivlen");
        if (sz == 0 || sz > GCM_IV_MAX)
            return cpp_err(c->eng.prov, CPP_R_INVALID_IV_LENGTH, NULL);
        c->ivlen = sz;
    }
    return cpp_eng_set_params(&c->eng, params);
}

#define GCM_ALG(name, kbits)                                                                       \
    static void *name##_new(void *provctx)                                                         \
    {                                                                                              \
        return gcm_new(provctx, (kbits) / 8);                                                      \
    }                                                                                              \
    static int name##_get_params(OSSL_PARAM params[])                                              \
    {                                                                                              \
        return cpp_cipher_get_params(params, EVP_CIPH_GCM_MODE, (kbits) / 8, 1, 12, 1, 1, 0);      \
    }                                                                                              \
    CPP_CIPHER_DISPATCH(name, gcm);

GCM_ALG(aes128gcm, 128)
GCM_ALG(aes192gcm, 192)
GCM_ALG(aes256gcm, 256)
