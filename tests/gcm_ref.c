/*
 * gcm_ref.c -- AES-GCM through OpenSSL's EVP API, the reference of
 * tests/cli_gcm.sh (`openssl enc` refuses AEAD ciphers).
 *
 *   gcm_ref enc|dec KEYHEX IVHEX AADFILE IN OUT
 *
 * enc writes ciphertext || 16-byte tag; dec reads that and writes the
 * plaintext, or exits 1 (writing nothing) when the tag does not match.
 * AADFILE may be `-` for none.  Exit 2 on a usage or I/O error.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long unhex(const char *s, unsigned char *out, size_t cap)
{
    size_t n = strlen(s);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (unsigned char)v;
    }
    return (long)(n / 2);
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    unsigned char key[32], iv[256];
    long kl, il;
    if (argc != 7 || (strcmp(argv[1], "enc") && strcmp(argv[1], "dec")) ||
        (kl = unhex(argv[2], key, sizeof key)) < 0 || (il = unhex(argv[3], iv, sizeof iv)) < 1) {
        fprintf(stderr, "usage: gcm_ref enc|dec KEYHEX IVHEX AADFILE|- IN OUT\n");
        return 2;
    }
    int enc = argv[1][0] == 'e';
    const EVP_CIPHER *c = kl == 16   ? EVP_aes_128_gcm()
                          : kl == 24 ? EVP_aes_192_gcm()
                          : kl == 32 ? EVP_aes_256_gcm()
                                     : NULL;
    size_t al = 0, n = 0;
    unsigned char *aad = strcmp(argv[4], "-") ? slurp(argv[4], &al) : NULL;
    unsigned char *in = slurp(argv[5], &n);
    if (!c || (strcmp(argv[4], "-") && !aad) || !in || (!enc && n < 16)) {
        fprintf(stderr, "gcm_ref: bad key length or unreadable input\n");
        return 2;
    }
    size_t len = enc ? n : n - 16;
    unsigned char *out = malloc(len + 16);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ok = out && x && EVP_CipherInit_ex(x, c, NULL, NULL, NULL, enc) &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IVLEN, (int)il, NULL) &&
             EVP_CipherInit_ex(x, NULL, NULL, key, iv, enc);
    int w = 0;
    if (ok && al)
        ok = EVP_CipherUpdate(x, NULL, &w, aad, (int)al);
    if (ok && len)
        ok = EVP_CipherUpdate(x, out, &w, in, (int)len);
    if (ok && !enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_TAG, 16, in + len);
    if (!ok) {
        fprintf(stderr, "gcm_ref: EVP setup failed\n");
        return 2;
    }
    if (EVP_CipherFinal_ex(x, out + len, &w) != 1) {
        fprintf(stderr, "gcm_ref: authentication failed\n");
        return 1;
    }
    if (enc && !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, out + len))
        return 2;
    FILE *f = fopen(argv[6], "wb");
    size_t wl = enc ? len + 16 : len;
    if (!f || fwrite(out, 1, wl, f) != wl || fclose(f) != 0) {
        fprintf(stderr, "gcm_ref: cannot write %s\n", argv[6]);
        return 2;
    }
    EVP_CIPHER_CTX_free(x);
    free(in), free(out), free(aad);
    return 0;
}
