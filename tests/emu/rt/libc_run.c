/* libc_run.c -- the DPU libc (emu/dpu-include, emu/rt) against glibc.
 * usage: libc_run DIR (DIR holds dpu_libc.elf, built by emu/rt.mk)
 * [NAME-PREFIX...]. Runs dpu_libc.elf on the virtual DPU and compares its
 * printf output, section by section, with the same code (libc_cases.h) run
 * here on glibc. What glibc does not have, or does otherwise on purpose, is
 * substituted below by the SDK's definitions: strlwr/strupr/strrev, ctype
 * outside ASCII (checked against glibc on ASCII, libc_ctype_reference),
 * strerror's texts, getenv. One verdict per section, plus the reference,
 * exit() and the ABI. Runs on the harness of tests/test.h. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpulog.h"
#include "test.h"
#include "vdpu.h"

/* glibc defines it (BSD), the POSIX feature level does not declare it */
char *strsep(char **stringp, const char *delim);

static const char *dir;

/* ---- the SDK's definitions of what glibc lacks or defines otherwise ---- */

static int ref_isdigit(int c)
{
    return c >= '0' && c <= '9';
}
static int ref_islower(int c)
{
    return c >= 'a' && c <= 'z';
}
static int ref_isupper(int c)
{
    return c >= 'A' && c <= 'Z';
}
static int ref_isalpha(int c)
{
    return ref_islower(c) || ref_isupper(c);
}
static int ref_isalnum(int c)
{
    return ref_isalpha(c) || ref_isdigit(c);
}
static int ref_iscntrl(int c)
{
    return c <= 0x1f || c == 0x7f;
}
static int ref_isprint(int c)
{
    return !ref_iscntrl(c);
}
static int ref_isgraph(int c)
{
    return ref_isprint(c) && c != ' ';
}
static int ref_ispunct(int c)
{
    return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
           (c >= '{' && c <= '~');
}
static int ref_isspace(int c)
{
    return (c >= 0x9 && c <= 0xd) || c == ' ';
}
static int ref_isxdigit(int c)
{
    return ref_isdigit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}
static int ref_isblank(int c)
{
    return c == ' ' || c == '\t';
}
static int ref_tolower(int c)
{
    return ref_isupper(c) ? c + 0x20 : c;
}
static int ref_toupper(int c)
{
    return ref_islower(c) ? c - 0x20 : c;
}

/* The reference above agrees with glibc's C locale on ASCII (0..127), so
 * it is only the SDK's range rules that differ outside it. */
static int ctype_reference_mismatch(void)
{
    for (int c = 0; c < 128; c++) {
        int (*mine[])(int) = {ref_isdigit, ref_islower, ref_isupper,  ref_isalpha,
                              ref_isalnum, ref_iscntrl, ref_isprint,  ref_isgraph,
                              ref_ispunct, ref_isspace, ref_isxdigit, ref_isblank};
        int (*libc[])(int) = {isdigit, islower, isupper, isalpha, isalnum,  iscntrl,
                              isprint, isgraph, ispunct, isspace, isxdigit, isblank};
        for (size_t k = 0; k < sizeof mine / sizeof mine[0]; k++)
            if (mine[k](c) != !!libc[k](c))
                return c * 100 + (int)k + 1;
        if (ref_tolower(c) != tolower(c) || ref_toupper(c) != toupper(c))
            return c * 100 + 99;
    }
    return 0;
}

static char *ref_case(char *s, int (*f)(int))
{
    for (char *p = s; *p; p++)
        *p = (char)f(*p);
    return s;
}
static char *ref_strlwr(char *s)
{
    return ref_case(s, ref_tolower);
}
static char *ref_strupr(char *s)
{
    return ref_case(s, ref_toupper);
}
static char *ref_strrev(char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++) {
        char c = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = c;
    }
    return s;
}
/* the SDK's texts (POSIX's) for the numbers the cases use */
static char *ref_strerror(int e)
{
    switch (e) {
    case 0:
        return "Success";
    case EINVAL:
        return "Invalid argument";
    case ERANGE:
        return "Result too large";
    default:
        errno = EINVAL;
        return "Unknown error";
    }
}

#undef isdigit
#undef islower
#undef isupper
#undef isalpha
#undef isalnum
#undef iscntrl
#undef isprint
#undef isgraph
#undef ispunct
#undef isspace
#undef isxdigit
#undef isblank
#undef tolower
#undef toupper
#define isdigit      ref_isdigit
#define islower      ref_islower
#define isupper      ref_isupper
#define isalpha      ref_isalpha
#define isalnum      ref_isalnum
#define iscntrl      ref_iscntrl
#define isprint      ref_isprint
#define isgraph      ref_isgraph
#define ispunct      ref_ispunct
#define isspace      ref_isspace
#define isxdigit     ref_isxdigit
#define isblank      ref_isblank
#define tolower      ref_tolower
#define toupper      ref_toupper
#define strlwr       ref_strlwr
#define strupr       ref_strupr
#define strrev       ref_strrev
#define strerror     ref_strerror
#define getenv(name) ((void)(name), (char *)NULL)

#include <iso646.h>
#include <stdalign.h>
#include <stdnoreturn.h>

