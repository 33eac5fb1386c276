/*
 * sums_read.c -- `cryptopim sha256sum`'s reader (sums.h): all the file I/O,
 * in coreutils' order -- the operands or the check-file lines, each file
 * opened and read whole into the group's slab or streamed in rounds -- and
 * what it read queued for the hasher.
 */
#define _GNU_SOURCE /* posix_fadvise's flags, getline */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sumout.h"
#include "sums.h"

/* ---- reading (the reader) ------------------------------------------------------ */

void sums_out_of_memory(struct sums *s)
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
    uint8_t *slab = sums_slab_get(s);
    struct job *j = slab ? sums_new_job(J_ROUND, g, slab) : NULL;
    if (!j) {
        /* the group cannot go on: its streams are errors, reported in place */
        for (size_t i = 0; i < k; i++) {
            live[i]->err = ENOMEM;
            if (live[i]->fd > STDIN_FILENO)
                close(live[i]->fd);
            live[i]->fd = -1;
        }
        sums_slab_release(s, slab);
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
    return !sums_push(s, j);
}

void sums_flush(struct sums *s)
{
    struct group *g = s->g;
    if (!g)
        return;
    s->g = NULL;
    struct job *b = sums_new_job(J_BATCH, g, g->slab), *e = sums_new_job(J_END, g, NULL);
    if (!b || !e) {
        free(b);
        free(e);
        sums_slab_release(s, g->slab);
        sums_group_free(g);
        sums_out_of_memory(s);
        return;
    }
    int stop = sums_push(s, b);
    while (!stop && read_round(s, g))
        ;
    sums_push(s, e);
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

int sums_add(struct sums *s, char *name, const uint8_t *expect)
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
        sums_flush(s);
    struct item *it = new_item(s, IT_FILE);
    if (!it || (whole && s->can_stream && !s->g->slab && !(s->g->slab = sums_slab_get(s)))) {
        if (it) /* taken back: an item without a name would be printed */
            s->g->n--;
        if (fd > STDIN_FILENO)
            close(fd);
        free(name);
        sums_out_of_memory(s);
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
            sums_flush(s);
        return 0;
    }
    if (whole)
        err = read_whole(s, it, fd, &st, regular);
    if (fd > STDIN_FILENO)
        close(fd);
    it->err = err;
    if (s->g->n >= GROUP_FILES)
        sums_flush(s);
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
        sums_out_of_memory(s);
        return -1;
    }
    snprintf(msg, n, "%s: %s", q, what);
    free(q);
    it->text = msg;
    return 0;
}

/* The summary is the hasher's (it counts the results): a LIST_END item. */
void sums_check_list(struct sums *s, const char *list)
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
    while (!sums_stopped(s) && (len = getline(&line, &cap, f)) > 0) {
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
        if (!copy || sums_add(s, copy, sl.digest) != 0) {
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
        sums_out_of_memory(s);
    } else {
        it->text = name;
        it->bad_lines = bad_lines;
        it->proper = proper;
        it->read_error = rerr;
        it->aborted = oom;
    }
    sums_flush(s);
}
