/*
 * sum.c -- `cryptopim-mpi sha256sum`: many files over the processes
 * (docs/MPI.md).
 *
 * Rank 0 makes the list of files (the operands, or with -c the lines of the
 * check files, parsed by tools/checkfile.c as `cryptopim sha256sum` does),
 * finds their sizes and cuts the list into N consecutive slices of about
 * equal bytes (each file weighs its size + 4 KiB, so that many empty files
 * are spread too).  Every process hashes its slice on its own backend --
 * small files together in batches (cpim_sha256_batch), large ones streamed
 * (cpim_sha256_update) -- and rank 0 gathers the digests and prints every
 * line in input order with coreutils' formats, messages and exit status.
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
#include "mpi_tool.h"
#include "sumout.h"

#define BATCH_BYTES  (32u << 20) /* small files hashed together, per call */
#define BATCH_FILES  4096u
#define STREAM_CHUNK (8u << 20) /* a large file: per update */
#define FILE_WEIGHT  4096u      /* balancing: a file's fixed cost, in bytes */

static const char sum_help[] =
    "usage: mpirun -np N cryptopim-mpi sha256sum [OPTIONS] [FILE]...\n"
    "\n"
    "SHA-256 of the FILEs spread over the N processes (balanced by bytes), one\n"
    "line per file in the order given, as `cryptopim sha256sum` and coreutils\n"
    "sha256sum.  With no FILE, or when FILE is -, standard input: rank 0 reads\n"
    "it (mpirun gives standard input to rank 0).\n"
    "\n"
    "  -c, --check       read checksums from the FILEs and check them\n"
    "      --tag         BSD-style lines\n"
    "  -z, --zero        end each output line with NUL, not newline, and do not\n"
    "                    escape file names\n"
    "  -b, --binary / -t, --text   the ' '/'*' marker (no effect on the hash)\n"
    "  with -c: --quiet, --status, --strict, -w/--warn, --ignore-missing\n"
    "%s"
    "(Flags are not bundled: write -c -w, not -cw.)\n"
    "Exit status: 0 all good, 1 a file unreadable or a checksum mismatch,\n"
    "2 bad usage or a process failed.\n";

typedef struct item {
    char *name;
    uint8_t expect[32]; /* -c */
    int list;           /* -c: its check file (index into lists) */
    long long size;     /* rank 0: for balancing */
} item;

typedef struct list_info { /* -c: one check file */
    char *shown;
    unsigned long long bad_lines;
    int proper, read_error, open_errno;
    char **warn_msgs; /* --warn: one per bad line */
    size_t nwarn;
} list_info;

/* The result of one file: its digest or the errno that stopped it. */
typedef struct result {
    uint8_t digest[32];
    int err;
} result;

typedef struct sum_opts {
    int check, tag, quiet, status, strict, warn, ignore_missing, binary, zero;
} sum_opts;

/* ---- the list (rank 0) ------------------------------------------------------------------- */

static int push_item(item **v, size_t *n, size_t *cap, const char *name, const uint8_t *expect,
                     int list)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        item *b = realloc(*v, nc * sizeof *b);
        if (!b)
            return -1;
        *v = b;
        *cap = nc;
    }
    item *it = &(*v)[*n];
    memset(it, 0, sizeof *it);
    if (!(it->name = strdup(name)))
        return -1;
    if (expect)
        memcpy(it->expect, expect, 32);
    it->list = list;
    (*n)++;
    return 0;
}

/* -c: the lines of one check file, as coreutils' digest_check(). */
static int read_list(sum_parser *p, const char *path, int li, list_info *L, item **v, size_t *n,
                     size_t *cap)
{
    const int is_stdin = strcmp(path, "-") == 0; /* rank 0's standard input */
    L->shown = strdup(is_stdin ? "standard input" : path);
    FILE *f = is_stdin ? stdin : fopen(path, "r");
    if (!f) {
        L->open_errno = errno;
        return L->shown ? 0 : -1;
    }
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    unsigned long long line_no = 0;
    int rc = 0;
    while ((len = getline(&line, &lcap, f)) > 0) {
        line_no++;
        sum_line sl;
        int kind = sum_check_line(p, line, (size_t)len, is_stdin, &sl);
        if (kind == SUM_LINE_SKIP)
            continue;
        if (kind == SUM_LINE_BAD) {
            L->bad_lines++;
            char what[80];
            snprintf(what, sizeof what, "%llu: improperly formatted SHA256 checksum line", line_no);
            char **w = realloc(L->warn_msgs, (L->nwarn + 1) * sizeof *w);
            if (!w || !(w[L->nwarn] = strdup(what))) {
                if (w)
                    L->warn_msgs = w;
                rc = -1;
                break;
            }
            L->warn_msgs = w;
            L->nwarn++;
            continue;
        }
        L->proper = 1;
        if (push_item(v, n, cap, sl.name, sl.digest, li) != 0) {
            rc = -1;
            break;
        }
    }
    L->read_error = ferror(f);
    free(line);
    if (is_stdin)
        clearerr(f);
    else
        fclose(f);
    return rc;
}

