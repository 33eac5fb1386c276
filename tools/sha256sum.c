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
#define _GNU_SOURCE /* posix_fadvise's flags, pthread with -std=c11 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkfile.h"
#include "cli.h"
#include "sumout.h"

/* Bytes per slab (a group's small files, or one round of its streams).
 * Small: the reader's copy is still in the cache when the hasher reads it,
 * and a run over many small files touches few fresh pages (measured on
 * 10,000 files of 4 KiB: 8 MiB slabs took twice the system time of 512 KiB
 * ones, page faults in read; one 1 GiB file was no slower with 512 KiB).
 * The pim backend gets larger ones: each round is a DPU launch.  Half the
 * backend's chunk (cpim_backend_chunk): 512 KiB, pim 4 MiB. */
#define SLAB_MIN    4096u      /* smallest CRYPTOPIM_BATCH_BYTES (64 B per stream) */
#define SLAB_MAX    (1u << 30) /* largest: NSLABS of them must fit in memory */
#define NSLABS      8          /* slabs in the pipeline: 4 MiB (pim 32 MiB) */
#define GROUP_FILES 4096       /* files (and messages) per group */
#define STREAM_MIN  (1u << 20) /* larger regular files are streamed (at most the slab) */
#define STREAM_MAX  16         /* streams per group */
#define QUEUE_MAX   16         /* jobs waiting for the hasher */

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

enum { IT_FILE, IT_MSG, IT_LIST_END };

/* One entry of a group, printed in its place: a file to hash (and, with -c,
 * the digest it should have), a message for stderr, or the end of a check
 * file (its summary).  Fields are written by the reader until the group's
 * last job is queued, except st and digest (the hasher's). */
struct item {
    int kind;
    char *text;          /* FILE: the name as given ("-" = standard input); MSG: the
                            message; LIST_END: the check file's name as shown */
    const uint8_t *data; /* a whole file: in the group's slab, or `owned` */
    uint8_t *owned;
    size_t len;
    int err; /* errno of open/read, 0 if read */
    int streamed, fd, eof;
    uint8_t expect[32];
    uint8_t digest[32];
    cpim_sha256_state st;
    /* LIST_END: what the reader saw of the check file */
    unsigned long long bad_lines;
    int proper, read_error, aborted;
};

struct group {
    struct item *items;
    size_t n, cap, nstreams;
    uint8_t *slab; /* the whole files' bytes (NULL until the first) */
    size_t used;
    cpim_err rc;      /* the hasher's first failure */
    size_t hashed;    /* files handed to the backend */
    int round_failed; /* rc is a round's: the streams were handed over too */
};

enum { J_BATCH, J_ROUND, J_END, J_QUIT };

/* What the reader queues for the hasher.  A group's jobs are J_BATCH (its
 * whole files; slab = the group's), its J_ROUNDs, then J_END (finish the
 * streams, print the group, free it).  slab goes back to the pool once
 * hashed. */
struct job {
    int kind;
    struct group *g;
    uint8_t *slab;
    size_t m; /* J_ROUND: streams with bytes in this round */
    struct item *it[STREAM_MAX];
    const uint8_t *p[STREAM_MAX];
    size_t len[STREAM_MAX];
};

struct sums {
    cpim_ctx *ctx;
    const char *backend;
    /* options, as coreutils: binary -1 = not given; the last of --status,
     * --warn and --quiet wins */
    int check, binary, tag, zero, ignore_missing, quiet, status, warn, strict;
    int can_stream; /* the backend has the streaming API */
    size_t slab_size, small_max;

    /* the pipeline, under mu */
    pthread_mutex_t mu;
    pthread_cond_t to_reader, to_hasher;
    struct job *queue[QUEUE_MAX];
    size_t qhead, qlen;
    uint8_t *free_slabs[NSLABS];
    size_t nfree, nslabs;
    int stop;     /* the backend failed: the reader stops */
    int threaded; /* 0: pthread_create failed, jobs run where queued */

    /* the reader's */
    struct group *g;
    sum_parser parser; /* kept across check files, as coreutils does */
    int read_failed;

    /* the hasher's: counters of the current check file (-c) */
    unsigned long long mismatched, unreadable;
    int matched;
    int failed;         /* any failure: exit status 1 */
    int backend_failed; /* a group failed: print nothing after it */
};

/* ---- output (the hasher) -------------------------------------------------- */

/* -c: the end of one check file (sumout.c); a list aborted or a backend
 * failure was already reported: a summary would count a partial run. */
