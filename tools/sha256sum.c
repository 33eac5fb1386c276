/*
 * sha256sum.c -- `cryptopim sha256sum`: coreutils-compatible output and -c,
 * hashing many files at once through cpim_sha256_batch().
 *
 * Small files (up to STREAM_MIN bytes) are read whole into memory and
 * collected into a batch until the batch holds a memory budget's worth of
 * bytes (16 MiB by default; the CRYPTOPIM_BATCH_BYTES environment variable
 * overrides it) or 4096 files; the batch is then hashed in one call, so a
 * backend such as pim sees many messages at once.  Larger files, pipes and
 * standard input are *streamed*: each has a cpim_sha256_state and is read
 * in chunks of STREAM_CHUNK bytes, up to STREAM_MAX of them in flight at
 * once, every round of chunks hashed in one cpim_sha256_update_many() call
 * (so several large files fill the lanes and threads together).  Memory
 * stays bounded whatever the file sizes: about budget + STREAM_MAX *
 * STREAM_CHUNK (48 MiB with the defaults).  A backend without streaming
 * (pim, for now) gets whole files instead, as before: a file that does not
 * fit in memory is then an error ("Cannot allocate memory") and the others
 * are still hashed.  Nothing is truncated.
 *
 * Results are printed in argument order, each error on stderr at its place
 * (messages about check-file lines are queued with the files, so stderr
 * keeps coreutils' order too).
 *
 * Options, messages and exit statuses follow coreutils 9.1 sha256sum
 * (tests/cli_sha256sum.sh diffs both on tests/sha256sum/), with `cryptopim`
 * in place of `sha256sum` at the start of each stderr line.  The only
 * additions are the backend options, -h, and one more failure: a backend
 * that fails to hash is an error naming the backend and the failure, never
 * a checksum mismatch.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkfile.h"
#include "cli.h"

#define BATCH_BYTES_DEFAULT (16u << 20)
#define BATCH_FILES_MAX     4096
#define STREAM_MIN          (1u << 20) /* larger regular files are streamed */
#define STREAM_CHUNK        (2u << 20) /* bytes read per stream and round */
#define STREAM_MAX          16         /* streams in flight in one batch */

static const char sha_help[] =
    "usage: cryptopim sha256sum [OPTION]... [FILE]...\n"
    "\n"
    "Prints or checks SHA-256 checksums, exactly like coreutils sha256sum: the\n"
    "same output, messages (with `cryptopim:` in front) and exit status.  With\n"
    "no FILE, or when FILE is -, reads standard input.  The files are hashed in\n"
    "batches, many messages per call, on the chosen backend (default: auto).\n"
    "\n"
    "  -b, --binary          mark names with `*` (no effect on the hash)\n"
    "  -c, --check           read checksums from the FILEs and check them\n"
    "      --tag             create a BSD-style checksum: `SHA256 (NAME) = HASH`\n"
    "  -t, --text            no marker (default)\n"
    "  -z, --zero            end each output line with NUL, not newline,\n"
    "                          and disable file name escaping\n"
    "\n"
    "Only with --check:\n"
    "      --ignore-missing  don't fail or report status for missing files\n"
    "      --quiet           don't print OK for each successfully verified file\n"
    "      --status          don't output anything, status code shows success\n"
    "      --strict          exit non-zero for improperly formatted checksum lines\n"
    "  -w, --warn            warn about improperly formatted checksum lines\n"
    "\n"
    "Check lines: `HASH  NAME`, `HASH *NAME`, `HASH NAME`, `HASH<TAB>NAME`,\n"
    "`SHA256 (NAME) = HASH` and `SHA256(NAME)= HASH`; CRLF line ends; a leading\n"
    "`\\` when NAME is escaped (\\\\, \\n, \\r); `#` comments; blank lines.\n"
    "\n"
    "Backend options:\n"
    "%s"
    "\n"
    "Exit status: 0 all fine; 1 a file could not be read or did not match, a\n"
    "check file had no valid line, a backend failed, or a misused option (as\n"
    "coreutils); 2 a bad backend option (unknown or unavailable backend, bad\n"
    "value).\n";

