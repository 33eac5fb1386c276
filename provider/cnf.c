/*
 * cnf.c -- the provider's parser of its openssl.cnf values (cnf.h).
 * Hand-rolled rather than strtoull: that one accepts signs and leading
 * spaces, and wraps "-1" to UINT64_MAX.
 */
#include "cnf.h"

#include <stddef.h>

int cpp_parse_size(const char *s, uint64_t max, uint64_t *out)
{
    if (s == NULL || *s < '0' || *s > '9')
        return 0;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    unsigned shift = 0;
    switch (*s) {
    case 'K':
    case 'k':
        shift = 10;
        break;
    case 'M':
    case 'm':
        shift = 20;
        break;
    case 'G':
    case 'g':
        shift = 30;
        break;
    case '\0':
        break;
    default:
        return 0;
    }
    if (shift != 0 && *++s != '\0')
        return 0;
    if (v > (UINT64_MAX >> shift) || (v << shift) > max)
        return 0;
    *out = v << shift;
    return 1;
}
