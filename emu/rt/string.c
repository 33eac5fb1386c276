/* string.c -- libc string subset for the virtual DPU (built -ffreestanding so
 * clang does not turn these loops back into calls to themselves). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if ((((uintptr_t)dp | (uintptr_t)sp) & 3) == 0) {
        while (n >= 16) {
            uint32_t a = ((const uint32_t *)sp)[0], b = ((const uint32_t *)sp)[1];
            uint32_t c = ((const uint32_t *)sp)[2], e = ((const uint32_t *)sp)[3];
            ((uint32_t *)dp)[0] = a;
            ((uint32_t *)dp)[1] = b;
            ((uint32_t *)dp)[2] = c;
            ((uint32_t *)dp)[3] = e;
            dp += 16;
            sp += 16;
            n -= 16;
        }
        while (n >= 4) {
            *(uint32_t *)dp = *(const uint32_t *)sp;
            dp += 4;
            sp += 4;
            n -= 4;
        }
    }
    while (n--)
        *dp++ = *sp++;
    return d;
}

void *memmove(void *d, const void *s, size_t n)
{
    uint8_t *dp = d;
    const uint8_t *sp = s;
    if (dp == sp || n == 0)
        return d;
    if (dp < sp || dp >= sp + n)
        return memcpy(d, s, n);
    while (n--)
        dp[n] = sp[n];
    return d;
}

void *memset(void *d, int c, size_t n)
{
    uint8_t *dp = d;
    uint8_t v = (uint8_t)c;
    if (((uintptr_t)dp & 3) == 0) {
        uint32_t w = v * 0x01010101u;
        while (n >= 16) {
            ((uint32_t *)dp)[0] = w;
            ((uint32_t *)dp)[1] = w;
            ((uint32_t *)dp)[2] = w;
            ((uint32_t *)dp)[3] = w;
            dp += 16;
            n -= 16;
        }
        while (n >= 4) {
            *(uint32_t *)dp = w;
            dp += 4;
            n -= 4;
        }
    }
    while (n--)
        *dp++ = v;
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const uint8_t *p = s;
    for (size_t i = 0; i < n; i++)
        if (p[i] == (uint8_t)c)
            return (void *)(p + i);
    return NULL;
}

size_t strlen(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i])
        i++;
    return i;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b || !*a)
            return (int)(unsigned char)*a - (int)(unsigned char)*b;
    }
    return 0;
}

char *strcpy(char *restrict d, const char *restrict s)
{
    char *r = d;
    while ((*d++ = *s++))
        ;
    return r;
}

char *strncpy(char *restrict d, const char *restrict s, size_t n)
{
    size_t i = 0;
    for (; i < n && s[i]; i++)
        d[i] = s[i];
    for (; i < n; i++)
        d[i] = 0;
    return d;
}

char *strcat(char *restrict d, const char *restrict s)
{
    strcpy(d + strlen(d), s);
    return d;
}

char *strncat(char *restrict d, const char *restrict s, size_t n)
{
    char *p = d + strlen(d);
    while (n-- && *s)
        *p++ = *s++;
    *p = 0;
    return d;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}

char *strrchr(const char *s, int c)
{
    const char *r = NULL;
    for (;; s++) {
        if (*s == (char)c)
            r = s;
        if (!*s)
            return (char *)r;
    }
}

char *strstr(const char *h, const char *n)
{
    size_t l = strlen(n);
    if (!l)
        return (char *)h;
    for (; *h; h++)
        if (*h == *n && !strncmp(h, n, l))
            return (char *)h;
    return NULL;
}
