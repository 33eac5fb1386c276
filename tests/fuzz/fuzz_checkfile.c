/*
 * fuzz_checkfile.c -- libFuzzer target for the check-file parser of
 * `cryptopim sha256sum -c` (tools/checkfile.c): the input bytes are the
 * contents of a check file, split into lines as getline() would, each line
 * parsed with the state carried between lines as the CLI does; every name
 * that comes out is also escaped and quoted as the CLI would print it.
 * Nothing is hashed and no file is opened.
 *
 * Seed corpus: tests/fuzz/corpus/checkfile/ (the odd check files of
 * tests/sha256sum/).  By hand:
 *   clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -Itools \
 *       tests/fuzz/fuzz_checkfile.c -o fuzz_checkfile
 *   ./fuzz_checkfile -max_total_time=120 tests/fuzz/corpus/checkfile
 */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The parser is compiled into the target itself, so the target needs no
 * object of the CLI (whose other files pull in the backends and main()). */
#include "../../tools/checkfile.c"

/* The parser's promises, checked on every line: abort() makes a broken one
 * a finding. */
static void check_line(sum_parser *p, const uint8_t *data, size_t len, int from_stdin)
{
    /* getline's buffer: the line, then a NUL the parser may overwrite */
    char *line = malloc(len + 1);
    if (!line)
        return;
    memcpy(line, data, len);
    line[len] = '\0';
    sum_line out;
    memset(&out, 0, sizeof out);
    int kind = sum_check_line(p, line, len, from_stdin, &out);
    if (kind != SUM_LINE_SKIP && kind != SUM_LINE_OK && kind != SUM_LINE_BAD)
        abort();
    if (p->bsd_reversed < -1 || p->bsd_reversed > 1)
        abort();
    if (kind == SUM_LINE_OK) {
        /* the name lies inside the line and ends there */
        if (out.name < line || out.name > line + len)
            abort();
        size_t n = strlen(out.name);
        if (out.name + n > line + len)
            abort();
        if (from_stdin && strcmp(out.name, "-") == 0)
            abort();
        char *esc = malloc(2 * n + 1);
        if (esc) {
            size_t m = sum_escape_name(out.name, sum_name_needs_escape(out.name), esc);
            if (m != strlen(esc) || m < n)
                abort();
            free(esc);
        }
        char *q = sum_quote(out.name);
        if (q && strlen(q) < n)
            abort();
        free(q);
    }
    free(line);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A UTF-8 locale where there is one, so sum_quote() takes its multibyte
 * path (the CLI quotes by the user's LC_CTYPE); the C locale otherwise. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        setlocale(LC_CTYPE, "C");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sum_parser p;
    sum_parser_init(&p);
    /* the first byte also picks "check file is standard input" */
    int from_stdin = size && (data[0] & 1);
    size_t start = 0;
    for (size_t i = 0; i < size; i++) {
        if (data[i] == '\n') {
            check_line(&p, data + start, i + 1 - start, from_stdin);
            start = i + 1;
        }
    }
    if (start < size)
        check_line(&p, data + start, size - start, from_stdin);
    return 0;
}
