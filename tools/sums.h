/*
 * sums.h -- the inside of `cryptopim sha256sum` (sha256sum.c: options and
 * the command; sums_read.c: the reader; sums_hash.c: the pipeline and the
 * hasher, which prints).  How the two threads share the work, the groups,
 * slabs and streams: see the top of sha256sum.c.
 */
#ifndef CPIM_TOOLS_SUMS_H
#define CPIM_TOOLS_SUMS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "checkfile.h"
#include "cryptopim.h"

/* Bytes per slab (a group's small files, or one round of its streams): half
 * the backend's chunk (cpim_backend_chunk), 512 KiB on the host backends.
 * Small: the reader's copy is still in the cache when the hasher reads it,
 * and a run over many small files touches few fresh pages (the measurement:
 * docs/CRYPTO.md, "The CLI at file scale").  The pim backend gets larger
 * ones (4 MiB): each round is a DPU launch. */
#define SLAB_MIN    4096u      /* smallest CRYPTOPIM_BATCH_BYTES (64 B per stream) */
#define SLAB_MAX    (1u << 30) /* largest: NSLABS of them must fit in memory */
#define NSLABS      8          /* slabs in the pipeline: 4 MiB (pim 32 MiB) */
#define GROUP_FILES 4096       /* files (and messages) per group */
#define STREAM_MIN  (1u << 20) /* larger regular files are streamed (at most the slab) */
#define STREAM_MAX  16         /* streams per group */
#define QUEUE_MAX   16         /* jobs waiting for the hasher */

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

/* ---- the pipeline (sums_hash.c) ---------------------------------------------- */

/* The hasher thread's body (arg: the struct sums); returns at J_QUIT. */
void *sums_hasher(void *arg);
/* Queues a job (waits while the queue is full); without the thread, runs
 * it here.  Returns 1 when the reader should stop (the backend failed). */
int sums_push(struct sums *s, struct job *j);
/* Has the backend failed (the reader stops)? */
int sums_stopped(struct sums *s);
/* A job of this kind for g (calloc'd), or NULL. */
struct job *sums_new_job(int kind, struct group *g, uint8_t *slab);
/* A free slab, allocated on first use (so a short run touches one or two);
 * waits while all NSLABS are in the pipeline.  NULL when out of memory. */
uint8_t *sums_slab_get(struct sums *s);
/* A slab back to the pool (the hasher is done with it); NULL: nothing. */
void sums_slab_release(struct sums *s, uint8_t *slab);
/* Frees a group, closing its open streams; NULL: nothing. */
void sums_group_free(struct group *g);

/* ---- the reader (sums_read.c) ------------------------------------------------- */

/* Reports "out of memory" and marks the run failed. */
void sums_out_of_memory(struct sums *s);
/* Adds one file (flushing the group first or after as the limits say).
 * Takes ownership of `name` (malloc'd); expect: -c's digest, or NULL.
 * -1 when out of memory. */
int sums_add(struct sums *s, char *name, const uint8_t *expect);
/* -c: checks every line of one check file ("-": standard input); as
 * coreutils' digest_check(). */
void sums_check_list(struct sums *s, const char *list);
/* Closes the current group: queues its whole files, reads its streams in
 * rounds (each queued as read), and its end. */
void sums_flush(struct sums *s);

#endif /* CPIM_TOOLS_SUMS_H */
