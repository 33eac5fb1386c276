/*
 * test.h -- the project's unit-test harness.
 *
 * A test is a function declared with TEST(name) in any tests/test_*.c file; it
 * registers itself before main() runs, so no central table needs editing.
 * Inside a test, CHECK(cond, fmt, ...) records a failure (and continues);
 * CHECK_MEM(a, b, n, what) compares buffers and prints both in hex on
 * mismatch.  A test passes when it recorded no failure.
 *
 * The runner (tests/main.c) prints one line per test, `PASS name` or
 * `FAIL name: reason`, which is the protocol tests/run.sh counts.  It can
 * run a subset: `build/tests/unit aes sha` runs tests whose name starts with
 * one of the arguments.
 */
#ifndef CPIM_TEST_H
#define CPIM_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
/* A parameterised case, registered at start-up (e.g. one per backend and
 * operation): runs fn(a, b) as the test `name` (copied by the harness). */
typedef void (*test_case_fn)(size_t a, size_t b);
void test_register_case(const char *name, test_case_fn fn, size_t a, size_t b);
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int test_mem_eq(const char *file, int line, const void *a, const void *b, size_t n,
                const char *what);
/* Marks the running test as skipped with a reason (e.g. backend unavailable);
 * a skipped test is reported as `SKIP name: reason` and counts as neither. */
void test_skip(const char *reason);

/* Seeded xorshift64* so random inputs are reproducible. */
uint64_t test_rand(uint64_t *state);
void test_fill(uint64_t *state, void *buf, size_t n);

/* Reads a whole file (tests/vectors/...) relative to the project root;
 * returns malloc'd, NUL-terminated text or NULL. */
char *test_read_file(const char *path, size_t *len);
/* Hex helpers: returns decoded length, or -1 on bad hex / too long. */
long test_unhex(const char *hex, uint8_t *out, size_t cap);

#define TEST(name)                                                                                 \
    static void test_##name(void);                                                                 \
    __attribute__((constructor)) static void test_reg_##name(void)                                 \
    {                                                                                              \
        test_register(#name, test_##name);                                                         \
    }                                                                                              \
    static void test_##name(void)

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail(__FILE__, __LINE__, __VA_ARGS__);                                            \
    } while (0)

#define CHECK_MEM(a, b, n, what) test_mem_eq(__FILE__, __LINE__, (a), (b), (n), (what))

#endif /* CPIM_TEST_H */
