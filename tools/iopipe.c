/*
 * iopipe.c -- the read -> compute -> write pipeline of `cryptopim enc` /
 * `dec` (see cli.h): a reader thread fills chunks from the input, the caller
 * processes them in place, in order, and a writer thread writes them out, so
 * reading chunk k+1, processing chunk k and writing chunk k-1 overlap.  The
 * library stays free of I/O; this file is the only place that has threads
 * for it.
 *
 * `nbuf` chunk buffers cycle: chunk k lives in buffer k % nbuf, which the
 * reader may refill once the writer has written chunk k - nbuf.  Memory is
 * nbuf x chunk whatever the input size.
 *
 * Reading follows the sequential loop it replaces: a chunk is filled until
 * it is full or the input ends, and the reader stops after the first chunk
 * that is not full (a terminal's end of input is not read past).  A
 * stopped pipeline (an error in the caller) must not wait for an input that
 * never ends: the reader waits in poll() on the input and on a pipe of its
 * own, which cli_iopipe_finish(p, 0) writes to (a regular file is always
 * ready, so it is read without poll()).
 *
 * Signals: the worker threads block every signal that ends the process, so
 * outfile.c's handler (which removes the temporary output) and its
 * sigprocmask() holds act on the calling thread as before -- except SIGPIPE
 * in the writer, so that writing into a closed pipe still ends the process
 * by SIGPIPE, as the single-threaded tool did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

struct cli_iopipe {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int in_fd, out_fd, in_regular;
    int wake[2]; /* the reader's stop signal: a byte written to wake[1] */
    size_t chunk;
    unsigned nbuf;
    uint8_t **buf;
    size_t *len;
    int *rerr;
    /* under mu: chunks read, taken by the caller, put back, written */
    uint64_t nread, taken, nput, nwritten;
    int read_done; /* the reader has queued its last chunk */
    int put_done;  /* the caller has put its last chunk */
    int stop;      /* abort: both threads leave */
    int werr;      /* errno of the first failed write */
    pthread_t reader, writer;
    int have_reader, have_writer;
};

/* Fills b[0..cap) from the input; the count (short only at its end), -1
 * with errno, or -2 when stopped. */