static void list_summary(struct sums *s, const struct item *it)
{
    if (it->aborted || s->backend_failed) {
        s->failed = 1;
    } else {
        sum_list_end l = {it->text,      it->read_error, it->proper,     it->bad_lines,
                          s->unreadable, s->mismatched,  s->matched != 0};
        if (sum_list_summary(&l, s->status, s->ignore_missing, s->strict))
            s->failed = 1;
    }
    s->mismatched = s->unreadable = 0;
    s->matched = 0;
}

/* Prints the results of a finished group in order. */
static void print_group(struct sums *s, struct group *g)
{
    if (g->rc != CPIM_OK) {
        /* Not a mismatch: nothing was compared.  One error for the group,
         * then stop (a faulted backend is not trusted with the rest). */
        cli_error("SHA-256 of %zu file%s on backend '%s' failed: %s", g->hashed,
                  g->hashed == 1 ? "" : "s", s->backend, cpim_strerror(g->rc));
        s->failed = 1;
    }
    for (size_t i = 0; i < g->n; i++) {
        struct item *it = &g->items[i];
        if (it->kind == IT_MSG) {
            cli_error("%s", it->text);
        } else if (it->kind == IT_LIST_END) {
            list_summary(s, it);
        } else if (it->err) {
            if (s->check && s->ignore_missing && it->err == ENOENT && strcmp(it->text, "-") != 0) {
                /* --ignore-missing: as if the line were not there */
            } else {
                sum_name_error(it->text, strerror(it->err));
                if (!s->check) {
                    s->failed = 1;
                } else {
                    s->unreadable++;
                    if (!s->status)
                        sum_put_check_result(it->text, "FAILED open or read");
                }
            }
        } else if (g->rc != CPIM_OK) {
            /* reported above */
        } else if (s->check) {
            int ok = memcmp(it->digest, it->expect, 32) == 0;
            if (ok)
                s->matched = 1;
            else
                s->mismatched++;
            if (!s->status && !(ok && s->quiet))
                sum_put_check_result(it->text, ok ? "OK" : "FAILED");
        } else {
            sum_put_sum(it->text, it->digest, s->tag, s->binary, s->zero);
        }
    }
}

/* ---- the pipeline ------------------------------------------------------------ */

static void group_free(struct group *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) {
        struct item *it = &g->items[i];
        if (it->fd > STDIN_FILENO)
            close(it->fd);
        free(it->owned);
        free(it->text);
    }
    free(g->items);
    free(g);
}

/* A slab back to the pool (the hasher is done with it). */
static void slab_release(struct sums *s, uint8_t *slab)
{
    if (!slab)
        return;
    pthread_mutex_lock(&s->mu);
    s->free_slabs[s->nfree++] = slab;
    pthread_cond_signal(&s->to_reader);
    pthread_mutex_unlock(&s->mu);
}

/* A free slab, allocated on first use (so a short run touches one or two);
 * waits while all NSLABS are in the pipeline.  NULL when out of memory. */
static uint8_t *slab_get(struct sums *s)
{
    uint8_t *slab = NULL;
    pthread_mutex_lock(&s->mu);
    while (!s->nfree && s->nslabs == NSLABS)
        pthread_cond_wait(&s->to_reader, &s->mu);
    if (s->nfree)
        slab = s->free_slabs[--s->nfree];
    else if ((slab = malloc(s->slab_size)) != NULL)
        s->nslabs++;
    pthread_mutex_unlock(&s->mu);
    return slab;
}

