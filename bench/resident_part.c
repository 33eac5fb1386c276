/*
 * resident_part.c -- CRYPTOPIM_RESIDENT_PART's value (resident_part.h).
 */
#include "resident_part.h"

#include <string.h>

int resident_part_parse(const char *s, resident_part *p)
{
    static const char *const names[] = {"host", "in-place", "bus"};
    p->what = RP_ALL, p->from = 0, p->to = ~0u;
    if (!s || !*s)
        return 0;
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(s, names[i], n))
            continue;
        const char *c = s + n;
        if (!*c) {
            p->what = (enum resident_what)(i + 1);
            return 0;
        }
        /* in-place.I / bus.I[+]: one or two digits, then nothing or '+'
         * (digits by hand: strtoul would take signs and spaces) */
        if (i == 0 || *c++ != '.' || *c < '0' || *c > '9')
            break;
        unsigned v = (unsigned)(*c++ - '0');
        if (*c >= '0' && *c <= '9')
            v = 10 * v + (unsigned)(*c++ - '0');
        if (v > 15 || (*c && strcmp(c, "+")))
            break;
        p->what = (enum resident_what)(i + 1), p->from = v, p->to = *c ? ~0u : v + 1;
        return 0;
    }
    p->what = RP_ALL, p->from = 0, p->to = ~0u;
    return -1;
}