static long fill(cli_iopipe *p, uint8_t *b, size_t cap)
{
    size_t got = 0;
    while (got < cap) {
        if (!p->in_regular) {
            struct pollfd f[2] = {{p->in_fd, POLLIN, 0}, {p->wake[0], POLLIN, 0}};
            if (poll(f, 2, -1) < 0) {
                if (errno == EINTR)
                    continue;
                return -1;
            }
            if (f[1].revents)
                return -2;
        }
        ssize_t r = read(p->in_fd, b + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (long)got;
}

static void *reader_main(void *arg)
{
    cli_iopipe *p = arg;
    for (uint64_t seq = 0;; seq++) {
        pthread_mutex_lock(&p->mu);
        while (!p->stop && seq >= p->nwritten + p->nbuf)
            pthread_cond_wait(&p->cv, &p->mu);
        int stop = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (stop)
            return NULL;
        unsigned i = (unsigned)(seq % p->nbuf);
        long n = fill(p, p->buf[i], p->chunk);
        if (n == -2)
            return NULL;
        int err = n < 0 ? errno : 0;
        pthread_mutex_lock(&p->mu);
        p->len[i] = n > 0 ? (size_t)n : 0;
        p->rerr[i] = err;
        p->nread++;
        int last = n < (long)p->chunk;
        p->read_done = last;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (last)
            return NULL;
    }
}

static void *writer_main(void *arg)
{
    cli_iopipe *p = arg;
    for (uint64_t seq = 0;; seq++) {
        pthread_mutex_lock(&p->mu);
        while (!p->stop && seq == p->nput && !p->put_done)
            pthread_cond_wait(&p->cv, &p->mu);
        int leave = p->stop || seq == p->nput;
        pthread_mutex_unlock(&p->mu);
        if (leave)
            return NULL;
        unsigned i = (unsigned)(seq % p->nbuf);
        const uint8_t *b = p->buf[i];
        size_t n = p->len[i];
        int err = 0;
        while (n && !err) {
            ssize_t w = write(p->out_fd, b, n);
            if (w < 0 && errno != EINTR)
                err = errno;
            else if (w > 0)
                b += w, n -= (size_t)w;
        }
        pthread_mutex_lock(&p->mu);
        if (err) {
            p->werr = err;
            p->stop = 1; /* the caller reports it; the reader need not go on */
        } else {
            p->nwritten++;
        }
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (err) {
            ssize_t w = write(p->wake[1], "", 1);
            (void)w;
            return NULL;
        }
    }
}

/* The signals a worker thread blocks: all but those of a program error
 * (they must reach the thread that caused them) and, for the writer,
 * SIGPIPE (see the top). */
static void worker_mask(sigset_t *set, int allow_pipe)
{
    sigfillset(set);
    static const int sync_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof sync_sigs / sizeof sync_sigs[0]; i++)
        sigdelset(set, sync_sigs[i]);
    if (allow_pipe)
        sigdelset(set, SIGPIPE);
}

static void iopipe_free(cli_iopipe *p)
{
    if (!p)
        return;
    for (unsigned i = 0; p->buf && i < p->nbuf; i++)
        free(p->buf[i]);
    free(p->buf);
    free(p->len);
    free(p->rerr);
    if (p->wake[0] >= 0)
        close(p->wake[0]);
    if (p->wake[1] >= 0)
        close(p->wake[1]);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* see cli.h */
int cli_iopipe_start(cli_iopipe **out, int in_fd, int out_fd, size_t chunk, unsigned nbuf)
{
    *out = NULL;
    cli_iopipe *p = calloc(1, sizeof *p);
    if (!p)
        return ENOMEM;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->in_fd = in_fd;
    p->out_fd = out_fd;
    p->chunk = chunk;
    p->nbuf = nbuf < 2 ? 2 : nbuf;
    p->wake[0] = p->wake[1] = -1;
    struct stat st;
    p->in_regular = fstat(in_fd, &st) == 0 && S_ISREG(st.st_mode);
    p->buf = calloc(p->nbuf, sizeof *p->buf);
    p->len = calloc(p->nbuf, sizeof *p->len);
    p->rerr = calloc(p->nbuf, sizeof *p->rerr);
    int err = p->buf && p->len && p->rerr ? 0 : ENOMEM;
    for (unsigned i = 0; !err && i < p->nbuf; i++)
        if (!(p->buf[i] = malloc(chunk)))
            err = ENOMEM;
    if (!err && pipe(p->wake) != 0)
        err = errno;
    if (err) {
        iopipe_free(p);
        return err;
    }
    sigset_t mask, old;
    worker_mask(&mask, 0);
    pthread_sigmask(SIG_BLOCK, &mask, &old);
    err = pthread_create(&p->reader, NULL, reader_main, p);
    p->have_reader = err == 0;
    if (!err) {
        worker_mask(&mask, 1);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_sigmask(SIG_BLOCK, &mask, NULL);
        err = pthread_create(&p->writer, NULL, writer_main, p);
        p->have_writer = err == 0;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err) {
        cli_iopipe_free(p);
        return err;
    }
    *out = p;
    return 0;
}

/* see cli.h */
int cli_iopipe_next(cli_iopipe *p, uint8_t **buf, size_t *n)
{
    pthread_mutex_lock(&p->mu);
    while (!p->stop && p->taken == p->nread && !p->read_done)
        pthread_cond_wait(&p->cv, &p->mu);
    int rc;
    if (p->taken < p->nread) {
        unsigned i = (unsigned)(p->taken++ % p->nbuf);
        *buf = p->buf[i];
        *n = p->len[i];
        rc = p->rerr[i] ? -1 : *n ? 1 : 0;
        if (p->rerr[i])
            errno = p->rerr[i];
    } else {
        /* the end, or stopped by a failed write (the caller asks
         * cli_iopipe_finish for its error) */
        *buf = NULL;
        *n = 0;
        rc = 0;
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

/* see cli.h */
void cli_iopipe_put(cli_iopipe *p, size_t n)
{
    pthread_mutex_lock(&p->mu);
    p->len[p->nput % p->nbuf] = n;
    p->nput++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* see cli.h */
int cli_iopipe_write_error(cli_iopipe *p)
{
    pthread_mutex_lock(&p->mu);
    int err = p->werr;
    pthread_mutex_unlock(&p->mu);
    return err;
}

/* see cli.h */
int cli_iopipe_finish(cli_iopipe *p, int ok)
{
    if (!p)
        return 0;
    pthread_mutex_lock(&p->mu);
    if (ok)
        p->put_done = 1;
    else
        p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (p->have_writer)
        pthread_join(p->writer, NULL);
    /* the reader: done already after the end of the input, else told to
     * stop (also out of a poll() on an input that has not ended) */
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    ssize_t w = write(p->wake[1], "", 1);
    (void)w;
    if (p->have_reader)
        pthread_join(p->reader, NULL);
    p->have_writer = p->have_reader = 0;
    int err = p->werr;
    if (!err && ok && p->nwritten != p->nput)
        err = EIO; /* cannot happen: the writer leaves early only on an error */
    return err;
}

/* see cli.h */
uint8_t *cli_iopipe_scratch(cli_iopipe *p, size_t *cap)
{
    *cap = p->chunk;
    return p->buf[0];
}

/* see cli.h */
void cli_iopipe_free(cli_iopipe *p)
{
    if (p && (p->have_writer || p->have_reader))
        cli_iopipe_finish(p, 0);
    iopipe_free(p);
}