static char want[65536];
static size_t wl;
#define OUT(fmt, ...) wl += (size_t)snprintf(want + wl, sizeof want - wl, fmt "\n", __VA_ARGS__)
/* truncation is what strncat and strncpy are called for there */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#endif
#include "libc_cases.h"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* the section "== name ..." of text: its start and length (NULL if none) */
static const char *section(const char *text, const char *name, size_t *len)
{
    char head[32];
    snprintf(head, sizeof head, "== %s ", name);
    const char *s = strncmp(text, head, strlen(head)) == 0 ? text : NULL;
    if (s == NULL) {
        char nl_head[34];
        snprintf(nl_head, sizeof nl_head, "\n%s", head);
        s = strstr(text, nl_head);
        if (s != NULL)
            s++;
    }
    if (s == NULL)
        return NULL;
    const char *end = strstr(s + 1, "\n== ");
    *len = end ? (size_t)(end + 1 - s) : strlen(s);
    return s;
}

static void compare(const char *verdict, const char *got, const char *name)
{
    size_t gl = 0, el = 0;
    const char *g = section(got, name, &gl), *e = section(want, name, &el);
    if (e == NULL) {
        test_failf(verdict, "the host produced no section %s", name);
        return;
    }
    if (g == NULL) {
        test_failf(verdict, "the DPU printed no section %s", name);
        return;
    }
    if (gl == el && memcmp(g, e, gl) == 0) {
        test_pass(verdict);
        return;
    }
    size_t i = 0;
    while (i < gl && i < el && g[i] == e[i])
        i++;
    size_t line = i;
    while (line > 0 && g[line - 1] != '\n')
        line--;
    test_failf(verdict, "DPU and glibc differ at byte %zu: DPU \"%.60s\" glibc \"%.60s\"", i,
               g + line, e + line);
}

static uint32_t read_u32(vdpu_program_t *prog, vdpu_t *dpu, const char *name)
{
    vdpu_symbol_t s;
    uint32_t v = 0xffffffffu;
    if (vdpu_program_symbol(prog, name, &s) == VDPU_OK && s.mem != VDPU_MEM_MRAM)
        vdpu_wram_read(dpu, s.offset, &v, 4);
    return v;
}

#define NR_VERDICTS 9

static void test_libc(void)
{
    static const char *const names[] = {"ctype", "string", "stdlib", "inttypes", "headers"};
    char path[512], msg[256];
    snprintf(path, sizeof path, "%s/dpu_libc.elf", dir);
    vdpu_program_t *prog = NULL;
    vdpu_t *dpu = NULL;
    vdpu_result_t res;
    char *log = NULL;
    size_t len = 0;
    if (vdpu_program_load_file(path, &prog, msg, sizeof msg) != VDPU_OK ||
        vdpu_create(NULL, &dpu) != VDPU_OK || vdpu_load(dpu, prog) != VDPU_OK ||
        vdpu_run(dpu, &res) != VDPU_OK || res.status != VDPU_STATUS_DONE) {
        test_failf("libc_run", "cannot run %s: %s %s", path, msg,
                   dpu && res.status != VDPU_STATUS_DONE ? res.fault_msg : "");
        goto out;
    }
    FILE *f = open_memstream(&log, &len);
    if (f == NULL || vdpu_log_read(dpu, f) != DPULOG_OK) {
        test_failf("libc_run", "cannot read the DPU's log");
        if (f)
            fclose(f);
        goto out;
    }
    fclose(f);

    libc_cases();
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char verdict[32];
        snprintf(verdict, sizeof verdict, "libc_%s", names[k]);
        compare(verdict, log, names[k]);
    }
    /* the PRI macros through the printf function, which takes argument
     * sizes from the conversions ("l" = 64-bit, as the SDK's) */
    uint64_t big = 18446744073709551557ULL;
    wl += (size_t)snprintf(want + wl, sizeof want - wl,
                           "== plain %" PRIu64 " %" PRId64 " %" PRIx64 " %" PRIX64 " %" PRIo64
                           " %" PRIu32 " %" PRIdPTR " %" PRIuMAX "\n",
                           big, (int64_t)-9000000000000000001LL, big, big, big,
                           (uint32_t)4000000000u, (intptr_t)-3, (uintmax_t)big);
    compare("libc_printf_function", log, "plain");
    /* ILP32 and the limits that follow from it (the DPU has 64-bit long) */
    wl += (size_t)snprintf(want + wl, sizeof want - wl, "== dpu 4 4 4 8 1 32 32\n");
    uint32_t stack = read_u32(prog, dpu, "stack_left"), fl = read_u32(prog, dpu, "float_ok");
    if ((int32_t)stack <= 0 || fl != 1)
        test_failf("libc_abi", "stack words left %d, float.h %u", (int)(int32_t)stack, fl);
    else
        compare("libc_abi", log, "dpu");
    int bad = ctype_reference_mismatch();
    if (bad)
        test_failf("libc_ctype_reference",
                   "the SDK's ctype rules differ from glibc on ASCII: "
                   "char %d, function %d",
                   bad / 100, bad % 100);
    else
        test_pass("libc_ctype_reference");
    if (read_u32(prog, dpu, "after_exit") != 0)
        test_failf("libc_exit", "tasklet 1 ran on after exit()");
    else
        test_pass("libc_exit");
out:
    free(log);
    if (dpu)
        vdpu_free(dpu);
    if (prog)
        vdpu_program_free(prog);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: libc_run DIR [NAME-PREFIX...] (DIR: dpu_libc.elf)\n");
        return 2;
    }
    dir = argv[1];
    test_register_group("libc", test_libc, NR_VERDICTS);
    argv[1] = argv[0];
    return test_main(argc - 1, argv + 1);
}
