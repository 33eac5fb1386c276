/*
 * xts_ref.c -- the CLI test's XTS reference (tests/cli.sh): OpenSSL's EVP
 * XTS applied to each data unit, as dm-crypt's aes-xts-plain64 (`openssl
 * enc` refuses XTS, so the comparison needs the EVP API).
 *
 *   xts-ref enc|dec KEYHEX SECTOR_SIZE START IN OUT
 *
 * Unit i of IN (the last may be shorter) gets the tweak START + i as a
 * 64-bit little-endian number followed by 8 zero bytes.  Exit 0, or 1 with
 * a message.
 */
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unhex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = strlen(s);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return (int)(n / 2);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    for (size_t r; b && (r = fread(b + n, 1, cap - n, f)) > 0;) {
        n += r;
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

int main(int argc, char **argv)
{
    uint8_t key[64];
    int kl = argc == 7 ? unhex(argv[2], key, sizeof key) : -1;
    if (kl != 32 && kl != 64) {
        fprintf(stderr, "usage: xts-ref enc|dec KEYHEX(64|128 digits) SECTOR_SIZE START IN OUT\n");
        return 1;
    }
    int enc = strcmp(argv[1], "enc") == 0;
    size_t usz = strtoul(argv[3], NULL, 10), len = 0;
    uint64_t start = strtoull(argv[4], NULL, 10);
    uint8_t *in = slurp(argv[5], &len), *out = in ? malloc(len + 1) : NULL;
    if (!in || !out || usz < 16) {
        fprintf(stderr, "xts-ref: cannot read %s\n", argv[5]);
        return 1;
    }
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *ci = kl == 32 ? EVP_aes_128_xts() : EVP_aes_256_xts();
    for (size_t off = 0, i = 0; off < len; off += usz, i++) {
        uint8_t iv[16] = {0};
        uint64_t u = start + i;
        for (int b = 0; b < 8; b++)
            iv[b] = (uint8_t)(u >> (8 * b));
        size_t n = len - off < usz ? len - off : usz;
        int outl = 0;
        if (EVP_CipherInit_ex(c, ci, NULL, key, iv, enc) != 1 ||
            EVP_CipherUpdate(c, out + off, &outl, in + off, (int)n) != 1 || (size_t)outl != n) {
            fprintf(stderr, "xts-ref: OpenSSL refused unit %zu (%zu bytes)\n", i, n);
            return 1;
        }
    }
    EVP_CIPHER_CTX_free(c);
    FILE *f = fopen(argv[6], "wb");
    if (!f || fwrite(out, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "xts-ref: cannot write %s\n", argv[6]);
        return 1;
    }
    free(in), free(out);
    return 0;
}
