/*
 * sums_hash.c -- `cryptopim sha256sum`'s pipeline and hasher (sums.h): the
 * job queue and slab pool between the two threads, the backend calls, and
 * every result and message printed in argument order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sumout.h"
#include "sums.h"

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

void sums_group_free(struct group *g)
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

void sums_slab_release(struct sums *s, uint8_t *slab)
{
    if (!slab)
        return;
    pthread_mutex_lock(&s->mu);
    s->free_slabs[s->nfree++] = slab;
    pthread_cond_signal(&s->to_reader);
    pthread_mutex_unlock(&s->mu);
}

uint8_t *sums_slab_get(struct sums *s)
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
        sums_group_free(g);
    }
    if (j->kind == J_BATCH || j->kind == J_ROUND)
        sums_slab_release(s, j->slab);
    free(j);
}

void *sums_hasher(void *arg)
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

int sums_push(struct sums *s, struct job *j)
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

int sums_stopped(struct sums *s)
{
    if (!s->threaded)
        return s->backend_failed;
    pthread_mutex_lock(&s->mu);
    int stop = s->stop;
    pthread_mutex_unlock(&s->mu);
    return stop;
}

struct job *sums_new_job(int kind, struct group *g, uint8_t *slab)
{
    struct job *j = calloc(1, sizeof *j);
    if (j) {
        j->kind = kind;
        j->g = g;
        j->slab = slab;
    }
    return j;
}
