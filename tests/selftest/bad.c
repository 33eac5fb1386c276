/* bad.c -- test programs that misbehave on purpose, one per mode (argv[1]),
 * for tests/selftest/selftest.sh to check that tests/run.sh reports each
 * misbehaviour as a failure instead of as fewer tests. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static void t_pass(void)
{
    CHECK(1 + 1 == 2, "arithmetic");
}

static void t_fail(void)
{
    CHECK(1 + 1 == 3, "deliberate failure");
}

static void t_skip(void)
{
    test_skip("deliberately skipped");
}

static void t_crash(void)
{
    raise(SIGSEGV);
}

static void t_exit(void)
{
    exit(0); /* leaves the rest of the plan unreported, with status 0 */
}

static void t_twice(void)
{
    printf("PASS selftest_twice_extra\n"); /* a verdict the plan does not know */
}

/* A group declaring 3 verdicts that returns after the first. */
static void g_short(void)
{
    test_pass("selftest_group_first");
}

static void case_pass(size_t a, size_t b)
{
    CHECK(a + b == a + b, "case");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "good")) {
        test_register("selftest_pass", t_pass);
        test_register("selftest_pass_again", t_pass);
        test_register("selftest_skip", t_skip);
    } else if (!strcmp(mode, "fail")) {
        test_register("selftest_pass", t_pass);
        test_register("selftest_fail", t_fail);
    } else if (!strcmp(mode, "crash")) {
        test_register("selftest_pass", t_pass);
        test_register("selftest_crash", t_crash);
        test_register("selftest_after_crash", t_pass);
    } else if (!strcmp(mode, "exit")) {
        test_register("selftest_pass", t_pass);
        test_register("selftest_exit", t_exit);
        test_register("selftest_after_exit", t_pass);
    } else if (!strcmp(mode, "twice")) {
        test_register("selftest_twice", t_twice);
    } else if (!strcmp(mode, "group")) {
        test_register_group("selftest_group", g_short, 3);
    } else if (!strcmp(mode, "many")) {
        /* more than the 1024 the old runner had room for */
        for (size_t i = 0; i < 3000; i++) {
            char name[40];
            snprintf(name, sizeof name, "selftest_many_%zu", i);
            test_register_case(name, case_pass, i, 1);
        }
    } else if (!strcmp(mode, "noplan")) {
        printf("PASS selftest_without_harness\n"); /* the old protocol */
        return 0;
    } else {
        fprintf(stderr, "usage: selftest-bad good|fail|crash|exit|twice|group|many|noplan\n");
        return 2;
    }
    return test_main(1, argv);
}