/* One entry of the batch: a file to hash (and, with -c, the digest it
 * should have), or a queued message about a check-file line. */
struct item {
    char *name; /* as given; "-" = standard input; NULL for a message */
    char *msg;  /* a message for stderr, printed in its place */
    uint8_t *data;
    size_t len;
    int err; /* errno of open/read, 0 if read */
    uint8_t expect[32];
    /* streamed: the open file (until hashed), its state, its digest */
    int streamed;
    int fd; /* -1 when not streamed or done */
    int eof;
    cpim_sha256_state st;
    uint8_t digest[32];
};

struct sums {
    cpim_ctx *ctx;
    const char *backend;
    /* options, as coreutils: binary -1 = not given; the last of --status,
     * --warn and --quiet wins */
    int check, binary, tag, zero, ignore_missing, quiet, status, warn, strict;
    size_t budget;
    int can_stream; /* the backend has the streaming API */
    struct item *items;
    size_t n, cap, bytes, nstreams;
    uint8_t *chunks;   /* STREAM_MAX * STREAM_CHUNK, allocated on first use */
    sum_parser parser; /* kept across check files, as coreutils does */
    /* counters of the current check file (-c) */
    unsigned long long mismatched, unreadable, bad_lines;
    int matched;
    int failed;         /* any failure: exit status 1 */
    int backend_failed; /* stop: the backend could not hash */
};

/* cli_error with the name quoted the way coreutils quotes it. */
static void name_error(const char *name, const char *what)
{
    char *q = sum_quote(name);
    cli_error("%s: %s", q ? q : name, what);
    free(q);
}

