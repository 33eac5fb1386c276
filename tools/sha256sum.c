/*
 * sha256sum.c -- `cryptopim sha256sum`: coreutils-compatible output and -c,
 * hashing many files at once through cpim_sha256_batch().
 *
 * Files are read whole into memory and collected into a batch until the
 * batch holds a memory budget's worth of bytes (256 MiB by default; the
 * CRYPTOPIM_BATCH_BYTES environment variable overrides it) or 4096 files;
 * the batch is then hashed in one call, so a backend such as pim sees many
 * messages at once.  A file larger than the budget is hashed in a batch of
 * its own (it is one message: the API has no streaming hash); if it does
 * not fit in memory at all, that file is reported as an error ("Cannot
 * allocate memory") and the others are still hashed.  Nothing is truncated.
 *
 * Results are printed in argument order, each error on stderr at its place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define BATCH_BYTES_DEFAULT (256u << 20)
#define BATCH_FILES_MAX     4096

static const char sha_help[] =
    "usage: cryptopim sha256sum [--backend NAME] [-b | -t | --tag] [FILE...]\n"
    "       cryptopim sha256sum [--backend NAME] -c [--quiet | --status] [--strict] [FILE...]\n"
    "\n"
    "Prints the SHA-256 of each FILE as `HASH  NAME` (standard input when FILE is\n"
    "`-` or absent), or with -c checks the `HASH  NAME` / `HASH *NAME` lines of\n"
    "each FILE, exactly like coreutils sha256sum.  The files are hashed in\n"
    "batches, many messages per call, on the chosen backend (default: auto).\n"
    "\n"
    "  -c, --check        read checksums from the FILEs and check them\n"
    "  -b, --binary       mark names with `*` (no effect on the hash)\n"
    "  -t, --text         no marker (default)\n"
    "  --tag              BSD-style output: `SHA256 (NAME) = HASH`\n"
    "  --quiet            -c: do not print OK lines\n"
    "  --status           -c: print nothing; the exit status tells\n"
    "  --strict           -c: improperly formatted lines are a failure\n"
    "%s"
    "\n"
    "Exit status: 0 all fine, 1 a file could not be read or did not match,\n"
    "2 bad usage (unknown or unavailable backend, bad option).\n";

/* One file to hash (and, with -c, the digest it should have). */
struct item {
    char *name; /* as given; "-" = standard input */
    uint8_t *data;
    size_t len;
    int err;   /* errno of open/read, 0 if read */
    int check; /* -c: expect[] is valid */
    uint8_t expect[32];
};

struct sums {
    cpim_ctx *ctx;
    const char *backend;
    int check, binary, tag, quiet, status, strict;
    size_t budget;
    struct item *items;
    size_t n, cap, bytes;
    /* counters of the current checklist (-c) */
    unsigned long mismatched, unreadable, bad_lines, good_lines, ok_lines;
    int failed; /* any failure: exit status 1 */
};

/* Names with a backslash or a newline are printed escaped, with a leading
 * backslash on the line, as coreutils does. */
static int needs_escape(const char *s)
{
    return strpbrk(s, "\\\n") != NULL;
}

static void put_name(const char *s, int escape)
{
    for (; *s; s++) {
        if (escape && *s == '\\')
            fputs("\\\\", stdout);
        else if (escape && *s == '\n')
            fputs("\\n", stdout);
        else
            putchar(*s);
    }
}

static void put_hex(const uint8_t d[32])
{
    for (int i = 0; i < 32; i++)
        printf("%02x", d[i]);
}

/* Reads a whole file; 0 or an errno. */
static int slurp(const char *name, uint8_t **data, size_t *len)
{
    int is_stdin = strcmp(name, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY);
    if (fd < 0)
        return errno;
    struct stat st;
    size_t cap = 1 << 16;
    if (fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            if (!is_stdin)
                close(fd);
            return EISDIR;
        }
        if (S_ISREG(st.st_mode) && st.st_size > 0)
            cap = (size_t)st.st_size + 1; /* +1: see end of file in one read */
    }
    uint8_t *buf = malloc(cap);
    size_t got = 0;
    int err = buf ? 0 : ENOMEM;
    while (!err) {
        if (got == cap) {
            uint8_t *nb = cap * 2 > cap ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                err = ENOMEM;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            err = errno;
        else if (r == 0)
            break;
        else
            got += (size_t)r;
    }
    if (!is_stdin)
        close(fd);
    if (err) {
        free(buf);
        return err;
    }
    *data = buf;
    *len = got;
    return 0;
}

