/*
 * fuzz_provcnf.c -- fuzz target: the OpenSSL provider's parser of its
 * openssl.cnf values (cpp_parse_size, provider/cnf.c), which reads what any
 * configuration file says.
 *
 * Checks its contract, not only that it does not crash: it accepts exactly
 * digits with at most one K/M/G suffix whose value fits `max`, gives the
 * value a slow reference computes, and leaves *out alone when it refuses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cnf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the reference: 1 and *v for a well-formed string, else 0 */
static int reference(const char *s, uint64_t max, uint64_t *v)
{
    size_t n = strlen(s), digits = 0;
    while (digits < n && s[digits] >= '0' && s[digits] <= '9')
        digits++;
    if (digits == 0 || n - digits > 1)
        return 0;
    unsigned shift = 0;
    if (n - digits == 1) {
        const char *suf = "kKmMgG", *p = strchr(suf, s[digits]);
        if (p == NULL || s[digits] == '\0')
            return 0;
        shift = 10 * (unsigned)(1 + (p - suf) / 2);
    }
    unsigned __int128 x = 0;
    for (size_t i = 0; i < digits; i++) {
        x = x * 10 + (unsigned)(s[i] - '0');
        if (x > UINT64_MAX)
            return 0;
    }
    x <<= shift;
    if (x > max)
        return 0;
    *v = (uint64_t)x;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 64)
        return 0;
    /* first byte: the limit (0: none, else 2^(byte % 64) - 1) */
    uint64_t max = data[0] == 0 ? UINT64_MAX : ((uint64_t)1 << (data[0] % 64)) - 1;
    char s[64];
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    uint64_t got = 0x5a5a5a5a5a5a5a5aull, want = 0;
    int ok = cpp_parse_size(s, max, &got), ref = reference(s, max, &want);
    if (ok != ref || (ok && got != want) || (!ok && got != 0x5a5a5a5a5a5a5a5aull))
        abort();
    return 0;
}