/* ---- hashing (every rank) ------------------------------------------------------------------ */

/* Reads all of path into a malloc'd buffer; NULL with errno on failure. */
static uint8_t *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
        close(fd);
        errno = e;
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    uint8_t *b = malloc(cap);
    while (b) {
        long r = cli_read_full(fd, b + n, cap - n);
        if (r < 0) {
            int e = errno;
            free(b);
            close(fd);
            errno = e;
            return NULL;
        }
        n += (size_t)r;
        if (n < cap)
            break;
        uint8_t *bigger = realloc(b, 2 * cap);
        if (!bigger)
            free(b);
        b = bigger;
        cap *= 2;
    }
    close(fd);
    if (!b)
        errno = ENOMEM;
    *len = n;
    return b;
}

/* A large file or standard input (path "-": rank 0's, read to its end as
 * coreutils does, so a second "-" hashes nothing), streamed; 0 / errno in
 * res->err, or a cpim error (> 0). */
static cpim_err stream_file(mpi_run *r, cpim_ctx *ctx, const char *path, result *res)
{
    const int is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        res->err = errno;
        return CPIM_OK;
    }
    uint8_t *buf = malloc(STREAM_CHUNK);
    cpim_sha256_state s;
    cpim_sha256_init(&s);
    cpim_err rc = buf ? CPIM_OK : CPIM_ERR_NOMEM;
    while (rc == CPIM_OK) {
        long n = cli_read_full(fd, buf, STREAM_CHUNK);
        if (n < 0) {
            res->err = errno;
            break;
        }
        if (n == 0)
            break;
        rc = cpim_sha256_update(ctx, &s, buf, (size_t)n);
        if (rc == CPIM_OK)
            mpi_note_call(r, ctx);
        if ((size_t)n < STREAM_CHUNK)
            break;
    }
    if (rc == CPIM_OK && !res->err)
        rc = cpim_sha256_final(ctx, &s, res->digest);
    free(buf);
    if (!is_stdin)
        close(fd);
    return rc;
}

/* Hashes items[0..n) into res[]; a cpim error stops (printed). */
static int hash_slice(mpi_run *r, cpim_ctx *ctx, const char *backend, char **names,
                      const long long *sizes, size_t n, result *res)
{
    size_t i = 0;
    while (i < n) {
        if (!strcmp(names[i], "-")) {
            i++; /* standard input: rank 0 hashes it (stdin_items) */
            continue;
        }
        if (sizes[i] > (long long)BATCH_BYTES) {
            cpim_err e = stream_file(r, ctx, names[i], &res[i]);
            if (e != CPIM_OK) {
                cli_error("sha256sum: SHA-256 on backend '%s' failed: %s", backend,
                          cpim_strerror(e));
                return -1;
            }
            i++;
            continue;
        }
        /* a batch of small files */
        size_t j = i, bytes = 0;
        while (j < n && j - i < BATCH_FILES && sizes[j] <= (long long)BATCH_BYTES &&
               strcmp(names[j], "-") != 0 &&
               (j == i || bytes + (size_t)(sizes[j] > 0 ? sizes[j] : 0) <= BATCH_BYTES)) {
            bytes += (size_t)(sizes[j] > 0 ? sizes[j] : 0);
            j++;
        }
        size_t k = j - i;
        uint8_t **bufs = calloc(k, sizeof *bufs);
        size_t *lens = calloc(k, sizeof *lens), *idx = calloc(k, sizeof *idx);
        uint8_t(*dig)[32] = calloc(k, 32);
        if (!bufs || !lens || !idx || !dig) {
            cli_error("sha256sum: out of memory");
            free(bufs), free(lens), free(idx), free(dig);
            return -1;
        }
        size_t m = 0;
        for (size_t t = i; t < j; t++) {
            size_t len = 0;
            uint8_t *b = slurp(names[t], &len);
            if (!b) {
                res[t].err = errno;
                continue;
            }
            bufs[m] = b;
            lens[m] = len;
            idx[m++] = t;
        }
        cpim_err e =
            m ? cpim_sha256_batch(ctx, (const uint8_t *const *)bufs, lens, m, dig) : CPIM_OK;
        if (m && e == CPIM_OK)
            mpi_note_call(r, ctx);
        for (size_t t = 0; t < m; t++) {
            if (e == CPIM_OK)
                memcpy(res[idx[t]].digest, dig[t], 32);
            free(bufs[t]);
        }
        free(bufs), free(lens), free(idx), free(dig);
        if (e != CPIM_OK) {
            cli_error("sha256sum: SHA-256 of %zu files on backend '%s' failed: %s", m, backend,
                      cpim_strerror(e));
            return -1;
        }
        i = j;
    }
    return 0;
}

