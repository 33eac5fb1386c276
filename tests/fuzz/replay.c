/*
 * replay.c -- runs a fuzz target without libFuzzer: feeds every file of the
 * directories (or files) given on the command line to
 * LLVMFuzzerTestOneInput, in name order. `make test` links it with each
 * tests/fuzz/fuzz_<name>.c in the sanitizer build, so every corpus input
 * (seeds and the regression inputs of past findings) is replayed under ASan
 * and UBSan on every test run.
 *
 * A target's LLVMFuzzerCustomMutator, if it has one, is exercised too: each
 * input is mutated a few times with fixed seeds and the results are fed to
 * the target, so a mutator that breaks (or a crash one mutation away from a
 * seed) shows up here and not only under `make fuzz`.
 *
 * One test, fuzz_<name>, on the harness of tests/test.h (`# fuzz_<name>: N
 * inputs` says how many ran); a crash is reported by the sanitizer, and
 * tests/run.sh counts the verdict it never printed as a failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* optional hooks of a target (weak: NULL when the target has none) */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
    __attribute__((weak));

enum { MUTATIONS_PER_INPUT = 4, MAX_INPUT = 1 << 22 };

static const char *target_name = "fuzz";
static unsigned long n_inputs, n_mutated;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        test_failf(target_name, "cannot open %s", path);
        return -1;
    }
    /* slack for the mutator: it may grow an input up to max_size */
    uint8_t *buf = malloc(MAX_INPUT * 2);
    size_t n = buf ? fread(buf, 1, MAX_INPUT + 1, f) : 0;
    fclose(f);
    if (!buf || n > MAX_INPUT) {
        test_failf(target_name, "%s: %s", path,
                   buf ? "larger than 4 MiB (keep corpus files small)" : "out of memory");
        free(buf);
        return -1;
    }
    /* an exact-size copy, so ASan sees a read one byte past the input */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    LLVMFuzzerTestOneInput(exact, n);
    n_inputs++;
    if (LLVMFuzzerCustomMutator) {
        for (unsigned k = 0; k < MUTATIONS_PER_INPUT; k++) {
            uint8_t *m = realloc(exact, MAX_INPUT * 2);
            if (!m)
                break;
            exact = m;
            memcpy(exact, buf, n);
            size_t mn = LLVMFuzzerCustomMutator(exact, n, MAX_INPUT * 2, 0x9e3779b9u * (k + 1));
            if (mn > MAX_INPUT * 2) {
                test_failf(target_name, "custom mutator returned %zu bytes > max_size", mn);
                free(exact);
                free(buf);
                return -1;
            }
            uint8_t *t = malloc(mn ? mn : 1);
            if (!t)
                break;
            memcpy(t, exact, mn);
            LLVMFuzzerTestOneInput(t, mn);
            free(t);
            n_mutated++;
        }
    }
    free(exact);
    free(buf);
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        test_failf(target_name, "no such corpus %s", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        test_failf(target_name, "cannot read %s", path);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn) {
                rc = -1;
                break;
            }
            names = nn;
        }
        names[n] = malloc(strlen(path) + strlen(e->d_name) + 2);
        if (!names[n]) {
            rc = -1;
            break;
        }
        sprintf(names[n], "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    /* name order: the same sequence on every machine */
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = run_path(names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

static int corpus_argc;
static char **corpus_argv;

/* The one verdict: every input replayed without a failure. */
static void replay_all(void)
{
    for (int i = 1; i < corpus_argc; i++)
        if (run_path(corpus_argv[i]) != 0)
            return; /* its FAIL verdict is reported */
    if (n_inputs == 0) {
        test_failf(target_name, "empty corpus (every target needs seed inputs)");
        return;
    }
    if (LLVMFuzzerCustomMutator)
        printf("# %s: %lu inputs (+%lu custom mutations)\n", target_name, n_inputs, n_mutated);
    else
        printf("# %s: %lu inputs\n", target_name, n_inputs);
    test_pass(target_name);
}

int main(int argc, char **argv)
{
    const char *slash = strrchr(argv[0], '/');
    target_name = slash ? slash + 1 : argv[0];
    if (argc < 2) {
        /* no PLAN line: tests/run.sh reports the command as failed */
        fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    corpus_argc = argc;
    corpus_argv = argv;
    test_register_group(target_name, replay_all, 1);
    return test_main(1, argv); /* the arguments are corpora, not name filters */
}