/* The hasher's work on one job. */
static void run_job(struct sums *s, struct job *j)
{
    struct group *g = j->g;
    int live = !s->backend_failed && g->rc == CPIM_OK;
    if (j->kind == J_BATCH && live) {
        const uint8_t **msgs = malloc((g->n ? g->n : 1) * sizeof *msgs);
        size_t *lens = malloc((g->n ? g->n : 1) * sizeof *lens);
        uint8_t(*dig)[32] = malloc((g->n ? g->n : 1) * sizeof *dig);
        size_t m = 0;
        g->rc = CPIM_ERR_NOMEM;
        if (msgs && lens && dig) {
            /* `streamed` first: the reader still writes a stream's err */
            for (size_t i = 0; i < g->n; i++) {
                const struct item *it = &g->items[i];
                if (it->kind == IT_FILE && !it->streamed && !it->err)
                    msgs[m] = it->data, lens[m++] = it->len;
            }
            g->rc = m ? cpim_sha256_batch(s->ctx, msgs, lens, m, dig) : CPIM_OK;
            g->hashed += m;
        }
        for (size_t i = 0, k = 0; g->rc == CPIM_OK && i < g->n; i++) {
            struct item *it = &g->items[i];
            if (it->kind == IT_FILE && !it->streamed && !it->err)
                memcpy(it->digest, dig[k++], 32);
        }
        free(msgs);
        free(lens);
        free(dig);
    } else if (j->kind == J_ROUND && live && j->m) {
        cpim_sha256_state *st[STREAM_MAX];
        for (size_t k = 0; k < j->m; k++)
            st[k] = &j->it[k]->st;
        g->rc = cpim_sha256_update_many(s->ctx, st, j->p, j->len, j->m);
        g->round_failed = g->rc != CPIM_OK;
    } else if (j->kind == J_END) {
        if (live || g->round_failed) {
            cpim_sha256_state *st[STREAM_MAX];
            struct item *its[STREAM_MAX];
            uint8_t dig[STREAM_MAX][32];
            size_t m = 0;
            for (size_t i = 0; i < g->n; i++)
                if (g->items[i].streamed && !g->items[i].err)
                    its[m] = &g->items[i], st[m++] = &g->items[i].st;
            g->hashed += m;
            if (live)
                g->rc = m ? cpim_sha256_final_many(s->ctx, st, m, dig) : CPIM_OK;
            for (size_t k = 0; g->rc == CPIM_OK && k < m; k++)
                memcpy(its[k]->digest, dig[k], 32);
        }
        if (!s->backend_failed) {
            print_group(s, g);
            if (g->rc != CPIM_OK) {
                s->backend_failed = 1;
                pthread_mutex_lock(&s->mu);
                s->stop = 1;
                pthread_mutex_unlock(&s->mu);
            }
        }
        group_free(g);
    }
    if (j->kind == J_BATCH || j->kind == J_ROUND)
        slab_release(s, j->slab);
    free(j);
}

static void *hasher(void *arg)
{
    struct sums *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->mu);
        while (!s->qlen)
            pthread_cond_wait(&s->to_hasher, &s->mu);
        struct job *j = s->queue[s->qhead];
        s->qhead = (s->qhead + 1) % QUEUE_MAX;
        s->qlen--;
        pthread_cond_signal(&s->to_reader);
        pthread_mutex_unlock(&s->mu);
        if (j->kind == J_QUIT)
            return NULL; /* the caller's */
        run_job(s, j);
    }
}

/* Queues a job (waits while the queue is full); without the thread, runs
 * it here.  Returns 1 when the reader should stop (the backend failed). */
static int push(struct sums *s, struct job *j)
{
    if (!s->threaded) {
        if (j->kind != J_QUIT)
            run_job(s, j);
        return s->backend_failed;
    }
    pthread_mutex_lock(&s->mu);
    while (s->qlen == QUEUE_MAX)
        pthread_cond_wait(&s->to_reader, &s->mu);
    s->queue[(s->qhead + s->qlen++) % QUEUE_MAX] = j;
    pthread_cond_signal(&s->to_hasher);
    int stop = s->stop;
    pthread_mutex_unlock(&s->mu);
    return stop;
}

static int stopped(struct sums *s)
{
    if (!s->threaded)
        return s->backend_failed;
    pthread_mutex_lock(&s->mu);
    int stop = s->stop;
    pthread_mutex_unlock(&s->mu);
    return stop;
}

static struct job *new_job(int kind, struct group *g, uint8_t *slab)
{
    struct job *j = calloc(1, sizeof *j);
    if (j) {
        j->kind = kind;
        j->g = g;
        j->slab = slab;
    }
    return j;
}

/* ---- reading (the reader) ------------------------------------------------------ */

static void out_of_memory(struct sums *s)
{
    cli_error("out of memory");
    s->read_failed = 1;
}