/* Hashes the collected items in one batch call and prints their results. */
static void flush(struct sums *s)
{
    if (!s->n)
        return;
    const uint8_t **msgs = calloc(s->n, sizeof *msgs);
    size_t *lens = calloc(s->n, sizeof *lens);
    uint8_t(*dig)[32] = calloc(s->n, sizeof *dig);
    cpim_err rc = CPIM_ERR_NOMEM;
    size_t m = 0;
    if (msgs && lens && dig) {
        for (size_t i = 0; i < s->n; i++) {
            if (s->items[i].err)
                continue;
            msgs[m] = s->items[i].data;
            lens[m++] = s->items[i].len;
        }
        rc = cpim_sha256_batch(s->ctx, msgs, lens, m, dig);
    }
    for (size_t i = 0, j = 0; i < s->n; i++) {
        struct item *it = &s->items[i];
        /* as coreutils: hash lines escape names with \ or newline, -c lines
         * only names with a newline */
        int esc = s->check ? strchr(it->name, '\n') != NULL : needs_escape(it->name);
        if (!it->err && rc != CPIM_OK) {
            cli_error("%s: SHA-256 on backend '%s' failed: %s", it->name, s->backend,
                      cpim_strerror(rc));
            s->failed = 1;
            if (s->check && !s->status) {
                put_name(it->name, 0);
                fputs(": FAILED\n", stdout);
            }
            s->mismatched += s->check;
        } else if (it->err) {
            cli_error("%s: %s", it->name, strerror(it->err));
            s->failed = 1;
            if (s->check) {
                s->unreadable++;
                if (!s->status) {
                    if (esc)
                        putchar('\\');
                    put_name(it->name, esc);
                    fputs(": FAILED open or read\n", stdout);
                }
            }
        } else if (s->check) {
            int ok = memcmp(dig[j], it->expect, 32) == 0;
            j++;
            if (!ok) {
                s->mismatched++;
                s->failed = 1;
            } else {
                s->ok_lines++;
            }
            if (!s->status && !(ok && s->quiet)) {
                if (esc)
                    putchar('\\');
                put_name(it->name, esc);
                fputs(ok ? ": OK\n" : ": FAILED\n", stdout);
            }
        } else {
            if (s->tag) {
                if (esc)
                    putchar('\\');
                fputs("SHA256 (", stdout);
                put_name(it->name, esc);
                fputs(") = ", stdout);
                put_hex(dig[j++]);
                putchar('\n');
            } else {
                if (esc)
                    putchar('\\');
                put_hex(dig[j++]);
                fputs(s->binary ? " *" : "  ", stdout);
                put_name(it->name, esc);
                putchar('\n');
            }
        }
        free(it->data);
        free(it->name);
    }
    free(msgs);
    free(lens);
    free(dig);
    s->n = 0;
    s->bytes = 0;
}

/* Adds one file to the batch (flushing first or after as the budget says).
 * Takes ownership of `name` (malloc'd). */
static int add(struct sums *s, char *name, const uint8_t *expect)
{
    struct stat st;
    if (s->n && strcmp(name, "-") != 0 && stat(name, &st) == 0 && S_ISREG(st.st_mode) &&
        s->bytes + (size_t)st.st_size > s->budget)
        flush(s); /* it would overflow the budget: hash what we have first */
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 64;
        struct item *ni = realloc(s->items, nc * sizeof *ni);
        if (!ni) {
            free(name);
            cli_error("out of memory");
            return -1;
        }
        s->items = ni;
        s->cap = nc;
    }
    struct item *it = &s->items[s->n++];
    memset(it, 0, sizeof *it);
    it->name = name;
    if (expect) {
        it->check = 1;
        memcpy(it->expect, expect, 32);
    }
    it->err = slurp(name, &it->data, &it->len);
    if (!it->err)
        s->bytes += it->len;
    if (s->bytes >= s->budget || s->n >= BATCH_FILES_MAX)
        flush(s);
    return 0;
}

/* 64 hex digits at p (not necessarily NUL-terminated after them) -> d. */
static int parse_digest(const char *p, uint8_t d[32])
{
    return strnlen(p, 64) == 64 && cli_unhex(p, 64, 0, d, 32) == 32 ? 0 : -1;
}

/* Undoes the escaping of a name in place; -1 for a bad escape. */
static int unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (*r != '\\') {
            *w++ = *r;
            continue;
        }
        r++;
        if (*r == '\\')
            *w++ = '\\';
        else if (*r == 'n')
            *w++ = '\n';
        else
            return -1;
    }
    *w = '\0';
    return 0;
}

/* Parses one checklist line (newline removed): `HASH  NAME`, `HASH *NAME`
 * or `SHA256 (NAME) = HASH`, optionally after a backslash meaning the name
 * is escaped.  Returns the name (pointing into line) or NULL. */
static char *parse_line(char *line, uint8_t d[32])
{
    int escaped = 0;
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line == '\\') {
        escaped = 1;
        line++;
    }
    char *name;
    if (strncmp(line, "SHA256 (", 8) == 0) {
        char *end = strstr(line, ") = ");
        char *last;
        if (!end)
            return NULL;
        while ((last = strstr(end + 1, ") = ")) != NULL)
            end = last; /* the name may itself contain ") = " */
        if (strlen(end + 4) != 64 || parse_digest(end + 4, d))
            return NULL;
        *end = '\0';
        name = line + 8;
    } else {
        size_t n = strlen(line);
        if (n < 67 || parse_digest(line, d) || line[64] != ' ' ||
            (line[65] != ' ' && line[65] != '*'))
            return NULL;
        name = line + 66;
    }
    if (escaped && unescape(name))
        return NULL;
    return *name ? name : NULL;
}