/* Rank 0: the items named "-" (standard input), in order, into all[]. */
static int stdin_items(mpi_run *r, cpim_ctx *ctx, const char *backend, char **names, size_t n,
                       result *all)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], "-"))
            continue;
        memset(&all[i], 0, sizeof all[i]);
        cpim_err e = stream_file(r, ctx, "-", &all[i]);
        if (e != CPIM_OK) {
            cli_error("sha256sum: SHA-256 of standard input on backend '%s' failed: %s", backend,
                      cpim_strerror(e));
            return -1;
        }
    }
    return 0;
}

/* ---- the command ------------------------------------------------------------------------------
 */

/* The arguments into o, c and files[0..*nf): SUM_PARSED, SUM_HELP, or the
 * exit status after printing the error (CLI_FAIL for the option conflicts
 * coreutils exits 1 on, CLI_USAGE otherwise). */
enum { SUM_PARSED = -1, SUM_HELP = -2 };
static int parse(sum_opts *o, cli_common *c, int argc, char **argv, char **files, size_t *nf)
{
    cli_args a;
    const char *opt, *operand;
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            files[(*nf)++] = (char *)operand;
            continue;
        }
        int r = cli_common_option(c, &a, opt);
        if (r < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (!strcmp(opt, "-c") || !strcmp(opt, "--check"))
            o->check = 1;
        else if (!strcmp(opt, "--tag"))
            o->tag = 1;
        else if (!strcmp(opt, "-z") || !strcmp(opt, "--zero"))
            o->zero = 1;
        else if (!strcmp(opt, "--quiet"))
            o->quiet = 1;
        else if (!strcmp(opt, "--status"))
            o->status = 1;
        else if (!strcmp(opt, "--strict"))
            o->strict = 1;
        else if (!strcmp(opt, "-w") || !strcmp(opt, "--warn"))
            o->warn = 1;
        else if (!strcmp(opt, "--ignore-missing"))
            o->ignore_missing = 1;
        else if (!strcmp(opt, "-b") || !strcmp(opt, "--binary"))
            o->binary = 1;
        else if (!strcmp(opt, "-t") || !strcmp(opt, "--text"))
            o->binary = 0;
        else if (!strcmp(opt, "--help")) {
            return SUM_HELP;
        } else {
            cli_error("sha256sum: unknown option %s (see cryptopim-mpi sha256sum --help)",
                      cli_quote(opt));
            return CLI_USAGE;
        }
    }
    if (o->check && o->zero) {
        cli_error("the --zero option is not supported when verifying checksums");
        return CLI_FAIL;
    }
    if (o->check && o->tag) {
        cli_error("the --tag option is meaningless when verifying checksums");
        return CLI_FAIL;
    }
    if (!o->check && (o->quiet || o->status || o->strict || o->warn || o->ignore_missing)) {
        cli_error("the --quiet, --status, --strict, --warn and --ignore-missing options are "
                  "meaningful only when verifying checksums");
        return CLI_FAIL;
    }
    if (!*nf)
        files[(*nf)++] = (char *)"-"; /* as coreutils: standard input */
    return SUM_PARSED;
}