static void put_name(const char *s, int escape)
{
    for (; *s; s++) {
        if (escape && (*s == '\\' || *s == '\n' || *s == '\r')) {
            putchar('\\');
            putchar(*s == '\\' ? '\\' : *s == '\n' ? 'n' : 'r');
        } else {
            putchar(*s);
        }
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

/* -c: the result line of one file.  coreutils escapes a name here only when
 * it holds a newline (not for a lone backslash, unlike the hash lines). */
static void put_check_result(const char *name, const char *verdict)
{
    int esc = strchr(name, '\n') != NULL;
    if (esc)
        putchar('\\');
    put_name(name, esc);
    printf(": %s\n", verdict);
}

static void put_sum(const struct sums *s, const char *name, const uint8_t d[32])
{
    int esc = !s->zero && sum_name_needs_escape(name);
    if (esc)
        putchar('\\');
    if (s->tag) {
        fputs("SHA256 (", stdout);
        put_name(name, esc);
        fputs(") = ", stdout);
        put_hex(d);
    } else {
        put_hex(d);
        putchar(' ');
        putchar(s->binary > 0 ? '*' : ' ');
        put_name(name, esc);
    }
    putchar(s->zero ? '\0' : '\n');
}

static void stream_close(struct item *it)
{
    if (it->fd > STDIN_FILENO)
        close(it->fd);
    it->fd = -1;
}

/* Hashes the streamed items of the batch: rounds of one chunk per stream,
 * each round one cpim_sha256_update_many() call, then one final_many.  A
 * stream that cannot be read gets its errno (reported at its place). */
static cpim_err hash_streams(struct sums *s, size_t *nstreamed)
{
    size_t k = 0;
    struct item *live[STREAM_MAX];
    cpim_sha256_state *st[STREAM_MAX];
    const uint8_t *p[STREAM_MAX];
    size_t n[STREAM_MAX];
    uint8_t dig[STREAM_MAX][32];
    for (size_t i = 0; i < s->n && k < STREAM_MAX; i++)
        if (s->items[i].fd >= 0 && !s->items[i].err)
            live[k++] = &s->items[i];
    *nstreamed = k;
    if (!k)
        return CPIM_OK;
    if (!s->chunks && !(s->chunks = malloc((size_t)STREAM_MAX * STREAM_CHUNK)))
        return CPIM_ERR_NOMEM;
    cpim_err rc = CPIM_OK;
    for (int more = 1; more && rc == CPIM_OK;) {
        size_t m = 0;
        more = 0;
        for (size_t j = 0; j < k; j++) {
            struct item *it = live[j];
            if (it->err || it->eof)
                continue;
            uint8_t *buf = s->chunks + j * (size_t)STREAM_CHUNK;
            long r = cli_read_full(it->fd, buf, STREAM_CHUNK);
            if (r < 0) {
                it->err = errno;
                stream_close(it);
                continue;
            }
            it->eof = (size_t)r < STREAM_CHUNK;
            more |= !it->eof;
            st[m] = &it->st, p[m] = buf, n[m++] = (size_t)r;
        }
        if (m)
            rc = cpim_sha256_update_many(s->ctx, st, p, n, m);
    }
    size_t m = 0;
    for (size_t j = 0; j < k; j++)
        if (!live[j]->err)
            st[m++] = &live[j]->st;
    if (rc == CPIM_OK && m)
        rc = cpim_sha256_final_many(s->ctx, st, m, dig);
    for (size_t j = 0, d = 0; j < k; j++) {
        stream_close(live[j]);
        if (rc == CPIM_OK && !live[j]->err)
            memcpy(live[j]->digest, dig[d++], 32);
    }
    return rc;
}

/* Hashes the collected items (whole files in one batch call, streamed
 * ones in rounds) and prints their results in order. */
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
            if (s->items[i].msg || s->items[i].err || s->items[i].streamed)
                continue;
            msgs[m] = s->items[i].data;
            lens[m++] = s->items[i].len;
        }
        rc = m ? cpim_sha256_batch(s->ctx, msgs, lens, m, dig) : CPIM_OK;
    }
    if (rc == CPIM_OK) {
        size_t k;
        rc = hash_streams(s, &k);
        m += k;
    }
    if (rc != CPIM_OK) {
        /* Not a mismatch: nothing was compared.  One error for the batch,
         * then stop (a faulted backend is not trusted with the rest). */
        cli_error("SHA-256 of %zu file%s on backend '%s' failed: %s", m, m == 1 ? "" : "s",
                  s->backend, cpim_strerror(rc));
        s->failed = 1;
        s->backend_failed = 1;
    }
    for (size_t i = 0, j = 0; i < s->n; i++) {
        struct item *it = &s->items[i];
        if (it->msg) {
            cli_error("%s", it->msg);
        } else if (it->err) {
            if (s->check && s->ignore_missing && it->err == ENOENT && strcmp(it->name, "-") != 0) {
                /* --ignore-missing: as if the line were not there */
            } else {
                name_error(it->name, strerror(it->err));
                if (!s->check) {
                    s->failed = 1;
                } else {
                    s->unreadable++;
                    if (!s->status)
                        put_check_result(it->name, "FAILED open or read");
                }
            }
        } else if (rc != CPIM_OK) {
            /* reported above */
        } else if (s->check) {
            const uint8_t *d = it->streamed ? it->digest : dig[j++];
            int ok = memcmp(d, it->expect, 32) == 0;
            if (ok)
                s->matched = 1;
            else
                s->mismatched++;
            if (!s->status && !(ok && s->quiet))
                put_check_result(it->name, ok ? "OK" : "FAILED");
        } else {
            put_sum(s, it->name, it->streamed ? it->digest : dig[j++]);
        }
        stream_close(it);
        free(it->data);
        free(it->name);
        free(it->msg);
    }
    free(msgs);
    free(lens);
    free(dig);
    s->n = 0;
    s->bytes = 0;
    s->nstreams = 0;
}

static struct item *new_item(struct sums *s)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 64;
        struct item *ni = realloc(s->items, nc * sizeof *ni);
        if (!ni)
            return NULL;
        s->items = ni;
        s->cap = nc;
    }
    struct item *it = &s->items[s->n++];
    memset(it, 0, sizeof *it);
    it->fd = -1;
    return it;
}

