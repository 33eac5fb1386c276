/* string_ext.c -- the rest of the DPU libc's <string.h> (the SDK 2025.1
 * header's functions beyond string.c), and strdup/strndup, which the SDK's
 * library defines without declaring them. Built -ffreestanding like
 * string.c. Semantics are the C library's (POSIX for stpcpy, stpncpy,
 * strtok_r, strsep); strlwr, strupr and strrev as the SDK's: in place,
 * ASCII letters only, returning the argument. */
#include <buddy_alloc.h>
#include <ctype.h>
#include <stddef.h>
#include <string.h>

char *stpcpy(char *restrict d, const char *restrict s)
{
    while ((*d = *s++) != '\0')
        d++;
    return d;
}

/* Copies at most n bytes, pads with NULs to n; returns d + strnlen(s, n). */
char *stpncpy(char *restrict d, const char *restrict s, size_t n)
{
    size_t len = strnlen(s, n);
    memcpy(d, s, len);
    memset(d + len, 0, n - len);
    return d + len;
}

/* membership in a set of bytes, as a 256-bit table */
static void byteset(const char *set, unsigned char table[32])
{
    memset(table, 0, 32);
    for (const unsigned char *p = (const unsigned char *)set; *p; p++)
        table[*p >> 3] |= (unsigned char)(1u << (*p & 7));
}

static int in_set(const unsigned char table[32], unsigned char c)
{
    return (table[c >> 3] >> (c & 7)) & 1;
}

size_t strspn(const char *s, const char *accept)
{
    unsigned char table[32];
    byteset(accept, table);
    size_t n = 0;
    while (s[n] != '\0' && in_set(table, (unsigned char)s[n]))
        n++;
    return n;
}

size_t strcspn(const char *s, const char *reject)
{
    unsigned char table[32];
    byteset(reject, table);
    size_t n = 0;
    while (s[n] != '\0' && !in_set(table, (unsigned char)s[n]))
        n++;
    return n;
}

char *strpbrk(const char *s, const char *accept)
{
    s += strcspn(s, accept);
    return *s != '\0' ? (char *)s : NULL;
}

char *strtok_r(char *restrict s, const char *restrict delim, char **restrict saveptr)
{
    if (s == NULL)
        s = *saveptr;
    s += strspn(s, delim);
    if (*s == '\0') {
        *saveptr = s;
        return NULL;
    }
    char *end = s + strcspn(s, delim);
    if (*end != '\0')
        *end++ = '\0';
    *saveptr = end;
    return s;
}

char *strsep(char **restrict stringp, const char *restrict delim)
{
    char *s = *stringp;
    if (s == NULL)
        return NULL;
    char *end = s + strcspn(s, delim);
    if (*end != '\0') {
        *end = '\0';
        *stringp = end + 1;
    } else {
        *stringp = NULL;
    }
    return s;
}

char *strlwr(char *s)
{
    for (char *p = s; *p; p++)
        *p = (char)tolower(*p);
    return s;
}

char *strupr(char *s)
{
    for (char *p = s; *p; p++)
        *p = (char)toupper(*p);
    return s;
}

char *strrev(char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++) {
        char c = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = c;
    }
    return s;
}

/* Not declared by <string.h> (as in the SDK): in the buddy heap. */
char *strdup(const char *s);
char *strndup(const char *s, size_t n);

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = buddy_alloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

/* (The SDK's writes its terminating NUL one byte past the copy; this one
 * terminates the copy.) */
char *strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = buddy_alloc(len + 1);
    if (d != NULL) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}