int mpi_sha256sum(mpi_run *r, int argc, char **argv)
{
    sum_opts o;
    cli_common c;
    memset(&o, 0, sizeof o);
    cli_common_init(&c);
    setlocale(LC_CTYPE, "");
    char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nf = 0;
    if (!files)
        return CLI_USAGE;
    int rc = parse(&o, &c, argc, argv, files, &nf);
    int state = mpi_parse_verdict(r, rc == SUM_PARSED ? MPI_PARSED
                                     : rc == SUM_HELP ? MPI_HELP
                                                      : MPI_REFUSED);
    if (state != MPI_PARSED) {
        free(files);
        if (state == MPI_HELP && r->rank == 0)
            printf(sum_help, cli_common_help);
        return state == MPI_HELP ? CLI_OK : rc >= 0 ? rc : CLI_USAGE;
    }
    rc = CLI_USAGE;
    const char *backend = c.backend ? c.backend : "auto";
    item *items = NULL;
    size_t n = 0, cap = 0;
    list_info *lists = NULL;
    char *names_blob = NULL, **names = NULL;
    long long *sizes = NULL, *all_sizes = NULL;
    result *res = NULL, *all_res = NULL;
    int *counts = NULL, *displs = NULL;
    unsigned long long blob_len = 0;
    cpim_ctx *ctx = NULL;

    /* rank 0: the list, the sizes, the slices */
    int ok = 1;
    unsigned long long nn = 0;
    if (r->rank == 0) {
        if (o.check) {
            sum_parser p;
            sum_parser_init(&p);
            lists = calloc(nf, sizeof *lists);
            ok = lists != NULL;
            for (size_t i = 0; ok && i < nf; i++)
                ok = read_list(&p, files[i], (int)i, &lists[i], &items, &n, &cap) == 0;
        } else {
            for (size_t i = 0; ok && i < nf; i++)
                ok = push_item(&items, &n, &cap, files[i], NULL, 0) == 0;
        }
        for (size_t i = 0; ok && i < n; i++) {
            struct stat st;
            items[i].size =
                strcmp(items[i].name, "-") && stat(items[i].name, &st) == 0 && S_ISREG(st.st_mode)
                    ? st.st_size
                    : 0;
            blob_len += strlen(items[i].name) + 1;
        }
        if (!ok)
            cli_error("sha256sum: out of memory");
        nn = n;
    }
    if (!mpi_all_ok(r, ok))
        goto out;
    /* everyone: the names and sizes (each rank takes its slice) */
    unsigned long long hdr[2] = {nn, blob_len};
    MPI_Bcast(hdr, 2, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof hdr);
    n = (size_t)hdr[0];
    blob_len = hdr[1];
    names_blob = malloc(blob_len ? blob_len : 1);
    names = calloc(n ? n : 1, sizeof *names);
    sizes = calloc(n ? n : 1, sizeof *sizes);
    ok = names_blob && names && sizes;
    if (!mpi_all_ok(r, ok))
        goto out;
    if (r->rank == 0) {
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            size_t l = strlen(items[i].name) + 1;
            memcpy(names_blob + at, items[i].name, l);
            at += l;
            sizes[i] = items[i].size;
        }
    }
    MPI_Bcast(names_blob, (int)blob_len, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Bcast(sizes, (int)n, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, blob_len + n * sizeof *sizes);
    for (size_t i = 0, at = 0; i < n; i++) {
        names[i] = names_blob + at;
        at += strlen(names[i]) + 1;
    }
    /* the slices: consecutive, cut where the running weight crosses k/N */
    long double total = 0, run = 0;
    for (size_t i = 0; i < n; i++)
        total += (long double)sizes[i] + FILE_WEIGHT;
    size_t first = n, last = n;
    for (size_t i = 0; i < n; i++) {
        /* the file's middle decides its rank */
        long double mid = run + ((long double)sizes[i] + FILE_WEIGHT) / 2;
        int owner = (int)(mid * r->size / total);
        if (owner >= r->size)
            owner = r->size - 1;
        if (owner == r->rank && first == n)
            first = i;
        if (owner == r->rank)
            last = i + 1;
        run += (long double)sizes[i] + FILE_WEIGHT;
    }
    if (first == n)
        first = last = 0;
    size_t mine = last - first;

    ctx = cli_open(backend, &c.opt);
    res = calloc(mine ? mine : 1, sizeof *res);
    ok = ctx && res;
    if (ok && cpim_sha256_batch(ctx, NULL, NULL, 0, NULL) == CPIM_ERR_UNSUPPORTED) {
        cli_error("sha256sum: backend '%s' does not provide SHA-256", backend);
        ok = 0;
    }
    if (!mpi_all_ok(r, ok))
        goto out;
    ok = hash_slice(r, ctx, backend, names + first, sizes + first, mine, res) == 0;
    if (!mpi_all_ok(r, ok)) {
        rc = CLI_FAIL;
        goto out;
    }
    /* rank 0 gathers the results, in rank (= input) order */
    int mine_bytes = (int)(mine * sizeof *res);
    if (r->rank == 0) {
        counts = calloc((size_t)r->size, sizeof *counts);
        displs = calloc((size_t)r->size, sizeof *displs);
        all_res = calloc(n ? n : 1, sizeof *all_res);
    }
    MPI_Gather(&mine_bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (r->rank == 0)
        for (int i = 0, at = 0; i < r->size; i++) {
            displs[i] = at;
            at += counts[i];
        }
    MPI_Gatherv(res, mine_bytes, MPI_BYTE, all_res, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    mpi_note_gather(r, (uint64_t)mine_bytes);
    rc = CLI_OK;
    /* rank 0: standard input, now that the others' files are done (a
     * failure there is reported like a backend failure of a slice, nothing
     * printed; the others are already past their last check) */
    if (r->rank == 0 && stdin_items(r, ctx, backend, names, n, all_res) != 0)
        rc = CLI_FAIL;
    if (r->rank == 0 && rc == CLI_OK) {
        int failed = 0;
        if (!o.check) {
            for (size_t i = 0; i < n; i++) {
                if (all_res[i].err) {
                    fflush(stdout);
                    sum_name_error(names[i], strerror(all_res[i].err));
                    failed = 1;
                } else {
                    sum_put_sum(names[i], all_res[i].digest, o.tag, o.binary, o.zero);
                }
            }
        } else {
            size_t i = 0;
            for (size_t li = 0; li < nf; li++) {
                list_info *L = &lists[li];
                unsigned long long mism = 0, unread = 0;
                int matched = 0;
                if (L->open_errno) {
                    fflush(stdout);
                    sum_name_error(L->shown, strerror(L->open_errno));
                    failed = 1;
                    continue;
                }
                for (size_t w = 0; o.warn && w < L->nwarn; w++) {
                    fflush(stdout);
                    sum_name_error(L->shown, L->warn_msgs[w]);
                }
                for (; i < n && items[i].list == (int)li; i++) {
                    if (all_res[i].err) {
                        if (o.ignore_missing && all_res[i].err == ENOENT && strcmp(names[i], "-"))
                            continue;
                        fflush(stdout);
                        sum_name_error(names[i], strerror(all_res[i].err));
                        unread++;
                        if (!o.status)
                            sum_put_check_result(names[i], "FAILED open or read");
                        continue;
                    }
                    int good = memcmp(all_res[i].digest, items[i].expect, 32) == 0;
                    if (good)
                        matched = 1;
                    else
                        mism++;
                    if (!o.status && !(good && o.quiet))
                        sum_put_check_result(names[i], good ? "OK" : "FAILED");
                }
                fflush(stdout);
                sum_list_end end = {L->shown, L->read_error, L->proper, L->bad_lines,
                                    unread,   mism,          matched};
                if (sum_list_summary(&end, o.status, o.ignore_missing, o.strict))
                    failed = 1;
            }
        }
        rc = failed ? CLI_FAIL : CLI_OK;
    }
    {
        char what[120];
        snprintf(what, sizeof what, "sha256sum%s of %zu files, backend %s", o.check ? " -c" : "", n,
                 backend);
        mpi_report(r, what);
    }
out:
    if (ctx)
        cpim_close(ctx);
    for (size_t i = 0; i < n && items; i++)
        free(items[i].name);
    free(items);
    for (size_t i = 0; lists && i < nf; i++) {
        free(lists[i].shown);
        for (size_t w = 0; w < lists[i].nwarn; w++)
            free(lists[i].warn_msgs[w]);
        free(lists[i].warn_msgs);
    }
    free(lists);
    free(names_blob);
    free(names);
    free(sizes);
    free(all_sizes);
    free(res);
    free(all_res);
    free(counts);
    free(displs);
    free(files);
    return rc;
}
