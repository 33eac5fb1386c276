/*
 * queue.c -- per-rank in-order job queues, their worker threads, inline
 * execution of synchronous calls, sticky asynchronous errors.
 */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

#include "entry.h"
#include "model.h"

/* see queue.h */
op_t *emu_op_new(op_type_t type, struct dpu_set_t set, op_exec_fn exec, op_model_fn model,
                 uint32_t rec_per_rank)
{
    op_t *op = calloc(1, sizeof *op);
    if (op == NULL)
        return NULL;
    op->type = type;
    op->exec = exec;
    op->model = model;
    op->rec_per_rank = rec_per_rank ? rec_per_rank : 1;
    op->refs = 1;
    op->set = set;
    op->single = set.kind == DPU_SET_DPU ? set.dpu : NULL;
    pthread_mutex_init(&op->mu, NULL);
    pthread_cond_init(&op->cv, NULL);
    return op;
}

/* see queue.h */
void emu_op_put(op_t *op)
{
    pthread_mutex_lock(&op->mu);
    int left = --op->refs;
    pthread_mutex_unlock(&op->mu);
    if (left > 0)
        return;
    if (op->bufs) {
        for (uint32_t i = 0; i < op->nbufs; i++)
            free(op->bufs[i]);
        free(op->bufs);
    }
    if (op->sg_free)
        op->sg_free(op->sg);
    if (op->program)
        emu_program_put(op->program);
    for (uint32_t i = 0; i < op->nrecs; i++)
        emu_model_put(op->recs[i]);
    free(op->recs);
    free(op->lseq);
    free(op->lrole);
    free(op->ranks);
    pthread_mutex_destroy(&op->mu);
    pthread_cond_destroy(&op->cv);
    free(op);
}

/* The job at rank position pos executed (ready) or never will (cancel):
 * the modeled timeline may pass its records. */
static void job_model_done(op_t *op, uint32_t pos, bool cancel)
{
    if (cancel && op->cancel)
        op->cancel(op, pos);
    emu_rec_t **r = emu_op_recs(op, pos);
    for (uint32_t i = 0; r && i < op->rec_per_rank; i++) {
        if (cancel)
            emu_model_cancel(r[i]);
        else
            emu_model_ready(r[i]);
    }
}

static void ops_model_done(op_t *op, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        job_model_done(op, i, false);
}

static void job_complete(job_t *job, dpu_error_t err)
{
    op_t *op = job->op;
    pthread_mutex_lock(&op->mu);
    if (job->sync) {
        if (op->err == DPU_OK)
            op->err = err;
        if (--op->pending == 0)
            pthread_cond_broadcast(&op->cv);
    }
    pthread_mutex_unlock(&op->mu);
    free(job);
    emu_op_put(op);
}

static void *worker_main(void *arg)
{
    struct dpu_rank_t *r = arg;
    emu_api_mark_worker();
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->stop && (r->head == NULL || r->busy))
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->head == NULL || r->busy)
            break; /* stop requested (queue drained by quiesce) */
        job_t *job = r->head;
        r->head = job->next;
        if (r->head == NULL)
            r->tail = NULL;
        r->qlen--;
        r->busy = true;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);

        struct dpu_rank_t *self[1] = {r};
        emu_own_push(self, 1);
        dpu_error_t err = job->op->exec(job->op, job, 1);
        emu_own_pop(1);

        job_t *dropped = NULL;
        pthread_mutex_lock(&r->mu);
        if (err != DPU_OK && !job->sync) {
            /* sticky: the rank's remaining jobs are dropped */
            r->sticky = (dpu_error_t)((uint32_t)DPU_ERR_ASYNC_JOBS |
                                      ((uint32_t)job->op->type << DPU_ERROR_ASYNC_JOB_TYPE_SHIFT) |
                                      ((uint32_t)err & 0xffffu));
            dropped = r->head;
            r->head = r->tail = NULL;
            r->qlen = 0;
        }
        dpu_error_t sticky = r->sticky;
        pthread_mutex_unlock(&r->mu);
        /* the dropped jobs first: once this one is ready, the simulation may
         * reach them (before busy is cleared: quiesced means simulable) */
        for (job_t *d = dropped; d; d = d->next)
            job_model_done(d->op, d->rank_pos, true);
        job_model_done(job->op, job->rank_pos, false);
        pthread_mutex_lock(&r->mu);
        r->busy = false;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
        job_complete(job, err);
        while (dropped) {
            job_t *next = dropped->next;
            job_complete(dropped, sticky);
            dropped = next;
        }
        pthread_mutex_lock(&r->mu);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* Appends a job (r->mu held); blocks while the queue is full. Returns the
 * rank's sticky error instead if it has one (it may strike while waiting). */