/* Opens a file to be streamed: 0 and it->fd, or an errno. */
static int stream_open(struct item *it)
{
    int is_stdin = strcmp(it->name, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(it->name, O_RDONLY);
    if (fd < 0)
        return errno;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            close(fd);
        return EISDIR;
    }
    it->fd = fd;
    return 0;
}

/* Adds one file to the batch (flushing first or after as the budget says).
 * Takes ownership of `name` (malloc'd). */
static int add(struct sums *s, char *name, const uint8_t *expect)
{
    struct stat st;
    int is_stdin = strcmp(name, "-") == 0;
    int have_st = !is_stdin && stat(name, &st) == 0;
    /* streamed: standard input, pipes and devices, regular files above
     * STREAM_MIN (directories and missing files take the whole-file path,
     * whose open gives coreutils' errors) */
    int stream = s->can_stream &&
                 (is_stdin || (have_st && !S_ISDIR(st.st_mode) &&
                               (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > STREAM_MIN)));
    if (s->n &&
        (stream ? s->nstreams >= STREAM_MAX
                : have_st && S_ISREG(st.st_mode) && s->bytes + (size_t)st.st_size > s->budget))
        flush(s); /* it would overflow the budget: hash what we have first */
    struct item *it = new_item(s);
    if (!it) {
        free(name);
        cli_error("out of memory");
        return -1;
    }
    it->name = name;
    if (expect)
        memcpy(it->expect, expect, 32);
    if (stream) {
        it->streamed = 1;
        it->err = stream_open(it);
        if (!it->err) {
            cpim_sha256_init(&it->st);
            s->nstreams++;
        }
        /* standard input is read to its end now: with -c the check list
         * may come from it too, and coreutils reads the file at this point */
        if (is_stdin)
            flush(s);
        return 0;
    }
    it->err = slurp(name, &it->data, &it->len);
    if (!it->err)
        s->bytes += it->len;
    if (s->bytes >= s->budget || s->n >= BATCH_FILES_MAX)
        flush(s);
    return 0;
}

/* Queues a message for stderr behind the files already in the batch. */
static int add_msg(struct sums *s, const char *list, unsigned long long line)
{
    char *q = sum_quote(list);
    size_t n = (q ? strlen(q) : 0) + 80;
    char *msg = malloc(n);
    struct item *it = msg && q ? new_item(s) : NULL;
    if (!it) {
        free(q);
        free(msg);
        cli_error("out of memory");
        return -1;
    }
    snprintf(msg, n, "%s: %llu: improperly formatted SHA256 checksum line", q, line);
    free(q);
    it->msg = msg;
    return 0;
}

static void plural_warning(unsigned long long n, const char *one, const char *many)
{
    if (n)
        cli_error("WARNING: %llu %s", n, n == 1 ? one : many);
}

