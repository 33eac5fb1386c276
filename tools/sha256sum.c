/*
 * sha256sum.c -- `cryptopim sha256sum`: coreutils-compatible output and -c,
 * many files hashed at once, reads overlapped with hashing, in constant
 * memory.
 *
 * Two threads and a pipeline between them.  The *reader* (the calling
 * thread) does all the file I/O in coreutils' order: it walks the operands
 * (or, with -c, the check-file lines), opens each file and reads it, and
 * queues what it read.  The *hasher* (a second thread) makes every backend
 * call and prints every result and message, in argument order.  So reading
 * file k+1 overlaps hashing file k, and the library stays free of I/O.
 *
 * The files are taken in *groups* (up to 4096 files): small regular files
 * (up to STREAM_MIN bytes, and less than a slab) are read whole into the
 * group's *slab* (one buffer, files back to back) and hashed in one
 * cpim_sha256_batch() call when the group closes; larger files, pipes and
 * standard input are *streamed* -- up to STREAM_MAX of them per group, each
 * read in rounds, a round being one slab split evenly over the group's
 * unfinished streams and hashed with one cpim_sha256_update_many() call (so
 * several large files fill the SIMD lanes, threads or DPUs together).  A
 * group closes when its slab is full, its file or stream count is reached,
 * at standard input (read to its end there, as coreutils does) and at the
 * end of each check file.
 *
 * Memory is bounded whatever the file sizes: NSLABS slabs of half the
 * backend's chunk (512 KiB, pim 4 MiB; the CRYPTOPIM_BATCH_BYTES environment variable
 * sets another size, 4096 to 2^30, anything else refused) cycle between the two threads, and at
 * most QUEUE_MAX jobs (each at most one group of files) wait for the
 * hasher.  A backend without the streaming API gets whole files instead
 * (malloc'd, as before: a file that does not fit in memory is then an
 * error, "Cannot allocate memory", and the others are still hashed).
 * Nothing is truncated.
 *
 * Options, messages and exit statuses follow coreutils 9.1 sha256sum
 * (tests/cli_sha256sum.sh diffs both on tests/sha256sum/), with `cryptopim`
 * in place of `sha256sum` at the start of each stderr line.  The only
 * additions are the backend options, -h, and one more failure: a backend
 * that fails to hash is an error naming the backend and the failure, never
 * a checksum mismatch; nothing after that group is printed.
 */
#define _GNU_SOURCE /* pthread with -std=c11 */
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkfile.h"
#include "cli.h"
#include "sumout.h"
#include "sums.h"

static const char sha_help[] =
    "usage: cryptopim sha256sum [OPTION]... [FILE]...\n"
    "\n"
    "Prints or checks SHA-256 checksums, exactly like coreutils sha256sum: the\n"
    "same output, messages (with `cryptopim:` in front) and exit status.  With\n"
    "no FILE, or when FILE is -, reads standard input.  The files are hashed in\n"
    "batches, many messages per call, on the chosen backend (default: auto),\n"
    "while the next ones are read; large files are streamed in constant memory.\n"
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
    s.slab_size = cpim_backend_chunk(s.backend) / 2;
    uint64_t budget;
    int got = cli_env_u64("CRYPTOPIM_BATCH_BYTES", SLAB_MIN, SLAB_MAX, &budget);
    if (got < 0) {
        cpim_close(s.ctx);
        free(files);
        return CLI_USAGE;
    }
    if (got)
        s.slab_size = (size_t)budget;
    s.small_max = s.slab_size - 1 < STREAM_MIN ? s.slab_size - 1 : STREAM_MIN;
    /* many result lines: one write per 64 KiB, not per 4 KiB (a terminal
     * keeps its line buffering) */
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.to_reader, NULL);
    pthread_cond_init(&s.to_hasher, NULL);
    pthread_t tid;
    s.threaded = pthread_create(&tid, NULL, sums_hasher, &s) == 0;
    if (!nfiles)
        files[nfiles++] = "-";
    for (size_t i = 0; i < nfiles && !sums_stopped(&s); i++) {
        if (s.check) {
            sums_check_list(&s, files[i]);
            continue;
        }
        char *copy = strdup(files[i]);
        if (!copy || sums_add(&s, copy, NULL) != 0) {
            if (!copy)
                sums_out_of_memory(&s);
            break;
        }
    }
    sums_flush(&s);
    if (s.threaded) {
        struct job quit = {.kind = J_QUIT};
        sums_push(&s, &quit);
        pthread_join(tid, NULL);
    }
    if (s.g) /* only after a failure above */
        sums_group_free(s.g);
    for (size_t i = 0; i < s.nfree; i++)
        free(s.free_slabs[i]);
    cpim_close(s.ctx);
    free(files);
    return s.failed || s.read_failed ? CLI_FAIL : CLI_OK;
}
