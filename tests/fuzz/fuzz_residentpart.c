/*
 * fuzz_residentpart.c -- fuzz target: the value of CRYPTOPIM_RESIDENT_PART
 * (bench/resident_part.c), an environment variable of `cryptopim bench`.
 *
 * Checks its contract, not only that it does not crash: it returns 0 or -1;
 * a refused value leaves "everything"; an accepted one is one of the
 * documented forms, and re-printing what it parsed gives the input back.
 * The parser is one file without dependencies, compiled in here (the fuzz
 * targets link the library and the CLI's parsers, not cryptopim-bench).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/resident_part.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the variable's value: a C string of exactly these bytes */
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = 0;
    resident_part p;
    int rc = resident_part_parse(s, &p);
    if (rc != 0 && rc != -1)
        abort();
    if (rc != 0 && (p.what != RP_ALL || p.from != 0 || p.to != ~0u))
        abort();
    if (rc == 0) {
        static const char *const names[] = {"", "host", "in-place", "bus"};
        char back[32], whole[32] = "";
        if (p.what > RP_BUS)
            abort();
        if (p.from == 0 && p.to == ~0u) {
            /* every point: "bus", or "bus.0+" */
            snprintf(back, sizeof back, "%s", names[p.what]);
            if (p.what == RP_IN_PLACE || p.what == RP_BUS)
                snprintf(whole, sizeof whole, "%s.0+", names[p.what]);
        } else if (p.what == RP_HOST || p.what == RP_ALL || p.from > 15 ||
                   (p.to != ~0u && p.to != p.from + 1)) {
            abort();
        } else {
            snprintf(back, sizeof back, "%s.%u%s", names[p.what], p.from, p.to == ~0u ? "+" : "");
        }
        /* the same text, but for a leading zero ("bus.03" is bus.3) */
        char *z = strstr(s, ".0");
        if (z && z[2] >= '0' && z[2] <= '9')
            memmove(z + 1, z + 2, strlen(z + 2) + 1);
        if (strcmp(back, s) && strcmp(whole, s))
            abort();
    }
    free(s);
    return 0;
}
