/* The unit-test runner: see test.h for the protocol. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define MAX_TESTS 1024

static struct {
    const char *name;
    test_fn fn;           /* a TEST(), or NULL for a case: */
    test_case_fn case_fn; /* ... case_fn(a, b) */
    size_t a, b;
} tests[MAX_TESTS];
static int nr_tests;
static int cur_failed;
static const char *cur_skip;
static char first_reason[512];

void test_register(const char *name, test_fn fn)
{
    if (nr_tests < MAX_TESTS) {
        tests[nr_tests].name = name;
        tests[nr_tests].fn = fn;
        nr_tests++;
    }
}

void test_register_case(const char *name, test_case_fn fn, size_t a, size_t b)
{
    char *copy = strdup(name);
    if (copy && nr_tests < MAX_TESTS) {
        tests[nr_tests].name = copy;
        tests[nr_tests].case_fn = fn;
        tests[nr_tests].a = a;
        tests[nr_tests].b = b;
        nr_tests++;
    } else {
        free(copy);
    }
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!cur_failed)
        snprintf(first_reason, sizeof first_reason, "%s:%d: %s", file, line, msg);
    else
        fprintf(stderr, "    also %s:%d: %s\n", file, line, msg);
    cur_failed++;
}

static void hex_line(const char *label, const uint8_t *p, size_t n)
{
    fprintf(stderr, "    %s:", label);
    for (size_t i = 0; i < n && i < 64; i++)
        fprintf(stderr, "%02x", p[i]);
    fprintf(stderr, n > 64 ? "...\n" : "\n");
}

int test_mem_eq(const char *file, int line, const void *a, const void *b, size_t n,
                const char *what)
{
    if (n == 0 || memcmp(a, b, n) == 0)
        return 1;
    const uint8_t *x = a, *y = b;
    size_t off = 0;
    while (x[off] == y[off])
        off++;
    test_fail(file, line, "%s differs at byte %zu of %zu", what, off, n);
    size_t from = off >= 16 ? off - 16 : 0;
    hex_line("got     ", x + from, n - from);
    hex_line("expected", y + from, n - from);
    return 0;
}

void test_skip(const char *reason)
{
    cur_skip = reason;
}

uint64_t test_rand(uint64_t *s)
{
    uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

void test_fill(uint64_t *s, void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n >= 8) {
        uint64_t r = test_rand(s);
        memcpy(p, &r, 8);
        p += 8;
        n -= 8;
    }
    if (n) {
        uint64_t r = test_rand(s);
        memcpy(p, &r, n);
    }
}

char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long test_unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int h = hexval(hex[2 * i]), l = hexval(hex[2 * i + 1]);
        if (h < 0 || l < 0)
            return -1;
        out[i] = (uint8_t)(h << 4 | l);
    }
    return (long)(n / 2);
}

static int selected(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strncmp(name, argv[i], strlen(argv[i])) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (int i = 0; i < nr_tests; i++) {
        if (!selected(tests[i].name, argc, argv))
            continue;
        cur_failed = 0;
        cur_skip = NULL;
        if (tests[i].fn)
            tests[i].fn();
        else
            tests[i].case_fn(tests[i].a, tests[i].b);
        if (cur_failed) {
            printf("FAIL %s: %s\n", tests[i].name, first_reason);
            failed++;
        } else if (cur_skip) {
            printf("SKIP %s: %s\n", tests[i].name, cur_skip);
        } else {
            printf("PASS %s\n", tests[i].name);
            passed++;
        }
        fflush(stdout);
    }
    fprintf(stderr, "unit: %d passed, %d failed\n", passed, failed);
    return 0;
}
