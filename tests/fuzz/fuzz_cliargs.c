/*
 * fuzz_cliargs.c -- libFuzzer target for the `cryptopim enc` / `dec`
 * argument parser (tools/encdec_args.c over the scanner in tools/cli.c).
 *
 * The input is an argv: NUL-separated strings (the first byte's low bit
 * picks enc or dec).  Only the parsing and checking run -- no crypto, no
 * file I/O (cli_encdec_parse does none).  Besides what the sanitizers catch,
 * the target checks the parser's promises on every input: a success names
 * one of the six algorithms with its key size and has `-` already mapped to
 * NULL, and the -K text does not survive in argv.  Each argument also goes
 * through the environment knobs' decimal parser (cli_parse_decimal), whose
 * successes must be plain decimals in range.
 *
 *   clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -std=c11 \
 *       -D_POSIX_C_SOURCE=200809L -Iinclude -Itools tests/fuzz/fuzz_cliargs.c \
 *       tools/encdec_args.c tools/cli.c build/libcryptopim.a build/libdpu.a -lpthread -lm
 *   ./a.out -close_fd_mask=2 tests/fuzz/corpus/cliargs   (2: the error lines)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int is_alg(const cli_encdec *e)
{
    static const char *const names[] = {"aes-128-ecb", "aes-192-ecb", "aes-256-ecb",
                                        "aes-128-ctr", "aes-192-ctr", "aes-256-ctr",
                                        "aes-128-gcm", "aes-192-gcm", "aes-256-gcm"};
    for (int i = 0; i < 9; i++)
        if (e->alg_name && strcmp(e->alg_name, names[i]) == 0)
            return e->key_len == (size_t)(16 + 8 * (i % 3)) && e->ctr == (i >= 3 && i < 6) &&
                   e->gcm == (i >= 6) && (!e->gcm || e->gcm_iv_len >= 1);
    return 0;
}

/* How many of v[] spell e's key in hex, alone or as the value of "-KHEX" /
 * "--key=HEX". */
static int count_key_texts(char *const *v, int n, const cli_encdec *e)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        const char *s = v[i];
        size_t offs[3] = {0, 0, 0};
        int k = 1;
        if (strncmp(s, "-K", 2) == 0)
            offs[k++] = 2;
        if (strncmp(s, "--key=", 6) == 0)
            offs[k++] = 6;
        for (int j = 0; j < k; j++) {
            uint8_t buf[32];
            const char *t = s + offs[j];
            if (cli_unhex(t, strlen(t), 0, buf, sizeof buf) == (long)e->key_len &&
                memcmp(buf, e->key, e->key_len) == 0) {
                count++;
                break;
            }
        }
    }
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    cpim_dir dir = data[0] & 1 ? CPIM_DECRYPT : CPIM_ENCRYPT;
    data++, size--;
    /* A writable copy, NUL-terminated: the parser wipes the -K text. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 1];
    char *copy[MAX_ARGS]; /* what each argument was, to look for a surviving key */
    int argc = 0;
    for (size_t i = 0; i <= size && argc < MAX_ARGS;) {
        argv[argc] = text + i;
        copy[argc] = strdup(text + i);
        argc++;
        i += strlen(text + i) + 1;
    }
    argv[argc] = NULL;

    cli_encdec e;
    int rc = cli_encdec_parse(&e, argc, argv, dir);
    if (rc != CLI_OK && rc != CLI_USAGE && rc != CLI_ENCDEC_HELP)
        abort();
    if (rc == CLI_OK) {
        if (!is_alg(&e))
            abort(); /* success without a valid algorithm */
        if (e.in_path && strcmp(e.in_path, "-") == 0)
            abort();
        if (e.out_path && strcmp(e.out_path, "-") == 0)
            abort();
    }
    /* The -K text must be wiped from argv once decoded: fewer arguments
     * spell the key after parsing than before (others may legitimately
     * hold the same hex, e.g. an IV or a file name, so only a count works). */
    if (rc == CLI_OK && !e.key_file &&
        count_key_texts(argv, argc, &e) >= count_key_texts(copy, argc, &e))
        abort();
    for (int i = 0; i < argc; i++) {
        (void)cli_quote(copy[i]); /* must not crash on anything */
        /* The knob parser's promise: a success is in range and was spelled
         * with digits and at most one point, nothing else. */
        double v;
        if (cli_parse_decimal("fuzz", copy[i], 0.001, 1e9, &v) == 0) {
            size_t digits = strspn(copy[i], "0123456789."), points = 0;
            for (const char *c = copy[i]; *c; c++)
                points += *c == '.';
            if (copy[i][digits] || points > 1 || !(v >= 0.001 && v <= 1e9))
                abort();
        }
    }
    cpim_wipe(e.key, sizeof e.key);
    for (int i = 0; i < argc; i++)
        free(copy[i]);
    free(text);
    return 0;
}
