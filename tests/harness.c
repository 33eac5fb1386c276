/*
 * harness.c -- the one test harness of every C test program (the unit tests,
 * the virtual DPU, its runtime and soft-float, the virtual host library).
 * See test.h for the API and the output protocol.  It depends on nothing but
 * libc, so the emu test programs can link it without libcryptopim.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* One registered test: a TEST() (fn), a parameterised case (case_fn(a, b)),
 * or a group (group_fn reporting `count` named verdicts itself). */
typedef struct {
    const char *name;
    test_fn fn;
    test_case_fn case_fn;
    size_t a, b;
    test_fn group_fn;
    size_t count;
} entry_t;

/* Grown on demand: a fixed table silently dropped the tests past its size. */
static entry_t *tests;
static size_t nr_tests, cap_tests;

/* State of the running test. */
static int cur_failed;
static const char *cur_skip;
static char first_reason[512];

/* State of the running group. */
static const entry_t *cur_group;
static size_t group_reported;

/* Totals, for the exit status and the summary on stderr. */
static size_t n_passed, n_failed, n_skipped;

static void add(entry_t e)
{
    if (nr_tests == cap_tests) {
        size_t cap = cap_tests ? 2 * cap_tests : 256;
        entry_t *t = realloc(tests, cap * sizeof *t);
        if (!t) {
            /* Registration runs before main(): losing a test silently is the
             * one outcome the harness exists to prevent. */
            fprintf(stderr, "test harness: out of memory registering %s\n", e.name);
            abort();
        }
        tests = t;
        cap_tests = cap;
    }
    tests[nr_tests++] = e;
}

static const char *copy_name(const char *name)
{
    char *copy = strdup(name);
    if (!copy) {
        fprintf(stderr, "test harness: out of memory registering %s\n", name);
        abort();
    }
    return copy;
}

void test_register(const char *name, test_fn fn)
{
    add((entry_t){.name = name, .fn = fn});
}

void test_register_case(const char *name, test_case_fn fn, size_t a, size_t b)
{
    add((entry_t){.name = copy_name(name), .case_fn = fn, .a = a, .b = b});
}

void test_register_group(const char *name, test_fn fn, size_t count)
{
    add((entry_t){.name = copy_name(name), .group_fn = fn, .count = count});
}

static void verdict_line(const char *kind, const char *name, const char *why)
{
    if (why)
        printf("%s %s: %s\n", kind, name, why);
    else
        printf("%s %s\n", kind, name);
    /* Flushed at once: stdout to a file is fully buffered, and a test that
     * crashes later must not take the verdicts before it down with it. */
    fflush(stdout);
}

/* Counts one verdict reported by a group (test_pass/test_failf/test_skipf). */
static int group_verdict(const char *name)
{
    if (!cur_group) {
        fprintf(stderr, "test harness: verdict for %s outside a group\n", name);
        n_failed++;
        return 0;
    }
    group_reported++;
    if (group_reported > cur_group->count)
        fprintf(stderr, "test harness: group %s reports more than its %zu verdicts\n",
                cur_group->name, cur_group->count);
    return 1;
}

void test_pass(const char *name)
{
    group_verdict(name);
    verdict_line("PASS", name, NULL);
    n_passed++;
}

/* A group's FAIL or SKIP verdict with its formatted reason. */
static void verdict_v(const char *kind, const char *name, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    group_verdict(name);
    verdict_line(kind, name, msg);
}

void test_failf(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verdict_v("FAIL", name, fmt, ap);
    va_end(ap);
    n_failed++;
}

void test_skipf(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verdict_v("SKIP", name, fmt, ap);
    va_end(ap);
    n_skipped++;
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

/* `--shard=I/N` (0 <= I < N) keeps the selected entries whose name hashes
 * to I mod N: tests/run.sh runs the N shards of one program side by side on
 * a machine with several cores.  By name, not by position: the tests come in
 * per-backend runs of a fixed length, so every N-th entry would put all of
 * one (slow) backend in the same shard.  The shards of a program together run each
 * selected entry exactly once. */
static size_t shard_i, shard_n = 1;

static int in_shard(const char *name)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 16777619u;
    return h % shard_n == shard_i;
}

static int parse_shard(const char *arg)
{
    unsigned long i, n;
    char extra;
    if (sscanf(arg, "--shard=%lu/%lu%c", &i, &n, &extra) != 2 || n == 0 || i >= n)
        return -1;
    shard_i = i;
    shard_n = n;
    return 0;
}

static int name_selected(const char *name, int argc, char **argv)
{
    int filters = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--shard=", 8) == 0)
            continue;
        filters++;
        if (strncmp(name, argv[i], strlen(argv[i])) == 0)
            return 1;
    }
    return filters == 0;
}

static void run_one(const entry_t *t)
{
    cur_failed = 0;
    cur_skip = NULL;
    if (t->fn)
        t->fn();
    else
        t->case_fn(t->a, t->b);
    if (cur_failed) {
        verdict_line("FAIL", t->name, first_reason);
        n_failed++;
    } else if (cur_skip) {
        verdict_line("SKIP", t->name, cur_skip);
        n_skipped++;
    } else {
        verdict_line("PASS", t->name, NULL);
        n_passed++;
    }
}

static void run_group(const entry_t *t)
{
    cur_failed = 0;
    cur_group = t;
    group_reported = 0;
    t->group_fn();
    cur_group = NULL;
    /* A group that returns early (a failed build, a `return` on the first
     * error) leaves verdicts unreported: each one becomes a failure here, so
     * the plan still adds up and nothing disappears. */
    for (size_t i = group_reported; i < t->count; i++) {
        char name[300], why[700];
        snprintf(name, sizeof name, "%s.missing%zu", t->name, i + 1);
        snprintf(why, sizeof why, "the group reported %zu of its %zu verdicts%s%s", group_reported,
                 t->count, cur_failed ? "; first check failed: " : "",
                 cur_failed ? first_reason : "");
        verdict_line("FAIL", name, why);
        n_failed++;
    }
    /* CHECK() inside a group has no verdict of its own: reported on top of
     * the plan, which run.sh then also rejects. */
    if (cur_failed && group_reported >= t->count) {
        verdict_line("FAIL", t->name, first_reason);
        n_failed++;
    }
}

int test_main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--shard=", 8) == 0 && parse_shard(argv[i]) != 0) {
            fprintf(stderr, "%s: bad %s (want --shard=I/N with 0 <= I < N)\n", argv[0], argv[i]);
            return 2;
        }
    size_t plan = 0;
    for (size_t i = 0; i < nr_tests; i++)
        if (name_selected(tests[i].name, argc, argv) && in_shard(tests[i].name))
            plan += tests[i].group_fn ? tests[i].count : 1;
    printf("PLAN %zu\n", plan);
    fflush(stdout);
    size_t overflow = 0;
    for (size_t i = 0; i < nr_tests; i++) {
        if (!name_selected(tests[i].name, argc, argv) || !in_shard(tests[i].name))
            continue;
        if (tests[i].group_fn) {
            run_group(&tests[i]);
            if (group_reported > tests[i].count)
                overflow += group_reported - tests[i].count;
        } else {
            run_one(&tests[i]);
        }
    }
    fprintf(stderr, "%s: %zu passed, %zu failed, %zu skipped\n", argc > 0 ? argv[0] : "tests",
            n_passed, n_failed, n_skipped);
    return n_failed || overflow ? 1 : 0;
}
