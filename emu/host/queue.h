/*
 * queue.h -- operations (one API call each), their jobs (one per rank), the
 * per-rank in-order queues and worker threads, inline execution of
 * synchronous calls and sticky asynchronous errors. Layer: queue (see
 * host.h), above set; it runs a job through the op's own exec function, so
 * it never calls the layer that defines the operations (ops.c).
 */
#ifndef EMU_QUEUE_H
#define EMU_QUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "set.h"

typedef enum {
    OP_LAUNCH = 0, /* SDK job type numbers (DPU_ERR_ASYNC_JOBS)     */
    OP_SYNC = 2,
    OP_XFER_TO = 5,
    OP_XFER_FROM = 8,
    OP_CALLBACK = 12,
    OP_LOAD = 13,
} op_type_t;

typedef struct emu_op op_t;
typedef struct emu_job job_t;

/* Executes op's jobs on their ranks (the caller owns them); returns the
 * error. One job from a rank's worker, all of the call's when inline. */
typedef dpu_error_t (*op_exec_fn)(op_t *op, job_t *jobs, uint32_t n);
/* Creates op's records on the modeled timelines (model.h): rec_per_rank for
 * each of op->ranks, into op->recs[rank position * rec_per_rank + i]. Runs
 * in the submitting thread, in the order of the calls. */
typedef void (*op_model_fn)(op_t *op, uint32_t n);

struct emu_op {
    op_type_t type;
    op_exec_fn exec;
    op_model_fn model;
    int refs;             /* jobs + submitter (op->mu)         */
    struct dpu_t *single; /* DPU set, else NULL                */
    uint32_t call_ranks;  /* ranks taking part in the call     */
    struct dpu_set_t set; /* the call's set (callbacks)        */
    bool parallel;        /* DPU_XFER_PARALLEL / DPU_CALLBACK_PARALLEL: the
                           * rank's parallel lane on the modeled clock     */
    /* transfers */
    xfer_kind_t kind;
    vdpu_mem_t mem;
    uint32_t offset; /* inside the memory                 */
    size_t len;
    const void *src; /* broadcast / copy source           */
    void *dst;       /* copy_from destination             */
    void ***bufs;    /* [rank in call][dpu] push snapshot */
    uint32_t nbufs;
    struct dpu_rank_t **ranks; /* the call's ranks (bufs index)     */
    /* scatter/gather: the blocks of each DPU (ops.c owns the layout) */
    void *sg;
    void (*sg_free)(void *sg);
    /* load */
    struct dpu_program_t *program;
    /* callback */
    dpu_error_t (*cb)(struct dpu_set_t, uint32_t, void *);
    void *cb_args;
    bool cb_single;
    uint32_t cb_arrived; /* SINGLE_CALL across rank workers   */
    bool cb_done;
    dpu_error_t cb_err;
    /* modeled clock: the call's records, rec_per_rank per rank (the job
     * of rank position i owns recs[i * rec_per_rank ...]); the queue marks
     * them ready when the job ran, or cancels them */
    uint64_t model_id; /* emu_model_op_id                   */
    uint32_t rec_per_rank;
    emu_rec_t **recs;
    uint32_t nrecs;
    /* Called for the job at rank position pos that will never execute (its
     * records are cancelled), or NULL: a launch releases the ranks waiting
     * for its cycles (sampleRanks, ops.c). */
    void (*cancel)(op_t *op, uint32_t pos);
    /* launch under sampleRanks, per rank position (NULL otherwise): the
     * rank's launch number and its role (ops.c) */
    uint64_t *lseq;
    uint8_t *lrole;
    /* completion (synchronous calls) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint32_t pending;
    dpu_error_t err;
};

struct emu_job {
    job_t *next;
    op_t *op;
    struct dpu_rank_t *rank;
    uint32_t rank_pos; /* index of rank in op->ranks        */
    bool sync;         /* a waiter counts on it             */
};

/* model may be NULL (the call takes no modeled time); rec_per_rank >= 1. */
op_t *emu_op_new(op_type_t type, struct dpu_set_t set, op_exec_fn exec, op_model_fn model,
                 uint32_t rec_per_rank);
void emu_op_put(op_t *op);

/* Runs op on every rank of the set (sync: waits, returns its error, and
 * advances the host's modeled time to the end of its records; async:
 * queues). Handles sticky errors and inline execution. */
dpu_error_t emu_op_submit(op_t *op, struct dpu_set_t set, bool async);
/* The records of the job at rank position pos. */
static inline emu_rec_t **emu_op_recs(op_t *op, uint32_t pos)
{
    return op->recs ? &op->recs[pos * op->rec_per_rank] : NULL;
}
/* Waits until nothing is queued or running on the ranks. */
void emu_ranks_quiesce(struct dpu_rank_t **ranks, uint32_t n);
void emu_rank_stop_worker(struct dpu_rank_t *r);

#endif /* EMU_QUEUE_H */
