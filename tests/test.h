/*
 * test.h -- the one test harness of every C test program (tests/harness.c):
 * the unit tests, the virtual DPU's, its runtime's and soft-float's, the
 * virtual host library's.  It needs nothing but libc.
 *
 * A test is a function declared with TEST(name); it registers itself before
 * main() runs, so no central table needs editing (test_register() does the
 * same by hand, test_register_case() for a parameterised case).  Inside a
 * test, CHECK(cond, fmt, ...) records a failure (and continues); CHECK_MEM(a,
 * b, n, what) compares buffers and prints both in hex on mismatch;
 * test_skip(why) marks it skipped.  A test passes when it recorded no failure.
 *
 * A group (test_register_group) is one function that reports a known number
 * of named verdicts itself with test_pass / test_failf / test_skipf -- for
 * tests that share one expensive set-up, e.g. one verdict per instruction of
 * one built DPU program.  Verdicts it does not report are failures.
 *
 * Each program's main() calls test_main(argc, argv), which prints the
 * protocol tests/run.sh checks:
 *
 *     PLAN <n>                 before any verdict: how many follow
 *     PASS <name>              exactly one line per test ...
 *     FAIL <name>: <why>
 *     SKIP <name>: <why>
 *
 * and returns non-zero if any test failed.  Arguments select the tests whose
 * name starts with one of them: `build/tests/unit aes sha`.  Other lines
 * (`# ...` notes, stderr) are free-form.  run.sh fails a program that prints
 * no plan, fewer or more verdicts than planned (a crash, an exit() in a
 * test), or exits non-zero.
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

/* A group: fn reports exactly `count` verdicts with the three calls below
 * (names are printed as given); missing ones are reported as failures
 * `<group name>.missing<i>`.  A CHECK() inside a group has no verdict of its
 * own: it fills a missing one, or is reported as an extra verdict (which
 * run.sh rejects as more than planned). */
void test_register_group(const char *name, test_fn fn, size_t count);
void test_pass(const char *name);
void test_failf(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void test_skipf(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs the selected tests (see above); returns the exit status. */
int test_main(int argc, char **argv);

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