static dpu_error_t enqueue_locked(struct dpu_rank_t *r, job_t *job)
{
    while (r->qlen >= r->prof->nr_jobs_per_rank && r->sticky == DPU_OK)
        pthread_cond_wait(&r->cv, &r->mu);
    if (r->sticky != DPU_OK)
        return r->sticky;
    if (!r->worker_on) {
        if (pthread_create(&r->worker, NULL, worker_main, r) != 0)
            return DPU_ERR_SYSTEM;
        r->worker_on = true;
    }
    job->next = NULL;
    if (r->tail)
        r->tail->next = job;
    else
        r->head = job;
    r->tail = job;
    r->qlen++;
    pthread_cond_broadcast(&r->cv);
    return DPU_OK;
}

/* The host waits, on the modeled clock, for everything queued on the ranks
 * (a mark at the end of each queue, as dpu_sync's). */
static void host_waits_for_queues(struct dpu_rank_t **ranks, uint32_t n)
{
    emu_rec_t **marks = calloc(n, sizeof *marks);
    if (marks == NULL)
        return;
    for (uint32_t i = 0; i < n; i++) {
        emu_rec_desc_t d = {.kind = EMU_REC_MARK, .op = emu_model_op_id(), .prof = ranks[i]->prof};
        marks[i] = emu_model_rec_new(&ranks[i]->tl, &d);
        emu_model_ready(marks[i]);
    }
    double done = emu_model_wait(marks, n);
    if (done >= 0.0)
        emu_model_host_advance_to(done);
    for (uint32_t i = 0; i < n; i++)
        emu_model_put(marks[i]);
    free(marks);
}

