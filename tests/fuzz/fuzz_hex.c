/*
 * fuzz_hex.c -- fuzz target: the CLI's hex parser for keys, IVs and
 * expected digests (cli_unhex in tools/cli.c).
 *
 * Checks its contract, not only that it does not crash: it never writes
 * past `cap`, returns -1 / -2 / -3 or the byte count, and an accepted input
 * decodes to the bytes that re-encode to the input's digits.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CAP = 64 }; /* an AES-256 key is 32 bytes, a digest 32: room to spare */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    /* first byte: output capacity and whether whitespace is allowed */
    size_t cap = data[0] % (CAP + 1);
    int allow_space = data[0] >> 7;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    /* exactly cap bytes, so ASan catches a write past it */
    uint8_t *out = malloc(cap ? cap : 1);
    if (!out)
        return 0;
    long r = cli_unhex(s, n, allow_space, out, cap);
    if (r < -3 || r > (long)cap)
        abort();
    if (r >= 0) {
        /* the accepted digits, re-encoded, equal the input minus spaces */
        static const char hx[] = "0123456789abcdef";
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            int c = tolower((unsigned char)s[i]);
            if (allow_space && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
                continue;
            if (k / 2 >= (size_t)r || c != hx[k % 2 ? out[k / 2] & 15 : out[k / 2] >> 4])
                abort();
            k++;
        }
        if (k != 2 * (size_t)r)
            abort();
    }
    free(out);
    return 0;
}