/* -c: checks every line of one check file; as coreutils' digest_check(). */
static void check_list(struct sums *s, const char *list)
{
    int is_stdin = strcmp(list, "-") == 0;
    const char *shown = is_stdin ? "standard input" : list;
    FILE *f = is_stdin ? stdin : fopen(list, "r");
    if (!f) {
        name_error(list, strerror(errno));
        s->failed = 1;
        return;
    }
    s->mismatched = s->unreadable = s->bad_lines = 0;
    s->matched = 0;
    int proper = 0, oom = 0;
    unsigned long long line_no = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (!s->backend_failed && (len = getline(&line, &cap, f)) > 0) {
        line_no++;
        sum_line sl;
        int kind = sum_check_line(&s->parser, line, (size_t)len, is_stdin, &sl);
        if (kind == SUM_LINE_SKIP)
            continue;
        if (kind == SUM_LINE_BAD) {
            s->bad_lines++;
            if (s->warn && add_msg(s, shown, line_no) != 0) {
                oom = 1;
                break;
            }
            continue;
        }
        proper = 1;
        char *copy = strdup(sl.name);
        if (!copy || add(s, copy, sl.digest) != 0) {
            oom = 1;
            break;
        }
    }
    int rerr = ferror(f);
    free(line);
    if (is_stdin)
        clearerr(f);
    else
        fclose(f);
    flush(s);
    if (oom || s->backend_failed) {
        s->failed = 1;
        return; /* already reported; a summary would count a partial run */
    }
    if (rerr) {
        /* coreutils: `NAME: read error` without the errno text */
        name_error(shown, "read error");
        s->failed = 1;
        return;
    }
    if (!proper) {
        name_error(shown, "no properly formatted checksum lines found");
        s->failed = 1;
        return;
    }
    if (!s->status) {
        plural_warning(s->bad_lines, "line is improperly formatted",
                       "lines are improperly formatted");
        plural_warning(s->unreadable, "listed file could not be read",
                       "listed files could not be read");
        plural_warning(s->mismatched, "computed checksum did NOT match",
                       "computed checksums did NOT match");
        if (s->ignore_missing && !s->matched)
            name_error(shown, "no file was verified");
    }
    if (!s->matched || s->mismatched || s->unreadable || (s->strict && s->bad_lines))
        s->failed = 1;
}

/* ---- options ----------------------------------------------------------------
 * GNU getopt_long's rules, as coreutils gets them: options anywhere among
 * the operands, `--` ends them, bundled short flags (`-cw`), unambiguous
 * abbreviations of long ones (`--stat`), and getopt's messages.  cli_next()
 * has none of the first three, so this command scans its own arguments and
 * hands only the backend options (all `--name VALUE`) to cli_common_option().
 */
enum {
    OPT_IGNORE_MISSING = 256,
    OPT_QUIET,
    OPT_STATUS,
    OPT_STRICT,
    OPT_TAG,
    OPT_HELP,
    OPT_VERSION,
    OPT_COMMON, /* a backend option: takes a value */
};

/* In coreutils' order, so that an ambiguity lists the same possibilities;
 * then every option cli_common_option() knows (a new one there must be
 * added here too, or sha256sum calls it unrecognized). */
static const struct longopt {
    const char *name;
    int id;
} longopts[] = {
    {"check", 'c'},
    {"ignore-missing", OPT_IGNORE_MISSING},
    {"quiet", OPT_QUIET},
    {"status", OPT_STATUS},
    {"warn", 'w'},
    {"strict", OPT_STRICT},
    {"tag", OPT_TAG},
    {"zero", 'z'},
    {"binary", 'b'},
    {"text", 't'},
    {"help", OPT_HELP},
    {"version", OPT_VERSION},
    {"backend", OPT_COMMON},
    {"threads", OPT_COMMON},
    {"dpus", OPT_COMMON},
    {"ranks", OPT_COMMON},
    {"tasklets", OPT_COMMON},
    {"mode", OPT_COMMON},
    {"pim-profile", OPT_COMMON},
};
#define NLONGOPTS (sizeof longopts / sizeof longopts[0])

/* A misused option: getopt's or coreutils' message and the hint; coreutils
 * exits 1 for these. */
static int usage_error(const char *fmt, const char *arg)
{
    fflush(stdout);
    fputs(CLI_NAME ": ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry '" CLI_NAME " sha256sum --help' for more information.\n", stderr);
    return CLI_FAIL;
}

/* The coreutils options come first in longopts[]; the backend ones after. */
#define NCOREUTILS_OPTS 12

/* Finds `--NAME` (NAME of length n) exactly or as the prefix of one option
 * among longopts[lo, hi).  Returns its index, -1 unknown, -2 ambiguous
 * (message printed). */