static void plural_warning(unsigned long n, const char *one, const char *many)
{
    if (n)
        cli_error("WARNING: %lu %s", n, n == 1 ? one : many);
}

/* -c: checks every line of one checklist. */
static void check_list(struct sums *s, const char *list)
{
    int is_stdin = strcmp(list, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(list, "r");
    if (!f) {
        cli_error("%s: %s", list, strerror(errno));
        s->failed = 1;
        return;
    }
    s->mismatched = s->unreadable = s->bad_lines = s->good_lines = s->ok_lines = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        if (line[0] == '#')
            continue; /* comment, as coreutils */
        uint8_t d[32];
        char *name = (size_t)len == strlen(line) ? parse_line(line, d) : NULL;
        if (!name) {
            s->bad_lines++;
            continue;
        }
        s->good_lines++;
        char *copy = strdup(name);
        if (!copy || add(s, copy, d) != 0) {
            s->failed = 1;
            break;
        }
    }
    int rerr = ferror(f) ? errno : 0;
    free(line);
    if (!is_stdin)
        fclose(f);
    flush(s);
    if (rerr) {
        cli_error("%s: read error: %s", list, strerror(rerr));
        s->failed = 1;
        return;
    }
    if (!s->good_lines) {
        cli_error("%s: no properly formatted checksum lines found", list);
        s->failed = 1;
        return;
    }
    if (s->strict && s->bad_lines)
        s->failed = 1;
    if (!s->status) {
        plural_warning(s->bad_lines, "line is improperly formatted",
                       "lines are improperly formatted");
        plural_warning(s->unreadable, "listed file could not be read",
                       "listed files could not be read");
        plural_warning(s->mismatched, "computed checksum did NOT match",
                       "computed checksums did NOT match");
    }
}

/* see cli.h */
int cmd_sha256sum(int argc, char **argv)
{
    struct sums s;
    cli_common c;
    cli_args a;
    const char *opt, *operand;
    memset(&s, 0, sizeof s);
    cli_common_init(&c);
    cli_args_init(&a, argc, argv);
    char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0;
    if (!files) {
        cli_error("out of memory");
        return CLI_USAGE;
    }
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            files[nfiles++] = (char *)operand;
            continue;
        }
        int k = cli_common_option(&c, &a, opt);
        if (k < 0)
            goto usage;
        if (k > 0)
            continue;
        int *flag = NULL;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            printf(sha_help, cli_common_help);
            free(files);
            return CLI_OK;
        } else if (strcmp(opt, "-c") == 0 || strcmp(opt, "--check") == 0) {
            flag = &s.check;
        } else if (strcmp(opt, "-b") == 0 || strcmp(opt, "--binary") == 0) {
            flag = &s.binary;
        } else if (strcmp(opt, "-t") == 0 || strcmp(opt, "--text") == 0) {
            s.binary = 0; /* -t only undoes -b */
            continue;
        } else if (strcmp(opt, "--tag") == 0) {
            flag = &s.tag;
        } else if (strcmp(opt, "--quiet") == 0) {
            flag = &s.quiet;
        } else if (strcmp(opt, "--status") == 0) {
            flag = &s.status;
        } else if (strcmp(opt, "--strict") == 0) {
            flag = &s.strict;
        } else {
            cli_error("sha256sum: unknown option %s (see `cryptopim sha256sum --help`)", opt);
            goto usage;
        }
        if (cli_has_inline_value(&a)) {
            cli_error("sha256sum: option %s takes no value", opt);
            goto usage;
        }
        *flag = 1;
    }
    if (s.check && s.tag) {
        cli_error("sha256sum: --tag makes no sense with --check");
        goto usage;
    }
    if (!s.check && (s.quiet || s.status || s.strict)) {
        cli_error("sha256sum: --quiet, --status and --strict only go with --check");
        goto usage;
    }
    s.backend = c.backend ? c.backend : "auto";
    s.ctx = cli_open(s.backend, &c.opt);
    if (!s.ctx)
        goto usage;
    if (cpim_sha256_batch(s.ctx, NULL, NULL, 0, NULL) == CPIM_ERR_UNSUPPORTED) {
        /* probe with an empty batch, so the error comes once, up front */
        cli_error("sha256sum: backend '%s' does not provide SHA-256", s.backend);
        cpim_close(s.ctx);
        goto usage;
    }
    s.budget = BATCH_BYTES_DEFAULT;
    const char *e = getenv("CRYPTOPIM_BATCH_BYTES");
    if (e && atol(e) > 0)
        s.budget = (size_t)atol(e);
    if (!nfiles)
        files[nfiles++] = "-";
    for (size_t i = 0; i < nfiles; i++) {
        if (s.check) {
            check_list(&s, files[i]);
            continue;
        }
        char *copy = strdup(files[i]);
        if (!copy || add(&s, copy, NULL) != 0) {
            s.failed = 1;
            break;
        }
    }
    flush(&s);
    cpim_close(s.ctx);
    free(s.items);
    free(files);
    return s.failed ? CLI_FAIL : CLI_OK;
usage:
    free(files);
    return CLI_USAGE;
}