static struct item *new_item(struct sums *s, int kind)
{
    struct group *g = s->g;
    if (!g && !(g = s->g = calloc(1, sizeof *g)))
        return NULL;
    if (g->n == g->cap) {
        size_t nc = g->cap ? 2 * g->cap : 64;
        struct item *ni = realloc(g->items, nc * sizeof *ni);
        if (!ni)
            return NULL;
        g->items = ni;
        g->cap = nc;
    }
    struct item *it = &g->items[g->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->fd = -1;
    return it;
}

/* Reads one round of every unfinished stream of g into a slab (split
 * evenly), queues it; 0 when no stream is left. */
static int read_round(struct sums *s, struct group *g)
{
    struct item *live[STREAM_MAX];
    size_t k = 0;
    for (size_t i = 0; i < g->n && k < STREAM_MAX; i++)
        if (g->items[i].fd >= 0 && !g->items[i].err)
            live[k++] = &g->items[i];
    if (!k)
        return 0;
    uint8_t *slab = slab_get(s);
    struct job *j = slab ? new_job(J_ROUND, g, slab) : NULL;
    if (!j) {
        /* the group cannot go on: its streams are errors, reported in place */
        for (size_t i = 0; i < k; i++) {
            live[i]->err = ENOMEM;
            if (live[i]->fd > STDIN_FILENO)
                close(live[i]->fd);
            live[i]->fd = -1;
        }
        slab_release(s, slab);
        return 0;
    }
    size_t chunk = (s->slab_size / k) & ~(size_t)63;
    for (size_t i = 0; i < k; i++) {
        struct item *it = live[i];
        uint8_t *buf = slab + i * chunk;
        long r = cli_read_full(it->fd, buf, chunk);
        if (r < 0)
            it->err = errno;
        else if (r > 0)
            j->it[j->m] = it, j->p[j->m] = buf, j->len[j->m++] = (size_t)r;
        if (r < 0 || (size_t)r < chunk) {
            it->eof = 1;
            if (it->fd > STDIN_FILENO)
                close(it->fd);
            it->fd = -1;
        }
    }
    return !push(s, j);
}

/* Closes the current group: queues its whole files, reads its streams in
 * rounds (each queued as read), and its end. */
static void flush(struct sums *s)
{
    struct group *g = s->g;
    if (!g)
        return;
    s->g = NULL;
    struct job *b = new_job(J_BATCH, g, g->slab), *e = new_job(J_END, g, NULL);
    if (!b || !e) {
        free(b);
        free(e);
        slab_release(s, g->slab);
        group_free(g);
        out_of_memory(s);
        return;
    }
    int stop = push(s, b);
    while (!stop && read_round(s, g))
        ;
    push(s, e);
}

/* Reads the rest of a file into a malloc'd buffer that already holds *got
 * bytes of capacity *cap; 0 or an errno. */
static int read_rest(int fd, uint8_t **buf, size_t *got, size_t *cap)
{
    for (;;) {
        if (*got == *cap) {
            uint8_t *nb = *cap * 2 > *cap ? realloc(*buf, *cap * 2) : NULL;
            if (!nb)
                return ENOMEM;
            *buf = nb;
            *cap *= 2;
        }
        ssize_t r = read(fd, *buf + *got, *cap - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        if (r == 0)
            return 0;
        *got += (size_t)r;
    }
}

/* Reads a whole file into the group's slab (room for size + 1 bytes is
 * there), or when it is larger than fstat said, or there is no slab (a
 * backend without streaming), into it->owned.  0 or an errno. */
static int read_whole(struct sums *s, struct item *it, int fd, const struct stat *st, int regular)
{
    struct group *g = s->g;
    size_t size = regular ? (size_t)st->st_size : 0;
    uint8_t *dst = NULL;
    size_t cap = size + 1, got = 0;
    if (g->slab && s->slab_size - g->used >= cap)
        dst = g->slab + g->used;
    while (dst) {
        ssize_t r = read(fd, dst + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        got += (size_t)r;
        /* A regular file read short at the size fstat gave is at its end
         * (saves coreutils' second read per file); 0 ends anything. */
        if (r == 0 || (regular && got == size)) {
            it->data = dst;
            it->len = got;
            g->used += got; /* back to back: a contiguous batch (pim pushes it directly) */
            return 0;
        }
        if (got == cap)
            break; /* it grew: the rest goes to a buffer of its own */
    }
    size_t ocap = cap > 1 << 16 ? cap * 2 : 1 << 16;
    if (!(it->owned = malloc(ocap)))
        return ENOMEM;
    if (got)
        memcpy(it->owned, dst, got);
    int err = read_rest(fd, &it->owned, &got, &ocap);
    if (err) {
        free(it->owned);
        it->owned = NULL;
        return err;
    }
    it->data = it->owned;
    it->len = got;
    return 0;
}

/* Adds one file (flushing the group first or after as the limits say).
 * Takes ownership of `name` (malloc'd).  -1 when out of memory. */
static int add(struct sums *s, char *name, const uint8_t *expect)
{
    int is_stdin = strcmp(name, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY | O_CLOEXEC);
    int err = fd < 0 ? errno : 0;
    struct stat st;
    int have_st = !err && fstat(fd, &st) == 0;
    if (have_st && S_ISDIR(st.st_mode)) /* coreutils' message is read's */
        err = EISDIR;
    int regular = have_st && S_ISREG(st.st_mode);
    /* streamed: standard input, pipes and devices, regular files above
     * small_max */
    int stream =
        !err && s->can_stream && (is_stdin || !regular || (uint64_t)st.st_size > s->small_max);
    int whole = !err && !stream;
    if (s->g && ((stream && s->g->nstreams == STREAM_MAX) ||
                 (whole && s->can_stream && s->g->slab &&
                  s->slab_size - s->g->used < (regular ? (size_t)st.st_size + 1 : 1))))
        flush(s);
    struct item *it = new_item(s, IT_FILE);
    if (!it || (whole && s->can_stream && !s->g->slab && !(s->g->slab = slab_get(s)))) {
        if (it) /* taken back: an item without a name would be printed */
            s->g->n--;
        if (fd > STDIN_FILENO)
            close(fd);
        free(name);
        out_of_memory(s);
        return -1;
    }
    it->text = name;
    if (expect)
        memcpy(it->expect, expect, 32);
    if (stream) {
        it->streamed = 1;
        it->fd = fd;
        cpim_sha256_init(&it->st);
        s->g->nstreams++;
        if (regular) /* a larger readahead window; no effect on the result */
            (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        /* standard input is read to its end now: with -c the check list
         * may come from it too, and coreutils reads the file at this point */
        if (is_stdin)
            flush(s);
        return 0;
    }
    if (whole)
        err = read_whole(s, it, fd, &st, regular);
    if (fd > STDIN_FILENO)
        close(fd);
    it->err = err;
    if (s->g->n >= GROUP_FILES)
        flush(s);
    return 0;
}

/* Queues a message for stderr behind the files already in the group. */
static int add_msg(struct sums *s, const char *name, const char *what)
{
    char *q = sum_quote(name);
    size_t n = (q ? strlen(q) : 0) + strlen(what) + 8;
    char *msg = q ? malloc(n) : NULL;
    struct item *it = msg ? new_item(s, IT_MSG) : NULL;
    if (!it) {
        free(q);
        free(msg);
        out_of_memory(s);
        return -1;
    }
    snprintf(msg, n, "%s: %s", q, what);
    free(q);
    it->text = msg;
    return 0;
}

/* -c: checks every line of one check file; as coreutils' digest_check().
 * The summary is the hasher's (it counts the results): a LIST_END item. */
static void check_list(struct sums *s, const char *list)
{
    int is_stdin = strcmp(list, "-") == 0;
    const char *shown = is_stdin ? "standard input" : list;
    FILE *f = is_stdin ? stdin : fopen(list, "r");
    if (!f) {
        if (add_msg(s, list, strerror(errno)) == 0)
            s->read_failed = 1;
        return;
    }
    unsigned long long bad_lines = 0, line_no = 0;
    int proper = 0, oom = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (!stopped(s) && (len = getline(&line, &cap, f)) > 0) {
        line_no++;
        sum_line sl;
        int kind = sum_check_line(&s->parser, line, (size_t)len, is_stdin, &sl);
        if (kind == SUM_LINE_SKIP)
            continue;
        if (kind == SUM_LINE_BAD) {
            bad_lines++;
            if (s->warn) {
                char what[80];
                snprintf(what, sizeof what, "%llu: improperly formatted SHA256 checksum line",
                         line_no);
                if (add_msg(s, shown, what) != 0) {
                    oom = 1;
                    break;
                }
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
    struct item *it = new_item(s, IT_LIST_END);
    char *name = it ? strdup(shown) : NULL;
    if (!name) {
        if (it)
            s->g->n--;
        out_of_memory(s);
    } else {
        it->text = name;
        it->bad_lines = bad_lines;
        it->proper = proper;
        it->read_error = rerr;
        it->aborted = oom;
    }
    flush(s);
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
    s.threaded = pthread_create(&tid, NULL, hasher, &s) == 0;
    if (!nfiles)
        files[nfiles++] = "-";
    for (size_t i = 0; i < nfiles && !stopped(&s); i++) {
        if (s.check) {
            check_list(&s, files[i]);
            continue;
        }
        char *copy = strdup(files[i]);
        if (!copy || add(&s, copy, NULL) != 0) {
            if (!copy)
                out_of_memory(&s);
            break;
        }
    }
    flush(&s);
    if (s.threaded) {
        struct job quit = {.kind = J_QUIT};
        push(&s, &quit);
        pthread_join(tid, NULL);
    }
    if (s.g) /* only after a failure above */
        group_free(s.g);
    for (size_t i = 0; i < s.nfree; i++)
        free(s.free_slabs[i]);
    cpim_close(s.ctx);
    free(files);
    return s.failed || s.read_failed ? CLI_FAIL : CLI_OK;
}