static int find_in(const char *arg, size_t n, size_t lo, size_t hi)
{
    int found = -1, count = 0;
    for (size_t i = lo; i < hi; i++) {
        if (strncmp(longopts[i].name, arg + 2, n) != 0)
            continue;
        if (strlen(longopts[i].name) == n)
            return (int)i;
        if (count++ == 0)
            found = (int)i;
    }
    if (count <= 1)
        return found;
    fflush(stdout);
    fprintf(stderr, CLI_NAME ": option '%.*s' is ambiguous; possibilities:", (int)n + 2, arg);
    for (size_t i = lo; i < hi; i++)
        if (strncmp(longopts[i].name, arg + 2, n) == 0)
            fprintf(stderr, " '--%s'", longopts[i].name);
    fputs("\nTry '" CLI_NAME " sha256sum --help' for more information.\n", stderr);
    return -2;
}

/* Abbreviations resolve among coreutils' own options first, so that `--ta`
 * is --tag and `--t` is ambiguous between --tag and --text exactly as in
 * coreutils; only a name none of them starts with can be a backend option
 * (`--tas` = --tasklets). */
static int find_long(const char *arg, size_t n)
{
    int k = find_in(arg, n, 0, NCOREUTILS_OPTS);
    return k == -1 ? find_in(arg, n, NCOREUTILS_OPTS, NLONGOPTS) : k;
}

/* Applies one flag; 1 if it was --help or --version (done, exit 0). */
static int set_flag(struct sums *s, int id)
{
    switch (id) {
    case 'b':
        s->binary = 1;
        break;
    case 't':
        s->binary = 0;
        break;
    case 'c':
        s->check = 1;
        break;
    case 'z':
        s->zero = 1;
        break;
    case 'w':
        s->warn = 1, s->status = 0, s->quiet = 0;
        break;
    case OPT_STATUS:
        s->status = 1, s->warn = 0, s->quiet = 0;
        break;
    case OPT_QUIET:
        s->quiet = 1, s->warn = 0, s->status = 0;
        break;
    case OPT_STRICT:
        s->strict = 1;
        break;
    case OPT_IGNORE_MISSING:
        s->ignore_missing = 1;
        break;
    case OPT_TAG:
        s->tag = 1;
        s->binary = 1; /* coreutils: so `--tag -t` is refused, `-t --tag` not */
        break;
    case OPT_HELP:
        printf(sha_help, cli_common_help);
        return 1;
    case OPT_VERSION:
        printf("%s %s\n", CLI_NAME, CLI_VERSION);
        return 1;
    }
    return 0;
}

/* The option combinations coreutils refuses, in its order; 0 if none. */
static const char *bad_combination(const struct sums *s)
{
    if (s->tag && !s->binary)
        return "--tag does not support --text mode";
    if (s->zero && s->check)
        return "the --zero option is not supported when verifying checksums";
    if (s->tag && s->check)
        return "the --tag option is meaningless when verifying checksums";
    if (s->binary >= 0 && s->check)
        return "the --binary and --text options are meaningless when verifying checksums";
    const char *only_check = s->ignore_missing ? "--ignore-missing"
                             : s->status       ? "--status"
                             : s->warn         ? "--warn"
                             : s->quiet        ? "--quiet"
                             : s->strict       ? "--strict"
                                               : NULL;
    if (only_check && !s->check) {
        static char msg[96];
        snprintf(msg, sizeof msg, "the %s option is meaningful only when verifying checksums",
                 only_check);
        return msg;
    }
    return NULL;
}

/* Scans argv into s, files[] and the backend options.  Returns -1 to go on,
 * else the exit status. */