/* see queue.h */
dpu_error_t emu_op_submit(op_t *op, struct dpu_set_t set, bool async)
{
    struct dpu_rank_t **ranks, *one;
    struct dpu_t *single;
    uint32_t n = set_ranks(&set, &ranks, &one, &single);

    /* sticky asynchronous errors: returned by every call; a synchronous
     * call reports it once and clears it */
    dpu_error_t sticky = DPU_OK;
    for (uint32_t i = 0; i < n && sticky == DPU_OK; i++) {
        struct dpu_rank_t *r = ranks[i];
        pthread_mutex_lock(&r->mu);
        sticky = r->sticky;
        pthread_mutex_unlock(&r->mu);
    }
    if (sticky != DPU_OK && !async) {
        /* A synchronous call is ordered after the set's queued work: let the
         * other ranks finish (their jobs may fail too) before reporting and
         * clearing, or a rank failing later would leave its error sticky
         * after this call reported the set's error. */
        emu_ranks_quiesce(ranks, n);
        sticky = DPU_OK;
        for (uint32_t i = 0; i < n; i++) {
            struct dpu_rank_t *r = ranks[i];
            pthread_mutex_lock(&r->mu);
            if (sticky == DPU_OK)
                sticky = r->sticky;
            r->sticky = DPU_OK;
            pthread_mutex_unlock(&r->mu);
        }
        /* On the modeled clock the host waited for that work too, as it
         * does when the error strikes while this call's jobs are queued
         * (they are dropped, and the wait ends with the ranks' queues):
         * whether the error came before or after this call depends on the
         * threads, its modeled time must not. */
        if (sticky != DPU_OK)
            host_waits_for_queues(ranks, n);
    }
    if (sticky != DPU_OK)
        return sticky;

    op->ranks = malloc(n * sizeof *op->ranks);
    job_t *jobs = calloc(n, sizeof *jobs);
    if (op->ranks == NULL || jobs == NULL) {
        free(jobs);
        return DPU_ERR_SYSTEM;
    }
    memcpy(op->ranks, ranks, n * sizeof *ranks);
    if (op->call_ranks == 0)
        op->call_ranks = n;
    for (uint32_t i = 0; i < n; i++) {
        jobs[i].op = op;
        jobs[i].rank = ranks[i];
        jobs[i].rank_pos = i;
        jobs[i].sync = !async;
    }
    /* the records on the modeled timelines: now, in the order of the calls
     * (submission time = the host's present) */
    if (op->model) {
        op->recs = calloc((size_t)n * op->rec_per_rank, sizeof *op->recs);
        if (op->recs) {
            op->nrecs = n * op->rec_per_rank;
            op->model_id = emu_model_op_id();
            op->model(op, n);
        }
    }

    /* inside a job of these ranks (a callback): run now, in this thread */
    bool owned = true;
    for (uint32_t i = 0; i < n && owned; i++)
        owned = emu_own_has(ranks[i]);
    if (owned) {
        dpu_error_t err = op->exec(op, jobs, n);
        ops_model_done(op, n);
        free(jobs);
        return err;
    }

    if (!async) {
        /* nothing queued or running on any rank: run inline */
        uint32_t claimed = 0;
        for (; claimed < n; claimed++) {
            struct dpu_rank_t *r = ranks[claimed];
            pthread_mutex_lock(&r->mu);
            /* (a rank that failed since the check above goes the queued
             * way, which reports the error) */
            bool idle = !r->busy && r->head == NULL && r->sticky == DPU_OK;
            if (idle)
                r->busy = true;
            pthread_mutex_unlock(&r->mu);
            if (!idle)
                break;
        }
        dpu_error_t err = DPU_OK;
        if (claimed == n) {
            emu_own_push(op->ranks, n);
            err = op->exec(op, jobs, n);
            emu_own_pop(n);
            ops_model_done(op, n);
        }
        for (uint32_t i = 0; i < claimed; i++) {
            struct dpu_rank_t *r = ranks[i];
            pthread_mutex_lock(&r->mu);
            r->busy = false;
            pthread_cond_broadcast(&r->cv);
            pthread_mutex_unlock(&r->mu);
        }
        if (claimed == n) {
            free(jobs);
            double done = emu_model_wait(op->recs, op->nrecs);
            if (done >= 0.0)
                emu_model_host_advance_to(done);
            return err;
        }
    }

    pthread_mutex_lock(&op->mu);
    op->pending = async ? 0 : n;
    op->refs += (int)n;
    pthread_mutex_unlock(&op->mu);
    dpu_error_t err = DPU_OK;
    for (uint32_t i = 0; i < n; i++) {
        job_t *job = malloc(sizeof *job);
        struct dpu_rank_t *r = ranks[i];
        if (job == NULL) {
            err = DPU_ERR_SYSTEM;
        } else {
            *job = jobs[i];
            pthread_mutex_lock(&r->mu);
            /* a rank that failed since the check above (or fails while
             * this waits for a queue slot) takes no job: an asynchronous
             * call is refused; a synchronous one's job ends with the error
             * as if it had been queued before the failure and dropped, so
             * the call reports and clears it */
            dpu_error_t e = enqueue_locked(r, job);
            pthread_mutex_unlock(&r->mu);
            if (e != DPU_OK) {
                err = e;
                free(job);
                job = NULL;
            }
        }
        if (job == NULL) {
            /* account for the job that will never run */
            job_model_done(op, i, true);
            pthread_mutex_lock(&op->mu);
            if (!async && op->err == DPU_OK)
                op->err = err;
            if (!async)
                op->pending--;
            op->refs--;
            pthread_cond_broadcast(&op->cv);
            pthread_mutex_unlock(&op->mu);
        }
    }
    free(jobs);
    if (async)
        return err;
    pthread_mutex_lock(&op->mu);
    while (op->pending > 0)
        pthread_cond_wait(&op->cv, &op->mu);
    err = op->err;
    pthread_mutex_unlock(&op->mu);
    /* the modeled end of its records: simulated now, in time order */
    double done = emu_model_wait(op->recs, op->nrecs);
    if ((uint32_t)err & (uint32_t)DPU_ERR_ASYNC_JOBS) {
        /* this synchronous call reports the sticky error: that clears it */
        for (uint32_t i = 0; i < n; i++) {
            pthread_mutex_lock(&ranks[i]->mu);
            if (ranks[i]->sticky == err)
                ranks[i]->sticky = DPU_OK;
            pthread_mutex_unlock(&ranks[i]->mu);
        }
    }
    if (done >= 0.0)
        emu_model_host_advance_to(done);
    return err;
}

/* see queue.h */
void emu_ranks_quiesce(struct dpu_rank_t **ranks, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = ranks[i];
        if (emu_own_has(r))
            continue;
        pthread_mutex_lock(&r->mu);
        while (r->head != NULL || r->busy)
            pthread_cond_wait(&r->cv, &r->mu);
        pthread_mutex_unlock(&r->mu);
    }
}

/* see queue.h */
void emu_rank_stop_worker(struct dpu_rank_t *r)
{
    pthread_mutex_lock(&r->mu);
    r->stop = true;
    pthread_cond_broadcast(&r->cv);
    bool on = r->worker_on;
    r->worker_on = false;
    pthread_mutex_unlock(&r->mu);
    if (on)
        pthread_join(r->worker, NULL);
}