static int parse_args(struct sums *s, cli_common *c, int argc, char **argv, char **files,
                      size_t *nfiles)
{
    char **common = calloc((size_t)argc + 1, sizeof *common);
    int ncommon = 0, only_operands = 0, rc = -1;
    if (!common) {
        cli_error("out of memory");
        return CLI_USAGE;
    }
    for (int i = 0; i < argc && rc < 0; i++) {
        char *arg = argv[i];
        if (only_operands || arg[0] != '-' || arg[1] == '\0') {
            files[(*nfiles)++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            only_operands = 1;
        } else if (arg[1] == '-') {
            const char *eq = strchr(arg, '=');
            size_t n = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
            int k = find_long(arg, n);
            if (k == -2) {
                rc = CLI_FAIL;
            } else if (k < 0) {
                rc = usage_error("unrecognized option '%s'", arg);
            } else if (longopts[k].id == OPT_COMMON) {
                /* normalised to `--name VALUE` for cli_common_option() */
                static char names[NLONGOPTS][16];
                snprintf(names[k], sizeof names[k], "--%s", longopts[k].name);
                if (!eq && i + 1 >= argc) {
                    char opt[24];
                    snprintf(opt, sizeof opt, "--%s", longopts[k].name);
                    rc = usage_error("option '%s' requires an argument", opt);
                } else {
                    common[ncommon++] = names[k];
                    common[ncommon++] = eq ? (char *)eq + 1 : argv[++i];
                }
            } else if (eq) {
                char opt[24];
                snprintf(opt, sizeof opt, "--%s", longopts[k].name);
                rc = usage_error("option '%s' doesn't allow an argument", opt);
            } else if (set_flag(s, longopts[k].id)) {
                rc = CLI_OK;
            }
        } else {
            for (const char *p = arg + 1; *p && rc < 0; p++) {
                if (*p == 'h') {
                    rc = set_flag(s, OPT_HELP) ? CLI_OK : rc; /* a cryptopim habit */
                } else if (strchr("bctwz", *p)) {
                    set_flag(s, *p);
                } else {
                    char bad[2] = {*p, '\0'};
                    rc = usage_error("invalid option -- '%s'", bad);
                }
            }
        }
    }
    if (rc < 0) {
        const char *why = bad_combination(s);
        if (why)
            rc = usage_error("%s", why);
    }
    if (rc < 0) {
        cli_args a;
        const char *opt, *operand;
        cli_args_init(&a, ncommon, common);
        while (rc < 0 && cli_next(&a, &opt, &operand))
            if (cli_common_option(c, &a, opt) < 0)
                rc = CLI_USAGE;
    }
    free(common);
    return rc;
}

/* see cli.h */
int cmd_sha256sum(int argc, char **argv)
{
    struct sums s;
    cli_common c;
    memset(&s, 0, sizeof s);
    s.binary = -1;
    sum_parser_init(&s.parser);
    cli_common_init(&c);
    /* names in messages are quoted by what the locale can print, as in
     * coreutils (which sets the whole locale; only LC_CTYPE matters here) */
    setlocale(LC_CTYPE, "");
    char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0;
    if (!files) {
        cli_error("out of memory");
        return CLI_USAGE;
    }
    int rc = parse_args(&s, &c, argc, argv, files, &nfiles);
    if (rc >= 0) {
        free(files);
        return rc;
    }
    s.backend = c.backend ? c.backend : "auto";
    s.ctx = cli_open(s.backend, &c.opt);
    if (!s.ctx) {
        free(files);
        return CLI_USAGE;
    }
    if (cpim_sha256_batch(s.ctx, NULL, NULL, 0, NULL) == CPIM_ERR_UNSUPPORTED) {
        /* probe with an empty batch, so the error comes once, up front */
        cli_error("sha256sum: backend '%s' does not provide SHA-256", s.backend);
        cpim_close(s.ctx);
        free(files);
        return CLI_USAGE;
    }
    {
        /* does the backend stream?  (an update of 0 bytes changes nothing) */
        cpim_sha256_state probe;
        cpim_sha256_init(&probe);
        s.can_stream = cpim_sha256_update(s.ctx, &probe, NULL, 0) == CPIM_OK;
    }
    s.budget = BATCH_BYTES_DEFAULT;
    const char *e = getenv("CRYPTOPIM_BATCH_BYTES");
    if (e && atol(e) > 0)
        s.budget = (size_t)atol(e);
    if (!nfiles)
        files[nfiles++] = "-";
    for (size_t i = 0; i < nfiles && !s.backend_failed; i++) {
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
    free(s.chunks);
    free(files);
    return s.failed ? CLI_FAIL : CLI_OK;
}
